// Pictures for slides and papers, rendered off screen from the state the options set: the picture
// alone (the stage view, the heads, the caption; no controls, no tabs), as a still (--export-png,
// optionally on a transparent background) or as the pipeline's animation (--export-animation: the
// six stages and their transitions as the app animates them, or a lesson scene by scene) in a GIF
// (giflib) or an MP4 (the system's ffmpeg, when installed).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/export/gif_writer.hpp"
#include "app/gui/panels/layout_motion.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/options.hpp"

namespace attnlab::gui {

struct PictureExport {
  std::string still;  // --export-png FILE
  bool transparent = false;
  std::string dump_layout;  // with a still: its layout as JSON (what was drawn where)
  std::string animation;    // --export-animation FILE.gif|FILE.mp4
  int fps = 10;
  double seconds_per_stage = 1.0;
  // The animation's progress: the step (or lesson slide) shown, the frames drawn of it.
  int shot = 0, frame_of_shot = 0, frames_per_shot = 10, shots = 0;
  bool lesson = false;  // scene by scene
  int warmup = 3;       // frames drawn before the first recorded one: the layout measures itself
  // The Save dialog runs the export as a copy of the app (ATTNLAB_EXPORT_PROGRESS set): each
  // recorded frame prints "progress 0.42" on stdout for its progress bar.
  bool print_progress = false;
  int width = 0, height = 0;
  // Each recorded frame goes to the encoder as it is made: only the one before is kept.
  std::unique_ptr<AnimationSink> sink;  // opened with the first recorded frame
  MergingFrames frames;
  LayoutMotion motion;  // a still waits for the windows to stand still
};

// The encoder of `path`: a GIF, or an MP4 through ffmpeg (by the name's ending), written as its
// frames are given and whole once finished (dropped before: no file); throws UserError naming the
// file. The desktop's: a page records with its Record button.
std::unique_ptr<AnimationSink> open_animation(const std::string& path, int width, int height,
                                              int fps);

// Everything an exported picture shows, computed: the model read, the trace run, the
// measurements done. Returns the model's error when one was just read and could not be.
std::string settle_for_export(AppState& state);

// Checks the options (a .gif or .mp4 name, ffmpeg for an MP4) and puts the state in the picture's
// view; "" or one line saying what is wrong.
std::string start_picture_export(AppState& state, const StartOptions& options, PictureExport& run);

// Before a frame: the animation's next step or scene, and the frame's time (1 / fps).
void before_picture_frame(AppState& state, PictureExport& run);

// After a frame is rendered: `render(clear)` draws the frame again on that background (for a
// transparent still). False when the export is over; `exit_code` is then 0, or 2 with one line on
// stderr.
bool after_picture_frame(AppState& state, PictureExport& run, int& exit_code,
                         const std::function<void(const float* clear)>& render);

}  // namespace attnlab::gui
