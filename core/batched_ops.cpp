#include "core/batched_ops.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cassert>
#include <limits>

#include "core/attention_math.hpp"
#include "core/parallel.hpp"

namespace attnlab {

namespace {

using RowMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixView = Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>>;
using ConstMatrixView = Eigen::Map<const RowMatrix, 0, Eigen::OuterStride<>>;
using ConstColMajorView =
    Eigen::Map<const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>, 0,
               Eigen::OuterStride<>>;

const Scalar* matrix_start(const Tensor& t, int64_t i0, int64_t i1) {
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

// out = a @ b for one leading index, each operand mapped without a copy.
template <typename A>
void multiply_by(const A& a, const Tensor& b, int64_t i0, int64_t i1, MatrixView out) {
  const int64_t K = b.size(2), N = b.size(3);
  const Layout layout = layout_of(b);
  if (layout.row_major) {
    out.noalias() = a * ConstMatrixView(matrix_start(b, i0, i1), K, N,
                                        Eigen::OuterStride<>(layout.leading));
  } else {
    out.noalias() = a * ConstColMajorView(matrix_start(b, i0, i1), K, N,
                                          Eigen::OuterStride<>(layout.leading));
  }
}

}  // namespace

void batched_matmul(const Tensor& a, const Tensor& b, const Tensor& out,
                    const std::atomic<bool>* cancel) {
  const int64_t L0 = a.size(0), L1 = a.size(1), M = a.size(2), K = a.size(3), N = b.size(3);
  assert(b.size(2) == K && out.is_contiguous());
  const Layout a_layout = layout_of(a);
  assert(a_layout.row_major && "left operand must be row-major");
  parallel_for(L0 * L1, 2.0 * L0 * L1 * M * K * N, [&](int64_t begin, int64_t end) {
    for (int64_t pair = begin; pair < end; ++pair) {
      if (cancel && cancel->load(std::memory_order_relaxed)) return;
      const int64_t i0 = pair / L1, i1 = pair % L1;
      const ConstMatrixView left(matrix_start(a, i0, i1), M, K,
                                 Eigen::OuterStride<>(a.strides()[2]));
      multiply_by(left, b, i0, i1,
                  MatrixView(out.data() + pair * M * N, M, N, Eigen::OuterStride<>(N)));
    }
  });
}

void scale_into(const Tensor& src, Scalar factor, const Tensor& dst) {
  using Array = Eigen::Array<Scalar, Eigen::Dynamic, 1>;
  Eigen::Map<Array>(dst.data(), dst.numel()) =
      Eigen::Map<const Array>(src.data(), src.numel()) * factor;
}

void mask_into(const Tensor& src, const std::vector<uint8_t>& visible, Scalar fill,
               const Tensor& dst) {
  const int64_t h = src.size(1), T = src.size(3);
  const int64_t rows = src.numel() / T;
  parallel_for(rows, double(src.numel()), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {  // row = (b*h + hd)*T + i
      const int64_t b = row / (h * T), i = row % T;
      const Scalar* in = src.data() + row * T;
      const uint8_t* seen = visible.data() + (b * T + i) * T;
      Scalar* out = dst.data() + row * T;
      for (int64_t j = 0; j < T; ++j) out[j] = seen[j] ? in[j] : fill;
    }
  });
}

void softmax_last_axis(const Tensor& src, const Tensor& dst) {
  const int64_t n = src.size(-1), rows = src.numel() / n;
  parallel_for(rows, 5.0 * double(src.numel()), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      std::copy_n(src.data() + row * n, n, dst.data() + row * n);
      masked_softmax_row(dst.data() + row * n, n);
    }
  });
}

void softmax_second_last_axis(const Tensor& src, const Tensor& dst) {
  // Softmax over a column = softmax over the rows of the transposed matrix: gather, reuse the
  // row kernel, scatter back.
  const int64_t M = src.size(-2), N = src.size(-1), maps = src.numel() / (M * N);
  parallel_for(maps * N, 5.0 * double(src.numel()), [&](int64_t begin, int64_t end) {
    Values column(static_cast<size_t>(M));  // aligned: see AlignedAllocator
    for (int64_t c = begin; c < end; ++c) {
      const int64_t map = c / N, j = c % N;
      const Scalar* in = src.data() + map * M * N + j;
      Scalar* out = dst.data() + map * M * N + j;
      for (int64_t i = 0; i < M; ++i) column[size_t(i)] = in[i * N];
      masked_softmax_row(column.data(), M);
      for (int64_t i = 0; i < M; ++i) out[i * N] = column[size_t(i)];
    }
  });
}

void dropout_into(const Tensor& src, double p, uint64_t seed, const Tensor& dst) {
  const int64_t n = src.size(-1), rows = src.numel() / n;
  parallel_for(rows, 20.0 * double(src.numel()), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      std::copy_n(src.data() + row * n, n, dst.data() + row * n);
      dropout_row(dst.data() + row * n, n, p, seed, row * n);
    }
  });
}

}  // namespace attnlab
