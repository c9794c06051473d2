// The session: the config the controls show, the presets it may come from, the trace computed for
// it (with its correct twin when a mistake is injected) and the worker that computes big ones.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/state/trace_worker.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/preset.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

struct Session {
  // [SECTION] the config and the presets
  Config config;                    // what the controls show; may be invalid
  std::vector<ConfigIssue> issues;  // of `config`, shown beside the control they name
  std::string preset_name;
  Config preset_config;  // the preset's own config: its explicit tensors fit only these sizes
  Inputs preset_inputs;
  std::vector<Preset> presets;
  std::vector<std::string> preset_errors;

  // [SECTION] the shown trace
  std::shared_ptr<const Trace> trace;  // the last valid trace; stays while the config is invalid
  // With a mistake injected, `trace` is the buggy run; these are the correct run of the same
  // config and inputs, and the core's comparison of the two.
  std::shared_ptr<const Trace> correct_trace;
  std::optional<MistakeReport> mistake_report;
  Inputs trace_inputs;    // the explicit inputs `trace` was run with (undefined ones generated)
  std::string run_error;  // a run that failed for another reason
  // Bumped whenever a new trace is adopted (0: none yet): a new config, or new inputs or weights
  // for the same config. Every picture (TraceCache) and job (TraceJob) derived from the trace is
  // keyed by it with the panel's own choice (trace_cache.hpp).
  uint64_t generation = 0;
  // Traces adopted while a panel was drawing (FrameOutput::drawing): a change not asked for through
  // state.requests. Always 0 unless a panel breaks the rule; the click tests check it.
  uint64_t adopted_while_drawing = 0;

  // [SECTION] background computation
  std::unique_ptr<TraceWorker> worker = std::make_unique<TraceWorker>();
  Inputs pending_inputs;      // the explicit inputs of the newest request
  uint64_t last_request = 0;  // the newest request; older results are ignored
  bool computing = false;
  double trace_seconds = 0;  // how long the shown trace took to compute (bench/web_figures.sh)
};

}  // namespace attnlab::gui
