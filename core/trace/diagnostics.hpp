// Checks a computed trace the way the theory seed's debugging checklist does: rows sum to 1,
// masked weights are exactly 0, no NaN/Inf, and how focused each head is (entropy in bits, and
// the entropy of uniform attention over the same visible keys to compare it with).
#pragma once

#include <string>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnlab {

// Fills trace.diagnostics (all but notices) from the trace's weights and tensors.
void diagnose(Trace& trace);

// A head's entropy over uniform attention's (diagnostics.uniform_entropy_bits): 1 = spread evenly
// over the keys each query sees, 0 = all weight on one key. 0 when no query has two keys to spread
// over (the uniform reference is then 0 bits too).
double fraction_of_uniform(const Diagnostics& diagnostics, size_t head);

// "uniform over T = 11 keys: 3.46 bits", or under a mask "uniform over each query's visible keys:
// 2.30 bits" (with the transpose forgotten the rows spread over the h heads: "h = 2 keys").
std::string describe_uniform_entropy(const Trace& trace);

// Plain-language remarks about how the config was read (a truncated or cycled sentence).
std::vector<std::string> notices_for(const Config& config);

}  // namespace attnlab
