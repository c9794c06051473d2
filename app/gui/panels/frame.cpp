#include "app/gui/panels/frame.hpp"

#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

void draw_frame(AppState& state, HeatmapDrawer* drawer) {
  const ImGuiIO& io = ImGui::GetIO();
  state.frame = FrameOutput{};  // nothing recorded by the last frame is left over
  advance_clock(state, io.DeltaTime);
  poll_trace(state);
  poll_measurements(state);
  handle_shortcuts(state);

  const PanelLayout layout = compute_layout(io.DisplaySize, ImGui::GetFontSize());
  state.frame.panel_rects = layout.rects;
  draw_controls_panel(state);
  draw_pipeline_panel(state);
  draw_toolkit_panel(state, drawer);
  draw_heads_panel(state, drawer);
  draw_info_panel(state);

  // ImGui focuses each window as it first appears, which would leave the controls "focused" and
  // swallow the first arrow key: start with no window focused.
  if (state.walk.frames_drawn++ == 0) {
    ImGui::SetWindowFocus(nullptr);
    state.controls.focused = false;
  }
}

}  // namespace attnlab::gui
