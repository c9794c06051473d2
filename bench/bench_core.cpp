// The core's speed at teaching and at real sizes, reported as time and GFLOP/s:
//   full trace (every intermediate recorded) at seed 003, the slider case and the base preset;
//   the slider case with each position encoding; the bare forward (no trace) at the base preset.
#include <benchmark/benchmark.h>

#include "core/model/forward.hpp"
#include "core/model/preset.hpp"
#include "core/model/tokenizer.hpp"
#include "core/trace/mha.hpp"

namespace {

using namespace attnlab;

Config slider_case() {
  Config c = find_preset("base").config;
  c.batch = 1;  // B=1, T=128, d_model=512, h=8: what a lecturer drags sliders at
  return c;
}

void report(benchmark::State& state, double flops) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// Weights and embeddings are made once, outside the timing, as a PyTorch module holds its weights.
Inputs completed(const Config& config, const Inputs& given = {}) {
  return complete_inputs(config, tokens_for(config.sentence, config.tokens()), given,
                         config.cross() ? tokens_for(config.sentence_kv, config.key_tokens())
                                        : std::vector<std::string>{});
}

void full_trace(benchmark::State& state, const Config& config, const Inputs& given) {
  const Inputs inputs = completed(config, given);
  double flops = 0;
  for (auto _ : state) {
    const Trace trace = run(config, inputs);
    flops = trace.counters.flops;
    benchmark::DoNotOptimize(trace.records.data());
  }
  report(state, flops);
}

void BM_TraceSeed003(benchmark::State& state) {
  const Preset p = find_preset("seed003");
  full_trace(state, p.config, p.inputs);
}

void BM_TraceSliderCase(benchmark::State& state) {
  full_trace(state, slider_case(), {});
}

void BM_TraceBase(benchmark::State& state) {
  full_trace(state, find_preset("base").config, {});
}

// The slider case with each position encoding (none, sinusoidal, learned, rope, alibi): what word
// order adds to a trace (RoPE's rotation of q and k, ALiBi's bias sub-step on the maps).
void BM_TraceSliderCaseByPosition(benchmark::State& state) {
  Config c = slider_case();
  c.pos = all_position_encodings()[size_t(state.range(0))];
  state.SetLabel(std::string(position_encoding_name(c.pos)));
  full_trace(state, c, {});
}

// What a slider change that resizes the weights costs on top of the trace.
void BM_NewWeightsSliderCase(benchmark::State& state) {
  const Config c = slider_case();
  for (auto _ : state) benchmark::DoNotOptimize(completed(c).w_q.data());
}

void BM_ForwardBase(benchmark::State& state) {
  const Config c = find_preset("base").config;
  const Inputs in = completed(c);
  const double flops = run(c, in).counters.flops;
  for (auto _ : state) benchmark::DoNotOptimize(forward(c, in).data());
  report(state, flops);
}

}  // namespace

BENCHMARK(BM_TraceSeed003)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TraceSliderCase)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TraceSliderCaseByPosition)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NewWeightsSliderCase)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TraceBase)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ForwardBase)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_MAIN();
