#include "app/gui/panels/keyboard.hpp"

#include <imgui.h>

#include "app/gui/variants/variant_panels.hpp"

namespace attnlab::gui {

namespace {

bool pressed(ImGuiKey key, bool repeat = true) {
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), repeat);
}

// The mistake `delta` places after the current one, None included (so the walk wraps through it).
Mistake neighbour_mistake(Mistake current, int delta) {
  const std::vector<MistakeInfo>& all = all_mistakes();
  const int count = int(all.size()) + 1;  // position 0 = None
  int position = 0;
  for (int i = 0; i < int(all.size()); ++i)
    if (all[size_t(i)].id == current) position = i + 1;
  position = ((position + delta) % count + count) % count;
  return position == 0 ? Mistake::None : all[size_t(position - 1)].id;
}

int shown_head_count(const AppState& state) {
  return state.session.trace ? int(state.session.trace->config.n_heads) : 0;
}

// Focus mode of the heads panel: ] and [ step through the heads (from the grid: the first or last
// head), V puts the next head beside the focused one or takes it away, Esc returns to the grid.
void head_focus_keys(AppState& state) {
  HeadFocus& focus = state.heads.focus;
  const int heads = shown_head_count(state);
  if (heads == 0) return;
  const auto step = [&](int delta) {
    focus.head =
        focus.head < 0 ? (delta > 0 ? 0 : heads - 1) : (focus.head + delta + heads) % heads;
    if (focus.compare == focus.head) focus.compare = -1;
  };
  if (ImGui::IsKeyPressed(kKeyRightBracket, true)) step(+1);
  if (ImGui::IsKeyPressed(kKeyLeftBracket, true)) step(-1);
  if (focus.head < 0) return;
  if (ImGui::IsKeyPressed(kKeyV, false))
    focus.compare = focus.compare >= 0 || heads < 2 ? -1 : (focus.head + 1) % heads;
  if (pressed(ImGuiKey_Escape, false)) focus = {};
}

void toolkit_keys(AppState& state) {
  const bool shift = ImGui::GetIO().KeyShift;
  for (int i = 0; i < 9; ++i) {
    if (!ImGui::IsKeyPressed(kKey1 + i, false)) continue;
    if (shift) {
      toggle_head_ablation(state, i);
    } else if (state.heads.mouse_over) {  // over the heads panel, a digit opens that head
      if (i < shown_head_count(state)) state.heads.focus = {i, -1, {}};
    } else if (i < kToolTabCount) {
      state.tabs.requested_tool = ToolTab(i);
    }
  }
  if (ImGui::IsKeyPressed(kKeyC, false))
    state.tabs.requested_info = state.tabs.info == InfoTab::Code ? InfoTab::Checks : InfoTab::Code;
  if (ImGui::IsKeyPressed(kKeyP, false)) state.ui.presenter = !state.ui.presenter;
  if (ImGui::IsKeyPressed(kKeyM, false)) {
    set_mistake(state, neighbour_mistake(state.session.config.mistake, shift ? -1 : +1));
    state.tabs.requested_tool = ToolTab::Mistakes;
  }
}

}  // namespace

void handle_shortcuts(AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsKeyPressed(kKeyF11, false)) state.window.toggle_fullscreen = true;
  if (io.KeyCtrl && ImGui::IsKeyPressed(kKeyS, false))
    state.window.export_request = ExportRequest{std::nullopt, ""};
  if (io.KeyCtrl && ImGui::IsKeyPressed(kKeyE, false))
    state.window.export_request = ExportRequest{std::nullopt, "", true};
  if (io.WantTextInput) return;

  if (state.session.computing && pressed(ImGuiKey_Escape, false)) {
    cancel_computation(state);
    return;
  }
  // With the Decode tab open, the pipeline's keys step through the decoded tokens instead.
  const bool decoding = state.tabs.tool == ToolTab::Decode && state.session.trace &&
                        !state.session.trace->decode.steps.empty();
  const auto step = [&](int delta) {
    decoding ? step_decode(state, delta) : step_by(state, delta);
  };
  if (pressed(ImGuiKey_PageDown)) step(+1);
  if (pressed(ImGuiKey_PageUp)) step(-1);
  if (state.controls.focused) {
    if (pressed(ImGuiKey_Escape, false)) ImGui::SetWindowFocus(nullptr);
    return;
  }
  if (pressed(ImGuiKey_RightArrow)) step(+1);
  if (pressed(ImGuiKey_LeftArrow)) step(-1);
  constexpr int kFarAway = 1 << 20;
  if (pressed(ImGuiKey_Home, false))
    decoding ? step_decode(state, -kFarAway) : go_to_step(state, 0);
  if (pressed(ImGuiKey_End, false))
    decoding ? step_decode(state, kFarAway) : go_to_step(state, int(state.walk.steps.size()) - 1);
  if (pressed(ImGuiKey_Space, false)) toggle_play(state);
  if (!io.KeyCtrl && ImGui::IsKeyPressed(kKeyS, false))  // cycles the weights' colour scale
    state.ui.colour_scale = ColourScale((int(state.ui.colour_scale) + 1) % kColourScaleCount);
  head_focus_keys(state);
  toolkit_keys(state);
}

}  // namespace attnlab::gui
