// What a lesson draws: the band under the picture (the scene strip, the caption, the question and
// its answer; in the presenter's own window also the notes, the next scene, the clock and
// "capture as a scene"), and the pointer's fading trail and the pen's strokes over everything.
#pragma once

#include "app/gui/lessons/band_text.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// The band's most: a fifth of the window's height; the picture keeps the rest.
constexpr float kBandMostFraction = 0.2f;
// The audience's band (its window, a slide) has no scrollbar to use: what does not fit a fifth
// at the least type makes it taller, up to this share of the window; only past it does it scroll.
constexpr float kAudienceBandMostFraction = 0.3f;
// Before the band scrolls, its type shrinks to fit, down to this share of the window's font and
// not under kBandLeastFontPixels (both: readable from the back row).
constexpr float kBandLeastFontScale = 0.6f;
constexpr float kBandLeastFontPixels = 14.0f;
float band_least_font_scale(float font_pixels);

// The band's height in a window `display_h` tall (0: no lesson open): as its content was drawn
// last frame, at most kBandMostFraction of the window (the audience's band, at its least type:
// kAudienceBandMostFraction); the rest scrolls.
float lesson_band_height(const AppState& state, float display_h);
// A window's band shrank its type last frame: one more frame sees whether it fits now.
bool band_fitting(const AppState& state);

// Presenter mode's window while a lesson plays shows the lesson's picture: the audience's layout
// (no bar of controls) over the band. B brings the bar back (LessonPlayer::controls_bar).
bool lesson_picture(const AppState& state);

// Draws the band in `rect` (x0, y0, x1, y1).
void draw_lesson_band(AppState& state, ImVec4 rect);

// The band's texts as last wrapped in the lecturer's window (or the audience's): each is wrapped
// again only when its text, the band's width or the font size changes.
const BandText& band_layout(const AppState& state, bool audience);

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
