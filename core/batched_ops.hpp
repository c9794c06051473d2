// The tensor operations of the attend stage, on 4-D tensors (L0, L1, rows, cols) read through
// their strides, split over the cores. The two leading axes are (B, h) in a correct run; the
// mistakes simulator also feeds them (B, T), which is why nothing here assumes which is which.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace attnlab {

// out[l0, l1] = a[l0, l1] @ b[l0, l1]: (M, K) @ (K, N) -> (M, N) for every leading index.
// `b` may be a transposed view (e.g. k.transpose(-2, -1)); `out` must be contiguous.
// Stops early (leaving `out` partly written) when *cancel becomes true.
void batched_matmul(const Tensor& a, const Tensor& b, const Tensor& out,
                    const std::atomic<bool>* cancel);

// dst = src * factor, elementwise (both contiguous, same shape).
void scale_into(const Tensor& src, Scalar factor, const Tensor& dst);

// dst = src where visible, else `fill`. src/dst (B, h, T, T) contiguous; visible (B, T, T).
void mask_into(const Tensor& src, const std::vector<uint8_t>& visible, Scalar fill,
               const Tensor& dst);

// dst = softmax(src) along the last axis (dim=-1); -inf entries get weight exactly 0 and a row
// with no finite entry becomes all zeros.
void softmax_last_axis(const Tensor& src, const Tensor& dst);

// dst = softmax(src) along the second-to-last axis (dim=-2): the "wrong axis" of the mistakes.
void softmax_second_last_axis(const Tensor& src, const Tensor& dst);

// dst = inverted dropout of src (p, seed as in dropout_row; element i of the flat tensor is
// decided by uniform_at(seed, i)).
void dropout_into(const Tensor& src, double p, uint64_t seed, const Tensor& dst);

}  // namespace attnlab
