// Real models (issue 22): opening a checkpoint to the first heatmap, and the whole forward pass at
// T = 128, on the folder ATTNLAB_BENCH_MODEL names (bench/compare_pretrained_pytorch.py writes a
// GPT-2-small-sized one and runs this beside PyTorch). Figures, never pass/fail.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "core/pretrained/layer_trace.hpp"
#include "core/pretrained/pretrained_forward.hpp"
#include "core/pretrained/pretrained_model.hpp"

namespace {

std::string model_folder() {
  const char* folder = std::getenv("ATTNLAB_BENCH_MODEL");
  return folder ? folder : "";
}

std::vector<int64_t> ids(int64_t T, int64_t vocab) {
  std::vector<int64_t> out;
  for (int64_t t = 0; t < T; ++t) out.push_back((t * 7919 + 13) % vocab);
  return out;
}

// config.json and every tensor read, the forward pass on 16 tokens, layer 0 traced: what the app
// does before it draws the first heatmap.
void BM_OpenToFirstHeatmap(benchmark::State& state) {
  for (auto _ : state) {
    const attnlab::PretrainedModel model = attnlab::load_pretrained(model_folder());
    const attnlab::PretrainedRun run = attnlab::run_pretrained(model, ids(16, model.spec.vocab));
    const attnlab::Trace trace = attnlab::trace_layer(model, run, 0, {});
    benchmark::DoNotOptimize(trace.records.size());
  }
}
BENCHMARK(BM_OpenToFirstHeatmap)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);

void BM_Forward(benchmark::State& state) {
  static const attnlab::PretrainedModel model = attnlab::load_pretrained(model_folder());
  const std::vector<int64_t> tokens = ids(state.range(0), model.spec.vocab);
  for (auto _ : state) benchmark::DoNotOptimize(attnlab::run_pretrained(model, tokens));
}
BENCHMARK(BM_Forward)->Arg(128)->Unit(benchmark::kMillisecond)->Iterations(3)->Repetitions(5);

}  // namespace

BENCHMARK_MAIN();
