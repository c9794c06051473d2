// Training speed (issue 12): one training step (forward, backward, AdamW) at d_model 32, T 12,
// batch 64, h 2 on previous-and-first; and the wall time for that model to reach 100 % accuracy
// on both outputs (on each step's own batch), reported as counters of BM_TimeTo100Percent; and the
// step with each position encoding.
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

#include "core/training/trainer.hpp"

namespace {

using namespace attnlab::training;

TrainSettings issue_settings(int64_t heads) {
  TrainSettings s;
  s.task = Task::PreviousAndFirst;
  s.layers = 1;
  s.heads = heads;
  s.d_model = 32;
  s.seq_len = 12;
  s.vocab = 16;
  s.batch_size = 64;
  s.lr = 3e-3;
  s.steps = 1 << 30;
  s.log_every = 1 << 30;
  s.seed = 0;
  return s;
}

void BM_TrainingStep(benchmark::State& state) {
  Trainer trainer(issue_settings(state.range(0)));
  for (auto _ : state) {
    const LossReport report = trainer.step();
    benchmark::DoNotOptimize(report.loss);
  }
  state.counters["steps/s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrainingStep)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMicrosecond);

// The same step (h 2) with each position encoding (issue 23), in all_position_encodings() order:
// none, sinusoidal, learned, rope, alibi. What RoPE's two rotations and ALiBi's bias cost.
void BM_TrainingStepPosition(benchmark::State& state) {
  TrainSettings s = issue_settings(2);
  s.pos = attnlab::all_position_encodings()[size_t(state.range(0))];
  state.SetLabel(std::string(attnlab::position_encoding_name(s.pos)));
  Trainer trainer(s);
  for (auto _ : state) {
    const LossReport report = trainer.step();
    benchmark::DoNotOptimize(report.loss);
  }
}
BENCHMARK(BM_TrainingStepPosition)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// From a fresh model (construction included) until a step's batch is 100 % right on both outputs.
void BM_TimeTo100Percent(benchmark::State& state) {
  double steps = 0, seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    TrainSettings s = issue_settings(2);
    s.seed = uint64_t(state.range(0));
    Trainer trainer(s);
    int64_t n = 0;
    for (;;) {
      const LossReport r = trainer.step();
      ++n;
      if (r.accuracy[0] == 1.0 && r.accuracy[1] == 1.0) break;
      if (n > 100000) state.SkipWithError("did not reach 100 %");
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    steps = double(n);
  }
  state.counters["steps"] = steps;
  state.counters["wall_ms"] = seconds * 1e3;
}
BENCHMARK(BM_TimeTo100Percent)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
BENCHMARK_MAIN();
