// The code view: the PyTorch forward() of this config (core/teaching/code_view.hpp), the line(s) of
// the current step highlighted as ←/→ walk the pipeline, the injected mistake's line marked in red.
// Shape comments are shown when the panel is wide enough, and in each line's tooltip always.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/panels/panels.hpp"
#include "core/teaching/code_view.hpp"

namespace attnlab::gui {

namespace {

struct SplitLine {
  std::string code, comment;  // comment without the "#"
};

// Drops the common indent of def (4 spaces) and splits off the shape comment.
SplitLine split_line(const std::string& text) {
  std::string line = text.rfind("    ", 0) == 0 ? text.substr(4) : text;
  SplitLine out;
  const size_t hash = line.find("  #");
  out.code = line.substr(0, hash);
  if (hash != std::string::npos) {
    out.comment = line.substr(hash + 3);
    out.comment.erase(0, out.comment.find_first_not_of(' '));
  }
  while (!out.code.empty() && out.code.back() == ' ') out.code.pop_back();
  return out;
}

bool runs_in(const CodeLine& line, const PipelineStep& step) {
  return line.stage == step.stage && line.substep == step.substep && step.stage != Stage::Input;
}

}  // namespace

void draw_code_tab(AppState& state) {
  const Palette& colours = palette(state.ui.theme);
  const std::vector<CodeLine> code = reference_code(state.session.trace->config);
  const PipelineStep* step = current_step(state);
  std::vector<SplitLine> lines;
  float code_w = 0;
  if (state.window.mono_font) ImGui::PushFont(state.window.mono_font);
  for (const CodeLine& line : code) {
    lines.push_back(split_line(line.text));
    code_w = std::max(code_w, ImGui::CalcTextSize(lines.back().code.c_str()).x);
  }
  // Lines of code never break: a narrow panel scrolls sideways instead.
  ImGui::BeginChild("code_lines", ImVec2(0, 0), false,
                    ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_HorizontalScrollbar);
  const float marker_w = ImGui::CalcTextSize("! ").x;
  const float comment_x = marker_w + code_w + ImGui::GetFontSize();
  ImDrawList* list = ImGui::GetWindowDrawList();
  state.code.highlight = -1;
  // Highlights go under the text: channel 0 for them, channel 1 for the text.
  list->ChannelsSplit(2);
  for (size_t i = 0; i < code.size(); ++i) {
    const bool running = step && runs_in(code[i], *step);
    list->ChannelsSetCurrent(1);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (code[i].changed) {
      ImGui::PushStyleColor(ImGuiCol_Text, colours.error);
      ImGui::TextUnformatted("!");
    } else {
      ImGui::TextUnformatted(running ? "\u25B6" : " ");
    }
    ImGui::SameLine(marker_w);
    ImGui::TextUnformatted(lines[i].code.c_str());
    if (code[i].changed) ImGui::PopStyleColor();
    const ImVec2 end = ImGui::GetItemRectMax();
    const bool line_hovered = ImGui::IsItemHovered();
    if (!lines[i].comment.empty()) {
      ImGui::SameLine(comment_x);
      ImGui::TextDisabled("# %s", lines[i].comment.c_str());
    }
    if (running) {
      list->ChannelsSetCurrent(0);
      const float right =
          std::max(ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetItemRectMax().x);
      list->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(right, end.y + 1),
                          (colours.accent & 0x00FFFFFF) | 0x40000000);
      if (state.code.highlight < 0) {
        state.code.highlight = int(i);
        // Keep the running line in view as the walk moves on.
        if (!ImGui::IsRectVisible(at, end)) ImGui::SetScrollHereY(0.3f);
      }
    }
    if (line_hovered) {
      ImGui::BeginTooltip();
      const bool one_step = code[i].substep == Substep::None;
      ImGui::Text("%s stage%s%s", stage_name(code[i].stage), one_step ? "" : ": ",
                  substep_name(code[i].substep));
      if (!lines[i].comment.empty()) ImGui::Text("# %s", lines[i].comment.c_str());
      if (code[i].changed) ImGui::TextUnformatted("the injected mistake's line");
      ImGui::EndTooltip();
    }
  }
  list->ChannelsMerge();
  ImGui::EndChild();
  if (state.window.mono_font) ImGui::PopFont();
}

}  // namespace attnlab::gui
