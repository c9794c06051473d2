// Which keys each query may attend to. Masks combine by intersection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/config.hpp"

namespace attnlab {

// Is key j visible to query i in sequence b (padding lengths are per sequence b)?
bool key_visible(const MaskSpec& mask, int64_t b, int64_t i, int64_t j);

// (B, T, T_k) row-major, 1 = visible, 0 = masked (the same for every head, as in the seeds).
// T_k = T for self-attention; cross-attention's keys are another sentence's T_k tokens.
std::vector<uint8_t> visibility(const MaskSpec& mask, int64_t batch, int64_t T, int64_t T_k);
inline std::vector<uint8_t> visibility(const MaskSpec& mask, int64_t batch, int64_t T) {
  return visibility(mask, batch, T, T);
}

// "causal + padding:3,5 + window:2:1", or "none".
std::string describe(const MaskSpec& mask);

}  // namespace attnlab
