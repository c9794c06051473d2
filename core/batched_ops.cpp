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

// The (M, N) product of one leading index, written through a row-major view of `out`. Each
// operand is either row-major (last stride 1) or a transposed view (second-to-last stride 1);
// both map onto BLAS without a copy.
template <typename A, typename B>
void multiply(const A& a, const B& b, MatrixView out) {
  out.noalias() = a * b;
}

template <typename A>
void multiply_by(const A& a, const Tensor& b, int64_t i0, int64_t i1, MatrixView out) {
  const int64_t K = b.size(2), N = b.size(3);
  if (b.strides()[3] == 1) {
    multiply(a,
             ConstMatrixView(matrix_start(b, i0, i1), K, N, Eigen::OuterStride<>(b.strides()[2])),
             out);
  } else {
    assert(b.strides()[2] == 1 && "operand must be row-major or a transposed view");
    multiply(a,
             ConstColMajorView(matrix_start(b, i0, i1), K, N, Eigen::OuterStride<>(b.strides()[3])),
             out);
  }
}

}  // namespace

void batched_matmul(const Tensor& a, const Tensor& b, const Tensor& out,
                    const std::atomic<bool>* cancel) {
  const int64_t L0 = a.size(0), L1 = a.size(1), M = a.size(2), K = a.size(3), N = b.size(3);
  assert(b.size(2) == K && out.is_contiguous());
  assert(a.strides()[3] == 1 && "left operand must be row-major in its last axis");
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
