// Checks a computed trace the way the theory seed's debugging checklist does: rows sum to 1,
// masked weights are exactly 0, no NaN/Inf, and how focused each head is (entropy in bits).
#pragma once

#include <string>
#include <vector>

#include "core/trace.hpp"

namespace attnlab {

// Fills trace.diagnostics (all but notices) from the trace's weights and tensors.
void diagnose(Trace& trace);

// Plain-language remarks about how the config was read (a truncated or cycled sentence).
std::vector<std::string> notices_for(const Config& config);

}  // namespace attnlab
