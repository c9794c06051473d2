// The controls of the next lessons: K/V heads (MHA, GQA, MQA), a key/value sentence
// (cross-attention), decoding with a KV cache, and multi-head latent attention.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/config_widgets.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/text_field.hpp"
#include "app/gui/variants/variant_panels.hpp"

namespace attnlab::gui {

namespace {

// K/V heads as a slider over the counts validate() allows (the divisors of n_heads): each K/V head
// serves the same number of query heads, so nothing else is offered.
bool kv_heads_control(AppState& state, Config& c) {
  constexpr int64_t kMostHeads = 4096;  // validate()'s limit; a typed-in h may be 2^63 - 1
  if (c.n_heads < 1 || c.n_heads > kMostHeads) {
    issue_text(state, "n_kv_heads");
    return false;
  }
  Config grouped = c;
  grouped.kv_latent = grouped.rope_dim = grouped.q_latent = 0;  // MLA's own rule is not the count's
  const std::vector<int64_t> choices = valid_values(grouped, &Config::n_kv_heads, 1, c.n_heads);
  int64_t n = c.kv_heads();
  const std::string shown = std::to_string(n) + (n == c.n_heads ? " = MHA"
                                                 : n == 1       ? " = MQA"
                                                                : " = GQA");
  ImGui::BeginDisabled(c.latent());
  const bool moved = valid_value_slider(
      state, "n_kv_heads", "K/V heads", n, choices,
      "How many K/V heads the h query heads share (a divisor of n_heads): h is multi-head, 1 "
      "multi-query, between grouped-query (Llama 2 70B: 64 query heads, 8 K/V heads).",
      shown);
  ImGui::EndDisabled();
  issue_text(state, "n_kv_heads");
  if (!moved) return false;
  c.n_kv_heads = n == c.n_heads ? 0 : n;
  return true;
}

bool cross_control(AppState& state, Config& c) {
  const bool was_cross = c.cross();
  const bool changed = text_field(state, field_label(state, "K/V sentence").c_str(),
                                  "empty: self-attention", c.sentence_kv);
  tooltip(
      "Cross-attention: queries from the sentence, keys and values from this one (an encoder's "
      "sentence), so each map is T_q x T_k. Padding then hides keys of this sentence.");
  if (changed && needs_new_glyphs(c.sentence_kv, state.window.font_text))
    state.window.fonts_dirty = true;
  if (changed && !was_cross && c.cross()) {
    // Causal and window masks compare positions in one sequence: off for the keys of another.
    c.mask.causal = false;
    c.mask.window = c.mask.global_tokens = 0;
    c.kv_len = 0;
  }
  if (changed) state.controls.last_edited_field = "d_in_kv";
  issue_text(state, "d_in_kv");
  return changed;
}

bool decode_control(AppState& state, Config& c) {
  const int64_t T = std::max<int64_t>(c.tokens(), 1);
  bool changed = slider(state, "decode", "decode", c.decode_steps, 0, std::max<int64_t>(T - 1, 1),
                        c.decode_steps == 0 ? "off" : "last %d tokens",
                        "KV-cache decoding: the prompt runs once, then the last N tokens one at a "
                        "time, each attending over the cache (see the Decode tab, key 8).");
  if (changed && c.decode_steps > 0) c.mask.causal = true;  // decoding sees only the past
  issue_text(state, "decode");
  return changed;
}

bool latent_controls(AppState& state, Config& c) {
  bool on = c.latent();
  bool changed = false;
  if (ImGui::Checkbox("latent K/V (MLA)", &on)) {
    if (on) {
      // DeepSeek-V2's proportions: d_c = 4 d_k, d_rope = d_k / 2 (rounded to even).
      const int64_t dk = std::max<int64_t>(c.head_dim_k(), 1);
      c.kv_latent = 4 * dk;
      c.rope_dim = std::max<int64_t>(2, dk / 2 / 2 * 2);
      c.n_kv_heads = 0;
      c.bias = false;
    } else {
      c.kv_latent = c.rope_dim = c.q_latent = 0;
    }
    state.controls.last_edited_field = "mla";
    changed = true;
  }
  tooltip(
      "Multi-head latent attention (DeepSeek-V2): K and V from one small latent c = X W_dkv, so "
      "the cache holds d_c + d_rope numbers per token instead of 2 h d_k.");
  if (c.latent()) {
    changed |= valid_value_slider(state, "mla", "d_c", c.kv_latent,
                                  valid_values(c, &Config::kv_latent, 1, 1024),
                                  "Width of the latent K and V are made from (DeepSeek-V2: 512); "
                                  "stops only on valid widths (Ctrl+click types any).",
                                  "", ImGuiSliderFlags_Logarithmic);
    changed |=
        slider(state, "rope_dim", "d_rope", c.rope_dim, 0, 256, c.rope_dim == 0 ? "off" : "%d",
               "The rotary key shared by every head (even; 0 = no rotary part; "
               "DeepSeek-V2: 64).");
    issue_text(state, "rope_dim");
    changed |=
        slider(state, "mla", "d_c' queries", c.q_latent, 0, 1024, c.q_latent == 0 ? "off" : "%d",
               "Queries through their own latent too (DeepSeek-V2: 1536); 0 = from X.",
               ImGuiSliderFlags_Logarithmic);
  }
  issue_text(state, "mla");
  return changed;
}

}  // namespace

bool variant_controls(AppState& state, Config& c) {
  bool changed = kv_heads_control(state, c);
  changed |= cross_control(state, c);
  changed |= decode_control(state, c);
  changed |= latent_controls(state, c);
  return changed;
}

}  // namespace attnlab::gui
