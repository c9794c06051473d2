// The GUI's worker, without a window: attnlab::run() on a worker thread, stopped through
// RunControl's atomic cancel flag (run() throws attnlab::Cancelled) and restarted with the next
// config, many times over, as a lecturer dragging a slider makes it. tools/sanitize.sh tsan runs
// these under ThreadSanitizer, tools/sanitize.sh asan under AddressSanitizer/LeakSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "core/model/errors.hpp"
#include "core/trace/mha.hpp"
#include "tests/soak/random_changes.hpp"

namespace {

using attnlab::Config;
using attnlab::Trace;

enum class Outcome { None, Finished, Cancelled, Refused, Failed };

// One run at a time on its own thread. start() first cancels and joins the previous run, as the
// GUI does when a control changes while a run is under way.
class RunWorker {
 public:
  ~RunWorker() { cancel_and_wait(); }

  void start(const Config& config, bool cancelled_from_the_start = false) {
    cancel_and_wait();
    cancel_.store(cancelled_from_the_start);
    progress_.store(0);
    thread_ = std::thread([this, config] { work(config); });
  }
  void cancel() { cancel_.store(true); }
  Outcome wait() {
    if (thread_.joinable()) thread_.join();
    return outcome_;
  }
  void cancel_and_wait() {
    cancel();
    wait();
  }
  // What a progress bar reads every frame while the run is under way.
  double progress() const { return progress_.load(); }
  // Only after wait(): the thread's join orders these writes before the reads.
  const Trace& trace() const { return trace_; }
  bool progress_went_backwards() const { return progress_went_backwards_; }

 private:
  void work(const Config& config) {
    attnlab::RunControl control;
    control.cancel = &cancel_;
    double last = 0;
    control.progress = [this, &last](double fraction) {
      if (fraction < last || fraction > 1) progress_went_backwards_ = true;
      last = fraction;
      progress_.store(fraction);
    };
    try {
      trace_ = attnlab::run(config, {}, control);
      outcome_ = Outcome::Finished;
    } catch (const attnlab::Cancelled&) {
      outcome_ = Outcome::Cancelled;
    } catch (const attnlab::UserError&) {
      outcome_ = Outcome::Refused;
    } catch (...) {
      outcome_ = Outcome::Failed;
    }
  }

  std::thread thread_;
  std::atomic<bool> cancel_{false};
  std::atomic<double> progress_{0};
  Outcome outcome_ = Outcome::None;
  Trace trace_;
  bool progress_went_backwards_ = false;
};

// Large enough that run() spreads heads over threads (above parallel.hpp's kParallelFlops), so a
// cancel lands inside parallel loops too; small enough to stay quick under ThreadSanitizer.
Config parallel_sized_config() {
  Config config;
  config.batch = 2;
  config.seq_len = 96;
  config.d_model = 64;
  config.n_heads = 4;
  config.memory_cap_bytes = int64_t{4} << 20;
  return config;
}

int cycles() {
  const char* text = std::getenv("ATTNLAB_SOAK_CYCLES");
  return text ? std::atoi(text) : 200;
}

TEST(WorkerCancel, CancelledAndRestartedManyTimes) {
  std::mt19937_64 rng(7);
  attnlab::soak::RandomChanges random_changes(7);
  RunWorker worker;
  int finished = 0, cancelled = 0, refused = 0;
  for (int cycle = 0; cycle < cycles(); ++cycle) {
    // Every other cycle a random change; in between back to a size that runs in parallel.
    Config config = parallel_sized_config();
    if (cycle % 2 == 1) random_changes.apply(config);
    const int mode = cycle % 4;  // 0: cancel at once, 1-2: after a while, 3: let it finish
    worker.start(config);
    if (mode == 1 || mode == 2) {
      const auto deadline = std::chrono::steady_clock::now() +
                            std::chrono::microseconds(std::uniform_int_distribution(0, 3000)(rng));
      while (std::chrono::steady_clock::now() < deadline) {
        EXPECT_GE(worker.progress(), 0.0);  // polled like a progress bar in each frame
        std::this_thread::yield();
      }
    }
    if (mode != 3) worker.cancel();
    const Outcome outcome = worker.wait();
    ASSERT_NE(outcome, Outcome::Failed) << "cycle " << cycle << ": run() threw an unexpected type";
    ASSERT_FALSE(worker.progress_went_backwards()) << "cycle " << cycle;
    if (mode == 3) {
      ASSERT_NE(outcome, Outcome::Cancelled) << "cycle " << cycle;
    }
    if (outcome == Outcome::Finished && !worker.trace().shape_only) {
      EXPECT_EQ(worker.trace().diagnostics.nonfinite_values, 0) << "cycle " << cycle;
      EXPECT_EQ(worker.trace().diagnostics.masked_nonzero, 0) << "cycle " << cycle;
    }
    finished += outcome == Outcome::Finished;
    cancelled += outcome == Outcome::Cancelled;
    refused += outcome == Outcome::Refused;
  }
  std::printf("worker: %d cycles: %d finished, %d cancelled, %d refused\n", cycles(), finished,
              cancelled, refused);
  EXPECT_GT(finished, 0);
  EXPECT_GT(cancelled, 0);
}

TEST(WorkerCancel, CancelBeforeTheFirstStageStopsTheRun) {
  RunWorker worker;
  for (int i = 0; i < 20; ++i) {
    worker.start(parallel_sized_config(), /*cancelled_from_the_start=*/true);
    EXPECT_EQ(worker.wait(), Outcome::Cancelled);
  }
}

TEST(WorkerCancel, ConcurrentRunsMatchSerialRuns) {
  // Two runs at once (the GUI's worker plus, e.g., an export) must not share hidden state.
  std::vector<Config> configs(4, parallel_sized_config());
  configs[1].mask.causal = true;
  configs[2].dropout = 0.25;
  configs[3].bias = true;
  configs[3].mask.window = 3;
  std::vector<std::vector<float>> expected;
  for (const Config& config : configs) {
    expected.push_back(attnlab::run(config).find("out")->tensor.to_vector());
  }
  std::atomic<int> mismatches{0};
  auto run_all = [&](int first) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      for (size_t i = 0; i < configs.size(); ++i) {
        const size_t which = (i + static_cast<size_t>(first)) % configs.size();
        const Trace trace = attnlab::run(configs[which]);
        if (trace.find("out")->tensor.to_vector() != expected[which]) ++mismatches;
      }
    }
  };
  std::thread other(run_all, 2);
  run_all(0);
  other.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
