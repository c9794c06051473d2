// What a lesson draws: the band under the picture (the scene strip, the caption, the question and
// its answer; in the presenter's own window also the notes, the next scene, the clock and
// "capture as a scene"), and the pointer's fading trail and the pen's strokes over everything.
#pragma once

#include "app/gui/lessons/band_text.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// The band's height in a window `display_h` tall (0: no lesson open): as its content was drawn
// last frame, at most 45 % of the window (the rest scrolls).
float lesson_band_height(const AppState& state, float display_h);

// Draws the band in `rect` (x0, y0, x1, y1).
void draw_lesson_band(AppState& state, ImVec4 rect);

// The band's texts as last wrapped in the lecturer's window (or the audience's): each is wrapped
// again only when its text, the band's width or the font size changes.
const BandText& band_layout(bool audience);

// The right button (or X held) leaves a trail that fades in a second; with Shift it draws with
// the pen. Call once a frame in the window the lecturer uses.
void track_pointer(AppState& state);
void draw_pointer(const AppState& state);

// The audience's picture: the audience window, a slide or an exported picture (presenter mode
// without its bar).
bool audience_picture(const AppState& state);

// Whether the presenter's notes may show in this window: never on a slide or in the audience
// view; in presenter mode only when the audience has its own window.
bool notes_shown(const AppState& state);

}  // namespace attnlab::gui
