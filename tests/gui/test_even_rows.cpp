// Issue 38, "a uniform row reads as spread evenly": every map that colours each row by its own
// largest weight draws an even row (attention spread evenly over the keys it sees) in the even
// rows' grey, not the top colour, by the one rule of colormap.hpp (row_colours): the heads panel,
// the Model tab's maps of every layer and head, the Train tab's maps and the decode tab's growing
// maps.
#include <imgui.h>

#include <cstdint>
#include <span>
#include <vector>

#include "app/gui/look/colormap.hpp"
#include "app/gui/model/model_view_maps.hpp"
#include "app/gui/train/train_maps.hpp"
#include "core/position/position_encoding.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

// [SECTION] the rule

TEST(ColormapEvenRows, ARowsColoursAreItsVisibleWeightsOverItsLargestOrTheGrey) {
  const std::vector<float> uneven = {0.2f, 0.3f, 0.5f};
  const RowColours stretched = row_colours(uneven);
  EXPECT_FALSE(stretched.even);
  EXPECT_FLOAT_EQ(stretched.largest, 0.5f);
  EXPECT_FLOAT_EQ(stretched.position(0.2f), 0.4f);
  EXPECT_FLOAT_EQ(stretched.position(0.5f), 1.0f);
  // A causal row's visible part: two keys of 1/2 each are even, the hidden zeros not counted.
  const std::vector<float> causal = {0.5f, 0.5f, 0.0f};
  EXPECT_TRUE(row_colours(std::span<const float>(causal.data(), 2)).even);
  EXPECT_FALSE(row_colours(causal).even) << "the hidden key's 0 read as a weight";
  EXPECT_EQ(row_colours(std::span<const float>(causal.data(), 2)).position(0.5f), kEvenPosition);
  EXPECT_FALSE(row_colours(std::span<const float>(causal.data(), 1)).even) << "one key: full";
  EXPECT_EQ(row_colours(uneven).position(kMaskedValue), kMaskedValue);
}

// [SECTION] the Model tab's maps

// A run of one layer whose head 0 attends evenly (1/(i+1) over keys 0..i, 0 past them when causal;
// 1/T everywhere when not) and whose head 1 looks at the first token mostly.
PretrainedRun run_of(int64_t T, bool causal) {
  PretrainedRun run;
  LayerRecord layer;
  layer.weights = Tensor::zeros("weights", {1, 2, T, T});
  float* w = layer.weights.data();
  for (int64_t i = 0; i < T; ++i) {
    const int64_t seen = causal ? i + 1 : T;
    for (int64_t j = 0; j < seen; ++j) {
      w[i * T + j] = 1.0f / float(seen);
      w[T * T + i * T + j] = (j == 0 ? 2.0f : 1.0f) / float(seen + 1);
    }
  }
  run.layers.push_back(layer);
  return run;
}

TEST(ModelViewEvenRows, AHeadThatSpreadsEvenlyIsGreyInTheModelTabsMaps) {
  const int64_t T = 6;
  const HeatmapSet causal = model_view_maps(run_of(T, true), true);
  ASSERT_EQ(causal.heads, 2);
  ASSERT_EQ(causal.rows, T);
  const uint32_t grey = colour_at_packed(ColormapKind::Sequential, kEvenPosition);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j < T; ++j) {
      const uint32_t drawn = colour_at_packed(ColormapKind::Sequential, causal.at(0, i, j));
      if (j > i)  // a key it cannot see: weight 0, the first colour
        EXPECT_EQ(causal.at(0, i, j), 0.0f) << i << "," << j;
      else if (i == 0)  // its one key holds all the weight: the top colour is right
        EXPECT_EQ(causal.at(0, i, j), 1.0f);
      else
        EXPECT_EQ(drawn, grey) << "row " << i << " key " << j;
      EXPECT_NE(colour_at_packed(ColormapKind::Sequential, causal.at(1, i, j)), grey);
    }
  EXPECT_EQ(causal.even_rows, T - 1);
  EXPECT_FLOAT_EQ(causal.at(1, 3, 0), 1.0f) << "an uneven row still stretched to its largest";
  // Bidirectional (BERT): every row of the even head is grey, its first too.
  const HeatmapSet both_ways = model_view_maps(run_of(T, false), false);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j < T; ++j) EXPECT_TRUE(both_ways.even(0, i, j)) << i << "," << j;
  EXPECT_EQ(both_ways.even_rows, T);
}

