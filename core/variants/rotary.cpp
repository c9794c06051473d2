#include "core/variants/rotary.hpp"

#include <cmath>
#include <vector>

namespace attnlab {

void rotate_by_position(Tensor& rows, int64_t d_rope, int64_t first_position) {
  const int64_t B = rows.size(0), T = rows.size(1), width = rows.size(2), pairs = d_rope / 2;
  std::vector<double> frequency(static_cast<size_t>(pairs));
  for (int64_t p = 0; p < pairs; ++p)
    frequency[size_t(p)] = std::pow(10000.0, -2.0 * double(p) / double(d_rope));
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

double rotation_flops(const Shape& shape) {
  double n = 1;
  for (int64_t size : shape) n *= double(size);
  return 3.0 * n;  // 6 per pair of values
}

}  // namespace attnlab
