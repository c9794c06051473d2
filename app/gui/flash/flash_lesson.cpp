// The Flash tab's background job and its stepping: the counters of the shown config tiled, and the
// recorded sweep of one head for small T (core/flash/), made off the frame.
#include <algorithm>

#include "app/gui/flash/flash_panels.hpp"
#include "app/gui/state/trace_jobs.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/trace/mha.hpp"

namespace attnlab::gui {

namespace {

// About four blocks a side: enough tiles to show the pattern, few enough to step through.
TileSizes default_tiles(int64_t T) {
  const int64_t side = std::max<int64_t>(1, (T + 3) / 4);
  return {side, side};
}

// The counters of the whole config tiled and, for small T, one head's recorded sweep with every
// row's m and l after each step.
FlashLesson sweep_lesson(const Trace& trace, const Inputs& given, const SweepChoice& choice,
                         const RunControl& control) {
  const Config& c = trace.config;
  FlashLesson lesson;
  lesson.counters = count_tiles(c, choice.tiles, flash_workers());
  control.check_cancel();
  if (c.tokens() <= kMaxSweepTokens && c.key_tokens() <= kMaxSweepTokens) {
    lesson.sweep =
        record_sweep(c, trace_inputs(trace, given), choice.tiles, choice.batch, choice.head);
    lesson.row_max = sweep_row_max(*lesson.sweep);
    lesson.row_sum = sweep_row_sum(*lesson.sweep);
  }
  return lesson;
}

}  // namespace

SweepChoice start_flash_sweep(AppState& state) {
  if (!state.session.trace) return {};
  FlashTab& tab = state.flash;
  const Config& config = state.session.trace->config;
  if (tab.tiles.rows <= 0 || tab.tiles.cols <= 0) tab.tiles = default_tiles(config.tokens());
  tab.head = std::clamp<int>(tab.head, 0, int(std::max<int64_t>(config.n_heads - 1, 0)));
  const SweepChoice choice{tab.tiles, tab.head,
                           std::clamp<int64_t>(state.walk.batch_shown, 0, config.batch - 1)};
  // The step shown stays (clamped to the new sweep's steps).
  start_for_trace(state, tab.lesson, choice, "The tiled sweep",
                  [choice](const Trace& trace, const Inputs& given, const RunControl& control) {
                    return sweep_lesson(trace, given, choice, control);
                  });
  return choice;
}

bool step_flash(AppState& state, int delta) {
  const auto& key = state.flash.lesson.key();  // the sweep of the trace shown, not an older one
  const FlashLesson* lesson = key && key->generation == state.session.generation
                                  ? state.flash.lesson.result_for(*key)
                                  : nullptr;
  if (!lesson || !lesson->sweep || lesson->sweep->steps.empty()) return false;
  const int last = int(lesson->sweep->steps.size()) - 1;
  state.flash.step = std::clamp(state.flash.step + delta, 0, last);
  return true;
}

}  // namespace attnlab::gui
