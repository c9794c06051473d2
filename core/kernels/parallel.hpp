// Splits a loop over the machine's cores on a pool of plain std::threads (no OpenMP: it keeps the
// core free of a runtime that spins between calls and that ThreadSanitizer cannot see into).
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/kernels/thread_pool.hpp"
#include "core/model/threads_available.hpp"

namespace attnlab {

// Floating-point operations below which a loop runs on the calling thread: starting threads
// costs tens of microseconds, more than a teaching-size loop takes.
constexpr double kParallelFlops = 2e6;

// Calls fn(begin, end) on disjoint chunks covering [0, n), on up to usable_cores()
// threads when the whole loop costs at least kParallelFlops. fn must not throw. When the pool is
// already running a loop (another caller, or this is a loop inside a loop) it runs serially.
template <typename Fn>
void parallel_for(int64_t n, double total_flops, Fn fn) {
  const auto cores = static_cast<int64_t>(usable_cores());
  const int64_t tasks = std::min(cores, n);
  if (total_flops < kParallelFlops || tasks <= 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  const int64_t chunk = (n + tasks - 1) / tasks;
  ThreadPool::shared().run(tasks, [&](int64_t t) {
    const int64_t begin = t * chunk, end = std::min(n, begin + chunk);
    if (begin < end) fn(begin, end);
  });
}

}  // namespace attnlab
