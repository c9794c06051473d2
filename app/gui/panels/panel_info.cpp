// The info panel: the current step's formula and PyTorch line, its cost, the run's counters and
// the debugging checklist (rows sum to 1, masked weights are 0, no NaN), per-head entropy.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

namespace {

void step_code(const AppState& state, const PipelineStep& step) {
  const Palette& colours = palette(state.ui.theme);
  for (const TensorRecord* record : step_records(*state.session.trace, step)) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours.accent);
    text_wrapped(record->formula);
    ImGui::PopStyleColor();
    if (state.window.mono_font) ImGui::PushFont(state.window.mono_font);
    text_wrapped(record->pytorch);
    if (state.window.mono_font) ImGui::PopFont();
    const std::string bytes = record->bytes > 0 ? format_bytes(double(record->bytes)) + " new"
                                                : std::string("no new bytes (a view)");
    ImGui::TextDisabled("%s \u00B7 %s", count_text(record->flops, "FLOP").c_str(), bytes.c_str());
  }
}

void run_summary(const AppState& state) {
  const Trace& trace = *state.session.trace;
  const Counters& n = trace.counters;
  const Diagnostics& d = trace.diagnostics;
  ImGui::Separator();
  ImGui::TextWrapped("parameters %s \u00B7 total %s \u00B7 %s",
                     count_text(double(n.parameters()), "").c_str(),
                     count_text(n.flops, "FLOP").c_str(), format_bytes(double(n.bytes)).c_str());
  if (trace.shape_only) return;
  ImGui::TextWrapped("rows sum to 1 within %.1e \u00B7 masked weights not 0: %lld",
                     d.max_row_sum_error, (long long)d.masked_nonzero);
  if (d.nonfinite_values > 0)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette(state.ui.theme).error),
                       "NaN/Inf: %lld (first in %s)", (long long)d.nonfinite_values,
                       d.first_nonfinite.c_str());
  // One "h3 2.21" per head, flowing onto new lines between heads, never inside a number.
  ImGui::TextUnformatted("entropy (bits):");
  char part[32];
  for (size_t h = 0; h < d.head_entropy_bits.size(); ++h) {
    std::snprintf(part, sizeof part, "h%zu %.2f", h, d.head_entropy_bits[h]);
    const float width = ImGui::CalcTextSize(part).x + ImGui::GetStyle().ItemSpacing.x * 2;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
    ImGui::TextUnformatted(part);
  }
  for (const std::string& notice : d.notices) text_wrapped(notice);
}

}  // namespace

void draw_checks_tab(AppState& state) {
  const Palette& colours = palette(state.ui.theme);
  if (!state.session.run_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours.error);
    text_wrapped(state.session.run_error);
    ImGui::PopStyleColor();
  }
  if (!state.session.issues.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours.error);
    ImGui::TextWrapped(
        "The settings are invalid (see the red text under the controls); "
        "showing the last valid trace.");
    ImGui::PopStyleColor();
  }
  if (const PipelineStep* step = current_step(state)) step_code(state, *step);
  run_summary(state);
  if (!state.status.empty()) {
    ImGui::Separator();
    text_wrapped(state.status);
  }
}

void draw_info_panel(AppState& state) {
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoNavInputs;
  if (begin_panel(state, PanelId::Info, "Code and checks", flags) && state.session.trace &&
      begin_tab_bar("info_tabs")) {
    static constexpr const char* kTips[kInfoTabCount] = {
        "The PyTorch forward() of this config: the running line follows the pipeline (C).",
        "The current step's formula and cost, and the run's checks: row sums, masks, NaN (C)."};
    StateTabs tabs(int(state.tabs.info));
    for (int i = 0; i < kInfoTabCount; ++i) {
      const InfoTab tab = InfoTab(i);
      const bool open = ImGui::BeginTabItem(info_tab_label(tab), nullptr, tabs.flags(i));
      tooltip(kTips[i]);
      if (!open) continue;
      if (tabs.opened(i)) state.tabs.info = tab;
      if (tab == InfoTab::Code) {
        draw_code_tab(state);
      } else {
        draw_checks_tab(state);
      }
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace attnlab::gui
