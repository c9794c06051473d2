// The maps as a vector picture, built once and drawn by two writers: SVG (vector_export.hpp, the
// desktop and the page) and PDF (maps_pdf.hpp, cairo, the desktop). The picture is a list of
// primitives in drawing order, in px (= points in the PDF), y down, with the size that holds them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace attnlab::gui {

struct AppState;

// A filled (or only outlined) rectangle. A map's cell carries its weight: which query and key, the
// trace's value (or masked) and its position on the colour map.
struct VectorRect {
  double x = 0, y = 0, w = 0, h = 0;
  uint32_t fill = 0xffffff;  // 0xRRGGBB
  bool filled = true;        // false: only the outline
  uint32_t stroke = 0;       // 0xRRGGBB, with `outlined`
  bool outlined = false;
  double corner = 0;  // the corners' radius
  bool cell = false;  // a map's cell: the four below are its data
  int64_t query = 0, key = 0;
  bool masked = false;
  double value = 0, position = 0;
};

enum class TextAnchor { Start, Middle, End };

// A line of text (UTF-8) whose baseline starts, centres or ends at (x, y); `rotation` degrees
// clockwise about (x, y) (-90: read bottom to top). `kind` names its role ("query", "key",
// "shape", "head-title"; "" for none).
struct VectorText {
  double x = 0, y = 0;
  std::string words;
  double size = 14;
  TextAnchor anchor = TextAnchor::Start;
  double rotation = 0;
  std::string kind;
};

// The start or end of a named part ("head-0", "colour-bar") with its data (data-head = 0, ...);
// the SVG keeps them as groups, the PDF draws nothing for them.
struct VectorGroup {
  bool opens = true;
  std::string id;
  std::vector<std::pair<std::string, std::string>> data;
};

using VectorItem = std::variant<VectorRect, VectorText, VectorGroup>;

struct VectorPicture {
  double width = 0, height = 0;  // px; the page's size; the background is white
  std::vector<VectorItem> items;
  bool empty() const { return items.empty(); }
};

// What the state shows (the heads panel's maps at the stage shown): the shape journey, every
// head's map (one cell per weight, masked cells grey, the tokens as text), the colour bar and the
// focused head large. Empty when there is no trace yet.
VectorPicture heads_picture(AppState& state);

// The picture's cells (VectorRect::cell), in drawing order.
std::vector<const VectorRect*> picture_cells(const VectorPicture& picture);

}  // namespace attnlab::gui
