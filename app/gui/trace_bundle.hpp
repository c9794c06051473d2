// What one config computes for the app: its trace and, when a mistake is injected, the correct run
// of the same config and inputs beside it with the core's report on the difference.
#pragma once

#include <memory>
#include <optional>

#include "core/config.hpp"
#include "core/inputs.hpp"
#include "core/mha.hpp"
#include "core/mistakes.hpp"
#include "core/trace.hpp"

namespace attnlab::gui {

struct TraceBundle {
  std::shared_ptr<const Trace> trace;    // the config as it is (the buggy run with a mistake)
  std::shared_ptr<const Trace> correct;  // the same with Mistake::None; null without a mistake
  std::optional<MistakeReport> report;   // with a mistake: compare_with_correct(correct, trace)
};

// Runs the config (and its correct twin). Throws what run() throws (UserError, Cancelled).
TraceBundle compute_bundle(const Config& config, const Inputs& inputs,
                           const RunControl& control = {});

}  // namespace attnlab::gui
