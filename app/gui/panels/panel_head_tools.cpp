// Head tools: each head's entropy as bars (the crafted preset's construction in the tooltip),
// switching heads off with their importance (||Δout|| when each one alone is off), and one head
// against many (same parameters, attention memory ×h, head_dim shrinking as heads grow).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/measured_table.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/trace_jobs.hpp"
#include "core/trace/diagnostics.hpp"

namespace attnlab::gui {

namespace {

const Preset* find_preset(const AppState& state, const std::string& name) {
  for (const Preset& preset : state.session.presets)
    if (preset.name == name) return &preset;
  return nullptr;
}

// [SECTION] entropy per head

void entropy_chart(const AppState& state, float width) {
  const Trace& trace = *state.session.trace;
  heading(state, "Entropy per head (bits)");
  const Preset* crafted =
      state.session.preset_name == "crafted" ? find_preset(state, "crafted") : nullptr;
  const std::string help =
      "Mean over queries of -\u03A3 p log\u2082 p: 0 = one key gets all the weight. The bar is "
      "the share of uniform attention's entropy over the keys each query sees (log\u2082 T "
      "without a mask): a full bar means the head barely focuses." +
      (crafted ? "\n\n" + crafted->description : std::string());
  tooltip(help.c_str());
  const Diagnostics& d = trace.diagnostics;
  const std::vector<double>& entropy = d.head_entropy_bits;
  if (entropy.empty()) {
    ImGui::TextWrapped("No entropies: this trace has no weights.");
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped(describe_uniform_entropy(trace));  // a column is narrow at 1280
  ImGui::PopStyleColor();
  const float bar_w =
      width - ImGui::CalcTextSize("h00 ").x - ImGui::CalcTextSize("0.00").x - ImGui::GetFontSize();
  for (size_t h = 0; h < entropy.size(); ++h) {
    ImGui::Text("h%zu", h);
    ImGui::SameLine(ImGui::CalcTextSize("h00 ").x);
    char value[16];
    std::snprintf(value, sizeof value, "%.2f", entropy[h]);
    value_bar(float(fraction_of_uniform(d, h)), std::max(10.0f, bar_w), head_colour(int(h)), value);
    tooltip(help.c_str());
  }
  if (crafted) text_wrapped(crafted->title);
}

// [SECTION] ablation

void ablation(AppState& state, float width) {
  const Trace& trace = *state.session.trace;
  heading(state, "Switch heads off");
  tooltip(
      "An ablated head's context is zeroed before concat; importance = ||out - out without it||.");
  start_importance(state);
  const std::vector<bool>& off = trace.config.ablated_heads;
  // Only the shown trace's importance: a result of an earlier trace (another layer's weights, the
  // heads before a click) is never drawn beside these checkboxes.
  const std::vector<double>* importance =
      state.head_tools.importance.result_for(shown_key(state, WholeTrace{}));
  double largest = 0;
  if (importance) {
    for (double v : *importance) largest = std::max(largest, v);
    state.frame.importance_generation = state.head_tools.importance.key()->generation;
  }
  const float bar_w = width - ImGui::GetFontSize() * 9;
  for (int64_t h = 0; h < trace.config.n_heads; ++h) {
    bool on = !(h < int64_t(off.size()) && off[size_t(h)]);
    char label[32];
    std::snprintf(label, sizeof label, "h%lld##ablate", (long long)h);
    // The click replaces the trace this loop reads: applied after the frame (state.requests).
    if (ImGui::Checkbox(label, &on))
      state.requests.later([h](AppState& s) { toggle_head_ablation(s, h); });
    tooltip(
        "Head on or off (Shift+0..9 toggles heads h0..h9): off zeroes its context before concat.");
    ImGui::SameLine();
    // A column with no room beside the box for a bar and its value (a large font at 1024 px): both
    // go under the box, measured or not, so the rows stay put when the measurement comes and goes.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("0.000").x - spacing < 10.0f)
      ImGui::NewLine();
    if (importance && size_t(h) < importance->size()) {
      char value[32];
      std::snprintf(value, sizeof value, "%.3g", (*importance)[size_t(h)]);
      // The bar takes what the row leaves for the value (a narrow column, a large font: a short
      // bar, the value whole).
      const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(value).x - spacing;
      value_bar(largest > 0 ? float((*importance)[size_t(h)] / largest) : 0.0f,
                std::max(0.0f, std::max(std::min(10.0f, room), std::min(bar_w, room))),
                head_colour(int(h)), value);
      state.frame.importance_bars.push_back((*importance)[size_t(h)]);
      tooltip("Importance: how far the output moves when this head alone is switched off.");
    } else {
      ImGui::TextDisabled("-");
    }
  }
  // Below the checkboxes: the line that comes and goes while the importance is measured again
  // (after every click) must not move the boxes under the pointer onto another head.
  draw_task_status(state.head_tools.importance, "importance", palette(state.ui.theme).error);
}

// [SECTION] one head against many

const HeadCountComparison* head_counts_shown(const AppState& state) {
  return state.head_tools.head_counts.result_for(shown_key(state, WholeTrace{}));
}

// The one-vs-h table's rows: each run's sizes, then the heads' entropies `per_row` to a row.
std::vector<std::vector<std::string>> one_vs_many_rows(const HeadCountComparison& result,
                                                       size_t per_row) {
  const Trace* runs[2] = {&result.single, &result.multi};
  std::vector<std::vector<std::string>> rows;
  const auto row = [&](const char* name, auto text_of) {
    rows.push_back({name, text_of(*runs[0]), text_of(*runs[1])});
  };
  row("h", [](const Trace& t) { return std::to_string(t.config.n_heads); });
  row("head_dim d_k", [](const Trace& t) { return std::to_string(t.config.head_dim_k()); });
  row("parameters", [](const Trace& t) { return std::to_string(t.counters.parameters()); });
  row("attention memory",
      [](const Trace& t) { return std::to_string(t.counters.attention_elements) + " weights"; });
  const auto entropies = [&](const Trace& t, size_t line) {
    std::string text;
    char part[16];
    const std::vector<double>& bits = t.diagnostics.head_entropy_bits;
    for (size_t i = line * per_row; i < bits.size() && i < (line + 1) * per_row; ++i) {
      std::snprintf(part, sizeof part, "%s%.2f", text.empty() ? "" : " ", bits[i]);
      text += part;
    }
    return text;
  };
  size_t most = 1;
  for (const Trace* t : runs) most = std::max(most, t->diagnostics.head_entropy_bits.size());
  for (size_t line = 0; line * per_row < most; ++line)
    rows.push_back(
        {line == 0 ? "entropy (bits)" : "", entropies(*runs[0], line), entropies(*runs[1], line)});
  return rows;
}

const std::vector<std::string> kOneVsManyHeaders{"", "1 head", "h heads"};
constexpr ImGuiTableFlags kOneVsManyFlags = ImGuiTableFlags_Borders;

// The table's width at the current type with every entropy on one row: what its column needs to
// show it at this type without wrapping the entropies; while the comparison of the shown trace
// runs, the last one's (0 before the first).
float one_vs_many_width(AppState& state) {
  const float font = ImGui::GetFontSize();
  if (const HeadCountComparison* result = head_counts_shown(state)) {
    const size_t heads = std::max<size_t>(1, result->multi.diagnostics.head_entropy_bits.size());
    state.head_tools.table_fonts =
        measured_table_width(measure_columns(kOneVsManyHeaders, one_vs_many_rows(*result, heads)),
                             kOneVsManyFlags) /
        font;
  }
  return state.head_tools.table_fonts * font;
}

void one_vs_many(AppState& state) {
  const Trace& trace = *state.session.trace;
  heading(state, "One head vs h heads");
  tooltip("The same weights read as one wide head and as h narrow ones (seed 003).");
  start_head_count_comparison(state);
  if (draw_task_status(state.head_tools.head_counts, "head_counts", palette(state.ui.theme).error))
    return;
  const HeadCountComparison* result = head_counts_shown(state);
  if (!result) return;
  // The heads' entropies, `per_row` to a row: as many as let the table fit its room at the least
  // type (every one on one row where they fit).
  const float room = ImGui::GetContentRegionAvail().x;
  size_t per_row = std::max<size_t>(1, result->multi.diagnostics.head_entropy_bits.size());
  while (per_row > 1 &&
         at_least_type([&] {
           return measured_table_width(
               measure_columns(kOneVsManyHeaders, one_vs_many_rows(*result, per_row)),
               kOneVsManyFlags);
         }) > room)
    --per_row;
  const std::vector<std::vector<std::string>> rows = one_vs_many_rows(*result, per_row);
  if (begin_measured_table("one_vs_many", measure_columns(kOneVsManyHeaders, rows),
                           int(rows.size()), kOneVsManyFlags)) {
    for (const auto& row : rows) {
      ImGui::TableNextRow();
      for (const std::string& text : row) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(text.c_str());
      }
    }
    ImGui::EndTable();
  }
  // head_dim for every valid head count at this d_model (d_k linked): a row of counts over a row
  // of widths, scrolling sideways where they are many.
  if (trace.config.d_k != 0) return;
  std::vector<int64_t> counts;
  for (int64_t h = 1; h <= trace.config.d_model && h <= 64; ++h)
    if (trace.config.d_model % h == 0) counts.push_back(h);
  text_wrapped("more heads, narrower heads (d_model fixed):");
  std::vector<std::string> headers{"h"};
  std::vector<std::string> widths{"d_k"};
  for (const int64_t h : counts) {
    headers.push_back(std::to_string(h));
    widths.push_back(std::to_string(trace.config.d_model / h));
  }
  if (!begin_measured_table("head_dims", measure_columns(headers, {widths}), 1,
                            ImGuiTableFlags_Borders))
    return;
  ImGui::TableNextRow();
  for (const std::string& text : widths) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(text.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void draw_head_tools_tab(AppState& state) {
  const float font = ImGui::GetFontSize();
  // Three columns, a third each, unless the table needs more at the body type: then it takes what
  // it needs, leaving the entropies and the switches at least kLeastSideFonts fonts each (a table
  // squeezed to its least type beside half-empty columns reads worse than narrower columns).
  constexpr float kLeastSideFonts = 8;
  const float room = ImGui::GetContentRegionAvail().x - 2 * font;
  const float table_w =
      std::clamp(one_vs_many_width(state) + font, std::floor(room / 3),
                 std::max(std::floor(room / 3), room - 2 * kLeastSideFonts * font));
  const float column_w = std::floor((room - table_w) / 2);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoBackground;
  // Its type shrinks where a narrow column wraps its words below the panel's foot.
  begin_fitted_region(state, "entropy", ImVec2(column_w, 0));
  entropy_chart(state, column_w - font);
  end_fitted_region(state);
  ImGui::SameLine(0, font);
  begin_padded_child("ablation", ImVec2(column_w, 0), flags);
  ablation(state, column_w - font);
  ImGui::EndChild();
  ImGui::SameLine(0, font);
  begin_fitted_region(state, "one_vs_many", ImVec2(0, 0));
  one_vs_many(state);
  end_fitted_region(state);
}

}  // namespace attnlab::gui
