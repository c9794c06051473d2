// A lesson being played (app/lessons/ reads the file): which scene is shown, whether its question
// is revealed, whether the lecturer left it for free play, and the file watched for edits.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "app/gui/lessons/band_text.hpp"
#include "app/lessons/lesson.hpp"

namespace attnlab::gui {

// A point of the pointer's trail or the pen's strokes: a fraction of the window's width and
// height (so the audience window, of another size, draws it at the same place), and when.
struct PointerPoint {
  float x = 0, y = 0;
  double time = 0;
};

// The band's type size in one window: shrunk (down to a floor) until the band's text fits its
// height, for the content it was fitted to; that content changed, it starts whole again.
struct BandFit {
  float scale = 1;         // of the window's font, for the band's text
  std::string fitted_for;  // the scene, the reveal, the window's size and font it was fitted to
  bool fitting = false;    // shrunk, or not yet drawn at its height, last frame: another frame
  int settling = 0;        // frames drawn at a fitted type whose height or scrollbar still moved
};

struct LessonPlayer {
  lessons::Lesson lesson;
  std::string file;          // as given: a path or a built-in lesson's name; "" = no lesson
  std::string model_folder;  // --model of the run: the model of every scene that names none
  int scene = -1;            // the scene shown
  bool revealed = false;     // its question's answer is shown
  bool playing = false;      // false: free play (Esc); L returns to the scene
  int first_step = 0;        // the walk's step the scene starts on (--animate walks on from it)
  // The lesson's problems and the scenes that could not be built: "FILE:LINE: reason".
  std::vector<std::string> errors;
  size_t errors_reported = 0;  // those already printed on stderr
  std::string scene_error;     // the shown scene's, when it could not be built
  int chosen = -1;             // the choice the class picked (its index), before the reveal
  std::string typed_answer;    // the class's answer in words, typed by the lecturer
  std::filesystem::file_time_type modified{};
  double next_file_check = 0;
  std::string notice;               // "Reloaded ...", "Captured ..."
  bool audience_view = false;       // this window draws the picture, caption and question only
  bool audience_window = false;     // a second window shows the audience view
  bool slide = false;               // an exported slide: the audience view, no strip
  float band_height = 0;            // the lesson band's height, as drawn last frame
  float audience_band_height = 0;   // the same in the audience's window (no presenter's part)
  double started_at = -1;           // the walk's clock at the first scene: the presenter's clock
  std::vector<PointerPoint> trail;  // the pointer's last second
  std::vector<std::vector<PointerPoint>> strokes;  // the pen's, until the scene changes
  bool drawing = false;                            // a pen stroke in progress
  std::string capture_title;                       // the field of "capture as a scene"
  // Presenter mode's bar of controls while the lesson plays (key B): hidden, the lecturer's
  // window lays the picture out as the audience's.
  bool controls_bar = false;
  // The band's texts as wrapped and its type size, in the lecturer's window and in the audience's
  // (another width): kept here, one per window, not in a function's statics.
  BandText band_text, audience_band_text;
  BandFit band_fit, audience_band_fit;
};

}  // namespace attnlab::gui
