// --export-slides DIR: every slide of the lesson rendered off screen in the audience's view (the
// picture, caption and question; a question scene twice: asked, then answered) as
// DIR/NN-scene.png, and DIR/lesson.pdf, a handout with one page per scene and its notes (a
// question and its answer on one page).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/lessons/handout_pdf.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/panels/layout_motion.hpp"

namespace attnlab::gui {

struct SlideExport {
  std::string dir;
  std::vector<Slide> slides;
  size_t index = 0;                // the slide being drawn
  int frames = 0;                  // frames drawn of it
  int written = 0;                 // slides saved as PNGs (they number the files)
  std::vector<HandoutPage> pages;  // one per scene: a question's answer joins its question's
  int unbuilt = 0;          // slides left out: their scene could not be built (said on stderr)
  std::string model_error;  // a scene's model could not be read (said on stderr)
  LayoutMotion motion;      // a slide waits for the windows to stand still
};

// Creates DIR and puts the state in the audience's view; "" or why not (a lesson without a scene
// is refused before anything is made).
std::string start_slide_export(AppState& state, const std::string& dir, SlideExport& run);

// Before a frame: a new slide's scene shown, its trace, model and measurements waited for.
void before_slide_frame(AppState& state, SlideExport& run);

// After a frame is rendered (before the swap): the slide saved once settled, and after the last
// one the handout. False when the run is over; `exit_code` is then 0, or 2 when a scene could not
// be built or a file could not be written (each said in one line on stderr).
bool after_slide_frame(AppState& state, SlideExport& run, ImVec2 framebuffer_scale, int& exit_code);

}  // namespace attnlab::gui
