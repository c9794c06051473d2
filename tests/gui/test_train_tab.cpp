// The Train tab as a lecturer uses it: Start trains on the worker thread while frames go on, the
// snapshots show the heads specialising (previous-and-first with 2 heads: one head on the previous
// token, the other on the first), Pause stops the steps, and settings that cannot train are
// explained beside them.
#include <algorithm>
#include <chrono>
#include <thread>

#include "app/gui/panels/panels.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

bool wait_until(const std::function<bool()>& done, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

training::TrainSettings previous_and_first(int64_t steps) {
  training::TrainSettings settings;
  settings.task = training::Task::PreviousAndFirst;
  settings.heads = 2;
  settings.steps = steps;
  return settings;
}

TEST(TrainRun, TrainsOnItsThreadAndItsSnapshotsShowTheHeadsSpecialise) {
  TrainRun run;
  ASSERT_EQ(run.reset(previous_and_first(1500)), "");
  ASSERT_EQ(run.snapshots().size(), 1u);  // the untrained model
  run.start();
  ASSERT_TRUE(wait_until([&] { return !run.running(); }, 60));
  EXPECT_EQ(run.steps_done(), 1500);
  const auto shots = run.snapshots();
  ASSERT_GT(shots.size(), 10u);
  EXPECT_EQ(shots.back()->step, 1500);
  for (size_t i = 1; i < shots.size(); ++i) EXPECT_GT(shots[i]->step, shots[i - 1]->step);
  const TrainSnapshot& last = *shots.back();
  ASSERT_EQ(last.maps.size(), 2u);
  const auto T = int64_t(last.tokens.size());
  ASSERT_EQ(T, 12);
  for (const std::vector<float>& map : last.maps) {
    ASSERT_EQ(int64_t(map.size()), T * T);
    for (int64_t q = 0; q < T; ++q) {  // each row a distribution over the visible keys
      double sum = 0;
      for (int64_t k = 0; k < T; ++k) sum += map[size_t(q * T + k)];
      EXPECT_NEAR(sum, 1.0, 1e-4);
      for (int64_t k = q + 1; k < T; ++k) EXPECT_EQ(map[size_t(q * T + k)], 0.0f);  // causal
    }
  }
  // One head on the previous token, the other on the first, read from the maps themselves.
  const auto mean_on = [&](const std::vector<float>& map, auto key_of) {
    double total = 0;
    for (int64_t q = 1; q < T; ++q) total += map[size_t(q * T + key_of(q))];
    return total / double(T - 1);
  };
  const auto previous = [](int64_t q) { return q - 1; };
  const auto first = [](int64_t) { return int64_t(0); };
  const double a_prev = mean_on(last.maps[0], previous), b_prev = mean_on(last.maps[1], previous);
  const double a_first = mean_on(last.maps[0], first), b_first = mean_on(last.maps[1], first);
  EXPECT_GE(std::max(a_prev, b_prev), 0.8);
  EXPECT_GE(a_prev > b_prev ? b_first : a_first, 0.9);  // the other head: the first token
  for (const double accuracy : last.eval.report.accuracy) EXPECT_EQ(accuracy, 1.0);
  EXPECT_LT(last.eval.report.loss, shots.front()->eval.report.loss * 0.1);
}

TEST(TrainRun, PauseStopsTheStepsAndStepDoesOne) {
  TrainRun run;
  ASSERT_EQ(run.reset(previous_and_first(1000000)), "");
  run.start();
  ASSERT_TRUE(wait_until([&] { return run.steps_done() > 20; }, 30));
  run.pause();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a step under way ends
  const int64_t paused_at = run.steps_done();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(run.steps_done(), paused_at);
  run.step_once();
  ASSERT_TRUE(wait_until([&] { return run.steps_done() == paused_at + 1; }, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(run.steps_done(), paused_at + 1);
}

TEST(TrainRun, APaceSlowsTheStepsToBeWatchedAndSnapshotsEachOne) {
  TrainRun run;
  ASSERT_EQ(run.reset(previous_and_first(1000000)), "");
  run.set_pace(20);  // steps per second
  const auto began = std::chrono::steady_clock::now();
  run.start();
  ASSERT_TRUE(wait_until([&] { return run.steps_done() >= 3; }, 30));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int64_t done = run.steps_done();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  // At most one step per 1/20 s since Start (and the first at once): never faster, however
  // slow the machine (the bound is measured, not assumed).
  EXPECT_LE(double(done), elapsed * 20 + 1) << done << " steps in " << elapsed << " s";
  run.pause();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Every step at a pace is snapshotted: the maps move step by step in class.
  const auto shots = run.snapshots();
  ASSERT_GE(shots.size(), 2u);
  for (size_t i = 1; i < shots.size(); ++i) EXPECT_EQ(shots[i]->step, shots[i - 1]->step + 1);
  // Back to full speed: far more than 20 steps a second.
  run.set_pace(0);
  const int64_t before = run.steps_done();
  run.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  run.pause();
  EXPECT_GT(run.steps_done() - before, 20) << "the pace stayed on after it was set to 0";
}

class TrainTabFrames : public HeadlessImGui {};

TEST_F(TrainTabFrames, SettingsThatCannotTrainAreExplainedBesideThem) {
  start_on("seed003");
  state.tabs.requested_tool = ToolTab::Train;
  state.train.settings.vocab = 1;  // V < 2
  state.train.run = std::make_unique<TrainRun>();
  state.train.error = state.train.run->reset(state.train.settings);
  EXPECT_NE(state.train.error.find("2"), std::string::npos) << state.train.error;
  frame();
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::Train);
  EXPECT_NE(std::find(state.frame.explained.begin(), state.frame.explained.end(), "train"),
            state.frame.explained.end());
}

}  // namespace
}  // namespace attnlab::gui

