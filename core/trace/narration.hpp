// The words of a plan: each step's formula and PyTorch line, and the run's notices. The trace's
// records, the code view and the mistakes simulator all quote these: a line is written once.
#pragma once

#include <string>
#include <vector>

#include "core/trace/plan.hpp"

namespace attnlab {

struct Words {
  std::string formula;  // "S / sqrt(d_k), d_k = 2"
  std::string code;     // the PyTorch line, as in the reference forward: "q = x @ self.W_q"
  std::string note;     // what the mistake did here ("<- should be d_k"), or ""
  bool in_code = true;  // false: the reference forward has no line for it (no mask, no W_o bias)
};

Words narrate(const Plan& plan, const PlannedStep& step);

// The record's `pytorch` field: the line with its shape (or, left out, commented out).
std::string pytorch_line(const Plan& plan, const PlannedStep& step);

// Plain-language remarks the plan calls for (the forgotten transpose, an unused mask, the p
// dropout-on-output uses).
std::vector<std::string> plan_notices(const Plan& plan);

}  // namespace attnlab
