#include "core/attention_math.hpp"

#include <cmath>
#include <limits>

#include "core/rng.hpp"

namespace attnlab {

bool masked_softmax_row(Scalar* row, int64_t n) {
  Scalar max_score = -std::numeric_limits<Scalar>::infinity();
  for (int64_t j = 0; j < n; ++j) max_score = std::max(max_score, row[j]);
  if (max_score == -std::numeric_limits<Scalar>::infinity()) {  // every key masked
    for (int64_t j = 0; j < n; ++j) row[j] = 0.0f;
    return false;
  }
  double sum = 0.0;
  for (int64_t j = 0; j < n; ++j) {
    row[j] = std::exp(row[j] - max_score);  // exp(-inf) = 0 for masked keys
    sum += row[j];
  }
  const auto inv = static_cast<Scalar>(1.0 / sum);
  for (int64_t j = 0; j < n; ++j) row[j] *= inv;
  return true;
}

void dropout_row(Scalar* row, int64_t n, double p, uint64_t seed, int64_t first_index) {
  const auto keep_scale = static_cast<Scalar>(1.0 / (1.0 - p));
  for (int64_t j = 0; j < n; ++j) {
    row[j] = uniform_at(seed, first_index + j) < p ? 0.0f : row[j] * keep_scale;
  }
}

double entropy_bits(const Scalar* row, int64_t n) {
  double h = 0.0;
  for (int64_t j = 0; j < n; ++j) {
    if (row[j] > 0.0f) h -= row[j] * std::log2(static_cast<double>(row[j]));
  }
  return h;
}

}  // namespace attnlab
