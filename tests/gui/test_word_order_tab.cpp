// The Word order tab in headless frames: W opens it; its view follows the config's --pos until one
// is picked; the shuffled run (background) is the core's permuted run, equal to the shown maps
// permuted with --pos none and different with an encoding; the Controls' choice reaches the
// config; every view draws for every encoding, in presenter mode too, without values as well.
#include "app/gui/panels/keyboard.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class WordOrderTabTest : public HeadlessImGui {
 protected:
  void use(PositionEncoding pos, bool shape_only = false) {
    Config c;
    c.sentence = "the dog bit the man";
    c.d_model = 16;
    c.n_heads = 4;
    c.pos = pos;
    c.shape_only = shape_only;
    set_config(state, c);
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_TRUE(state.session.trace) << state.session.run_error;
    frame();
  }
  // Draws the tab until the shuffled run is back.
  void finish_shuffle() {
    // A tab asked for is drawn a frame or two later; the run starts when it is drawn.
    for (int i = 0; i < 4 && !state.word_order.shuffle.pending(); ++i) frame();
    state.word_order.shuffle.wait();
    frame();
  }
};

TEST_F(WordOrderTabTest, TheWKeyOpensTheTab) {
  use(PositionEncoding::Sinusoidal);
  ASSERT_NE(state.tabs.tool, ToolTab::WordOrder);
  press(kKeyW);
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::WordOrder);
  EXPECT_EQ(shown_view(state), WordOrderView::Sinusoidal) << "the run's encoding's view";
  EXPECT_TRUE(open_tab(state, "word-order"));
}

TEST_F(WordOrderTabTest, TheViewFollowsTheEncodingUntilOneIsPicked) {
  use(PositionEncoding::Alibi);
  EXPECT_EQ(shown_view(state), WordOrderView::Alibi);
  use(PositionEncoding::Rope);
  EXPECT_EQ(shown_view(state), WordOrderView::Rope);
  use(PositionEncoding::None);
  EXPECT_EQ(shown_view(state), WordOrderView::Shuffle);
  state.word_order.chosen = WordOrderView::Sinusoidal;
  use(PositionEncoding::Alibi);
  EXPECT_EQ(shown_view(state), WordOrderView::Sinusoidal);
}

TEST_F(WordOrderTabTest, WithoutPositionsTheShuffledMapsAreTheShownOnesPermuted) {
  use(PositionEncoding::None);
  open_tab(state, "word-order");
  finish_shuffle();
  const auto& result = state.word_order.shuffle.result();
  ASSERT_TRUE(result.has_value()) << state.word_order.shuffle.error();
  const Tensor& before = state.session.trace->find("weights")->tensor;
  const Tensor& after = result->shuffled.find("weights")->tensor;
  const std::vector<int64_t>& p = result->permutation;
  double worst = 0;
  for (int64_t hd = 0; hd < 4; ++hd)
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 5; ++j)
        worst = std::max(worst, std::abs(double(after.at({0, hd, i, j})) -
                                         double(before.at({0, hd, p[size_t(i)], p[size_t(j)]}))));
  EXPECT_LT(worst, 1e-6);
  EXPECT_TRUE(result->check.equivariant());
  for (size_t i = 0; i < p.size(); ++i)
    EXPECT_EQ(result->shuffled.tokens[i], state.session.trace->tokens[size_t(p[i])]);
}

TEST_F(WordOrderTabTest, WithAnEncodingTheShuffledMapsChangeAndANewSeedShufflesAgain) {
  use(PositionEncoding::Sinusoidal);
  state.word_order.chosen = WordOrderView::Shuffle;
  open_tab(state, "word-order");
  finish_shuffle();
  ASSERT_TRUE(state.word_order.shuffle.result().has_value());
  EXPECT_FALSE(state.word_order.shuffle.result()->check.equivariant());
  const std::vector<int64_t> first = state.word_order.shuffle.result()->permutation;
  state.word_order.shuffle_seed = 2;
  finish_shuffle();
  ASSERT_TRUE(state.word_order.shuffle.result().has_value());
  EXPECT_NE(state.word_order.shuffle.result()->permutation, first);
}

TEST_F(WordOrderTabTest, WithoutValuesTheShuffleSaysWhy) {
  use(PositionEncoding::None, true);
  open_tab(state, "word-order");
  finish_shuffle();
  EXPECT_NE(state.word_order.shuffle.error().find("needs computed values"), std::string::npos)
      << state.word_order.shuffle.error();
}

TEST_F(WordOrderTabTest, EveryViewDrawsForEveryEncodingAlsoInPresenterMode) {
  for (bool presenter : {false, true}) {
    state.ui.presenter = presenter;
    for (PositionEncoding pos : all_position_encodings()) {
      use(pos);
      open_tab(state, "word-order");
      for (int view = 0; view < kWordOrderViewCount; ++view) {
        state.word_order.chosen = WordOrderView(view);
        finish_shuffle();
        EXPECT_EQ(state.tabs.tool, ToolTab::WordOrder);
      }
    }
  }
}

TEST_F(WordOrderTabTest, TheUseButtonSwitchesTheEncoding) {
  use(PositionEncoding::None);
  open_tab(state, "word-order");
  state.word_order.chosen = WordOrderView::Alibi;
  frame();
  frame();
  const PlacedItem button = item("Switch the run's position encoding");
  ASSERT_GT(button.max.x, button.min.x);
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2((button.min.x + button.max.x) / 2, (button.min.y + button.max.y) / 2);
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  EXPECT_EQ(state.session.config.pos, PositionEncoding::Alibi);
}

}  // namespace
}  // namespace attnlab::gui
