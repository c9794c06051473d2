// Counters: the parameter count as a formula with this config's numbers filled in (the values are
// the core's counters), FLOPs and bytes per stage, attention memory B·h·T², and the seeds'
// hyperparameter table of real models computed in shape-only mode (core/teaching/model_table.hpp).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/lessons/answer_boxes.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/fitted_type.hpp"
#include "app/gui/panels/measured_table.hpp"
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

// The stages table: each stage's name, its FLOPs and its new bytes, each count beside a bar
// against the largest stage's.
struct StageTable {
  std::vector<std::string> names, flops, bytes;
  std::vector<float> flop_share, byte_share;
  float bar_w = 0;
  MeasuredColumns columns;  // at the current font
};

StageTable stage_table(const Trace& trace) {
  StageTable t;
  double most_flops = 1, most_bytes = 1;
  for (int i = 0; i < kStageCount; ++i) {
    most_flops = std::max(most_flops, trace.stage_flops(Stage(i)));
    most_bytes = std::max(most_bytes, double(trace.stage_bytes(Stage(i))));
  }
  std::vector<std::vector<std::string>> cells;
  for (int i = 0; i < kStageCount; ++i) {
    const Stage stage = Stage(i);
    const double flops = trace.stage_flops(stage), bytes = double(trace.stage_bytes(stage));
    t.names.push_back(stage_name(stage));
    t.flops.push_back(count_text(flops, "FLOP"));
    t.bytes.push_back(format_bytes(bytes));
    t.flop_share.push_back(float(flops / most_flops));
    t.byte_share.push_back(float(bytes / most_bytes));
    cells.push_back({t.names.back(), t.flops.back(), t.bytes.back()});
  }
  t.bar_w = ImGui::GetFontSize() * 4;
  const float beside = t.bar_w + ImGui::GetStyle().ItemSpacing.x;  // value_bar's bar, then text
  t.columns = measure_columns({}, cells, {0, beside, beside});
  return t;
}

void per_stage(const AppState& state) {
  const Trace& trace = *state.session.trace;
  heading(state, "FLOPs and new bytes per stage");
  tooltip("Floating-point operations and freshly allocated bytes of each stage (views cost none).");
  const StageTable t = stage_table(trace);
  if (!begin_measured_table("stages", t.columns, kStageCount, 0)) return;
  for (int i = 0; i < kStageCount; ++i) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(t.names[size_t(i)].c_str());
    ImGui::TableNextColumn();
    value_bar(t.flop_share[size_t(i)], t.bar_w, palette(state.ui.theme).accent,
              t.flops[size_t(i)].c_str());
    ImGui::TableNextColumn();
    value_bar(t.byte_share[size_t(i)], t.bar_w, head_colour(0), t.bytes[size_t(i)].c_str());
  }
  ImGui::EndTable();
  text_wrapped_format("total %s, %s", count_text(trace.counters.flops, "FLOP").c_str(),
                      format_bytes(double(trace.counters.bytes)).c_str());
}

// [SECTION] real models

constexpr ImGuiTableFlags kModelFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;

const std::vector<ModelRow>& model_rows() {
  static const std::vector<ModelRow> rows = model_table();  // shape-only: never changes
  return rows;
}

// The seeds' hyperparameter table as text, row by row; the two widest headers on two lines.
std::vector<std::vector<std::string>> model_cells() {
  std::vector<std::vector<std::string>> cells;
  for (const ModelRow& row : model_rows()) {
    std::vector<std::string> line{row.model};
    for (int64_t value : {row.d_model, row.n_heads, row.n_kv_heads, row.d_k, row.context})
      line.push_back(n(value));
    line.push_back(count_text(double(row.parameters), ""));
    line.push_back(format_bytes(double(row.attention_bytes)));
    line.push_back(format_bytes(double(row.kv_cache_bytes_per_token())));
    cells.push_back(line);
  }
  return cells;
}

MeasuredColumns model_columns(const std::vector<std::vector<std::string>>& cells) {
  return measure_columns({"model", "d_model", "h", "n_kv", "d_k", "context", "params",
                          "attn\nmemory", "KV cache\nper token"},
                         cells);
}

// Whether a model's row describes the attention layer of this run (its sizes are the config's):
// its numbers are then this run's, which a lesson's question may ask for.
bool is_this_run(const ModelRow& row, const Config& c) {
  return row.d_model == c.d_model && row.n_heads == c.n_heads && row.n_kv_heads == c.kv_heads() &&
         row.d_k == c.head_dim_k();
}

void models(AppState& state) {
  heading(state, "Real models (one attention layer, one sequence at full context)");
  tooltip("The seeds' hyperparameter table, computed by the core in shape-only mode.");
  const std::vector<std::vector<std::string>> cells = model_cells();
  if (!begin_measured_table("models", model_columns(cells), int(cells.size()), kModelFlags)) return;
  for (size_t r = 0; r < cells.size(); ++r) {
    ImGui::TableNextRow();
    float row_top = 0;
    for (const std::string& text : cells[r]) {
      ImGui::TableNextColumn();
      if (&text == &cells[r].front()) row_top = ImGui::GetCursorScreenPos().y;
      ImGui::TextUnformatted(text.c_str());
    }
    if (!is_this_run(model_rows()[r], state.session.trace->config)) {  // another model's numbers
      const float left = ImGui::GetWindowPos().x;
      mark_not_the_run(state, ImVec2(left, row_top),
                       ImVec2(left + ImGui::GetWindowWidth(), ImGui::GetItemRectMax().y));
    }
  }
  ImGui::EndTable();
  tooltip(
      "KV cache per token: every layer's keys and values of one token in fp16, as decoding keeps "
      "them (2\u00B7n_kv\u00B7d_k per layer; DeepSeek-V2's MLA: d_c + d_rope).");
}

}  // namespace

// This config (parameters, then the stages table) beside the real models where both tables fit
// side by side at the least type, each given room in proportion to its table; else one under
// the other in one region. Chosen from the widths at the least type, so fitting the type never
// changes the layout.
void draw_counters_tab(AppState& state) {
  const float avail = ImGui::GetContentRegionAvail().x;
  const float pad = 2 * std::floor(ImGui::GetStyle().WindowPadding.x * 0.5f);  // a region's sides
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const Trace& trace = *state.session.trace;
  const float left =
      at_least_type([&] { return measured_table_width(stage_table(trace).columns, 0) + pad; });
  const float right = at_least_type(
      [&] { return measured_table_width(model_columns(model_cells()), kModelFlags) + pad; });
  if (left + right + gap > avail) {
    begin_fitted_region(state, "this_config", ImVec2(0, 0));
    parameters(state);
    per_stage(state);
    models(state);
    end_fitted_region(state);
    return;
  }
  const float left_w = std::floor((avail - gap) * left / (left + right));
  begin_fitted_region(state, "this_config", ImVec2(left_w, 0));
  parameters(state);
  per_stage(state);
  end_fitted_region(state);
  ImGui::SameLine(0, gap);
  begin_fitted_region(state, "model_table", ImVec2(0, 0));
  models(state);
  end_fitted_region(state);
}

}  // namespace attnlab::gui
