// The picture as a vector image (--export-svg, the controls' "Save maps SVG" button, Ctrl+Shift+S):
// the shape journey, every head's map with one rectangle per weight in the colour map's colours
// and the tokens as text, its colour bar, and the focused head's map large; it stays sharp in a
// paper or a slide. The picture is built once (vector_picture.hpp); this writes it as SVG, and
// maps_pdf.hpp as PDF (the desktop).
#pragma once

#include <string>

#include "app/gui/export/vector_picture.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// The picture as an SVG document: groups with their ids and data, each cell with its query, key,
// value and colour position, the texts as <text> with their classes.
std::string picture_svg(const VectorPicture& picture);

// The SVG of what the state shows (heads_picture); "" when there is no trace yet.
std::string heads_svg(AppState& state);

// Writes heads_svg to `path` whole or not at all; "" or one line saying why not.
std::string export_svg(AppState& state, const std::string& path);

// "attnlab-heads-20261123-134501.<extension>": the name the app saves the maps under, in the
// current folder.
std::string maps_file_name(const std::string& extension);

}  // namespace attnlab::gui
