#include "core/tensor/vector_gemm.hpp"

#include <algorithm>
#include <cstring>

namespace attnlab {

namespace {

typedef float v4 __attribute__((vector_size(16)));

inline v4 load(const float* p) {
  v4 v;
  std::memcpy(&v, p, sizeof v);  // unaligned: compiles to one vector load
  return v;
}

inline void store(float* p, v4 v) {
  std::memcpy(p, &v, sizeof v);
}

inline v4 splat(float s) {
  return v4{s, s, s, s};
}

inline float sum(v4 v) {
  return (v[0] + v[1]) + (v[2] + v[3]);
}

// The depth of one pass over k: a (kKBlock, 8) panel of w (8 KiB) stays in L1 across the rows.
constexpr int64_t kKBlock = 256;

// InOut, columns [j, j + 8): y rows [i, i + R) += x[i.., kb..ke) · w[kb..ke, j..j+8).
template <int R>
void in_out_tile(const float* x, int64_t k, const float* w, int64_t n, int64_t i, int64_t j,
                 int64_t kb, int64_t ke, float* y) {
  v4 acc[R][2];
  for (int r = 0; r < R; ++r) {
    acc[r][0] = load(y + (i + r) * n + j);
    acc[r][1] = load(y + (i + r) * n + j + 4);
  }
  for (int64_t kk = kb; kk < ke; ++kk) {
    const v4 b0 = load(w + kk * n + j), b1 = load(w + kk * n + j + 4);
    for (int r = 0; r < R; ++r) {
      const v4 a = splat(x[(i + r) * k + kk]);
      acc[r][0] += a * b0;
      acc[r][1] += a * b1;
    }
  }
  for (int r = 0; r < R; ++r) {
    store(y + (i + r) * n + j, acc[r][0]);
    store(y + (i + r) * n + j + 4, acc[r][1]);
  }
}

void in_out(const float* x, int64_t rows, int64_t k, const float* w, int64_t n, int64_t c0,
            int64_t c1, float* y) {
  const int64_t vector_end = c0 + (c1 - c0) / 8 * 8;
  for (int64_t kb = 0; kb < k; kb += kKBlock) {
    const int64_t ke = std::min(k, kb + kKBlock);
    for (int64_t j = c0; j < vector_end; j += 8) {
      int64_t i = 0;
      for (; i + 4 <= rows; i += 4) in_out_tile<4>(x, k, w, n, i, j, kb, ke, y);
      for (; i < rows; ++i) in_out_tile<1>(x, k, w, n, i, j, kb, ke, y);
    }
  }
  for (int64_t i = 0; i < rows; ++i)  // the last columns, fewer than 8
    for (int64_t j = vector_end; j < c1; ++j) {
      float s = 0;
      for (int64_t kk = 0; kk < k; ++kk) s += x[i * k + kk] * w[kk * n + j];
      y[i * n + j] += s;
    }
}

// OutIn: y[i + r][j + c] += x[i + r, :] · w[j + c, :] for R rows and C columns, dot products of
// contiguous rows four floats at a time.
template <int R, int C>
void out_in_tile(const float* x, int64_t k, const float* w, int64_t n, int64_t i, int64_t j,
                 float* y) {
  v4 acc[R][C] = {};
  const int64_t vector_end = k / 4 * 4;
  for (int64_t kk = 0; kk < vector_end; kk += 4) {
    v4 b[C];
    for (int c = 0; c < C; ++c) b[c] = load(w + (j + c) * k + kk);
    for (int r = 0; r < R; ++r) {
      const v4 a = load(x + (i + r) * k + kk);
      for (int c = 0; c < C; ++c) acc[r][c] += a * b[c];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      float s = sum(acc[r][c]);
      for (int64_t kk = vector_end; kk < k; ++kk) s += x[(i + r) * k + kk] * w[(j + c) * k + kk];
      y[(i + r) * n + j + c] += s;
    }
}

template <int C>
void out_in_columns(const float* x, int64_t rows, int64_t k, const float* w, int64_t n, int64_t j,
                    float* y) {
  int64_t i = 0;
  for (; i + 2 <= rows; i += 2) out_in_tile<2, C>(x, k, w, n, i, j, y);
  for (; i < rows; ++i) out_in_tile<1, C>(x, k, w, n, i, j, y);
}

void out_in(const float* x, int64_t rows, int64_t k, const float* w, int64_t n, int64_t c0,
            int64_t c1, float* y) {
  int64_t j = c0;
  for (; j + 4 <= c1; j += 4) out_in_columns<4>(x, rows, k, w, n, j, y);
  for (; j < c1; ++j) out_in_columns<1>(x, rows, k, w, n, j, y);
}

}  // namespace

void vector_gemm_columns(const float* x, int64_t rows, int64_t k, const float* w,
                         WeightLayout layout, int64_t n, const float* bias, int64_t c0, int64_t c1,
                         float* y) {
  for (int64_t i = 0; i < rows; ++i)  // start from the bias (or zero); the tiles add to y
    for (int64_t j = c0; j < c1; ++j) y[i * n + j] = bias ? bias[j] : 0.0f;
  if (layout == WeightLayout::InOut)
    in_out(x, rows, k, w, n, c0, c1, y);
  else
    out_in(x, rows, k, w, n, c0, c1, y);
}

}  // namespace attnlab
