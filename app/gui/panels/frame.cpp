#include "app/gui/panels/frame.hpp"

#include <utility>

#include "app/gui/export/save_dialog.hpp"
#include "app/gui/lessons/answer_boxes.hpp"
#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/panels/first_start_card.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

namespace {

// Presenter mode gives the stage view the whole width where the heads' maps are not the lesson:
// the tabs that draw their own maps or tables (Mistakes, Counters with the model table, Train,
// Decode, KV cache) and GQA's expand step, whose strides (the zero on the group axis) are.
bool stage_view_alone(const AppState& state) {
  if (presenter_tab_full_width(state.tabs.tool)) return true;
  const PipelineStep* step = current_step(state);
  return state.tabs.tool == ToolTab::Tensors && step && step->substep == Substep::Expand;
}

// The normal layout gives the Check tab the heads' and the code's room: its maps and its card are
// the student's exercise, which the run the heads show is not.
bool check_tab_alone(const AppState& state) {
  return state.tabs.tool == ToolTab::Check;
}

// The tabs asked for (a key, a scene's --tab and --model-page, a button) become the state's choice
// here, once, before any window draws: every window's tab bar then follows the state
// (StateTabs), so the audience's window shows what a scene sets as the lecturer's does, and
// neither window takes a request away from the other.
void take_tab_requests(AppState& state) {
  if (state.tabs.requested_tool) state.tabs.tool = *state.tabs.requested_tool;
  if (state.tabs.requested_info) state.tabs.info = *state.tabs.requested_info;
  if (state.model.requested_page) state.model.page = *state.model.requested_page;
  state.tabs.requested_tool.reset();
  state.tabs.requested_info.reset();
  state.model.requested_page.reset();
}

// The panels' layout over the window less a lesson's band (its caption and question) under them.
// Sets the frame's layout height and panel rectangles; `band` is the band's height (0: none).
PanelLayout layout_over_band(AppState& state, bool stage_alone, float& band) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  band = lesson_band_height(state, display.y);
  state.frame.layout_height = display.y - band;
  // No tooltip over the band while the lesson plays (tooltip()): it would hide the caption.
  if (band > 0 && lesson_playing(state))
    state.frame.band_rect = ImVec4(0, display.y - band, display.x, display.y);
  const PanelLayout layout =
      frame_layout(state, ImVec2(display.x, state.frame.layout_height), stage_alone);
  state.frame.panel_rects = layout.rects;
  return layout;
}

// What both the lecturer's and the audience's windows draw: the strip, the stage view's tabs,
// the heads (and the info panel where the layout has one), and the lesson's band.
void draw_picture_panels(AppState& state, HeatmapDrawer* drawer, const PanelLayout& layout,
                         float band) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  draw_pipeline_panel(state);
  draw_toolkit_panel(state, drawer);
  if (shown(layout, PanelId::Heads)) draw_heads_panel(state, drawer);
  if (shown(layout, PanelId::Info)) draw_info_panel(state);
  if (band > 0) draw_lesson_band(state, ImVec4(0, display.y - band, display.x, display.y));
}

}  // namespace

void draw_frame(AppState& state, HeatmapDrawer* drawer) {
  ImGuiIO& io = ImGui::GetIO();
  state.frame = FrameOutput{};  // nothing recorded by the last frame is left over
  io.UserData = &state.frame;   // where note_item() records this frame's items
  advance_clock(state, io.DeltaTime);
  // Before any panel draws: a finished trace or model is adopted here or by the requests below.
  poll_trace(state);
  poll_measurements(state);
  state.frame.drawing = true;
  if (!first_start_card_takes_input(state)) handle_shortcuts(state);
  take_tab_requests(state);

  // A lesson file changed on disk is read again between frames, like every other change.
  state.requests.later([](AppState& s) { poll_lesson_file(s, s.walk.clock); });
  float band = 0;
  const PanelLayout layout = layout_over_band(
      state, state.ui.presenter ? stage_view_alone(state) : check_tab_alone(state), band);
  // The audience's view and a slide have no controls; a lesson's picture neither (B: the bar).
  if (state.ui.presenter) {
    if (audience_picture(state) || lesson_picture(state))
      state.frame.playback_in_bar = true;  // no play button for the audience
    else
      draw_presenter_bar(state);
  } else {
    draw_controls_panel(state);
  }
  draw_picture_panels(state, drawer, layout, band);
  drag_borders(layout, state.ui);
  if (!audience_picture(state)) track_pointer(state);
  draw_pointer(state);
  draw_pending_head(state);
  draw_first_start_card(state);
  if (!audience_picture(state)) draw_save_dialog(state);
  // Every window has drawn: an unrevealed answer's texts in the picture become "?" boxes.
  draw_answer_boxes(state);

  // ImGui focuses each window as it first appears, and Tab in a focused window starts typing in
  // its first field: start with no window focused, so Tab does nothing until a panel is clicked.
  if (state.walk.frames_drawn++ == 0) ImGui::SetWindowFocus(nullptr);
  // A U+FFFD that no text field took this frame is gone (ImGui drops it): so is what it stood for.
  state.typed.replaced_chars.clear();
  io.UserData = nullptr;
  // Every panel has drawn: the changes they asked for replace the trace now, between frames.
  state.frame.drawing = false;
  state.requests.apply(state);
}

void draw_audience_frame(AppState& state, HeatmapDrawer* drawer, MeasuredLayout& measured) {
  ImGuiIO& io = ImGui::GetIO();
  std::swap(state.pipeline, measured.pipeline);
  std::swap(state.heads.full_header_h, measured.heads_header);
  const bool presenter = std::exchange(state.ui.presenter, true);
  const bool audience = std::exchange(state.lesson.audience_view, true);
  state.frame = FrameOutput{};
  io.UserData = &state.frame;
  state.frame.drawing = true;
  take_tab_requests(state);
  float band = 0;
  const PanelLayout layout = layout_over_band(state, stage_view_alone(state), band);
  state.frame.playback_in_bar = true;  // no play button for the audience
  draw_picture_panels(state, drawer, layout, band);
  draw_pointer(state);
  draw_answer_boxes(state);
  io.UserData = nullptr;
  state.frame.drawing = false;
  state.lesson.audience_view = audience;
  state.ui.presenter = presenter;
  std::swap(state.pipeline, measured.pipeline);
  std::swap(state.heads.full_header_h, measured.heads_header);
}

}  // namespace attnlab::gui
