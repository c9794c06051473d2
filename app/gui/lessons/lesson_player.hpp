// Playing a lesson: each scene's options (the app's own command line) applied to the state as the
// controls would (the config changes, the stage moves), the clicker's keys through the scenes and
// their questions, free play and back, the file reloaded when it changes, and the current state
// captured as a new scene.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Opens a lesson (a Markdown file, or a built-in lesson's name) and shows its first scene;
// `model_folder` (--model of the run) is the model of every scene that names none. Returns "" or
// one line saying why it cannot be read; the lesson's problems go to state.lesson.errors.
std::string open_lesson(AppState& state, const std::string& file_or_name,
                        const std::string& model_folder);

// Shows scene `index`: its options applied over the preset it names (seed003 if none; a scene
// without options keeps the last one's). False, with the reasons in state.lesson.scene_error (and
// each once on stderr), when the scene has a problem: an option left out (one that writes a file
// or makes the run, or one the app does not know; the others still applied), or options that
// cannot be built (the state stays as it was). An exported slide of such a scene is left out.
bool show_scene(AppState& state, int index);

bool lesson_open(const AppState& state);
bool lesson_playing(const AppState& state);  // open, and not left for free play

// A click forward (+1: reveals the question, walks an --animate scene's stages, then the next
// scene) or back (-1).
void lesson_click(AppState& state, int delta);
void leave_lesson(AppState& state);      // Esc: free play, the lesson kept
void return_to_lesson(AppState& state);  // L: the scene again, as the lesson built it

// The audience's view follows the lecturer's (the page's second tab): that scene, revealed or not,
// at that step of the walk.
void follow_lesson(AppState& state, int scene, bool revealed, int step);

// Reads the lesson file again when it changed (about once a second), keeping the scene shown.
void poll_lesson_file(AppState& state, double now);

// The current state as a scene's options: the preset (or a model), the config flags that differ
// from it, the stage, the tab, the focused head and the maps' view.
std::vector<std::string> scene_options_of(const AppState& state);

// Appends the current state to the lesson file as a new scene after the one shown, titled
// `title`; returns what happened in one line.
std::string capture_scene(AppState& state, const std::string& title);

// An exported slide: each scene once, a question scene twice (asked, then answered).
struct Slide {
  int scene = 0;
  bool answer = false;
};
std::vector<Slide> lesson_slides(const lessons::Lesson& lesson);

}  // namespace attnlab::gui
