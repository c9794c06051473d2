// The Word order lesson in the app (key W): the tab, its four views, and the Controls' choice of
// position encoding. Each view reads the trace and core/position/'s demonstrations; none computes
// attention itself.
#pragma once

#include "app/gui/state/app_state.hpp"
#include "core/model/config.hpp"

namespace attnlab::gui {

// The Word order tab: a row picking the view, then the view.
void draw_word_order_tab(AppState& state);

// [SECTION] the views (one file each)
// Both orders side by side, the permutation drawn between them, and the check in words.
void draw_shuffle_view(AppState& state);
// The sinusoidal table (T x d) and PE PE^T (T x T).
void draw_sinusoidal_view(AppState& state);
// One query-key pair of dimensions turning with the distance, and the score by distance.
void draw_rope_view(AppState& state);
// The bias matrix per head, and how far each head looks.
void draw_alibi_view(AppState& state);

// [SECTION] shared by the views
// A line saying the shown run does not use `pos`, with a button that switches it on (after the
// frame: the view goes on drawing the trace it holds).
void offer_encoding(AppState& state, PositionEncoding pos, const char* what);
// Space left below the cursor, less `reserve_lines` lines of text.
float room_below(float reserve_lines);

// The Controls' position-encoding choice (in the Next lessons section); true when it changed
// `config`.
bool position_control(AppState& state, Config& config);

}  // namespace attnlab::gui
