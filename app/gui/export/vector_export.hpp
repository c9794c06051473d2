// The picture as a vector image (--export-svg, the Heads panel's "SVG" button): the shape journey,
// every head's map with one rectangle per weight in the colour map's colours and the tokens as
// text, its colour bar, and the focused head's map large; it stays sharp in a paper or a slide.
#pragma once

#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// The SVG of what the state shows (the heads panel's maps at the stage shown).
std::string heads_svg(AppState& state);

// Writes heads_svg to `path` whole or not at all; "" or one line saying why not.
std::string export_svg(AppState& state, const std::string& path);

}  // namespace attnlab::gui
