#include "core/teaching/comparisons.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/kernels/parallel.hpp"
#include "core/model/forward.hpp"
#include "core/model/mha_loop.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {

HeadCountComparison compare_head_counts(const Config& config, const Inputs& inputs,
                                        const RunControl& control) {
  require_values(config, "the one-head comparison");
  Config one = config;
  one.n_heads = 1;
  one.d_k = config.n_heads * config.head_dim_k();
  one.d_v = config.n_heads * config.head_dim_v();
  one.ablated_heads.clear();
  one.mistake = Mistake::None;
  Trace single = run(one, inputs, control.part(0, 0.5));
  return {std::move(single), run(config, inputs, control.part(0.5, 1))};
}

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <typename Fn>
double time_ms(Fn fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

PathWork path_work(const Config& config) {
  PathWork work;
  work.head_pairs = config.batch * config.n_heads;
  work.loop_products = 5 * work.head_pairs + (config.output_proj ? 1 : 0);
  work.batched_products = 3 + (config.output_proj ? 1 : 0);
  work.attention_flops = forward_attention_flops(config);
  work.heads_in_parallel = work.attention_flops >= kParallelFlops;
  return work;
}

PathComparison compare_paths(const Config& config, const Inputs& inputs, int runs,
                             const RunControl& control) {
  require_values(config, "timing the loop against the batched path");
  Config c = config;
  c.mistake = Mistake::None;
  c.ablated_heads.clear();  // the loop has no ablation
  PathComparison result;
  result.runs = std::max(1, runs);
  std::vector<double> loop_times, batched_times;
  Tensor loop_out, batched_out;
  for (int r = 0; r < result.runs; ++r) {
    const double begin = double(r) / result.runs, middle = (r + 0.5) / result.runs;
    const RunControl loop_part = control.part(begin, middle);
    const RunControl batched_part = control.part(middle, double(r + 1) / result.runs);
    loop_times.push_back(time_ms([&] { loop_out = run_loop(c, inputs, loop_part).out; }));
    batched_times.push_back(time_ms([&] { batched_out = forward(c, inputs, batched_part); }));
    batched_part.report(1);
  }
  result.max_abs_difference = max_abs_difference(loop_out, batched_out);
  result.loop_ms = median(loop_times);
  result.batched_ms = median(batched_times);
  return result;
}

}  // namespace attnlab