namespace attnlab::gui {
namespace {

// "Open in the pipeline": the trained first layer is the current trace, and its attend stage
// shows the learned heads (one on the previous token, one on the first).
TEST_F(TrainTabFrames, OpenInThePipelineMakesTheTrainedLayerTheTrace) {
  start_on("seed003");
  state.train.settings.steps = 600;
  state.train.run = std::make_unique<TrainRun>();
  ASSERT_EQ(state.train.run->reset(state.train.settings), "");
  state.train.run->start();
  ASSERT_TRUE(wait_until([&] { return !state.train.run->running(); }, 60));
  open_trained_model(state);
  state.session.worker->wait_idle();
  poll_trace(state);
  ASSERT_TRUE(state.session.trace);
  const Trace& trace = *state.session.trace;
  const PipelineStep* step = current_step(state);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->stage, Stage::Attend);  // opened where the heads are
  EXPECT_EQ(state.tabs.requested_tool, ToolTab::Tensors);
  EXPECT_EQ(trace.config.n_heads, 2);
  EXPECT_EQ(trace.config.d_model, 32);
  const TensorRecord* weights = trace.find("weights");
  ASSERT_NE(weights, nullptr);
  const Tensor& w = weights->tensor;  // (B, h, T, T)
  const int64_t T = w.size(2);
  ASSERT_EQ(T, 12);
  double best_previous = 0, best_first = 0;
  for (int64_t head = 0; head < 2; ++head) {
    double previous = 0, first = 0;
    for (int64_t q = 1; q < T; ++q) {
      previous += w.at({0, head, q, q - 1});
      first += w.at({0, head, q, 0});
    }
    best_previous = std::max(best_previous, previous / double(T - 1));
    best_first = std::max(best_first, first / double(T - 1));
  }
  EXPECT_GE(best_previous, 0.8);
  EXPECT_GE(best_first, 0.9);
}

}  // namespace
}  // namespace attnlab::gui

namespace attnlab::gui {
namespace {

// The heads-vs-one-head comparison runs as a background job the way the tab starts it.
TEST(TrainHeadCounts, RunsInTheBackgroundAndReturnsOneCurvePerHeadCount) {
  ASSERT_EQ(values_unavailable(Config{}), "");  // the job's stand-in config is never refused
  BackgroundTask<std::vector<training::HeadCountCurve>> task;
  training::TrainSettings settings;
  settings.steps = 60;
  task.start(NoKey{}, [settings](const RunControl& control) {
    return training::compare_head_counts(settings, {1, 2, 4, 8, 16}, control);
  });
  ASSERT_TRUE(wait_until([&] { return !task.busy(); }, 60));
  task.poll();  // as the tab does every frame
  ASSERT_TRUE(task.result());
  ASSERT_EQ(task.result()->size(), 5u);
  EXPECT_EQ(task.result()->back().heads, 16);
}

}  // namespace
}  // namespace attnlab::gui

