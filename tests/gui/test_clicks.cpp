// Clicks as a user makes them (the mouse moved over a control, its button down one frame and up
// the next, as the GLFW backend feeds ImGui 1.86), never calls into the state: the Heads tools
// tab's ablation checkbox switches the clicked head and no other, the Model tab's layer slider
// shows the new layer's importance and never the old one's, and a click that changes the input
// with any tab open replaces the trace only between frames (no panel reads a freed trace; every
// measurement on screen belongs to the trace generation shown).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "app/gui/state/trace_jobs.hpp"
#include "core/trace/mha.hpp"
#include "headless_imgui.hpp"
#include "tiny_checkpoints.hpp"

namespace attnlab::gui {
namespace {

namespace fs = std::filesystem;
using attnlab::fixtures::tiny_checkpoint;

constexpr const char* kAblationTip = "Head on or off";
constexpr const char* kImportanceTip = "Importance: how far the output moves";
constexpr const char* kModelLayerTip = "The layer shown as the trace";
constexpr const char* kControlsTTip = "Sequence length T: 0 takes as many tokens as the sentence";

// Head importance measured independently of head_importance(): the traced run (attnlab::run) of
// the shown config with each head switched off in turn, || out - out without it ||_F.
std::vector<double> importance_by_traced_runs(const Config& shown, const Inputs& inputs) {
  Config base = shown;
  base.mistake = Mistake::None;
  base.ablated_heads.resize(size_t(base.n_heads), false);
  const std::vector<Scalar> full = run(base, inputs).find("out")->tensor.to_vector();
  std::vector<double> importance(size_t(base.n_heads), 0.0);
  for (int64_t h = 0; h < base.n_heads; ++h) {
    if (base.ablated_heads[size_t(h)]) continue;
    Config without = base;
    without.ablated_heads[size_t(h)] = true;
    const std::vector<Scalar> ablated = run(without, inputs).find("out")->tensor.to_vector();
    double sum = 0;
    for (size_t i = 0; i < full.size(); ++i)
      sum += (double(full[i]) - ablated[i]) * (double(full[i]) - ablated[i]);
    importance[size_t(h)] = std::sqrt(sum);
  }
  return importance;
}

class Clicks : public HeadlessImGui {
 protected:
  // The controls whose tooltip starts with `tip`, in the order drawn last frame.
  std::vector<PlacedItem> items_with(const std::string& tip) const {
    std::vector<PlacedItem> found;
    for (const PlacedItem& i : state.frame.items)
      if (i.label.rfind(tip, 0) == 0) found.push_back(i);
    return found;
  }
  // The left button pressed and released at `at` (whole pixels, as ImGui floors the mouse).
  void click_at(ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(std::floor(at.x), std::floor(at.y));
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
  void click(const PlacedItem& item) {
    click_at(ImVec2((item.min.x + item.max.x) * 0.5f, (item.min.y + item.max.y) * 0.5f));
  }
  // A slider clicked at `fraction` of its frame's width (0: its left end); `label` is the text
  // ImGui draws to the right of the frame, inside the item.
  void click_slider(const PlacedItem& slider, float fraction, const char* label = "") {
    float right = slider.max.x;
    if (*label) right -= ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x;
    click_at(ImVec2(slider.min.x + 3 + fraction * (right - slider.min.x - 6),
                    (slider.min.y + slider.max.y) * 0.5f));
  }
  // Every background trace and job finished and taken, then a frame drawn with them.
  void settle() {
    for (int round = 0; round < 4; ++round) {
      state.session.worker->wait_idle();
      poll_trace(state);
      wait_for_measurements(state);
      frame();
    }
  }
  void open_tool_tab(ToolTab tab) {
    state.tabs.requested_tool = tab;
    frame();
    frame();
    ASSERT_EQ(state.tabs.tool, tab);
  }
  std::vector<bool> heads_off() const {
    std::vector<bool> off = state.session.trace->config.ablated_heads;
    off.resize(size_t(state.session.trace->config.n_heads), false);
    return off;
  }
  // The importance bars drawn last frame are the shown trace's, to 1e-4 of the largest.
  void expect_importance_bars_of_the_shown_trace() {
    const std::vector<double>& bars = state.frame.importance_bars;
    ASSERT_EQ(bars.size(), size_t(state.session.trace->config.n_heads)) << "bars drawn";
    EXPECT_EQ(state.frame.importance_generation, state.session.generation);
    const std::vector<double> expected =
        importance_by_traced_runs(state.session.trace->config, shown_trace_inputs(state));
    const double largest = *std::max_element(expected.begin(), expected.end());
    ASSERT_GT(largest, 0);
    for (size_t h = 0; h < bars.size(); ++h)
      EXPECT_NEAR(bars[h], expected[h], 1e-4 * largest) << "head " << h;
  }
};

TEST_F(Clicks, AblationCheckboxSwitchesTheClickedHeadAndNoOther) {
  start_on("tiny");  // 4 heads
  open_tool_tab(ToolTab::HeadTools);
  settle();
  expect_importance_bars_of_the_shown_trace();
  std::mt19937 random(28);
  std::vector<bool> expected = heads_off();
  for (int click_number = 0; click_number < 12; ++click_number) {
    const std::vector<PlacedItem> boxes = items_with(kAblationTip);
    ASSERT_EQ(boxes.size(), 4u);
    const size_t head = random() % boxes.size();
    const uint64_t generation = state.session.generation;
    click(boxes[head]);
    expected[head] = !expected[head];
    EXPECT_EQ(heads_off(), expected) << "click " << click_number << " on head " << head;
    EXPECT_EQ(state.session.generation, generation + 1) << "one new trace per click";
    frame();  // the first frame of the new trace
    EXPECT_EQ(items_with(kAblationTip)[head].min.y, boxes[head].min.y) << "the boxes stay put";
    // Until it is measured again, no importance is drawn beside the new trace's checkboxes.
    if (!state.frame.importance_bars.empty())
      EXPECT_EQ(state.frame.importance_generation, state.session.generation);
  }
  EXPECT_EQ(state.session.adopted_while_drawing, 0u);
  settle();
  expect_importance_bars_of_the_shown_trace();
  for (size_t h = 0; h < expected.size(); ++h)
    if (expected[h]) EXPECT_EQ(state.frame.importance_bars[h], 0.0) << "head " << h << " is off";
}

TEST_F(Clicks, ShiftDigitAndTheCheckboxAgreeOnTheHead) {
  start_on("tiny");
  open_tool_tab(ToolTab::HeadTools);
  ImGui::GetIO().KeyShift = true;
  press(kKey0 + 2);  // Shift+2: head 2 off
  ImGui::GetIO().KeyShift = false;
  EXPECT_EQ(heads_off(), (std::vector<bool>{false, false, true, false}));
  click(items_with(kAblationTip).at(2));  // and on again by its checkbox
  EXPECT_EQ(heads_off(), (std::vector<bool>(4, false)));
  EXPECT_EQ(state.session.adopted_while_drawing, 0u);
}

TEST_F(Clicks, ModelLayerSliderShowsTheNewLayersImportanceNeverTheOld) {
  start_on("seed003");
  state.model.requested_layer = 0;
  start_model_load(state, tiny_checkpoint("gpt2-f32-tied"));
  settle();
  ASSERT_TRUE(model_is_current(state)) << state.model.error << state.model.sentence_error;
  const int64_t layers = state.model.session->model.spec.n_layers;
  ASSERT_GE(layers, 2);
  open_tool_tab(ToolTab::HeadTools);
  settle();
  expect_importance_bars_of_the_shown_trace();
  const std::vector<double> layer0 = state.frame.importance_bars;
  const Config config0 = state.session.trace->config;

  open_tool_tab(ToolTab::Model);
  const std::vector<PlacedItem> sliders = items_with(kModelLayerTip);
  ASSERT_EQ(sliders.size(), 1u);
  const uint64_t generation = state.session.generation;
  click_slider(sliders[0], 1.0f, "layer");  // the right end: the last layer
  frame();
  EXPECT_EQ(state.model.layer, layers - 1);
  EXPECT_EQ(state.session.generation, generation + 1);
  EXPECT_EQ(state.session.adopted_while_drawing, 0u);
  // The same sizes with another layer's weights: what made the old numbers look current.
  EXPECT_EQ(state.session.trace->config.n_heads, config0.n_heads);
  EXPECT_EQ(state.session.trace->config.d_model, config0.d_model);

  open_tool_tab(ToolTab::HeadTools);
  if (!state.frame.importance_bars.empty())  // drawn before it was measured again: stale
    EXPECT_EQ(state.frame.importance_generation, state.session.generation);
  settle();
  expect_importance_bars_of_the_shown_trace();
  double moved = 0;
  for (size_t h = 0; h < layer0.size(); ++h)
    moved = std::max(moved, std::abs(state.frame.importance_bars[h] - layer0[h]));
  EXPECT_GT(moved, 1e-3) << "another layer's heads matter differently";
}

TEST_F(Clicks, ChangingTheInputWithEveryTabOpenReplacesTheTraceBetweenFrames) {
  start_on("tiny");
  state.word_order.chosen = WordOrderView::Shuffle;  // the view with a background run
  int changes = 0;
  for (int t = 0; t < kToolTabCount; ++t) {
    const ToolTab tab = ToolTab(t);
    if (tab == ToolTab::Model) continue;  // no model open: its own test above
    SCOPED_TRACE(tool_tab_name(tab));
    open_tool_tab(tab);
    settle();
    const std::vector<PlacedItem> sliders = items_with(kControlsTTip);
    ASSERT_EQ(sliders.size(), 1u);
    const int64_t before = state.session.trace->config.tokens();
    const uint64_t generation = state.session.generation;
    click_slider(sliders[0], ++changes % 2 ? 0.08f : 0.05f);  // a few tokens: another T every tab
    frame();
    EXPECT_GT(state.session.generation, generation);
    EXPECT_NE(state.session.trace->config.tokens(), before);
    EXPECT_EQ(state.session.adopted_while_drawing, 0u);
    if (!state.frame.importance_bars.empty())
      EXPECT_EQ(state.frame.importance_generation, state.session.generation);
    settle();
    // Every measurement the tab shows now is keyed by the trace on screen.
    if (tab == ToolTab::HeadTools) expect_importance_bars_of_the_shown_trace();
    if (tab == ToolTab::Paths)
      EXPECT_TRUE(state.paths.comparison.result_for(shown_key(state, WholeTrace{})));
    if (tab == ToolTab::WordOrder)
      EXPECT_TRUE(
          state.word_order.shuffle.result_for(shown_key(state, state.word_order.shuffle_seed)));
  }
}

TEST_F(Clicks, WordOrderUseButtonsSwitchTheEncodingBetweenFrames) {
  start_on("tiny");
  open_tool_tab(ToolTab::WordOrder);
  for (const char* view : {"RoPE", "ALiBi", "Sinusoidal PE"}) {
    SCOPED_TRACE(view);
    for (int v = 0; v < kWordOrderViewCount; ++v)
      if (std::string(word_order_view_label(WordOrderView(v))) == view)
        state.word_order.chosen = WordOrderView(v);
    frame();
    const std::vector<PlacedItem> use = items_with("Switch the run's position encoding");
    if (use.empty()) continue;  // the run already uses it
    const PositionEncoding before = state.session.config.pos;
    click(use[0]);
    EXPECT_NE(state.session.config.pos, before);
    EXPECT_EQ(state.session.adopted_while_drawing, 0u);
  }
}

}  // namespace
}  // namespace attnlab::gui
