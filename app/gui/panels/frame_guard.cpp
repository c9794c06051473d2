#include "app/gui/panels/frame_guard.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ErrorCheckEndFrameRecover: the windows a throw left open are closed

#include <cstdio>

#include "app/gui/state/gui_words.hpp"

namespace attnlab::gui {

namespace {

// Closes what the thrown frame left open (windows, ID and style stacks) and the frame itself, so
// the next NewFrame starts clean.
void recover_imgui_frame() {
  ImGuiContext* context = ImGui::GetCurrentContext();
  if (!context) return;
  ImGui::GetIO().UserData = nullptr;  // the frame's record, set by draw_frame
  if (!context->WithinFrameScope) return;
  ImGui::ErrorCheckEndFrameRecover(nullptr);
  ImGui::EndFrame();
}

void say_frame_failed(AppState& state, const std::string& what) {
  const std::string line = frame_failure_line(what);
  std::fprintf(stderr, "attnlab: %s\n", line.c_str());
  state.status = line;
  state.frame.drawing = false;
}

}  // namespace

std::string frame_failure_line(const std::string& what) {
  std::string first = what.substr(0, what.find('\n'));
  return "This frame could not be drawn: " + first + ". The app goes on.";
}

bool guard_frame(AppState& state, const std::function<bool()>& frame, bool* failed) {
  try {
    return frame();
  } catch (const std::exception& error) {
    recover_imgui_frame();
    say_frame_failed(state, in_gui_words(error));
  } catch (...) {
    recover_imgui_frame();
    say_frame_failed(state, "an unknown error");
  }
  if (failed) *failed = true;
  return true;
}

}  // namespace attnlab::gui