namespace attnlab::gui {
namespace {

// Save writes the model folder; Load brings the same weights back (the same heads), and a folder
// that is not a model is refused with a message.
TEST(TrainRun, SaveAndLoadKeepTheTrainedHeads) {
  const std::string dir = ::testing::TempDir() + "/attnlab_train_save";
  TrainRun run;
  training::TrainSettings settings;
  settings.steps = 300;
  ASSERT_EQ(run.reset(settings), "");
  run.start();
  ASSERT_TRUE(wait_until([&] { return !run.running(); }, 60));
  EXPECT_EQ(run.save(dir).rfind("Saved", 0), 0u);
  const auto trained = run.snapshots().back();
  TrainRun other;
  EXPECT_NE(other.load(::testing::TempDir() + "/no_such_model"), "");
  ASSERT_EQ(other.load(dir), "");
  const auto loaded = other.snapshots().back();
  ASSERT_EQ(loaded->maps.size(), trained->maps.size());
  for (size_t m = 0; m < loaded->maps.size(); ++m)
    for (size_t i = 0; i < loaded->maps[m].size(); ++i)
      EXPECT_NEAR(loaded->maps[m][i], trained->maps[m][i], 1e-6);
  EXPECT_EQ(other.settings().steps, 300);
}

}  // namespace
}  // namespace attnlab::gui

namespace attnlab::gui {
namespace {

// Issue 23: a run with an evaluation length ends with the accuracy at T and at that length in its
// last snapshot; a learned table is n/a there, RoPE is measured.
TEST(TrainRun, TheLastSnapshotHoldsTheLongerThanTrainingEvaluation) {
  for (const PositionEncoding pos : {PositionEncoding::Learned, PositionEncoding::Rope}) {
    TrainRun run;
    training::TrainSettings settings = previous_and_first(30);
    settings.pos = pos;
    settings.eval_seq_lens = {24};
    ASSERT_EQ(run.reset(settings), "");
    EXPECT_TRUE(run.snapshots().front()->lengths.empty());  // measured when the run ends
    run.start();
    ASSERT_TRUE(wait_until([&] { return !run.running(); }, 60));
    const auto& lengths = run.snapshots().back()->lengths;
    ASSERT_EQ(lengths.size(), 2u);
    EXPECT_EQ(lengths[0].seq_len, 12);
    EXPECT_EQ(lengths[1].seq_len, 24);
    EXPECT_TRUE(lengths[0].available);
    EXPECT_EQ(lengths[1].available, pos != PositionEncoding::Learned);
    if (pos == PositionEncoding::Learned)
      EXPECT_EQ(lengths[1].not_available, "n/a: the learned table has 12 rows");
  }
}

// The experiment as the tab shows it: a background job (progress, Cancel), then the table, whose
// n/a cells say why in their tooltip (recorded as the item's label).
TEST_F(TrainTabFrames, LongerThanTrainingTableSaysNotAvailablePlainly) {
  start_on("seed003");
  state.tabs.requested_tool = ToolTab::Train;
  training::TrainSettings settings;
  settings.task = training::Task::PreviousToken;
  settings.d_model = 8;
  settings.seq_len = 6;
  settings.steps = 5;
  settings.batch_size = 4;
  state.train.longer.start(NoKey{}, [settings](const RunControl& c) {
    return training::run_length_experiment(settings, {0, 1}, c);
  });
  state.train.show_longer = true;  // as its button does
  ASSERT_TRUE(wait_until([&] { return !state.train.longer.busy(); }, 60));
  frame();
  frame();
  ASSERT_TRUE(state.train.longer.result());
  EXPECT_EQ(state.train.longer.result()->rows.size(), 5u);
  int not_available = 0;
  for (const PlacedItem& item : state.frame.items)
    not_available += item.label == "n/a: the learned table has 6 rows";
  EXPECT_EQ(not_available, 2);  // 2T and 4T of the learned row
}

// Cancel stops the experiment within moments, as a cancelled job (not an error).
TEST(TrainLonger, CancelStopsTheExperiment) {
  BackgroundTask<training::LengthExperiment> task;
  training::TrainSettings settings;
  settings.steps = 1000000;
  task.start(NoKey{}, [settings](const RunControl& control) {
    return training::run_length_experiment(settings, {0}, control);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  task.cancel();
  ASSERT_TRUE(wait_until([&] { return !task.busy(); }, 10));
  task.poll();
  EXPECT_TRUE(task.cancelled());
  EXPECT_FALSE(task.result());
  EXPECT_EQ(task.error(), "");
}

// RoPE with an odd d_k is refused before any training, as the job's error (shown in red).
TEST(TrainLonger, SettingsThatCannotTrainAreTheJobsError) {
  BackgroundTask<training::LengthExperiment> task;
  training::TrainSettings settings;
  settings.d_model = 30;
  settings.heads = 2;  // d_k = 15
  task.start(NoKey{}, [settings](const RunControl& control) {
    return training::run_length_experiment(settings, {0}, control);
  });
  ASSERT_TRUE(wait_until([&] { return !task.busy(); }, 10));
  task.poll();
  EXPECT_NE(task.error().find("RoPE needs an even d_k"), std::string::npos) << task.error();
  EXPECT_EQ(task.error().find("--"), std::string::npos) << task.error();
}

}  // namespace
}  // namespace attnlab::gui
