// The one staleness rule of the app: whatever a panel derives from the shown trace (heatmaps,
// mistake maps, colour scales) and every background job measuring it is keyed by (trace
// generation, the panel's own choice). Session::generation is bumped whenever a new trace is
// adopted: a new config, new inputs, or new weights for the same config (a model's other layer);
// a picture or a result whose key differs is never shown as current.
#pragma once

#include <cstdint>
#include <utility>

#include "app/gui/state/background_task.hpp"

namespace attnlab::gui {

// The choice of a cache or job that depends on the trace alone.
struct WholeTrace {
  bool operator==(const WholeTrace&) const = default;
};

template <typename Choice = WholeTrace>
struct TraceKey {
  uint64_t generation = 0;  // Session::generation of the trace it belongs to
  Choice choice{};          // the panel's own: view, head, sequence, tile sizes, seed, ...
  bool operator==(const TraceKey&) const = default;
};

// A background job measuring the shown trace (start_for_trace, trace_jobs.hpp).
template <typename Result, typename Choice = WholeTrace>
using TraceJob = BackgroundTask<Result, TraceKey<Choice>>;

// A picture derived from the shown trace, built in the frame.
template <typename Choice, typename Value>
class TraceCache {
 public:
  // The value for (generation, choice): `build()` runs only when they differ from the last build's.
  template <typename Build>
  Value& get(uint64_t generation, const Choice& choice, Build&& build) {
    if (!built_for(generation, choice)) {
      value_ = std::forward<Build>(build)();
      key_ = {generation, choice};
      ++builds_;
    }
    return value_;
  }
  bool built_for(uint64_t generation, const Choice& choice) const {
    return builds_ > 0 && key_ == TraceKey<Choice>{generation, choice};
  }
  // The last build's value (empty before the first), without rebuilding.
  const Value& value() const { return value_; }
  // How many times it was built: the renderer re-uploads the maps when this changes.
  uint64_t builds() const { return builds_; }

 private:
  Value value_{};
  TraceKey<Choice> key_{};
  uint64_t builds_ = 0;
};

}  // namespace attnlab::gui
