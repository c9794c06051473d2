// KV-cache memory against the sequence length T: the current config's layer and the model
// table's models, each row the same linear growth at its own bytes per token.
#pragma once

#include <cstdint>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// A table: this config (B sequences, one layer, float32) and the models with a KV cache (all
// layers, fp16), at T = `now` and at 4K, 32K and 128K tokens.
void cache_memory_table(const AppState& state, int64_t now);

// The same at one length, in one wrapped line: "KV cache at T = 8: this config 512 bytes ·
// Llama 2 70B 2.5 MiB · ...".
void cache_memory_line(const AppState& state, int64_t now);

}  // namespace attnlab::gui
