// Head ablation, as in the head-pruning discussion of the lecture script: switch one head off
// (its context zeroed before concat) and measure how much the output moves.
#pragma once

#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/run_control.hpp"

namespace attnlab {

// Per head: || out(all heads) - out(this head off) ||_F, with the config's own ablations kept.
// `inputs` must be complete (see complete_inputs). Refuses (UserError) a config whose values
// cannot be computed (require_values); reports progress per head and stops when cancelled.
std::vector<double> head_importance(const Config& config, const Inputs& inputs,
                                    const RunControl& control = {});

}  // namespace attnlab
