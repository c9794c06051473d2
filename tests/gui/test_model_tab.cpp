// A real model in the app (issue 22), on tiny random Hugging Face checkpoints that
// tests/numpy/hf_checkpoints.py writes: opening a folder makes its layer the trace (the core's
// weights, the pieces as labels), the Model tab's model view has a map per layer x head and a
// click opens that head, the head finder sorts, the top 10 are the core's, a bad folder is
// explained beside the field with the trace kept, Cancel stops a load, key 0 opens the tab, the
// model shown is opened again at the next start, and --sentence is the sentence of a model opened
// later.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/gui/model/model_panels.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/options.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/startup.hpp"
#include "core/pretrained/head_finder.hpp"
#include "core/pretrained/layer_trace.hpp"
#include "headless_imgui.hpp"
#include "parsed_options.hpp"
#include "tiny_checkpoints.hpp"

namespace attnlab::gui {
namespace {

namespace fs = std::filesystem;
using attnlab::fixtures::tiny_checkpoint;

class ModelTabTest : public HeadlessImGui {
 protected:
  // Opens `name` (a folder of tests/tiny_checkpoints.hpp) at `layer`, waits for it and its trace.
  void open(const std::string& name, int64_t layer = 0) {
    state.model.requested_layer = layer;
    start_model_load(state, tiny_checkpoint(name));
    wait_for_model(state);
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_TRUE(state.model.session) << state.model.error;
    ASSERT_TRUE(model_is_current(state)) << state.model.sentence_error;
    frame();
  }
  void show_model_tab() {
    state.tabs.requested_tool = ToolTab::Model;
    frame();
    frame();
    ASSERT_EQ(state.tabs.tool, ToolTab::Model);
  }
  // A click at the centre of `rect`, as the mouse does it (down one frame, up the next).
  void click(ImVec2 min, ImVec2 max) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f);
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
};

TEST_F(ModelTabTest, OpeningAFolderMakesItsLayerTheTraceWithTheCoresWeights) {
  start_on("seed003");
  open("gpt2-f32-tied", 1);
  const ModelTab& tab = state.model;
  EXPECT_EQ(tab.layer, 1);
  ASSERT_TRUE(state.session.trace);
  const Trace& trace = *state.session.trace;
  const int64_t T = int64_t(tab.tokens.ids.size());
  EXPECT_EQ(trace.config.n_heads, 4);
  EXPECT_EQ(trace.config.d_model, 32);
  EXPECT_EQ(trace.config.tokens(), T);
  EXPECT_TRUE(trace.config.mask.causal);
  // The core's own forward, run here: the trace's weights are its layer 1's.
  const PretrainedModel model = load_pretrained(tiny_checkpoint("gpt2-f32-tied"));
  const PretrainedRun reference = run_pretrained(model, tab.tokens.ids);
  const TensorRecord* weights = trace.find("weights");
  ASSERT_TRUE(weights);
  const Tensor& expected = reference.layers[1].weights;  // (1, h, T, T)
  ASSERT_EQ(weights->tensor.numel(), expected.numel());
  std::vector<float> got(size_t(expected.numel())), want(size_t(expected.numel()));
  weights->tensor.copy_to(got.data());
  expected.copy_to(want.data());
  double max_diff = 0;
  for (size_t i = 0; i < got.size(); ++i)
    max_diff = std::max(max_diff, double(std::abs(got[i] - want[i])));
  std::printf("max |trace - run_pretrained| = %.3g\n", max_diff);
  EXPECT_LT(max_diff, 1e-5);
  // No tokenizer in the folder: the pieces are "#id", and they label the trace's tokens.
  ASSERT_EQ(tab.tokens.pieces.size(), size_t(T));
  EXPECT_EQ(tab.tokens.pieces[0], "#" + std::to_string(tab.tokens.ids[0]));
  EXPECT_EQ(trace.tokens, tab.tokens.pieces);
  // The preset picker names the model; the folder went to the recent ones.
  EXPECT_EQ(state.session.preset_name, "gpt2-f32-tied, layer 1");
  ASSERT_FALSE(state.ui.recent_models.empty());
  EXPECT_EQ(state.ui.recent_models.front(), tiny_checkpoint("gpt2-f32-tied"));
  // Choosing a preset goes back to the presets.
  ASSERT_TRUE(apply_preset(state, "seed003"));
  EXPECT_FALSE(model_is_current(state));
}

// The families added as rows of the table open like the others: Phi-3's fused qkv_proj is the
// trace's one W_qkv, Gemma's head_dim its d_k; each trace's weights are the forward pass's.
TEST_F(ModelTabTest, Phi3AndGemmaOpenWithTheirRowsChoices) {
  start_on("seed003");
  for (const char* name : {"phi3-gqa-bf16-sharded", "gemma-gqa-bf16"}) {
    open(name, 2);
    ASSERT_TRUE(state.session.trace);
    const Trace& trace = *state.session.trace;
    const ModelSpec& spec = state.model.session->model.spec;
    EXPECT_EQ(trace.config.fused_qkv, spec.arch->fused_qkv()) << name;
    EXPECT_EQ(trace.config.head_dim_k(), spec.d_head) << name;
    EXPECT_EQ(trace.config.kv_heads(), 2) << name;
    const PretrainedRun reference =
        run_pretrained(state.model.session->model, state.model.tokens.ids);
    const std::vector<float> got = trace.find("weights")->tensor.to_vector();
    const std::vector<float> want = reference.layers[2].weights.to_vector();
    ASSERT_EQ(got.size(), want.size()) << name;
    double max_diff = 0;
    for (size_t i = 0; i < got.size(); ++i)
      max_diff = std::max(max_diff, double(std::abs(got[i] - want[i])));
    EXPECT_LT(max_diff, 1e-5) << name;
  }
  EXPECT_EQ(state.model.session->model.spec.d_head, 12);
}

TEST_F(ModelTabTest, AnotherSentenceOfIdsRunsAgainAndABadOneIsExplained) {
  start_on("seed003");
  open("llama-gqa-bf16-untied-sharded");
  const int64_t before = state.session.trace->config.tokens();
  ASSERT_NE(before, 5);  // the default sentence: the new one must be told apart
  set_model_sentence(state, "3, 1, 4, 1");
  set_model_sentence(state, "3, 1, 4, 1, 5");  // typed on before the first ran: the first stops
  // The pass is a job: the window goes on showing the last run until it is done.
  EXPECT_EQ(state.model.sentence, "3, 1, 4, 1, 5");
  EXPECT_EQ(state.session.trace->config.tokens(), before);
  wait_for_model(state);
  ASSERT_TRUE(state.model.sentence_error.empty()) << state.model.sentence_error;
  EXPECT_EQ(state.session.trace->config.tokens(), 5);
  EXPECT_EQ(state.model.tokens.ids, (std::vector<int64_t>{3, 1, 4, 1, 5}));
  set_model_sentence(state, "3, x");
  wait_for_model(state);
  EXPECT_NE(state.model.sentence_error.find("token ids"), std::string::npos)
      << state.model.sentence_error;
  EXPECT_EQ(state.session.trace->config.tokens(), 5);  // the last run stays
}

TEST_F(ModelTabTest, TheModelViewHasAMapPerLayerAndHeadAndAClickOpensThatHead) {
  start_on("seed003");
  open("gpt2-f32-tied");
  show_model_tab();
  const ModelSpec& spec = state.model.session->model.spec;
  ASSERT_EQ(int64_t(state.model.drawn.size()), spec.n_layers * spec.n_heads);
  for (const DrawnMap& map : state.model.drawn) EXPECT_GT(map.max.x - map.min.x, 8.0f);
  DrawnMap target;
  for (const DrawnMap& map : state.model.drawn)
    if (map.layer == 1 && map.head == 2) target = map;
  click(target.min, target.max);
  EXPECT_EQ(state.model.layer, 1);
  EXPECT_TRUE(model_is_current(state));
  EXPECT_EQ(state.heads.focus.head, 2);
  ASSERT_TRUE(current_step(state));
  EXPECT_EQ(current_step(state)->stage, Stage::Attend);
  EXPECT_EQ(state.session.preset_name, "gpt2-f32-tied, layer 1");
}

TEST_F(ModelTabTest, TheHeadFinderTableSortsByEachColumn) {
  start_on("seed003");
  open("gpt2-f32-tied");
  state.model.requested_page = ModelPage::Finder;
  show_model_tab();
  const std::vector<FoundHead>& found = state.model.found;
  ASSERT_EQ(found.size(), 8u);
  // Drawn in layer.head order first.
  ASSERT_EQ(state.model.finder_order.size(), found.size());
  for (size_t i = 0; i < found.size(); ++i) EXPECT_EQ(state.model.finder_order[i], int(i));
  // By previous-token score, largest first: the table's order follows.
  state.model.sort_column = FinderColumn::Previous;
  state.model.sort_descending = true;
  frame();
  frame();
  ASSERT_EQ(state.model.finder_order.size(), found.size());
  for (size_t i = 1; i < found.size(); ++i)
    EXPECT_GE(found[size_t(state.model.finder_order[i - 1])].previous,
              found[size_t(state.model.finder_order[i])].previous);
  // Entropy, smallest first.
  const std::vector<int> by_entropy = sorted_heads(found, FinderColumn::Entropy, false);
  for (size_t i = 1; i < by_entropy.size(); ++i)
    EXPECT_LE(found[size_t(by_entropy[i - 1])].entropy, found[size_t(by_entropy[i])].entropy);
  // The finder's scores are the core's.
  const std::vector<FoundHead> core = find_heads(state.model.session->model, *state.model.run);
  ASSERT_EQ(core.size(), found.size());
  for (size_t i = 0; i < core.size(); ++i) EXPECT_EQ(core[i].induction, found[i].induction);
}

TEST_F(ModelTabTest, TheTopTenAreTheCoresProbabilities) {
  start_on("seed003");
  open("gpt2-f32-tied");
  state.model.temperature = 0.7f;
  const std::vector<int64_t> positions = predicted_positions(state.model);
  ASSERT_EQ(positions.size(), 1u);
  const int64_t last = int64_t(state.model.tokens.ids.size()) - 1;
  EXPECT_EQ(positions[0], last);
  const std::vector<double> p = next_token_probabilities(*state.model.run, last, 0.7);
  const std::vector<TopToken> top = top_tokens(p);
  ASSERT_EQ(top.size(), 10u);
  std::vector<double> sorted = p;
  std::sort(sorted.rbegin(), sorted.rend());
  for (size_t i = 0; i < top.size(); ++i) {
    EXPECT_EQ(top[i].probability, sorted[i]);
    EXPECT_EQ(top[i].probability, p[size_t(top[i].id)]);
  }
  // The page draws, with a head switched off too (Shift+digit's ablation): the forward without it.
  state.model.requested_page = ModelPage::NextToken;
  show_model_tab();
  toggle_head_ablation(state, 1);
  state.session.worker->wait_idle();
  frame();  // the trace without it is shown, the panel asks for the pass without it
  wait_for_measurements(state);
  frame();
  const std::vector<HeadSwitch> off = switched_off_heads(state);
  ASSERT_EQ(off, (std::vector<HeadSwitch>{{0, 1}}));
  const HeadsOffRun* without_job = heads_off_run(state);
  ASSERT_TRUE(without_job) << state.model.heads_off.error();
  const PretrainedRun without =
      run_pretrained(state.model.session->model, state.model.run->ids, off);
  EXPECT_EQ(without_job->loss, next_token_loss(without));
  EXPECT_EQ(next_token_loss(*without_job->run), next_token_loss(without));
  EXPECT_NE(next_token_loss(without), next_token_loss(*state.model.run));
}

// The pass with heads switched off is a job keyed by (trace generation, the run and the heads
// off): the panel asks for it, shows its progress and Cancel while it runs and nothing of it,
// "Cancelled." once stopped, and after "Compute again" the pass's own result.
TEST_F(ModelTabTest, TheForwardWithHeadsOffIsAJobThePanelAsksForAndCanCancel) {
  start_on("seed003");
  open("gpt2-f32-tied");
  state.model.requested_page = ModelPage::NextToken;
  show_model_tab();
  toggle_head_ablation(state, 2);
  state.session.worker->wait_idle();
  poll_trace(state);
  const std::optional<ModelPassChoice> choice = model_pass_choice(state);
  ASSERT_TRUE(choice);
  EXPECT_EQ(choice->off, (std::vector<HeadSwitch>{{0, 2}}));
  EXPECT_EQ(choice->run, state.model.run);
  // A pass that runs until it is cancelled stands for a slow model under the same key: the
  // panel does not start another, draws the job's line, and has no result to show.
  const TraceKey<ModelPassChoice> key{state.session.generation, *choice};
  state.model.heads_off.start(key, [](const RunControl& control) -> HeadsOffRun {
    control.report(0.5);
    while (!control.cancel_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    control.check_cancel();
    return {};
  });
  frame();
  EXPECT_TRUE(state.model.heads_off.busy());
  EXPECT_TRUE(state.model.heads_off.started_for(key));
  EXPECT_EQ(heads_off_run(state), nullptr);
  EXPECT_EQ(item("Stop it").label, "Stop it (within a fraction of a second).");
  state.model.heads_off.cancel();  // what the line's Cancel does
  state.model.heads_off.wait();
  frame();
  EXPECT_TRUE(state.model.heads_off.cancelled());
  EXPECT_EQ(heads_off_run(state), nullptr);  // not started again on its own
  state.model.heads_off.forget();            // what "Compute again" does
  frame();
  EXPECT_TRUE(state.model.heads_off.pending());
  wait_for_measurements(state);
  frame();
  const HeadsOffRun* done = heads_off_run(state);
  ASSERT_TRUE(done) << state.model.heads_off.error();
  const PretrainedRun want =
      run_pretrained(state.model.session->model, state.model.run->ids, choice->off);
  EXPECT_EQ(done->run->logits.to_vector(), want.logits.to_vector());
  // Switched on again: no pass is asked for, and the old result is not the shown trace's.
  toggle_head_ablation(state, 2);
  state.session.worker->wait_idle();
  frame();
  EXPECT_EQ(heads_off_run(state), nullptr);
  EXPECT_FALSE(state.model.heads_off.result_for(
      TraceKey<ModelPassChoice>{state.session.generation, *choice}));
}

// Generate runs as a job: its tokens are the core's greedy ones for the shown trace (the heads
// switched off stay off), and a new trace does not show them as its own.
TEST_F(ModelTabTest, GenerateIsAJobWhoseTokensAreTheCoresGreedyOnes) {
  start_on("seed003");
  open("gpt2-f32-tied");
  state.model.requested_page = ModelPage::NextToken;
  show_model_tab();
  toggle_head_ablation(state, 0);
  state.session.worker->wait_idle();
  frame();
  state.model.generate_count = 5;
  start_generation(state);
  EXPECT_TRUE(state.model.generating.pending());
  EXPECT_EQ(state.model.generating.key()->choice.count, 5);
  wait_for_measurements(state);
  frame();
  const std::vector<GeneratedToken>* generated = generated_tokens(state);
  ASSERT_TRUE(generated) << state.model.generating.error();
  const std::vector<GeneratedToken> want = generate_greedy(
      state.model.session->model, state.model.run->ids, 5, std::vector<HeadSwitch>{{0, 0}});
  ASSERT_EQ(generated->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ((*generated)[i].id, want[i].id);
    EXPECT_EQ((*generated)[i].position, want[i].position);
  }
  toggle_head_ablation(state, 0);
  state.session.worker->wait_idle();
  frame();
  EXPECT_EQ(generated_tokens(state), nullptr);
}

TEST_F(ModelTabTest, BertPredictsNothingWithoutAMask) {
  start_on("seed003");
  open("bert-prefix-mlm");
  EXPECT_FALSE(state.session.trace->config.mask.causal);
  EXPECT_TRUE(predicted_positions(state.model).empty());  // no tokenizer: no [MASK] known
  state.model.requested_page = ModelPage::NextToken;
  show_model_tab();
}

TEST_F(ModelTabTest, ABadFolderIsExplainedBesideTheFieldAndTheTraceStays) {
  start_on("seed003");
  const std::shared_ptr<const Trace> before = state.session.trace;
  const fs::path bad = fs::temp_directory_path() / "attnlab-gui-not-a-model";
  fs::create_directories(bad);
  std::ofstream(bad / "config.json") << "{\"model_type\": \"gpt2\"}";
  start_model_load(state, bad.string());
  wait_for_model(state);
  frame();
  EXPECT_FALSE(state.model.error.empty());
  EXPECT_EQ(state.model.error.find('\n'), std::string::npos);  // one line
  EXPECT_EQ(state.session.trace, before);
  EXPECT_FALSE(state.model.session);
  const auto& explained = state.frame.explained;
  EXPECT_NE(std::find(explained.begin(), explained.end(), "model"), explained.end());
  start_model_load(state, "/no/such/folder");
  wait_for_model(state);
  EXPECT_FALSE(state.model.error.empty());
  EXPECT_EQ(state.session.trace, before);
}

TEST_F(ModelTabTest, CancelStopsALoad) {
  start_on("seed003");
  const std::shared_ptr<const Trace> before = state.session.trace;
  start_model_load(state, tiny_checkpoint("llama-gqa-bf16-untied-sharded"));
  cancel_model_load(state);
  wait_for_model(state);
  // Either it finished before the cancel was seen, or it stopped and nothing changed.
  if (!state.model.session) {
    EXPECT_EQ(state.session.trace, before);
    EXPECT_TRUE(state.model.loading.empty());
    EXPECT_NE(state.status.find("cancelled"), std::string::npos) << state.status;
  }
}

TEST_F(ModelTabTest, KeyZeroOpensTheModelTabAndPresenterModeGivesItTheWidth) {
  start_on("seed003");
  press(kKey0);
  EXPECT_EQ(state.tabs.tool, ToolTab::Model);
  EXPECT_TRUE(presenter_tab_full_width(ToolTab::Model));
  EXPECT_TRUE(is_tab_name("model"));
}

TEST(ModelRecent, TheRecentFoldersAreTheLatestEightAndAreSaved) {
  std::vector<std::string> recent;
  for (int i = 0; i < 10; ++i) remember_model_folder(recent, "/m/" + std::to_string(i));
  remember_model_folder(recent, "/m/5");
  ASSERT_EQ(recent.size(), 8u);
  EXPECT_EQ(recent.front(), "/m/5");
  EXPECT_EQ(recent[1], "/m/9");
  Settings settings;
  settings.ui.recent_models = recent;
  EXPECT_EQ(settings_from_json(settings_to_json(settings), "test").ui.recent_models, recent);
}

TEST_F(ModelTabTest, TheDecodeTabSaysWhichLayerDecodesAndLeadsToTheWholeModelsGeneration) {
  open("gpt2-f32-tied", 1);
  state.tabs.requested_tool = ToolTab::Decode;
  frame();
  frame();
  ASSERT_EQ(state.tabs.tool, ToolTab::Decode);
  const PlacedItem button = item("The Model tab's Next token page");
  click(button.min, button.max);
  frame();
  frame();  // ImGui selects a tab item the frame after it is asked
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::Model);
  EXPECT_EQ(state.model.page, ModelPage::NextToken);
}

TEST_F(ModelTabTest, TheModelShownIsOpenedAgainAtTheNextStartWithItsLayerAndSentence) {
  open("gpt2-f32-tied", 1);
  set_model_sentence(state, "5, 6, 7, 8");
  wait_for_model(state);
  ASSERT_TRUE(state.model.sentence_error.empty()) << state.model.sentence_error;
  LoadedSettings last;
  last.found = true;
  last.settings = settings_from_json(settings_to_json(current_settings(state, "")), "test");
  EXPECT_EQ(last.settings.model.folder, tiny_checkpoint("gpt2-f32-tied"));
  EXPECT_EQ(last.settings.model.layer, 1);
  EXPECT_EQ(last.settings.model.sentence, "5, 6, 7, 8");

  AppState next;
  ASSERT_EQ(start_state(next, parsed({"--screenshot", "a.png"}), &last), "");
  ASSERT_TRUE(next.model.session) << next.model.error;
  EXPECT_TRUE(model_is_current(next));
  EXPECT_EQ(next.model.layer, 1);
  EXPECT_EQ(next.model.tokens.ids, (std::vector<int64_t>{5, 6, 7, 8}));
  // The layer's trace is the model's own, not the settings' config with random weights.
  ASSERT_TRUE(next.session.trace);
  EXPECT_EQ(next.session.trace->config.d_model, next.model.session->model.spec.d_model);
}

// --ablate names a real model's heads: checked against its 12 heads once it is read, not against
// the preset's 2 before; head 6 is off in the trace and in the whole forward pass.
TEST_F(ModelTabTest, AblateAtStartIsCheckedAgainstTheModelsHeads) {
  const std::string folder = tiny_checkpoint("gpt2-12-heads");
  ASSERT_EQ(start_state(state,
                        parsed({"--model", folder.c_str(), "--layer", "1", "--ablate", "6",
                                "--ablate", "11", "--screenshot", "a.png"}),
                        nullptr),
            "");
  ASSERT_TRUE(model_is_current(state)) << state.model.error;
  ASSERT_TRUE(state.session.trace);
  const Config& shown = state.session.trace->config;
  EXPECT_EQ(shown.n_heads, 12);
  std::vector<bool> off(12, false);
  off[6] = off[11] = true;
  EXPECT_EQ(shown.ablated_heads, off);
  EXPECT_EQ(switched_off_heads(state), (std::vector<HeadSwitch>{{1, 6}, {1, 11}}));

  AppState beyond;
  EXPECT_EQ(
      start_state(beyond,
                  parsed({"--model", folder.c_str(), "--ablate", "12", "--screenshot", "a.png"}),
                  nullptr),
      "attnlab: --ablate 12: heads are numbered 0..11");
}

// Heads past 9 from the keyboard: Shift+1 then 1 is head 11 ("head 1_" on screen meanwhile);
// Shift+1 alone is head 1 once the wait for a second digit is over.
TEST_F(ModelTabTest, ShiftDigitThenASecondDigitSwitchesHeadsPastNine) {
  start_on("seed003");
  open("gpt2-12-heads");
  ASSERT_EQ(state.session.config.n_heads, 12);
  const auto off = [&](int head) {
    const std::vector<bool>& a = state.session.config.ablated_heads;
    return size_t(head) < a.size() && a[size_t(head)];
  };
  ImGuiIO& io = ImGui::GetIO();
  io.KeyShift = true;
  press(kKey0 + 1);
  io.KeyShift = false;
  EXPECT_EQ(pending_head_text(state).rfind("head 1_", 0), 0u) << pending_head_text(state);
  EXPECT_FALSE(off(1)) << "head 1 waits for a second digit";
  EXPECT_EQ(state.tabs.tool, ToolTab::Tensors);
  press(kKey0 + 1);  // the second digit: no tab opens
  EXPECT_TRUE(off(11));
  EXPECT_FALSE(off(1));
  EXPECT_EQ(pending_head_text(state), "");
  EXPECT_EQ(state.tabs.tool, ToolTab::Tensors) << "the second digit chose a head, not a tab";

  io.KeyShift = true;
  press(kKey0 + 1);
  io.KeyShift = false;
  EXPECT_FALSE(off(1));
  for (int i = 0; i < int(kSecondDigitSeconds * 60) + 2; ++i) frame();  // 1/60 s a frame
  EXPECT_TRUE(off(1)) << "no second digit: head 1";
  EXPECT_EQ(pending_head_text(state), "");

  io.KeyShift = true;
  press(kKey0 + 5);  // no head 50: head 5 at once
  io.KeyShift = false;
  EXPECT_TRUE(off(5));
  EXPECT_EQ(pending_head_text(state), "");
}

TEST(ModelReopen, AFolderThatIsGoneIsSaidNotAnError) {
  LoadedSettings last;
  last.found = true;
  last.settings.model = {"/no/such/model/folder", 2, ""};
  AppState state;
  ASSERT_EQ(start_state(state, parsed({"--screenshot", "a.png"}), &last), "");
  EXPECT_FALSE(state.model.session);
  EXPECT_NE(state.status.find("/no/such/model/folder is not there any more"), std::string::npos)
      << state.status;
  EXPECT_TRUE(state.session.trace) << "the last session's config is shown instead";
}

TEST_F(ModelTabTest, TheSentenceGivenAtStartIsTheSentenceOfAModelOpenedLater) {
  ASSERT_EQ(start_state(state, parsed({"--sentence", "3, 4, 5", "--screenshot", "a.png"}), nullptr),
            "");
  EXPECT_FALSE(state.model.session) << "no model yet: the toy model reads the sentence";
  open("gpt2-f32-tied");
  EXPECT_EQ(state.model.tokens.ids, (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(state.model.sentence, "3, 4, 5");
}

}  // namespace
}  // namespace attnlab::gui
