// Issue 32's vector image: one rectangle per weight of every head, each filled with the colour
// map's published colour at its position (viridis for weights, RdBu for scores), carrying the
// trace's own value; the tokens as text on both axes; the focused head drawn again, large. The
// PDF is the same picture (one list of primitives, two writers): one page of its size, its cells
// drawn in the SVG's fills, its labels as text in an embedded font.
#include <cairo.h>

#include <cstring>
#include <memory>
#include <regex>

#include "app/gui/export/maps_pdf.hpp"
#include "app/gui/export/vector_export.hpp"
#include "headless_imgui.hpp"
#include "published_colormaps.hpp"

namespace attnlab::gui {
namespace {

struct Cell {
  int head, query, key;
  uint32_t fill;
  std::string value;
  double position;
};

// The cells of the map group `group` ("head-0", "focused-head-1").
std::vector<Cell> cells_of(const std::string& svg, const std::string& group, int head) {
  const size_t start = svg.find("<g id=\"" + group + "\"");
  const size_t end = svg.find("</g>", start);
  std::vector<Cell> cells;
  if (start == std::string::npos) return cells;
  const std::string part = svg.substr(start, end - start);
  const std::regex rect(
      R"re(fill="#([0-9a-f]{6})" class="cell" data-query="(\d+)" data-key="(\d+)" data-value="([^"]+)" data-position="([^"]+)")re");
  for (auto it = std::sregex_iterator(part.begin(), part.end(), rect); it != std::sregex_iterator();
       ++it)
    cells.push_back({head, std::stoi((*it)[2]), std::stoi((*it)[3]),
                     uint32_t(std::stoul((*it)[1], nullptr, 16)), (*it)[4], std::stod((*it)[5])});
  return cells;
}

std::vector<std::string> texts_of_class(const std::string& svg, const std::string& group,
                                        const std::string& kind) {
  const size_t start = svg.find("<g id=\"" + group + "\"");
  const std::string part = svg.substr(start, svg.find("</g>", start) - start);
  const std::regex text("class=\"" + kind + "\"[^>]*>([^<]*)</text>");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(part.begin(), part.end(), text); it != std::sregex_iterator();
       ++it)
    found.push_back((*it)[1]);
  return found;
}

void expect_published(const Cell& cell, bool weights) {
  const testing::Rgb255 want =
      weights ? testing::published_colour(testing::kPublishedViridis, cell.position)
              : testing::published_colour(testing::kPublishedRdBuReversed, cell.position);
  const double got[3] = {double(cell.fill >> 16), double((cell.fill >> 8) & 255),
                         double(cell.fill & 255)};
  const double wanted[3] = {want.r, want.g, want.b};
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(got[c], wanted[c], 4.0) << "head " << cell.head << " cell " << cell.query << ","
                                        << cell.key << " at " << cell.position;
}

using VectorExport = HeadlessImGui;

TEST_F(VectorExport, EveryWeightIsACellInThePublishedColoursWithItsValueAndTheTokensAsText) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "attend:softmax"));
  state.ui.colour_scale = ColourScale::Fixed;  // position = weight: checked against the trace
  state.heads.focus.head = 1;
  const std::string svg = heads_svg(state);
  const Trace& trace = *state.session.trace;
  const TensorRecord* weights = trace.weights();
  ASSERT_NE(weights, nullptr);
  const int64_t T = int64_t(trace.tokens.size());
  ASSERT_EQ(T, 11);
  for (int head = 0; head < 2; ++head) {
    const std::vector<Cell> cells = cells_of(svg, "head-" + std::to_string(head), head);
    ASSERT_EQ(cells.size(), size_t(T * T)) << "head " << head;
    for (const Cell& cell : cells) {
      const float weight = weights->tensor.data()[(head * T + cell.query) * T + cell.key];
      if (cell.key > cell.query) {  // causal: masked
        EXPECT_EQ(cell.value, "masked");
        continue;
      }
      EXPECT_NEAR(std::stod(cell.value), weight, 1e-4 + 1e-3 * weight);
      EXPECT_NEAR(cell.position, weight, 1e-3);  // fixed 0 .. 1
      expect_published(cell, true);
    }
    EXPECT_EQ(texts_of_class(svg, "head-" + std::to_string(head), "query"), trace.tokens);
    EXPECT_EQ(texts_of_class(svg, "head-" + std::to_string(head), "key"), trace.tokens);
  }
  EXPECT_EQ(cells_of(svg, "focused-head-1", 1).size(), size_t(T * T));
  EXPECT_NE(svg.find("data-colormap=\"viridis\""), std::string::npos);
  // The shape journey's shapes as text.
  EXPECT_NE(svg.find(">(1, 2, 11, 2)</text>"), std::string::npos);
}

