// Starting a background job on the shown trace, keyed by (trace generation, the panel's choice):
// the one way the app's measurements (head importance, one head vs many, the paths' timings, the
// shuffled run, FlashAttention's sweep) are started and known to be stale.
#pragma once

#include <memory>
#include <string>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/trace_cache.hpp"
#include "core/model/config.hpp"

namespace attnlab::gui {

// The key of the shown trace with the panel's `choice`.
template <typename Choice>
TraceKey<Choice> shown_key(const AppState& state, const Choice& choice) {
  return {state.session.generation, choice};
}

// Starts `work(trace, given inputs, control)` on the shown trace for `choice` unless it was
// already started for them; a trace with no values to measure (shape-only, above the memory cap)
// is refused at once with the trace's words (`what`: "Head importance"). The work holds its own
// reference to the trace, so a new trace adopted meanwhile frees nothing it reads.
template <typename Result, typename Choice, typename Work>
void start_for_trace(AppState& state, TraceJob<Result, Choice>& task, const Choice& choice,
                     const std::string& what, Work work) {
  const std::shared_ptr<const Trace> trace = state.session.trace;
  if (!trace) return;
  const TraceKey<Choice> key = shown_key(state, choice);
  if (task.started_for(key)) return;
  if (const std::string reason = values_unavailable(trace->config); !reason.empty()) {
    task.refuse(key, what + " needs computed values, and " + reason);
    return;
  }
  const Inputs given = state.session.trace_inputs;
  task.start(key, [trace, given, work](const RunControl& control) {
    return work(*trace, given, control);
  });
}

}  // namespace attnlab::gui
