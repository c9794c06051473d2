// Rotary position embedding (RoPE), as DeepSeek-V2's decoupled key and query use it: each pair of
// dimensions (2p, 2p + 1) of a token's vector is rotated by the angle t * 10000^(-2p / d_rope),
// t the token's position, so q·k depends on the two positions only through their difference.
#pragma once

#include <cstdint>

#include "core/tensor/tensor.hpp"

namespace attnlab {

// Rotates, in place, every d_rope-wide chunk of each row of a contiguous (B, T, width) tensor
// (width a multiple of d_rope: one chunk per head) by its token's position, first_position + t.
void rotate_by_position(Tensor& rows, int64_t d_rope, int64_t first_position = 0);

// FLOPs of that rotation: 6 per pair (two products and a sum for each of the two outputs).
double rotation_flops(const Shape& shape);

}  // namespace attnlab
