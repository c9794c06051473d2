// The one way caches of the shown trace are invalidated: each remembers the trace generation and
// its own key it was built for. Adopting a trace bumps the generation, and every cache (heatmaps,
// mistake maps, tensor colour scales) is built again once, and not again on frames that change
// nothing; a cache's own key (the heatmap view, the sequence shown) rebuilds that cache alone, with
// no flag for anyone to forget.
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

// How many times each cache has been built.
struct Builds {
  uint64_t heatmaps, mistake_maps, magnitudes;
  bool operator==(const Builds&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Builds& b) {
  return out << "{heatmaps " << b.heatmaps << ", mistake maps " << b.mistake_maps << ", magnitudes "
             << b.magnitudes << "}";
}

class TraceCaches : public HeadlessImGui {
 protected:
  Builds builds() const {
    return {state.heads.heatmaps.builds(), state.mistakes.maps.builds(),
            state.tensors.magnitudes.builds()};
  }
  // seed003 with two sequences and mask-zero injected, the mistakes tab open: every cache is used.
  void start_with_every_cache() {
    start_on("seed003");
    Config config = state.session.config;
    config.batch = 2;
    config.mistake = Mistake::MaskZero;
    set_config(state, config);
    ASSERT_TRUE(open_tab(state, "mistakes"));
    frame();
    frame();
    ASSERT_EQ(state.tabs.tool, ToolTab::Mistakes);
    ASSERT_EQ(state.frame.mistake_placements.size(), 3u);
  }
};

TEST_F(TraceCaches, ANewTraceRebuildsEveryCacheOnceAndAQuietFrameNone) {
  start_with_every_cache();
  const Builds before = builds();
  const uint64_t generation = state.session.generation;
  frame();
  EXPECT_EQ(builds(), before) << "a frame without changes rebuilds nothing";

  Config config = state.session.config;
  config.n_heads = 4;  // d_model 4: one feature per head
  set_config(state, config);
  ASSERT_EQ(state.session.trace->config.n_heads, 4);
  EXPECT_EQ(state.session.generation, generation + 1) << "adopting a trace bumps the generation";
  frame();
  const Builds once = {before.heatmaps + 1, before.mistake_maps + 1, before.magnitudes + 1};
  EXPECT_EQ(builds(), once);
  EXPECT_EQ(state.heads.heatmaps.value().heads, 4) << "built from the new trace";
  EXPECT_EQ(state.frame.heatmap_placements.size(), 4u);
  frame();
  frame();
  EXPECT_EQ(builds(), once) << "and not again while nothing changes";

  // The same config again is a new trace all the same (its address may even be the old one's).
  set_config(state, config);
  frame();
  EXPECT_EQ(builds(), (Builds{once.heatmaps + 1, once.mistake_maps + 1, once.magnitudes + 1}));
}

TEST_F(TraceCaches, TheHeatmapViewRebuildsTheHeatmapsOnly) {
  start_with_every_cache();
  const Builds before = builds();
  const uint64_t generation = state.session.generation;
  state.ui.heatmap_view = HeatmapView::Scores;
  frame();
  EXPECT_EQ(builds(), (Builds{before.heatmaps + 1, before.mistake_maps, before.magnitudes}));
  EXPECT_EQ(state.heads.heatmaps.value().view, HeatmapView::Scores);
  EXPECT_EQ(state.session.generation, generation) << "no new trace";
  frame();
  EXPECT_EQ(builds().heatmaps, before.heatmaps + 1);
}

TEST_F(TraceCaches, TheSequenceShownRebuildsTheMapsWithoutAFlag) {
  start_with_every_cache();
  const Builds before = builds();
  state.walk.batch_shown = 1;  // as any panel may set it, marking nothing dirty
  frame();
  EXPECT_EQ(builds(), (Builds{before.heatmaps + 1, before.mistake_maps + 1, before.magnitudes}));
  EXPECT_EQ(state.heads.heatmaps.value().batch_index, 1) << "the heads panel shows sequence 1";
  // The correct run's map of head 0, sequence 1, cell (2, 1), as the core recorded it.
  const Tensor& weights = state.session.correct_trace->find("weights")->tensor;
  EXPECT_EQ(state.mistakes.maps.value()[0].shown[size_t(2 * 11 + 1)], weights.at({1, 0, 2, 1}));
}

}  // namespace
}  // namespace attnlab::gui