// [SECTION] the Train tab's maps

TEST(TrainEvenRows, AHeadThatSpreadsEvenlyIsGreyInTheTrainTabsMaps) {
  const int64_t T = 5;
  std::vector<float> even(size_t(T * T), 0.0f), peaked(size_t(T * T), 0.0f);
  for (int64_t q = 0; q < T; ++q)
    for (int64_t k = 0; k <= q; ++k) {
      even[size_t(q * T + k)] = 1.0f / float(q + 1);
      peaked[size_t(q * T + k)] = (k == q ? 2.0f : 1.0f) / float(q + 2);
    }
  const uint32_t grey = colour_at_packed(ColormapKind::Sequential, kEvenPosition);
  const std::vector<float> causal = train_map_positions(even, T, true);
  for (int64_t q = 0; q < T; ++q)
    for (int64_t k = 0; k < T; ++k) {
      const float position = causal[size_t(q * T + k)];
      if (k > q)
        EXPECT_EQ(position, 0.0f) << "a key it cannot see";
      else if (q == 0)
        EXPECT_EQ(position, 1.0f) << "its one key: all the weight";
      else
        EXPECT_EQ(colour_at_packed(ColormapKind::Sequential, position), grey) << q << "," << k;
    }
  const std::vector<float> stretched = train_map_positions(peaked, T, true);
  for (int64_t q = 1; q < T; ++q) {
    EXPECT_FLOAT_EQ(stretched[size_t(q * T + q)], 1.0f) << "the row's largest at the top colour";
    EXPECT_FLOAT_EQ(stretched[size_t(q * T)], 0.5f);
  }
  // Bidirectional: a row of 1/T over every key is even, its hidden keys none.
  const std::vector<float> flat(size_t(T * T), 1.0f / float(T));
  for (const float position : train_map_positions(flat, T, false))
    EXPECT_EQ(position, kEvenPosition);
}

// [SECTION] the decode tab's growing maps

// The draw lists' vertices of this colour (a filled cell is four).
int vertices_of_colour(uint32_t colour) {
  int count = 0;
  const ImDrawData* data = ImGui::GetDrawData();
  for (int l = 0; l < data->CmdListsCount; ++l)
    for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer) count += v.col == colour;
  return count;
}

class DecodeEvenRows : public HeadlessImGui {};

// One word repeated with no positions: every token is the same vector, every score of a row the
// same, every row spread evenly over the keys it sees; the decode tab draws each cell of rows 1..
// grey, none at the top colour but row 0's one key.
TEST_F(DecodeEvenRows, ARowSpreadEvenlyIsGreyInTheDecodeTabsMaps) {
  Config c;
  c.sentence = "la la la la la la";
  c.d_model = 8;
  c.n_heads = 2;
  c.pos = PositionEncoding::None;
  c.mask.causal = true;
  c.decode_steps = 2;
  set_config(state, c);
  state.session.worker->wait_idle();
  poll_trace(state);
  ASSERT_TRUE(state.session.trace) << state.session.run_error;
  ASSERT_TRUE(open_tab(state, "decode"));
  state.decode.step = 1;  // the last: every row drawn
  frame();
  frame();
  const int64_t T = 6, h = 2;
  int64_t even_cells = 0;  // rows 1..T-1, each over its i + 1 keys
  for (int64_t i = 1; i < T; ++i) even_cells += i + 1;
  // (At least: the frame's other drawing may use the same grey.)
  EXPECT_GE(vertices_of_colour(colour_at_packed(ColormapKind::Sequential, kEvenPosition)),
            4 * h * even_cells);
  EXPECT_EQ(vertices_of_colour(colour_at_packed(ColormapKind::Sequential, 1.0f)), 4 * h)
      << "only row 0's one key at the top colour";
}

}  // namespace
}  // namespace attnlab::gui
