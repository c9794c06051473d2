// KV-cache memory against the sequence length T: the current config's layer and the model
// table's models, each row the same linear growth at its own bytes per token.
#pragma once

#include <cstdint>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// The lengths the table shows: T = now, 4K, 32K and 128K; or, where the room is narrow, T = now
// and 128K only (the growth is linear: two lengths show it).
enum class CacheLengths { Every, NowAndLongest };

// A table: this config (B sequences, one layer, float32) and the models with a KV cache (all
// layers, fp16), per token and at those lengths.
void cache_memory_table(const AppState& state, int64_t now, CacheLengths lengths);
// That table's whole width at the current font (a tab lays it out from it).
float cache_memory_table_width(const AppState& state, int64_t now, CacheLengths lengths);

// The same at one length, in one wrapped line: "KV cache at T = 8: this config 512 bytes ·
// Llama 2 70B 2.5 MiB · ...".
void cache_memory_line(const AppState& state, int64_t now);

}  // namespace attnlab::gui
