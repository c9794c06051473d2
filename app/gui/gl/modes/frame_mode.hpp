// The frame loop as a list of modes: everything App::step does beside drawing the app (an export
// of slides or a picture, a screenshot, the in-app exports, Record, the audience's window, the
// frame-time benchmark) is a FrameMode, run in the list's order around every frame. A new way to
// run the app (a classroom server, a language switch) is one more entry in frame_modes().
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/options.hpp"

struct GLFWwindow;

namespace attnlab::gui {

class GlHeatmapRenderer;

// What a mode may use of the app, the same for every mode.
struct FrameLoop {
  AppState& state;
  const StartOptions& options;
  GLFWwindow* window = nullptr;
  GlHeatmapRenderer* renderer = nullptr;
  int frame = 0;      // frames drawn, this one included (from 1)
  int exit_code = 0;  // what the app exits with once a mode is done
  // Draws the app's frame again into the back buffer, on `clear` (RGBA) when given (a transparent
  // picture), else on the windows' own background.
  std::function<void(const float* clear)> render;
};

class FrameMode {
 public:
  virtual ~FrameMode() = default;
  // Once, before the first frame: "" or one line saying why the run cannot start (exit 2).
  virtual std::string start(FrameLoop&) { return ""; }
  // Before each frame is drawn (a slide's scene shown, the animation's next step).
  virtual void before_frame(FrameLoop&) {}
  // Each frame, drawn into the back buffer but not yet shown: what the mode does with it.
  virtual void frame(FrameLoop&) {}
  // Each frame, once shown (a second window drawn, the frame's time taken).
  virtual void after_swap(FrameLoop&) {}
  // The run is over (the loop's exit_code set): App::step ends the loop.
  virtual bool done() const { return false; }
  // When the loop has ended (figures reported).
  virtual void finish(FrameLoop&) {}
};

// The modes the options ask for, in the order they run around a frame: the benchmark's drag, the
// slide export, the picture export, the screenshot, the in-app exports, Record, the audience's
// window, the benchmark's timing.
std::vector<std::unique_ptr<FrameMode>> frame_modes(const StartOptions& options);

// [SECTION] the modes (each in its own file)
std::unique_ptr<FrameMode> slide_export_mode();     // --export-slides DIR
std::unique_ptr<FrameMode> picture_export_mode();   // --export-png, --export-animation
std::unique_ptr<FrameMode> screenshot_mode();       // --screenshot FILE [--dump-layout]
std::unique_ptr<FrameMode> export_requests_mode();  // Save buttons, Ctrl+Shift+C
std::unique_ptr<FrameMode> recording_mode();        // the Save dialog's exports and Record
std::unique_ptr<FrameMode> audience_mode();         // --audience, key A
std::unique_ptr<FrameMode> bench_mode();            // --bench-frames N [--bench-drag EVERY]

}  // namespace attnlab::gui
