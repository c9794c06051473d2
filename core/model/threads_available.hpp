// Whether this build may start threads: the one compile-time decision every thread of the app
// follows. The one-file browser page (./setup.sh web --single-file) opens from file://, where a
// page is not cross-origin isolated and so has no SharedArrayBuffer, hence no threads: it is built
// with ATTNLAB_ONE_THREAD (cmake/web_dependencies.cmake), and what would run on a thread runs on
// the calling one (the pool has no helpers, a background job runs when started, a trace is computed
// when asked for, training steps between the page's frames).
#pragma once

#include <algorithm>
#include <thread>

namespace attnlab {

#ifdef ATTNLAB_ONE_THREAD
inline constexpr bool kThreadsAvailable = false;
#else
inline constexpr bool kThreadsAvailable = true;
#endif

// The cores a loop may be split over: hardware_concurrency(), or 1 where no thread may start.
inline unsigned usable_cores() {
  return kThreadsAvailable ? std::max(1u, std::thread::hardware_concurrency()) : 1u;
}

}  // namespace attnlab
