#include "core/kernels/attention_math.hpp"

#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "core/kernels/rng.hpp"

namespace attnlab {

bool masked_softmax_row(Scalar* row, int64_t n) {
  constexpr Scalar kMinusInf = -std::numeric_limits<Scalar>::infinity();
  Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>> r(row, n);
  const Scalar max_score = r.maxCoeff();
  if (max_score == kMinusInf) {  // every key masked
    r.setZero();
    return false;
  }
  // Vectorised exp; masked keys are set to exactly 0 (a clamped exp(-inf) need not be).
  r = (r == kMinusInf).select(Scalar(0), (r - max_score).exp());
  r *= Scalar(1) / r.sum();
  return true;
}

void dropout_row(Scalar* row, int64_t n, double p, uint64_t seed, int64_t first_index) {
  const auto keep_scale = static_cast<Scalar>(1.0 / (1.0 - p));
  for (int64_t j = 0; j < n; ++j) {
    row[j] = uniform_at(seed, first_index + j) < p ? 0.0f : row[j] * keep_scale;
  }
}

}  // namespace attnlab
