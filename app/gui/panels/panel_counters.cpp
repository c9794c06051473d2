// Counters: the parameter count as a formula with this config's numbers filled in (the values are
// the core's counters), FLOPs and bytes per stage, attention memory B·h·T², and the seeds'
// hyperparameter table of real models computed in shape-only mode (core/teaching/model_table.hpp).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/lessons/answer_boxes.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "core/teaching/model_table.hpp"

namespace attnlab::gui {

namespace {

std::string n(int64_t value) {
  return std::to_string(value);
}

// [SECTION] this config

void parameters(const AppState& state) {
  const Trace& trace = *state.session.trace;
  const Config& c = trace.config;
  const Counters& k = trace.counters;
  const int64_t d_in = c.input_dim(), h = c.n_heads, d_k = c.head_dim_k(), d_v = c.head_dim_v();
  heading(state, "Parameters");
  tooltip("Each number is the core's count; the formula shows where it comes from.");
  const int64_t kv_biases = c.bias ? c.kv_heads() * (d_k + d_v) : 0;
  const int64_t kv_weights = k.kv_parameters - kv_biases;
  if (c.latent()) {
    // MLA: the queries' projections, and what makes K and V from the latent.
    text_wrapped_format("queries (W_q%s%s): %lld; K and V (W_dkv, W_uk, W_uv%s): %lld",
                        c.q_latent ? ", W_dq" : "", c.rope_dim ? ", W_qr" : "",
                        (long long)(k.qkv_weights - kv_weights), c.rope_dim ? ", W_kr" : "",
                        (long long)kv_weights);
  } else if (c.grouped() || c.cross()) {
    text_wrapped_format(
        "W_q: d_in\u00B7h\u00B7d_k = %lld\u00B7%lld\u00B7%lld = %lld; W_k, W_v: "
        "d_in_kv\u00B7n_kv\u00B7(d_k + d_v) = %lld\u00B7%lld\u00B7(%lld + %lld) = %lld",
        (long long)d_in, (long long)h, (long long)d_k, (long long)(d_in * h * d_k),
        (long long)c.kv_input_dim(), (long long)c.kv_heads(), (long long)d_k, (long long)d_v,
        (long long)kv_weights);
  } else if (d_k == d_v) {
    text_wrapped_format(
        "W_q, W_k, W_v: 3\u00B7d_in\u00B7h\u00B7d_k = 3\u00B7%lld\u00B7%lld\u00B7%lld = %lld",
        (long long)d_in, (long long)h, (long long)d_k, (long long)k.qkv_weights);
  } else {
    text_wrapped_format(
        "W_q, W_k, W_v: d_in\u00B7h\u00B7(2d_k + d_v) = %lld\u00B7%lld\u00B7(2\u00B7%lld + %lld) = "
        "%lld",
        (long long)d_in, (long long)h, (long long)d_k, (long long)d_v, (long long)k.qkv_weights);
  }
  // Each extra term shows its formula with the numbers filled in, or says that it is off.
  const std::string biases =
      c.bias ? "+ biases h\u00B7d_k + n_kv\u00B7(d_k + d_v) = " + n(k.qkv_biases)
             : std::string("biases: off");
  const std::string out_weights = c.output_proj ? "+ W_o h\u00B7d_v\u00B7d_model = " + n(h) +
                                                      "\u00B7" + n(d_v) + "\u00B7" + n(c.d_model) +
                                                      " = " + n(k.out_weights)
                                                : std::string("W_o: off (no output projection)");
  const std::string out_bias =
      c.bias && c.output_proj ? "+ b_o d_model = " + n(k.out_bias) : std::string("b_o: off");
  const std::string extras = biases + " \u00B7 " + out_weights + " \u00B7 " + out_bias;
  text_wrapped(extras);
  text_wrapped_format("total: %lld (without W_o and biases: %lld)", (long long)k.parameters(),
                      (long long)k.qkv_weights);
  // Wrapped: at base sizes the numbers make this line wider than the panel.
  const std::string T_squared =
      c.cross() ? n(c.tokens()) + "\u00B7" + n(c.key_tokens()) : n(c.tokens()) + "\u00B2";
  text_wrapped(std::string("attention memory B\u00B7h\u00B7") +
               (c.cross() ? "T\u00B7T_k" : "T\u00B2") + " = " + n(c.batch) + "\u00B7" + n(h) +
               "\u00B7" + T_squared + " = " + n(k.attention_elements) + " weights (" +
               format_bytes(double(k.attention_elements) * 4) + ")");
  text_wrapped("KV cache per token per layer: " + n(k.kv_cache_numbers) + " numbers (" +
               format_bytes(double(k.kv_cache_numbers) * 4) + " float32); K/V parameters " +
               n(k.kv_parameters));
  tooltip("What decoding keeps per token: 2\u00B7n_kv\u00B7d_k numbers (MLA: d_c + d_rope).");
  tooltip("One float32 weight per (sequence, head, query, key): it grows with the square of T.");
}

void per_stage(const AppState& state) {
  const Trace& trace = *state.session.trace;
  heading(state, "FLOPs and new bytes per stage");
  tooltip("Floating-point operations and freshly allocated bytes of each stage (views cost none).");
  double most_flops = 1, most_bytes = 1;
  for (int i = 0; i < kStageCount; ++i) {
    most_flops = std::max(most_flops, trace.stage_flops(Stage(i)));
    most_bytes = std::max(most_bytes, double(trace.stage_bytes(Stage(i))));
  }
  const float bar_w = ImGui::GetFontSize() * 4;
  if (!begin_whole_table("stages", 3, kStageCount, false, 0)) return;
  for (int i = 0; i < kStageCount; ++i) {
    const Stage stage = Stage(i);
    const double flops = trace.stage_flops(stage);
    const double bytes = double(trace.stage_bytes(stage));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(stage_name(stage));
    ImGui::TableNextColumn();
    value_bar(float(flops / most_flops), bar_w, palette(state.ui.theme).accent,
              count_text(flops, "FLOP").c_str());
    ImGui::TableNextColumn();
    value_bar(float(bytes / most_bytes), bar_w, head_colour(0), format_bytes(bytes).c_str());
  }
  ImGui::EndTable();
  text_wrapped_format("total %s, %s", count_text(trace.counters.flops, "FLOP").c_str(),
                      format_bytes(double(trace.counters.bytes)).c_str());
}

// [SECTION] real models

// Whether a model's row describes the attention layer of this run (its sizes are the config's):
// its numbers are then this run's, which a lesson's question may ask for.
bool is_this_run(const ModelRow& row, const Config& c) {
  return row.d_model == c.d_model && row.n_heads == c.n_heads && row.n_kv_heads == c.kv_heads() &&
         row.d_k == c.head_dim_k();
}

void models(AppState& state) {
  heading(state, "Real models (one attention layer, one sequence at full context)");
  tooltip("The seeds' hyperparameter table, computed by the core in shape-only mode.");
  static const std::vector<ModelRow> rows = model_table();  // shape-only: never changes
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!begin_whole_table("models", 9, int(rows.size()), true, flags)) return;
  for (const char* name : {"model", "d_model", "h", "n_kv", "d_k", "context", "params",
                           "attn memory", "KV cache/token"})
    ImGui::TableSetupColumn(name);
  ImGui::TableHeadersRow();
  for (const ModelRow& row : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const float row_top = ImGui::GetCursorScreenPos().y;
    ImGui::TextUnformatted(row.model.c_str());
    for (int64_t value : {row.d_model, row.n_heads, row.n_kv_heads, row.d_k, row.context}) {
      ImGui::TableNextColumn();
      ImGui::Text("%lld", (long long)value);
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(count_text(double(row.parameters), "").c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_bytes(double(row.attention_bytes)).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_bytes(double(row.kv_cache_bytes_per_token())).c_str());
    if (!is_this_run(row, state.session.trace->config)) {  // another model's numbers
      const float left = ImGui::GetWindowPos().x;
      mark_not_the_run(state, ImVec2(left, row_top),
                       ImVec2(left + ImGui::GetWindowWidth(), ImGui::GetItemRectMax().y));
    }
  }
  ImGui::EndTable();
  tooltip(
      "KV cache/token: every layer's keys and values of one token in fp16, as decoding keeps "
      "them (2\u00B7n_kv\u00B7d_k per layer; DeepSeek-V2's MLA: d_c + d_rope).");
}

}  // namespace

void draw_counters_tab(AppState& state) {
  const float half = std::floor(ImGui::GetContentRegionAvail().x * 0.47f);
  begin_fitted_region(state, "this_config", ImVec2(half, 0));
  parameters(state);
  per_stage(state);
  end_fitted_region(state);
  ImGui::SameLine();
  begin_fitted_region(state, "model_table", ImVec2(0, 0));
  models(state);
  end_fitted_region(state);
}

}  // namespace attnlab::gui
