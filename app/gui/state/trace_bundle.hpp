// What one config computes for the app: its trace and, when a mistake is injected, the correct run
// of the same config and inputs beside it with the core's report on the difference.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

struct TraceBundle {
  std::shared_ptr<const Trace> trace;    // the config as it is (the buggy run with a mistake)
  std::shared_ptr<const Trace> correct;  // the same with Mistake::None; null without a mistake
  std::optional<MistakeReport> report;   // with a mistake: compare_with_correct(correct, trace)
  // Largest finite |value| of each of trace's records and parameters, by name: their colour
  // scales. Found here (on the worker for big traces), so the frame a trace arrives in does not
  // scan every tensor.
  std::map<std::string, float> magnitudes;
  double seconds = 0;  // how long computing all this took (bench/web_figures.sh)
};

// Largest finite |value| over the whole tensor (1 when it has no values).
float largest_magnitude(const Tensor& tensor);

// Runs the config (and its correct twin). Throws what run() throws (UserError, Cancelled).
TraceBundle compute_bundle(const Config& config, const Inputs& inputs,
                           const RunControl& control = {});

}  // namespace attnlab::gui
