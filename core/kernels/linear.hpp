// y = x W (+ b) over row-major buffers, split by rows over the cores: the projections, which
// are most of multi-head attention's FLOPs.
#pragma once

#include <cstdint>
#include <string>

#include "core/tensor/tensor.hpp"

namespace attnlab {

// x (rows, d_in) @ w (d_in, d_out) [+ bias (d_out)] -> y (rows, d_out); bias may be null.
// y must not alias x or w.
void linear(const Scalar* x, int64_t rows, int64_t d_in, const Scalar* w, int64_t d_out,
            const Scalar* bias, Scalar* y);

// The same on tensors: x (B, n, d_in) contiguous @ w (d_in, d_out) [+ b] -> a new (B, n, d_out)
// named `name`; an undefined b is no bias.
Tensor linear(const Tensor& x, const Tensor& w, const Tensor& b, const std::string& name);

}  // namespace attnlab
