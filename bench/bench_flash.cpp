// Long context (issue 24): FlashAttention's tiled kernel (core/flash/) against the core's ordinary
// path, forward(), on one attention layer (projections, attention, W_o) at B 1, h 8, d_k 64
// (d_model 512). Arguments: T. Full attention, causal, and a sliding window of 256 keys each side;
// the ordinary path up to T = 4096 (its (T, T) scratch map per thread grows as T^2).
// bench/compare_flash_pytorch.py runs these beside PyTorch 1.13's eager attention.
#include <benchmark/benchmark.h>

#include "core/flash/tiled_attention.hpp"
#include "core/limits/machine_memory.hpp"
#include "core/model/forward.hpp"

namespace {

using namespace attnlab;

constexpr TileSizes kTiles{64, 64};

enum class Pattern { Full, Causal, Window256 };

Config layer(int64_t T, Pattern pattern) {
  Config c;
  c.batch = 1;
  c.seq_len = T;
  c.d_model = 512;
  c.n_heads = 8;
  c.mask.causal = pattern == Pattern::Causal;
  c.mask.window = pattern == Pattern::Window256 ? 256 : 0;
  return c;
}

void tiled(benchmark::State& state, Pattern pattern) {
  const Config c = layer(state.range(0), pattern);
  const Inputs in = flash_inputs(c);
  double flops = 0;
  for (auto _ : state) {
    const FlashResult r = flash_forward(c, in, kTiles);
    flops = r.counters.flops;
    benchmark::DoNotOptimize(r.out.data());
  }
  state.counters["attention GFLOP/s"] =
      benchmark::Counter(flops * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// forward() never builds the trace, but validate() refuses what the trace could not hold: the cap
// is lifted here (to the machine's memory, the most validate() allows) so that the ordinary path's
// kernel itself is timed.
void ordinary(benchmark::State& state, Pattern pattern) {
  Config c = layer(state.range(0), pattern);
  c.memory_cap_bytes = machine_memory_bytes();
  const Inputs in = flash_inputs(c);
  for (auto _ : state) benchmark::DoNotOptimize(forward(c, in).data());
}

void BM_TiledFull(benchmark::State& state) {
  tiled(state, Pattern::Full);
}
void BM_TiledCausal(benchmark::State& state) {
  tiled(state, Pattern::Causal);
}
void BM_TiledWindow256(benchmark::State& state) {
  tiled(state, Pattern::Window256);
}
void BM_OrdinaryFull(benchmark::State& state) {
  ordinary(state, Pattern::Full);
}
void BM_OrdinaryCausal(benchmark::State& state) {
  ordinary(state, Pattern::Causal);
}

}  // namespace

BENCHMARK(BM_TiledFull)->RangeMultiplier(2)->Range(512, 16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TiledCausal)->RangeMultiplier(2)->Range(512, 16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TiledWindow256)->RangeMultiplier(2)->Range(512, 16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OrdinaryFull)->RangeMultiplier(2)->Range(512, 4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OrdinaryCausal)->RangeMultiplier(2)->Range(512, 4096)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
