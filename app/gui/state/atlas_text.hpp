// The texts the font atlas is built for (theme.hpp's load_fonts): every character the window may
// draw beyond the interface's own, so none is drawn as a box or "?". The sentences (tokens) and the
// whole lesson being played, read when it is opened or reloaded.
#pragma once

#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Every text the lesson band can draw of the lesson: its title and description, each scene's
// title, caption, notes, question, choices and answer, and the lesson's problems.
std::string lesson_text(const LessonPlayer& player);

// The sentences (the queries', the keys', the real model's) and the lesson's text.
std::string atlas_text(const AppState& state);

// Asks the window for a new atlas (WindowRequests::fonts_dirty) when atlas_text has characters the
// atlas was not built for: after a lesson is opened or reloaded, or a scene changes the sentence.
void ask_for_glyphs(AppState& state);

}  // namespace attnlab::gui
