// Issue 32's vector image: one rectangle per weight of every head, each filled with the colour
// map's published colour at its position (viridis for weights, RdBu for scores), carrying the
// trace's own value; the tokens as text on both axes; the focused head drawn again, large.
#include <regex>

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

}  // namespace
}  // namespace attnlab::gui
