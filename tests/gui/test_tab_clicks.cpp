// The tool tabs clicked as a person clicks them (issue 37): the mouse moved over one control of the
// tab (found by its tooltip or its drawn label), its button down one frame and up the next, as the
// GLFW backend feeds ImGui; then what the tab shows is checked against the core's own numbers for
// the new state. Every check fails if the click did nothing: the state before it differs.
//   Counters  the T slider: the attention memory and the attend stage's FLOPs are the core's counts
//   Mistakes  a mistake picked in the combo: the buggy map is the core's buggy run's record
//   Paths     "measure again": a new measurement starts, and ends with outputs that agree
//   Tensors   a stage box: the stage view draws that stage's records
//   Code      a stage box: the highlighted line is the core's code line of that stage
//   Checks    its tab label: the panel shows the checks (the step's formula), not the code
//   Decode    the step slider: the token, cache and costs of the core's last decode step
//   Flash     the Br slider: the tiles computed and skipped are the core's count for the new size
//   Train     Step: a model of the tab's settings is made and trained exactly one step
//   KV cache  the K/V heads slider (Controls, Next lessons): the cache per token is the core's
//   count
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <thread>

#include "app/common/format.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/gui/state/mistake_maps.hpp"
#include "app/gui/state/trace_jobs.hpp"
#include "core/flash/tile_plan.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/teaching/code_view.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/mha.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

constexpr const char* kControlsTTip = "Sequence length T: 0 takes as many tokens as the sentence";
constexpr const char* kMistakeTip = "Inject one classic bug into the forward pass";
constexpr const char* kMeasureTip = "Run both paths 5 times each on this config";
constexpr const char* kStageBoxTip = "Go to this stage";  // after "makes ...\n" where it makes any
constexpr const char* kChecksTabTip = "The current step's formula and cost";
constexpr const char* kDecodeStepTip = "The decode step shown";
constexpr const char* kFlashRowsTip = "Br: query rows per tile";
constexpr const char* kTrainStepTip = "One training step (while paused)";
constexpr const char* kKvHeadsTip = "How many K/V heads the h query heads share";

