// Splits a loop over the machine's cores with plain std::threads (no OpenMP: it keeps the core
// free of a runtime that spins between calls and that ThreadSanitizer cannot see into).
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace attnlab {

// Floating-point operations below which a loop runs on the calling thread: starting threads
// costs tens of microseconds, more than a teaching-size loop takes.
constexpr double kParallelFlops = 2e6;

// Calls fn(begin, end) on disjoint chunks covering [0, n), on up to hardware_concurrency()
// threads when the whole loop costs at least kParallelFlops. fn must not throw.
template <typename Fn>
void parallel_for(int64_t n, double total_flops, Fn fn) {
  const auto cores = static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  const int64_t tasks = std::min(cores, n);
  if (total_flops < kParallelFlops || tasks <= 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<size_t>(tasks - 1));
  const int64_t chunk = (n + tasks - 1) / tasks;
  for (int64_t t = 1; t < tasks; ++t) {
    const int64_t begin = t * chunk, end = std::min(n, begin + chunk);
    if (begin < end) helpers.emplace_back([=, &fn] { fn(begin, end); });
  }
  fn(int64_t{0}, std::min(n, chunk));
  for (std::thread& helper : helpers) helper.join();
}

}  // namespace attnlab
