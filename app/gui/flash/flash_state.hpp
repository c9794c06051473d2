// What the Flash tab remembers: its tile sizes, the head and sequence it sweeps, the step shown,
// and the recorded sweep (core/flash/flash_sweep.hpp), made on a background thread.
#pragma once

#include <cstdint>
#include <optional>

#include "app/gui/state/trace_cache.hpp"
#include "core/flash/flash_sweep.hpp"
#include "core/flash/tile_plan.hpp"

namespace attnlab::gui {

// What a recorded sweep was made for, besides the trace.
struct SweepChoice {
  TileSizes tiles;
  int64_t head = 0;
  int64_t batch = 0;
  bool operator==(const SweepChoice&) const = default;
};

// What the tab draws, made on the background thread: the counters of a tiled run of the whole
// config, and for T up to kMaxSweepTokens the recorded sweep of one head with every row's m and l
// after each step ((steps, T), core's sweep_row_max / sweep_row_sum).
struct FlashLesson {
  FlashCounters counters;
  std::optional<FlashSweep> sweep;
  Tensor row_max, row_sum;
};

struct FlashTab {
  TileSizes tiles;  // {0, 0} until the tab first draws: then about four blocks a side
  int head = 0;     // the head swept
  int step = 0;     // the sweep step shown
  TraceJob<FlashLesson, SweepChoice> lesson;
  std::optional<FlashCounters> seeds_example;  // B 8, h 8, T 2048 (d_k 64), counted once
};

}  // namespace attnlab::gui
