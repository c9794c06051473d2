#include "core/kernels/batched_ops.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cassert>

#include "core/kernels/attention_math.hpp"

namespace attnlab {

namespace {

using RowMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ColMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using MatrixView = Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>>;
using ConstRowView = Eigen::Map<const RowMatrix, 0, Eigen::OuterStride<>>;
using ConstColView = Eigen::Map<const ColMatrix, 0, Eigen::OuterStride<>>;

const Scalar* matrix_start(const Tensor& t, int64_t pair) {
  const int64_t i0 = pair / t.size(1), i1 = pair % t.size(1);
  return t.data() + i0 * t.strides()[0] + i1 * t.strides()[1];
}

// How BLAS can read the (rows, cols) matrix in the last two axes of t: row-major or column-major,
// with a leading dimension. The stride of a size-1 axis means nothing (PyTorch may leave any
// value there, e.g. after a transpose when d_k = 1), so it is never used as one.
struct Layout {
  bool row_major;
  int64_t leading;
};

Layout layout_of(const Tensor& t) {
  const int64_t rows = t.size(2), cols = t.size(3);
  const int64_t row_stride = t.strides()[2], col_stride = t.strides()[3];
  if (cols == 1 || col_stride == 1) return {true, rows == 1 ? cols : row_stride};
  assert((rows == 1 || row_stride == 1) && "matrix must be row- or column-major");
  return {false, cols == 1 ? rows : col_stride};
}

template <typename A>
void multiply_into(const A& a, const Tensor& b, int64_t pair, MatrixView out) {
  const int64_t K = b.size(2), N = b.size(3);
  const Layout layout = layout_of(b);
  if (layout.row_major) {
    out.noalias() =
        a * ConstRowView(matrix_start(b, pair), K, N, Eigen::OuterStride<>(layout.leading));
  } else {
    out.noalias() =
        a * ConstColView(matrix_start(b, pair), K, N, Eigen::OuterStride<>(layout.leading));
  }
}

}  // namespace

const Scalar* map_data(const Tensor& t, int64_t pair) {
  return t.data() + pair * map_size(t);
}

Scalar* map_data(Tensor& t, int64_t pair) {
  return t.data() + pair * map_size(t);
}

int64_t map_size(const Tensor& t) {
  return t.size(2) * t.size(3);
}

void matmul_map(const Tensor& a, const Tensor& b, Tensor& out, int64_t pair) {
  const int64_t M = a.size(2), K = a.size(3), N = b.size(3);
  assert(b.size(2) == K && out.is_contiguous());
  const Layout a_layout = layout_of(a);
  assert(a_layout.row_major && "left operand must be row-major");
  const ConstRowView left(matrix_start(a, pair), M, K, Eigen::OuterStride<>(a_layout.leading));
  multiply_into(left, b, pair, MatrixView(map_data(out, pair), M, N, Eigen::OuterStride<>(N)));
}

void scale_values(const Scalar* src, Scalar factor, Scalar* dst, int64_t n) {
  using Array = Eigen::Array<Scalar, Eigen::Dynamic, 1>;
  Eigen::Map<Array>(dst, n) = Eigen::Map<const Array>(src, n) * factor;
}

void mask_map(const Scalar* src, const uint8_t* visible, Scalar fill, Scalar* dst, int64_t M,
              int64_t N) {
  for (int64_t k = 0; k < M * N; ++k) dst[k] = visible[k] ? src[k] : fill;
}

void softmax_rows(const Scalar* src, Scalar* dst, int64_t M, int64_t N) {
  std::copy_n(src, M * N, dst);
  for (int64_t i = 0; i < M; ++i) masked_softmax_row(dst + i * N, N);
}

void softmax_columns(const Scalar* src, Scalar* dst, int64_t M, int64_t N) {
  // Softmax over a column = softmax over a row of the transposed map: gather, reuse the row
  // kernel, scatter back.
  Values column(static_cast<size_t>(M));  // aligned: see AlignedAllocator
  for (int64_t j = 0; j < N; ++j) {
    for (int64_t i = 0; i < M; ++i) column[size_t(i)] = src[i * N + j];
    masked_softmax_row(column.data(), M);
    for (int64_t i = 0; i < M; ++i) dst[i * N + j] = column[size_t(i)];
  }
}

void dropout_values(const Scalar* src, double p, uint64_t seed, int64_t first_index, Scalar* dst,
                    int64_t n) {
  std::copy_n(src, n, dst);
  dropout_row(dst, n, p, seed, first_index);
}

}  // namespace attnlab
