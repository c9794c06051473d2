// The next lessons' part of the app (core/variants/): the controls that turn grouped K/V heads,
// cross-attention, KV-cache decoding and latent attention on, and their two tabs.
#pragma once

#include "app/gui/state/app_state.hpp"
#include "core/model/config.hpp"

namespace attnlab::gui {

// The controls panel's "Next lessons" section; true when it changed `config`.
bool variant_controls(AppState& state, Config& config);

// The Decode tab: prefill, then one token at a time over the growing KV cache (key 8; the arrow
// keys step through the decode steps while it is open).
void draw_decode_tab(AppState& state);
// Moves the Decode tab's step by `delta`, clamped to the trace's decode steps.
void step_decode(AppState& state, int delta);

// The KV cache tab: what sharing K and V saves, for this config, real models and DeepSeek-V2's
// latent attention, with MLA's absorbed form checked (key 9).
void draw_kv_cache_tab(AppState& state);

}  // namespace attnlab::gui
