// The command line of `attnlab`:
//   attnlab [--preset NAME] [--stage S] [--screenshot FILE.png --frames N] [--dump-layout F.json]
//           [--bench-frames N [--bench-drag EVERY] [--bench-model EVERY]] [--font-scale X]
//           [--theme light|dark]
//           [--tab NAME] [--model DIR [--layer L]] [the config flags of attnlab-cli: --heads N
//           --mask causal ...]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/common/config_flags.hpp"

namespace attnlab::gui {

constexpr int kMinWindowWidth = 320, kMinWindowHeight = 240, kMaxWindowSide = 16384;

struct StartOptions {
  // "" = seed003 with any config flag, else the last session (seed003 on the first start)
  std::string preset;
  std::string stage;       // "attend", or with a sub-step: "attend:softmax"
  std::string screenshot;  // render `frames` frames, save the window (or `panel`) as PNG, exit
  int frames = 3;
  std::string panel;        // with --screenshot: "heads", "tensors", ... instead of the window
  std::string dump_layout;  // with --screenshot: where each heatmap was drawn, as JSON
  int bench_frames = 0;     // render this many frames as fast as possible, print frame times
  int bench_drag = 0;       // with bench_frames: change n_heads every this many frames (0 = no)
  int bench_model = 0;  // with bench_frames and model: a head off/on every this many frames, and
                        // generation kept running (the Model tab's jobs; 0 = no)
  std::optional<float> transition;  // hold the step's animation at this point (0..1), for figures
  std::optional<float> font_scale;
  std::string theme;  // "light" / "dark" / "" (the saved one)
  std::string heatmap_view;
  std::string colour_scale;  // --colour-scale
  // Heads panel focus mode at start (for figures): the head, the head beside it, the zoom.
  int focus_head = -1;
  int compare_head = -1;
  double zoom = 1;
  std::string tab;     // open this tab: tensors, mistakes, memory, ..., code, checks
  ConfigFlags config;  // --heads, --mask, --mistake, ...: applied over the first config
  // --model DIR: a Hugging Face folder whose layer `layer` on --sentence is the first trace.
  std::string model;
  int64_t layer = 0;
  std::string model_page;  // the Model tab's right side: "finder" or "next"
  // --flash BR:BC: the Flash tab opened with these tiles; --flash-step N: its sweep at step N.
  std::optional<std::string> flash;
  int flash_step = 1;
  std::string check;  // --check DIR: the Check tab on this exercise folder (or answer file)
  // Any config flag given: a new lesson, started from the preset (or seed003) and these flags,
  // not from the last session.
  bool config_flags_given = false;
  int width = 1600, height = 1000;
  bool size_given = false;       // --width or --height: the last session's window size is not used
  bool size_remembered = false;  // width and height are the last session's
  bool fullscreen = false;
  bool present = false;  // presenter mode
  // --lesson FILE|NAME: play a lesson (app/lessons/); with --export-slides DIR, render every slide
  // to DIR (PNGs and a PDF handout) off screen and exit. --audience: a second window for the
  // projector.
  std::string lesson;
  int scene =
      0;  // --scene N (from 1) with --lesson: opened at scene N; 0: the first or the last one
  std::string export_slides;
  bool audience = false;
  // --export-png FILE (--transparent): the picture alone, off screen (with --lesson, the scene's
  // slide, as --export-slides draws it); --export-animation
  // FILE.gif|.mp4 (--fps, --seconds-per-stage): the pipeline's walk (or the lesson) animated.
  std::string export_png;
  bool transparent = false;
  std::string export_animation;
  std::string export_svg;   // --export-svg FILE: the maps as a vector image (no window)
  std::string export_pdf;   // --export-pdf FILE: the same picture as a PDF (no window)
  std::string export_page;  // --export-page FILE.html: the one-file page with --lesson inside
  int fps = 10;
  double seconds_per_stage = 1.0;

  // Screenshot and bench runs neither read nor write the user's settings: they must be
  // reproducible.
  bool scripted() const {
    return !screenshot.empty() || bench_frames > 0 || !export_slides.empty() ||
           !export_png.empty() || !export_animation.empty() || !export_svg.empty() ||
           !export_pdf.empty() || !export_page.empty();
  }
};

struct ParseOutcome {
  int exit_code = -1;   // -1: run the app; otherwise exit with it (0 after --help)
  std::string message;  // help text (stdout) or one line for stderr
};

// The command line. An unknown option is named with the nearest known one ("did you mean
// --heads?").
ParseOutcome parse_options(int argc, const char* const* argv, StartOptions& options);

// A lesson scene's options (its ```attnlab block), read as the command line is, except: an option
// that writes a file (--screenshot, --dump-layout, every --export-*) or makes the run (--width,
// --lesson, --help, ...) is a problem and left out, in whatever spelling (--opt FILE,
// --opt=FILE); an unknown option is a problem and left out; a relative path (--model, --check) is
// the lesson's `folder`'s ("" keeps it as given: a built-in lesson); without --model, `run_model`
// (the run's --model) is the scene's.
struct SceneOptions {
  std::vector<std::string> problems;  // one line each, without "FILE:LINE: "
  bool usable = false;                // the options read (the left-out ones aside) can be applied
};
SceneOptions parse_scene_options(const std::vector<std::string>& words, const std::string& folder,
                                 const std::string& run_model, StartOptions& options);

}  // namespace attnlab::gui
