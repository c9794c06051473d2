// The vector kernel the page's products go through (WebAssembly SIMD there, SSE here): every
// column range, both weight layouts, with and without a bias, against a plain triple loop in
// double. Sizes cover the kernel's edges: rows not a multiple of its 4 (or 2) row tiles, k past
// its 256-deep blocks and not a multiple of 4, columns not a multiple of 8.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/tensor/vector_gemm.hpp"

namespace attnlab {
namespace {

struct Case {
  int64_t rows, k, n, c0, c1;
};

// y[i][j] = bias[j] + sum_kk x[i][kk] w[kk][j] (InOut) or w[j][kk] (OutIn), in double.
double reference(const std::vector<float>& x, const std::vector<float>& w,
                 const std::vector<float>& bias, WeightLayout layout, const Case& c, int64_t i,
                 int64_t j) {
  double s = bias.empty() ? 0.0 : bias[size_t(j)];
  for (int64_t kk = 0; kk < c.k; ++kk) {
    const float wv =
        layout == WeightLayout::InOut ? w[size_t(kk * c.n + j)] : w[size_t(j * c.k + kk)];
    s += double(x[size_t(i * c.k + kk)]) * double(wv);
  }
  return s;
}

TEST(VectorGemm, EqualsThePlainProductOnEveryEdge) {
  std::mt19937 gen(7);
  std::normal_distribution<float> normal;
  const Case cases[] = {{1, 1, 1, 0, 1},     {3, 5, 9, 0, 9},       {4, 256, 16, 0, 16},
                        {5, 257, 17, 0, 17}, {7, 300, 40, 8, 33},   {9, 64, 24, 3, 21},
                        {2, 513, 8, 0, 8},   {32, 768, 72, 16, 72}, {6, 3, 13, 5, 6}};
  for (const Case& c : cases)
    for (WeightLayout layout : {WeightLayout::InOut, WeightLayout::OutIn})
      for (bool with_bias : {false, true}) {
        std::vector<float> x(size_t(c.rows * c.k)), w(size_t(c.k * c.n)), bias;
        for (float& v : x) v = normal(gen);
        for (float& v : w) v = normal(gen);
        if (with_bias) bias.resize(size_t(c.n));
        for (float& v : bias) v = normal(gen);
        const float sentinel = -12345.0f;  // columns outside [c0, c1) are left alone
        std::vector<float> y(size_t(c.rows * c.n), sentinel);
        vector_gemm_columns(x.data(), c.rows, c.k, w.data(), layout, c.n,
                            with_bias ? bias.data() : nullptr, c.c0, c.c1, y.data());
        for (int64_t i = 0; i < c.rows; ++i)
          for (int64_t j = 0; j < c.n; ++j) {
            const float got = y[size_t(i * c.n + j)];
            if (j < c.c0 || j >= c.c1) {
              ASSERT_EQ(got, sentinel);
              continue;
            }
            const double want = reference(x, w, bias, layout, c, i, j);
            ASSERT_NEAR(got, want, 1e-5 * (1.0 + std::sqrt(double(c.k)) * 4.0))
                << "rows " << c.rows << " k " << c.k << " n " << c.n << " at " << i << "," << j
                << (layout == WeightLayout::InOut ? " in-out" : " out-in");
          }
      }
}

}  // namespace
}  // namespace attnlab