class TabClicks : public HeadlessImGui {
 protected:
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
  void click_centre(ImVec2 min, ImVec2 max) {
    click_at(ImVec2((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f));
  }
  // A slider clicked at `fraction` of its frame's width (0: its left end); `label` is the text
  // ImGui draws to the right of the frame, inside the item.
  void click_slider(const PlacedItem& slider, float fraction, const char* label = "") {
    float right = slider.max.x;
    if (*label) right -= ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x;
    click_at(ImVec2(slider.min.x + 3 + fraction * (right - slider.min.x - 6),
                    (slider.min.y + slider.max.y) * 0.5f));
  }
  // The one control drawn last frame whose tooltip contains `tip`.
  PlacedItem control(const std::string& tip) {
    std::vector<PlacedItem> found;
    for (const PlacedItem& i : state.frame.items)
      if (i.label.find(tip) != std::string::npos) found.push_back(i);
    EXPECT_FALSE(found.empty()) << "no control with the tooltip \"" << tip << "\"";
    return found.empty() ? PlacedItem{} : found.front();
  }
  // The stage box of `stage` in the pipeline strip (the boxes are drawn in the stages' order).
  PlacedItem stage_box(Stage stage) {
    std::vector<PlacedItem> boxes;
    for (const PlacedItem& i : state.frame.items)
      if (i.label.find(kStageBoxTip) != std::string::npos) boxes.push_back(i);
    EXPECT_EQ(boxes.size(), size_t(kStageCount));
    return boxes.size() == size_t(kStageCount) ? boxes[size_t(stage)] : PlacedItem{};
  }
  // Every text the last frame drew, one run a line.
  static std::string drawn() {
    std::string all;
    for (const DrawnText& text : drawn_texts()) all += text.text + "\n";
    return all;
  }
  static bool shows(const std::string& text) { return drawn().find(text) != std::string::npos; }
  // The same where a sentence may wrap (a text's lines are drawn one by one).
  static bool shows_wrapped(const std::string& text) {
    std::string all = drawn();
    std::replace(all.begin(), all.end(), '\n', ' ');
    return all.find(text) != std::string::npos;
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
  // The core's own run of the shown config and inputs, beside the app's.
  Trace core_run() { return run(state.session.trace->config, shown_trace_inputs(state)); }
};

TEST_F(TabClicks, CountersTSliderShowsTheCoresCountsForTheNewLength) {
  start_on("seed003");
  open_tool_tab(ToolTab::Counters);
  settle();
  const int64_t before_elements = state.session.trace->counters.attention_elements;
  const std::string before_attend =
      count_text(state.session.trace->stage_flops(Stage::Attend), "FLOP");
  ASSERT_TRUE(shows(std::to_string(before_elements) + " weights")) << drawn();
  const int64_t tokens = state.session.trace->config.tokens();
  click_slider(control(kControlsTTip), 0.05f);  // a few tokens
  settle();
  ASSERT_NE(state.session.trace->config.tokens(), tokens) << "the click moved T";
  const Trace core = core_run();
  ASSERT_NE(core.counters.attention_elements, before_elements);
  const std::string text = drawn();
  EXPECT_NE(text.find(std::to_string(core.counters.attention_elements) + " weights"),
            std::string::npos)
      << "B·h·T² of the core, " << core.counters.attention_elements << ", in:\n"
      << text;
  EXPECT_EQ(text.find(std::to_string(before_elements) + " weights"), std::string::npos)
      << "the old count is gone";
  const std::string attend = count_text(core.stage_flops(Stage::Attend), "FLOP");
  ASSERT_NE(attend, before_attend);
  EXPECT_NE(text.find(attend), std::string::npos) << "the attend stage's FLOPs " << attend;
  EXPECT_NE(text.find("total: " + std::to_string(core.counters.parameters())), std::string::npos);
}

TEST_F(TabClicks, MistakesComboPickShowsTheCoresBuggyMap) {
  start_on("seed003");
  open_tool_tab(ToolTab::Mistakes);
  settle();
  ASSERT_EQ(state.session.config.mistake, Mistake::None);
  EXPECT_TRUE(current_mistake_maps(state)[1].empty()) << "no buggy map without a mistake";
  const PlacedItem combo = control(kMistakeTip);
  click_centre(combo.min, combo.max);  // opens the list
  frame();                             // which ImGui shows from the frame after it is sized
  const MistakeInfo& info = mistake_info(Mistake::NoScale);
  const DrawnText* entry = nullptr;
  const std::vector<DrawnText> texts = drawn_texts();
  for (const DrawnText& text : texts)
    if (text.text == info.name && text.window.find("##Combo") != std::string::npos) entry = &text;
  ASSERT_NE(entry, nullptr) << "the open list shows " << info.name << ":\n" << drawn();
  click_centre(ImVec2(entry->rect.x, entry->rect.y), ImVec2(entry->rect.z, entry->rect.w));
  settle();
  ASSERT_EQ(state.session.trace->config.mistake, Mistake::NoScale) << "the click picked it";
  ASSERT_TRUE(state.session.mistake_report);
  const std::string record = state.session.mistake_report->record;
  const HeatmapSet& buggy = current_mistake_maps(state)[1];
  ASSERT_FALSE(buggy.empty()) << "the buggy map of " << record;
  EXPECT_FALSE(state.frame.mistake_placements.empty()) << "and it is drawn";
  // The core's buggy run (the shown config carries the mistake): its record, head 0, batch 0.
  const Trace core = core_run();
  const TensorRecord* made = core.find(record);
  ASSERT_NE(made, nullptr) << record;
  ASSERT_EQ(made->tensor.dim(), 4);  // (B, h, T, T)
  const std::vector<Scalar> values = made->tensor.to_vector();
  ASSERT_GE(values.size(), size_t(buggy.rows * buggy.cols));
  int compared = 0;
  for (int64_t i = 0; i < buggy.rows * buggy.cols; ++i) {
    const double want = values[size_t(i)];
    if (!std::isfinite(want) || std::abs(want) > 1e8) continue;  // masked: shown as 0
    EXPECT_NEAR(buggy.shown[size_t(i)], want, 1e-5 * std::max(1.0, std::abs(want))) << i;
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

TEST_F(TabClicks, PathsMeasureAgainStartsANewMeasurement) {
  start_on("seed003");
  open_tool_tab(ToolTab::Paths);
  settle();
  ASSERT_FALSE(state.paths.comparison.pending()) << "the first measurement is over";
  ASSERT_NE(state.paths.comparison.result_for(shown_key(state, WholeTrace{})), nullptr);
  const PlacedItem button = control(kMeasureTip);
  click_centre(button.min, button.max);
  EXPECT_TRUE(state.paths.comparison.pending()) << "the click started a measurement";
  settle();
  const PathComparison* result = state.paths.comparison.result_for(shown_key(state, WholeTrace{}));
  ASSERT_NE(result, nullptr);
  EXPECT_LT(result->max_abs_difference, 1e-5);
  EXPECT_TRUE(shows("outputs agree")) << drawn();
}

TEST_F(TabClicks, TensorsStageBoxDrawsThatStagesRecords) {
  start_on("seed003");
  open_tool_tab(ToolTab::Tensors);
  settle();
  const auto of_stage = [this](Stage stage) {
    int count = 0;
    for (const std::string& name : state.frame.scene_records)
      if (const TensorRecord* r = state.session.trace->find(name); r && r->stage == stage) ++count;
    return count;
  };
  ASSERT_EQ(of_stage(Stage::Attend), 0) << "the first step draws no attend record";
  const PlacedItem box = stage_box(Stage::Attend);
  click_centre(box.min, box.max);
  settle();
  ASSERT_EQ(current_step(state)->stage, Stage::Attend);
  EXPECT_GT(of_stage(Stage::Attend), 0) << "the stage view draws the attend stage's records";
}

TEST_F(TabClicks, CodeStageBoxHighlightsTheCoresLineOfThatStage) {
  start_on("seed003");
  state.tabs.requested_info = InfoTab::Code;
  settle();
  ASSERT_EQ(state.tabs.info, InfoTab::Code);
  const std::vector<CodeLine> code = reference_code(state.session.trace->config);
  const auto highlighted_stage = [&]() -> std::optional<Stage> {
    if (state.code.highlight < 0 || state.code.highlight >= int(code.size())) return std::nullopt;
    return code[size_t(state.code.highlight)].stage;
  };
  ASSERT_NE(highlighted_stage(), std::optional<Stage>(Stage::Concat));
  const PlacedItem box = stage_box(Stage::Concat);
  click_centre(box.min, box.max);
  settle();
  EXPECT_EQ(highlighted_stage(), std::optional<Stage>(Stage::Concat))
      << "line " << state.code.highlight << " of the core's code view";
}

TEST_F(TabClicks, ChecksTabLabelShowsTheChecksNotTheCode) {
  start_on("seed003");
  state.tabs.requested_info = InfoTab::Code;
  settle();
  const std::vector<CodeLine> code = reference_code(state.session.trace->config);
  ASSERT_FALSE(code.empty());
  const std::string def_line = code.front().text.substr(0, 12);
  ASSERT_TRUE(shows(def_line)) << "the code shows " << def_line;
  ASSERT_FALSE(shows("rows sum to 1 within")) << "the checks are not shown yet";
  const PlacedItem tab = control(kChecksTabTip);
  click_centre(tab.min, tab.max);
  settle();
  EXPECT_EQ(state.tabs.info, InfoTab::Checks);
  EXPECT_FALSE(shows(def_line)) << "the code is gone";
  // The run's checks, with the core's parameter count.
  const std::string parameters =
      "parameters " + count_text(double(core_run().counters.parameters()), "");
  EXPECT_TRUE(shows("rows sum to 1 within")) << drawn();
  EXPECT_TRUE(shows(parameters)) << parameters << " in:\n" << drawn();
}

TEST_F(TabClicks, DecodeStepSliderShowsTheCoresLastStep) {
  start_on("seed003");
  Config c = state.session.config;
  c.mask.causal = true;
  c.decode_steps = 4;
  set_config(state, c);
  settle();
  ASSERT_EQ(state.session.trace->decode.steps.size(), 4u) << state.session.run_error;
  open_tool_tab(ToolTab::Decode);
  settle();
  ASSERT_EQ(state.decode.step, 0);
  const Trace core = core_run();
  ASSERT_EQ(core.decode.steps.size(), 4u);
  const DecodeStep& first = core.decode.steps.front();
  const DecodeStep& last = core.decode.steps.back();
  // "token t \"word\": ..." (or "token t: cache ..." where the panel is short): step t's words.
  const std::string last_token = "token " + std::to_string(last.position);
  const std::string last_cache = format_bytes(double(last.cache_bytes));
  ASSERT_NE(first.position, last.position);
  ASSERT_NE(format_bytes(double(first.cache_bytes)), last_cache);
  const auto shows_token = [&](const std::string& text) {
    return text.find(last_token + " ") != std::string::npos ||
           text.find(last_token + ":") != std::string::npos;
  };
  EXPECT_FALSE(shows_token(drawn())) << drawn();
  EXPECT_FALSE(shows(last_cache)) << drawn();
  click_slider(control(kDecodeStepTip), 1.0f);  // the right end: the last step
  settle();
  EXPECT_EQ(state.decode.step, 3);
  const std::string text = drawn();
  EXPECT_TRUE(shows_token(text)) << last_token << " in:\n" << text;
  EXPECT_NE(text.find(last_cache), std::string::npos) << last_cache << " in:\n" << text;
  EXPECT_NE(text.find(count_text(last.recompute_flops, "FLOP")), std::string::npos);
}

TEST_F(TabClicks, FlashRowsSliderShowsTheCoresTileCount) {
  start_on("seed003");
  open_tool_tab(ToolTab::Flash);
  settle();
  const TileSizes before = state.flash.tiles;
  ASSERT_GT(before.rows, 1) << "the tab chose its tiles";
  click_slider(control(kFlashRowsTip), 0.0f, "Br");  // the left end: one row per tile
  settle();
  ASSERT_EQ(state.flash.tiles.rows, 1) << "the click set Br";
  EXPECT_EQ(state.flash.tiles.cols, before.cols);
  const FlashCounters core =
      count_tiles(state.session.trace->config, state.flash.tiles, flash_workers());
  const FlashCounters old = count_tiles(state.session.trace->config, before, flash_workers());
  ASSERT_NE(core.tiles_total, old.tiles_total);
  const std::string line = std::to_string(core.tiles_computed) + " of " +
                           std::to_string(core.tiles_total) + " tiles computed, " +
                           std::to_string(core.tiles_skipped) + " skipped";
  EXPECT_TRUE(shows(line)) << line << " in:\n" << drawn();
}

TEST_F(TabClicks, TrainStepButtonTrainsOneStep) {
  start_on("seed003");
  open_tool_tab(ToolTab::Train);
  settle();
  ASSERT_FALSE(state.train.run && state.train.run->has_model()) << "no model before the click";
  const PlacedItem button = control(kTrainStepTip);
  click_centre(button.min, button.max);
  settle();
  ASSERT_TRUE(state.train.run && state.train.run->has_model()) << state.train.error;
  // The step runs on the training thread: frames until it is done (a bound, not a timing check).
  for (int i = 0; i < 3000 && state.train.run->steps_done() < 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    frame();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a second step would show now
  frame();
  EXPECT_EQ(state.train.run->steps_done(), 1);
  EXPECT_FALSE(state.train.run->running()) << "one step, not a run";
  const std::string progress = "step 1 / " + std::to_string(state.train.run->steps_total());
  EXPECT_TRUE(shows(progress)) << progress << " in:\n" << drawn();
}

TEST_F(TabClicks, KVCacheHeadsSliderShowsTheCoresCachePerToken) {
  start_on("tiny");  // 4 heads
  open_tool_tab(ToolTab::KVCache);
  settle();
  if (!std::any_of(state.frame.items.begin(), state.frame.items.end(), [](const PlacedItem& i) {
        return i.label.find(kKvHeadsTip) != std::string::npos;
      })) {  // the Controls' "Next lessons" section, opened by a click on its header
    const std::vector<DrawnText> texts = drawn_texts();
    const auto header = std::find_if(texts.begin(), texts.end(),
                                     [](const DrawnText& t) { return t.text == "Next lessons"; });
    ASSERT_NE(header, texts.end()) << drawn();
    click_centre(ImVec2(header->rect.x, header->rect.y), ImVec2(header->rect.z, header->rect.w));
    settle();
  }
  const int64_t before = state.session.trace->counters.kv_cache_numbers;
  ASSERT_EQ(state.session.trace->config.kv_heads(), 4);
  const std::string before_line = "= " + std::to_string(before) + " numbers per token";
  ASSERT_TRUE(shows_wrapped(before_line)) << before_line << " in:\n" << drawn();
  click_slider(control(kKvHeadsTip), 0.0f);  // the left end: one K/V head (multi-query)
  settle();
  ASSERT_EQ(state.session.trace->config.kv_heads(), 1) << "the click chose one K/V head";
  const int64_t core = core_run().counters.kv_cache_numbers;
  ASSERT_NE(core, before);
  const std::string line = "= " + std::to_string(core) + " numbers per token";
  EXPECT_TRUE(shows_wrapped(line)) << line << " in:\n" << drawn();
  EXPECT_FALSE(shows_wrapped(before_line));
}

}  // namespace
}  // namespace attnlab::gui
