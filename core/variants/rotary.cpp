#include "core/variants/rotary.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/position/position_encoding.hpp"

namespace attnlab {

void rotate_by_position(Tensor& rows, int64_t d_rope, int64_t first_position) {
  const int64_t B = rows.size(0), T = rows.size(1), width = rows.size(2), pairs = d_rope / 2;
  const std::vector<double> frequency = rope_inverse_frequencies(d_rope);  // 10000^(-2p/d_rope)
  Scalar* values = rows.data();
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t p = 0; p < pairs; ++p) {
      const double angle = double(first_position + t) * frequency[size_t(p)];
      const double cos_a = std::cos(angle), sin_a = std::sin(angle);
      for (int64_t b = 0; b < B; ++b) {
        Scalar* row = values + (b * T + t) * width;
        for (int64_t chunk = 0; chunk < width; chunk += d_rope) {  // one chunk per head
          Scalar& even = row[chunk + 2 * p];
          Scalar& odd = row[chunk + 2 * p + 1];
          const double a = even, c = odd;
          even = static_cast<Scalar>(a * cos_a - c * sin_a);
          odd = static_cast<Scalar>(a * sin_a + c * cos_a);
        }
      }
    }
  }
}

namespace {

// cos and sin of t * inv_freq[i] for one position, i < d/2.
void angles(int64_t position, const Scalar* inv_freq, int64_t half, std::vector<double>& cos_a,
            std::vector<double>& sin_a) {
  for (int64_t i = 0; i < half; ++i) {
    const double angle = double(position) * double(inv_freq[i]);
    cos_a[size_t(i)] = std::cos(angle);
    sin_a[size_t(i)] = std::sin(angle);
  }
}

// One d-wide vector: out[i] = x[i] cos_i - x[i + d/2] sin_i, out[i + d/2] = x[i + d/2] cos_i +
// x[i] sin_i (x read `stride` apart; out may be x when stride is 1).
void turn(const Scalar* x, int64_t stride, Scalar* out, int64_t half,
          const std::vector<double>& cos_a, const std::vector<double>& sin_a) {
  for (int64_t i = 0; i < half; ++i) {
    const double first = x[i * stride], second = x[(i + half) * stride];
    out[i] = static_cast<Scalar>(first * cos_a[size_t(i)] - second * sin_a[size_t(i)]);
    out[i + half] = static_cast<Scalar>(second * cos_a[size_t(i)] + first * sin_a[size_t(i)]);
  }
}

}  // namespace

Tensor rotate_half(const Tensor& x, const Tensor& inv_freq, const std::string& name,
                   int64_t first_position, bool compute) {
  const int64_t L0 = x.size(0), L1 = x.size(1), T = x.size(2), d = x.size(3), half = d / 2;
  Tensor out = Tensor::empty(name, {L0, L1, T, d}, compute);
  if (!compute) return out;
  const Shape& st = x.strides();
  std::vector<double> cos_a(static_cast<size_t>(half)), sin_a(static_cast<size_t>(half));
  Scalar* to = out.data();
  for (int64_t t = 0; t < T; ++t) {
    angles(first_position + t, inv_freq.data(), half, cos_a, sin_a);
    for (int64_t a = 0; a < L0; ++a)
      for (int64_t b = 0; b < L1; ++b)
        turn(x.data() + a * st[0] + b * st[1] + t * st[2], st[3], to + ((a * L1 + b) * T + t) * d,
             half, cos_a, sin_a);
  }
  return out;
}

void rotate_half_rows(Scalar* values, int64_t rows, int64_t T, int64_t width, int64_t d,
                      const Scalar* inv_freq, int64_t first_position) {
  const int64_t half = d / 2;
  std::vector<double> cos_a(static_cast<size_t>(half)), sin_a(static_cast<size_t>(half));
  std::vector<Scalar> copy(static_cast<size_t>(d));
  for (int64_t r = 0; r < rows; ++r) {
    angles(first_position + r % T, inv_freq, half, cos_a, sin_a);
    for (int64_t chunk = 0; chunk < width; chunk += d) {  // one chunk per head
      Scalar* head = values + r * width + chunk;
      std::copy(head, head + d, copy.begin());
      turn(copy.data(), 1, head, half, cos_a, sin_a);
    }
  }
}

double rotation_flops(const Shape& shape) {
  double n = 1;
  for (int64_t size : shape) n *= double(size);
  return 3.0 * n;  // 6 per pair of values
}

}  // namespace attnlab
