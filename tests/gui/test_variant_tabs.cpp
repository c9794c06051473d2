// The next lessons in headless frames: cross-attention's maps are T_q x T_k on screen; the expand
// step exists only with grouped K/V heads; the Decode tab takes the stepping keys; the KV cache
// tab's rows are the core's counters; presenter mode gives the two tabs the whole width.
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/layout.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class VariantTabs : public HeadlessImGui {
 protected:
  void use(const Config& config) {
    set_config(state, config);
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_TRUE(state.session.trace) << state.session.run_error;
    frame();
    frame();
  }
  static Config small(int64_t h, int64_t n_kv) {
    Config c;
    c.sentence = "the cat sat on the mat and looked";
    c.d_model = 16;
    c.n_heads = h;
    c.n_kv_heads = n_kv;
    return c;
  }
};

TEST_F(VariantTabs, CrossAttentionMapsAreTqByTkWithTheKeySidePaddingHidden) {
  Config c = small(4, 0);
  c.sentence = "the cat sat";
  c.sentence_kv = "le chat est assis sur le tapis";  // 7 keys, the last 3 padding
  c.mask.padding_lengths = {4};
  use(c);
  const HeatmapSet& maps = current_heatmaps(state);
  EXPECT_EQ(maps.rows, 3);
  EXPECT_EQ(maps.cols, 7);
  EXPECT_EQ(maps.masked_cells, 4 * 3 * 3);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 7; ++j) EXPECT_EQ(maps.masked(2, i, j), j >= 4);
  ASSERT_EQ(state.frame.heatmap_placements.size(), 4u);
  for (const HeatmapPlacement& p : state.frame.heatmap_placements) {
    const float w = p.max.x - p.min.x, h = p.max.y - p.min.y;
    EXPECT_NEAR(w / h, 7.0f / 3.0f, 0.05f) << "square cells: the map is 7 wide, 3 tall";
    EXPECT_FLOAT_EQ(p.uv_max.x, 1.0f);
    EXPECT_FLOAT_EQ(p.uv_max.y, 1.0f);
  }
}

TEST_F(VariantTabs, TheExpandStepComesWithGroupedHeadsOnly) {
  use(small(8, 2));
  EXPECT_TRUE(go_to_named_step(state, "transpose:expand"));
  const PipelineStep* step = current_step(state);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->substep, Substep::Expand);
  use(small(8, 0));
  EXPECT_FALSE(go_to_named_step(state, "transpose:expand"));
}

TEST_F(VariantTabs, TheDecodeTabTakesTheSteppingKeys) {
  Config c = small(4, 2);
  c.mask.causal = true;
  c.decode_steps = 3;
  use(c);
  ASSERT_EQ(state.session.trace->decode.steps.size(), 3u);
  ASSERT_TRUE(open_tab(state, "decode"));
  frame();
  frame();
  ASSERT_EQ(state.tabs.tool, ToolTab::Decode);
  const int walk_before = state.walk.step_index;
  EXPECT_EQ(state.decode.step, 0);
  press(kGlfwRight);
  EXPECT_EQ(state.decode.step, 1);
  press(kGlfwEnd);
  EXPECT_EQ(state.decode.step, 2);
  press(kGlfwRight);
  EXPECT_EQ(state.decode.step, 2) << "clamped at the last decoded token";
  press(kGlfwHome);
  EXPECT_EQ(state.decode.step, 0);
  EXPECT_EQ(state.walk.step_index, walk_before) << "the pipeline walk stays where it was";
  ASSERT_TRUE(open_tab(state, "tensors"));
  frame();
  frame();
  press(kGlfwRight);
  EXPECT_EQ(state.walk.step_index, walk_before + 1);
}

TEST_F(VariantTabs, TheKVCacheTabsRowsAreTheCoresCounters) {
  Config c = small(4, 0);
  c.kv_latent = 8;
  c.rope_dim = 2;
  use(c);
  ASSERT_TRUE(open_tab(state, "kv-cache"));
  frame();
  frame();
  const std::vector<CacheRow>& rows = state.kv_cache.rows.value();
  ASSERT_EQ(rows.size(), 4u);  // MHA, GQA-2, MQA, MLA
  const int64_t dk = 4;
  EXPECT_EQ(rows[0].kv_cache_numbers, 2 * 4 * dk);
  EXPECT_EQ(rows[1].variant, "GQA-2");
  EXPECT_EQ(rows[1].kv_cache_numbers, 2 * 2 * dk);
  EXPECT_EQ(rows[2].kv_cache_numbers, 2 * dk);
  EXPECT_EQ(rows[3].kv_cache_numbers, 8 + 2);
  EXPECT_EQ(rows[3].kv_cache_numbers, state.session.trace->counters.kv_cache_numbers);
}

TEST(VariantLayout, PresenterModeGivesTheNextLessonsTabsTheWholeWidth) {
  UiSettings ui;
  ui.presenter = true;
  const PanelLayout shared = compute_layout(ImVec2(1024, 768), 20, ui, 0, false);
  const PanelLayout alone = compute_layout(ImVec2(1024, 768), 20, ui, 0, true);
  EXPECT_LT(shared.rects[int(PanelId::Tensors)].z, 1024);
  EXPECT_GT(shared.rects[int(PanelId::Heads)].z, shared.rects[int(PanelId::Heads)].x);
  EXPECT_EQ(alone.rects[int(PanelId::Tensors)].z, 1024);
  EXPECT_EQ(alone.rects[int(PanelId::Heads)].z, alone.rects[int(PanelId::Heads)].x);
}

}  // namespace
}  // namespace attnlab::gui
