#include "core/kernels/linear.hpp"

#include <Eigen/Core>

#include "core/kernels/parallel.hpp"

namespace attnlab {

void linear(const Scalar* x, int64_t rows, int64_t d_in, const Scalar* w, int64_t d_out,
            const Scalar* bias, Scalar* y) {
  using RowMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using RowVector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;
  const Eigen::Map<const RowMatrix> X(x, rows, d_in);
  const Eigen::Map<const RowMatrix> W(w, d_in, d_out);
  Eigen::Map<RowMatrix> Y(y, rows, d_out);
  parallel_for(rows, 2.0 * double(rows) * d_in * d_out, [&](int64_t r0, int64_t r1) {
    Y.middleRows(r0, r1 - r0).noalias() = X.middleRows(r0, r1 - r0) * W;
    if (bias) Y.middleRows(r0, r1 - r0).rowwise() += Eigen::Map<const RowVector>(bias, d_out);
  });
}

Tensor linear(const Tensor& x, const Tensor& w, const Tensor& b, const std::string& name) {
  Tensor y = Tensor::empty(name, {x.size(0), x.size(1), w.size(1)});
  linear(x.data(), x.size(0) * x.size(1), x.size(2), w.data(), w.size(1),
         b.storage() ? b.data() : nullptr, y.data());
  return y;
}

}  // namespace attnlab
