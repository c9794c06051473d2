// When the app draws: every frame while something moves (a stage transition, play, a computation's
// progress, a request to the window layer, ImGui settling after input), otherwise only when an
// event arrives. Idle, the main loop sleeps in glfwWaitEventsTimeout and the CPU rests.
#pragma once

#include <imgui.h>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Frames drawn after an input event, or after the state last moved on its own (a new trace, a
// transition's end), before the app may sleep: ImGui settles hover and active states, scroll bars
// and window sizes over 2-3 frames.
constexpr int kSettleFrames = 3;
// Longest sleep between two checks of the stop flag. A signal lands on any of the app's threads,
// so it does not cut the wait short: SIGTERM and Ctrl+C are seen within this, and the app ends
// within a second with its teardown.
constexpr double kIdleWaitSeconds = 0.25;
// With a text field active, a frame this often so its cursor blinks (ImGui: 0.8 s on, 0.4 s off).
constexpr double kCursorBlinkSeconds = 0.4;
// With a lesson file open, a frame about this often sees it edited (and reads it again).
constexpr double kLessonFileSeconds = 1.0;
// A frame after a long sleep advances the clocks by at most this: animations resume, never jump.
constexpr double kMaxFrameSeconds = 0.1;

// What the window saw, beside the state.
struct InputActivity {
  int frames_since_change = 0;  // frames drawn since an input event or a frame that moved
  bool held = false;        // a mouse button or key down: ImGui repeats and drags without events
  bool text_input = false;  // ImGui::GetIO().WantTextInput: a text cursor blinks
};

// True while the state changes without input: a transition animates, the walk plays, the trace
// worker or a measurement runs (or its result waits to be taken), a request to the window layer
// (export, fonts, fullscreen, a tab to open) is pending, the Check tab's answer changed on disk.
bool wants_frames(const AppState& state);

// True while the lesson's band or a region of the picture still fits its type to its room (each
// takes a few frames): a picture saved now would not be the one that stays.
bool layout_fitting(const AppState& state);
// Frames a saved picture waits at most for its layout to fit (then it is saved as it is).
constexpr int kMostFittingFrames = 120;

// How the main loop gets its next frame.
struct NextFrame {
  double wait_seconds = 0;      // 0: poll and draw at once
  bool draw_on_timeout = true;  // false: when the wait ends with no event, draw nothing
};
NextFrame next_frame(const AppState& state, const InputActivity& input);
// After a frame is drawn: one more frame since a change (none if the state still moves), and what
// ImGui holds (buttons, keys, a text field). The loop sets frames_since_change to 0 when an event
// arrives.
void note_frame_drawn(InputActivity& input, const AppState& state, const ImGuiIO& io);

// The frame time the clocks advance by: `seconds`, capped at kMaxFrameSeconds.
double capped_frame_seconds(double seconds);

}  // namespace attnlab::gui
