// Background jobs as a lecturer meets them: a config without values (GPT-3's shape-only preset)
// is refused at once with the trace's own message, a running measurement shows its progress and
// stops soon after Cancel, and nothing is left running to keep the app from quitting.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "app/gui/state/trace_jobs.hpp"
#include "core/teaching/ablation.hpp"
#include "core/teaching/comparisons.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class Jobs : public HeadlessImGui {
 protected:
  // The base shape, large enough that each measurement runs for seconds on this machine.
  void start_on_big_base() {
    start_on("base");
    Config config = state.session.config;
    config.batch = 64;
    config.n_heads = 16;
    set_config(state, config);
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_EQ(state.session.trace->config.batch, 64);
  }
  // Milliseconds from now until `task` is idle (at most `limit_ms`).
  template <typename Result, typename Key>
  double ms_until_idle(BackgroundTask<Result, Key>& task, double limit_ms = 5000) {
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    while (task.busy() && elapsed < limit_ms) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    }
    return elapsed;
  }
};

TEST_F(Jobs, ShapeOnlyPresetRefusesEveryMeasurementAtOnce) {
  start_on("gpt3");
  ASSERT_TRUE(state.session.trace->shape_only);
  ASSERT_TRUE(open_tab(state, "head-tools"));
  frame();
  frame();
  for (const std::string* error :
       {&state.head_tools.importance.error(), &state.head_tools.head_counts.error()}) {
    EXPECT_NE(error->find("needs computed values"), std::string::npos) << *error;
    EXPECT_NE(error->find("shape-only"), std::string::npos) << *error;
    // The same words the trace uses for a config above the memory cap.
    EXPECT_NE(error->find("above the cap of 1.0 GiB"), std::string::npos) << *error;
  }
  EXPECT_FALSE(state.head_tools.importance.busy()) << "refused before a thread starts";
  EXPECT_FALSE(state.head_tools.head_counts.busy());
  ASSERT_TRUE(open_tab(state, "paths"));
  frame();
  frame();
  EXPECT_FALSE(state.paths.comparison.busy());
  EXPECT_NE(state.paths.comparison.error().find("shape-only"), std::string::npos)
      << state.paths.comparison.error();
}

TEST_F(Jobs, CancelStopsARunningMeasurementQuickly) {
  start_on_big_base();
  using Starter = void (*)(AppState&);
  for (Starter start : {Starter(start_importance), Starter(start_path_timing),
                        Starter(start_head_count_comparison)}) {
    start(state);
    // Cancelled as soon as it has made progress: well before it could finish, on a fast machine
    // as on a loaded one.
    const auto progress = [&] {
      return std::max({state.head_tools.importance.progress(), state.paths.comparison.progress(),
                       state.head_tools.head_counts.progress()});
    };
    for (int waited = 0; waited < 3000 && progress() == 0; ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(state.head_tools.importance.busy() || state.paths.comparison.busy() ||
                state.head_tools.head_counts.busy())
        << "the measurement should still be running when it first reports progress";
    cancel_all_jobs(state);
    const double ms =
        std::max({ms_until_idle(state.head_tools.importance), ms_until_idle(state.paths.comparison),
                  ms_until_idle(state.head_tools.head_counts)});
    // The work checks its flag every few milliseconds (the issue asks for 100 ms; the bound here
    // leaves room for a loaded machine).
    EXPECT_LT(ms, 1500) << "cancel took " << ms << " ms";
    poll_measurements(state);
  }
  EXPECT_TRUE(state.head_tools.importance.cancelled());
  EXPECT_TRUE(state.paths.comparison.cancelled());
  EXPECT_TRUE(state.head_tools.head_counts.cancelled());
  EXPECT_TRUE(state.head_tools.importance.error().empty()) << "a cancel is not a failure";
}

TEST_F(Jobs, ARunningMeasurementReportsProgressAndOffersCancel) {
  start_on_big_base();
  ASSERT_TRUE(open_tab(state, "head-tools"));
  frame();
  frame();
  ASSERT_TRUE(state.head_tools.importance.busy());
  double seen = 0;
  // Up to 30 s for the first report: a sanitizer build on a loaded machine is slow to start.
  for (int i = 0; i < 3000 && state.head_tools.importance.busy() && seen == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    seen = state.head_tools.importance.progress();
  }
  EXPECT_GT(seen, 0.0) << "progress moves while it measures";
  EXPECT_LT(seen, 1.0);
  frame();  // draws the progress bar and Cancel
  state.head_tools.importance.cancel();
  ms_until_idle(state.head_tools.importance);
  frame();
  EXPECT_TRUE(state.head_tools.importance.cancelled());
  EXPECT_TRUE(state.head_tools.importance.started_for(shown_key(state, WholeTrace{})))
      << "a cancelled measurement is not restarted by itself";
}

TEST_F(Jobs, CoreMeasurementsFollowTheirRunControl) {
  start_on("cat");
  const Inputs inputs = shown_trace_inputs(state);
  std::atomic<bool> cancel{true};
  RunControl stopped;
  stopped.cancel = &cancel;
  const Config& config = state.session.trace->config;
  EXPECT_THROW(head_importance(config, inputs, stopped), Cancelled);
  EXPECT_THROW(compare_paths(config, inputs, 3, stopped), Cancelled);
  EXPECT_THROW(compare_head_counts(config, inputs, stopped), Cancelled);

  std::vector<double> reported;
  RunControl followed;
  followed.progress = [&](double f) { reported.push_back(f); };
  const std::vector<double> importance = head_importance(config, inputs, followed);
  ASSERT_FALSE(reported.empty());
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);
  EXPECT_EQ(importance, head_importance(config, inputs)) << "following it changes nothing";
}

}  // namespace
}  // namespace attnlab::gui
