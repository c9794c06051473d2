#include "app/gui/gl/save_window.hpp"

#include <chrono>
#include <memory>

#include "app/gui/export/picture_export.hpp"
#include "app/gui/export/recording.hpp"
#include "app/gui/export/save_command.hpp"
#include "app/gui/gl/screenshot.hpp"
#include "app/gui/platform/gl_api.hpp"
#include "app/gui/platform/platform.hpp"
#include "app/gui/state/gui_words.hpp"

namespace attnlab::gui {

namespace {

constexpr char kTitle[] = "Attention Lab";
constexpr char kRecordingTitle[] = "Attention Lab: recording (Ctrl+Shift+R stops)";

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

void start_writing(AppState& state, const std::string& path,
                   BackgroundTask<std::string>::Work work) {
  SaveDialog& save = state.save;
  save.writing_path = path;
  save.writing.start({}, std::move(work));
  save.watching = true;
}

void start_exports(AppState& state) {
  SaveDialog& save = state.save;
  for (SaveRequest& request : std::exchange(save.requests, {})) {
    if (save.writing.busy()) {
      state.status = "An export is being written: wait for it, or cancel it first.";
      continue;
    }
    start_writing(state, request.path,
                  [arguments = std::move(request.arguments)](const RunControl& control) {
                    return platform::run_app_copy(arguments, control);
                  });
  }
}

// Ends the recording: its last frame encoded and its file made whole (every frame before went to
// the encoder as it was made); `why` it stopped, when not asked to, goes before what was written.
void write_recording(AppState& state, GLFWwindow* window, const std::string& why) {
  SaveDialog& save = state.save;
  const int width = save.recording.width, height = save.recording.height;
  const std::string path = save.recording.path;
  state.window.picture_only = false;
  state.ui.presenter = save.presenter_before_recording;
  glfwSetWindowTitle(window, kTitle);
  try {
    const size_t frames = stop_recording(save.recording, now_seconds());
    if (frames == 0) return;
    state.status = why + "Wrote " + path + " (" + std::to_string(width) + "x" +
                   std::to_string(height) + ", " + std::to_string(frames) + " distinct frames)";
  } catch (const std::exception& error) {
    state.status = why + in_gui_words(error);
  }
}

void toggle_recording(AppState& state, GLFWwindow* window) {
  SaveDialog& save = state.save;
  if (save.recording.on) {
    write_recording(state, window, "");
    return;
  }
  if (!save.runs_app_copies) {
    state.status = "The page records with its Record button, as a WebM.";
    return;
  }
  if (save.writing.busy()) {
    state.status = "An export is being written: wait for it, or cancel it first.";
    return;
  }
  int width = 0, height = 0;
  glfwGetFramebufferSize(window, &width, &height);
  const std::string path = recording_file_name(save.choices, file_time_stamp());
  try {
    // Encoded on its own thread: the window draws on while a frame is encoded.
    start_recording(
        save.recording, save.choices.fps, width, height, now_seconds(),
        std::make_unique<EncoderThread>(open_animation(path, width, height, save.choices.fps)));
  } catch (const std::exception& error) {
    state.status = in_gui_words(error);
    return;
  }
  save.recording.path = path;
  save.presenter_before_recording = state.ui.presenter;
  state.ui.presenter = true;  // the picture alone, as --export-animation draws it
  state.window.picture_only = true;
  save.open = false;
  glfwSetWindowTitle(window, kRecordingTitle);
  state.status = "Recording: step with the keys; Ctrl+Shift+R stops and writes the file.";
}

// A red square in the top right corner, over the frame already read.
void draw_recording_mark(GLFWwindow* window) {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window, &width, &height);
  const int side = std::max(8, height / 40);
  glEnable(GL_SCISSOR_TEST);
  glScissor(width - 2 * side, height - 2 * side, side, side);
  glClearColor(0.85f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

void keep_recorded_frame(AppState& state, GLFWwindow* window) {
  Recording& recording = state.save.recording;
  const double now = now_seconds();
  if (!recording_wants_frame(recording, now)) return;
  int width = 0, height = 0;
  std::vector<unsigned char> rgb = read_frame_rgb(width, height);
  try {
    if (!keep_frame(recording, std::move(rgb), width, height, now))
      write_recording(state, window, "The window changed size, so the recording stopped. ");
  } catch (const std::exception& error) {  // the encoder could not write: nothing is left
    state.status = "The recording stopped: " + in_gui_words(error);
    recording = Recording{};
    state.window.picture_only = false;
    state.ui.presenter = state.save.presenter_before_recording;
    glfwSetWindowTitle(window, kTitle);
  }
}

// Once an export is over: what it wrote, or why not, in the status line too (the dialog may be
// closed by then).
void report_finished(AppState& state) {
  SaveDialog& save = state.save;
  if (!save.watching || save.writing.busy()) return;
  save.watching = false;
  if (save.writing.result())
    state.status = *save.writing.result();
  else if (save.writing.cancelled())
    state.status = "The export was cancelled; nothing was written.";
  else if (!save.writing.error().empty())
    state.status = save.writing.error();
}

}  // namespace

void configure_saving(AppState& state) {
  state.save.runs_app_copies = platform::runs_app_copies();
  state.save.has_ffmpeg = !platform::program_on_path("ffmpeg").empty();
}

void after_frame_saving(AppState& state, GLFWwindow* window) {
  start_exports(state);
  if (std::exchange(state.save.toggle_recording, false)) toggle_recording(state, window);
  if (state.save.recording.on) {
    keep_recorded_frame(state, window);
    if (state.save.recording.on) draw_recording_mark(window);
  }
  report_finished(state);
}

}  // namespace attnlab::gui