// Issue 38: per row, the crafted uniform head's rows are spread evenly: grey cells, not the top
// colour, and the colour bar names the grey.
TEST_F(VectorExport, EvenRowsAreGreyAndTheLegendSaysSo) {
  start_on("crafted");
  ASSERT_TRUE(go_to_named_step(state, "attend:softmax"));
  state.ui.colour_scale = ColourScale::PerRow;
  const std::string svg = heads_svg(state);
  const std::vector<Cell> cells = cells_of(svg, "head-3", 3);
  ASSERT_FALSE(cells.empty());
  for (const Cell& cell : cells) EXPECT_EQ(cell.fill, 0x969696u) << cell.query << "," << cell.key;
  EXPECT_NE(svg.find(">even row: spread evenly (1/n each)</text>"), std::string::npos);
}

TEST_F(VectorExport, ScoresUseThePublishedRdBuAroundZero) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "attend:QK^T"));
  const std::string svg = heads_svg(state);
  const std::vector<Cell> cells = cells_of(svg, "head-0", 0);
  ASSERT_EQ(cells.size(), 121u);
  for (const Cell& cell : cells) {
    const double value = std::stod(cell.value);
    EXPECT_EQ(cell.position > 0.5, value > 0) << value;
    expect_published(cell, false);
  }
}

// How often `needle` occurs in `text`.
size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST_F(VectorExport, ThePdfIsOnePageOfThePicturesSizeWithItsTextAsText) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "attend:softmax"));
  state.heads.focus.head = 1;
  const VectorPicture picture = heads_picture(state);
  ASSERT_FALSE(picture.empty());
  const std::string pdf = picture_pdf(picture);
  EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
  // cairo 1.16 writes the page tree uncompressed: one /Type /Page, the picture's size in points.
  EXPECT_EQ(count(pdf, "/Type /Page\n") + count(pdf, "/Type /Page %"), 1u);
  EXPECT_NE(pdf.find("/Count 1\n"), std::string::npos);
  char box[64];
  std::snprintf(box, sizeof box, "/MediaBox [ 0 0 %g %g ]", picture.width, picture.height);
  EXPECT_NE(pdf.find(box), std::string::npos) << box;
  // Text as text: DejaVu Sans embedded (a subset), and no picture of anything.
  EXPECT_NE(pdf.find("+DejaVuSans"), std::string::npos);
  EXPECT_EQ(pdf.find("/Subtype /Image"), std::string::npos);
  EXPECT_TRUE(write_picture_pdf(picture, "/no/such/folder/heads.pdf").size() > 0);
  EXPECT_NE(write_picture_pdf(VectorPicture{}, "unused.pdf"), "");
}

TEST_F(VectorExport, TheSvgAndThePdfDrawTheSameCellsInTheSameColours) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "attend:softmax"));
  state.heads.focus.head = 1;
  const VectorPicture picture = heads_picture(state);
  const std::string svg = picture_svg(picture);
  EXPECT_EQ(svg, heads_svg(state));  // the SVG is this picture
  // The SVG's cells are the picture's, in order, with the same fills.
  std::vector<Cell> svg_cells;
  for (const std::string group : {"head-0", "head-1", "focused-head-1"})
    for (const Cell& cell : cells_of(svg, group, 0)) svg_cells.push_back(cell);
  const std::vector<const VectorRect*> cells = picture_cells(picture);
  ASSERT_EQ(cells.size(), 3u * 11 * 11);
  ASSERT_EQ(svg_cells.size(), cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(svg_cells[i].fill, cells[i]->fill) << i;
    EXPECT_EQ(svg_cells[i].query, cells[i]->query) << i;
    EXPECT_EQ(svg_cells[i].key, cells[i]->key) << i;
  }
  // What the PDF draws, drawn on an image: each cell's middle in its SVG fill (masked: grey).
  const int w = int(picture.width), h = int(picture.height);
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> image(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h), cairo_surface_destroy);
  {
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(image.get()), cairo_destroy);
    draw_picture(cr.get(), picture);
  }
  cairo_surface_flush(image.get());
  const unsigned char* pixels = cairo_image_surface_get_data(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  size_t masked = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    const int x = int(cells[i]->x + cells[i]->w / 2), y = int(cells[i]->y + cells[i]->h / 2);
    uint32_t pixel;
    std::memcpy(&pixel, pixels + y * stride + x * 4, 4);  // xRGB, native order
    const uint32_t want = svg_cells[i].fill;
    for (int shift : {16, 8, 0})
      EXPECT_NEAR(int(pixel >> shift & 255), int(want >> shift & 255), 2)
          << "cell " << i << " (" << x << ", " << y << ")";
    masked += svg_cells[i].value == "masked";
  }
  EXPECT_EQ(masked, 3u * 55);  // causal: the keys after each query
}

}  // namespace
}  // namespace attnlab::gui
