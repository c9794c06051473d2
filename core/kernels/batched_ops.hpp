// The attend stage's kernels on one attention map at a time. A map is the (rows, cols) matrix in
// the last two axes of a 4-D tensor (L0, L1, rows, cols) at a leading index `pair` = i0*L1 + i1;
// the leading axes are (B, h) in a correct run and (B, T) when the transpose was forgotten, which
// is why nothing here assumes which is which. Working map by map keeps each one in cache while
// every sub-step runs on it.
#pragma once

#include <cstdint>

#include "core/tensor/tensor.hpp"

namespace attnlab {

// out map = a map @ b map: (M, K) @ (K, N) -> (M, N). `b` may be a transposed view
// (k.transpose(-2, -1)); `out` must be contiguous.
void matmul_map(const Tensor& a, const Tensor& b, Tensor& out, int64_t pair);

// Pointer to map `pair` of a contiguous 4-D tensor (writable only through a non-const one), and
// its element count.
const Scalar* map_data(const Tensor& t, int64_t pair);
Scalar* map_data(Tensor& t, int64_t pair);
int64_t map_size(const Tensor& t);

// dst = src * factor over n values.
void scale_values(const Scalar* src, Scalar factor, Scalar* dst, int64_t n);

// dst[i, j] = visible[i, j] ? src[i, j] : fill over an (M, N) map; visible is that sequence's
// (T, T) block of the mask.
void mask_map(const Scalar* src, const uint8_t* visible, Scalar fill, Scalar* dst, int64_t M,
              int64_t N);

// dst = softmax(src) along each row (dim=-1); -inf gets weight exactly 0; a row with no finite
// entry becomes all zeros.
void softmax_rows(const Scalar* src, Scalar* dst, int64_t M, int64_t N);

// dst = softmax(src) along each column (dim=-2): the "wrong axis" mistake.
void softmax_columns(const Scalar* src, Scalar* dst, int64_t M, int64_t N);

// Inverted dropout of n values whose flat index in their tensor starts at first_index.
void dropout_values(const Scalar* src, double p, uint64_t seed, int64_t first_index, Scalar* dst,
                    int64_t n);

}  // namespace attnlab
