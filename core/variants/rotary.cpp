#include "core/variants/rotary.hpp"

#include <vector>

#include "core/position/rope_alibi.hpp"

namespace attnlab {

// Every function here is a layout over rope_turn (core/position/rope_alibi.hpp), the one
// function that applies RoPE.

void rotate_by_position(Tensor& rows, int64_t d_rope, int64_t first_position) {
  const int64_t B = rows.size(0), T = rows.size(1), width = rows.size(2);
  const std::vector<double> frequency = rope_inverse_frequencies(d_rope);  // 10000^(-2p/d_rope)
  RopeCosSin angles;
  for (int64_t t = 0; t < T; ++t) {
    rope_cos_sin(double(first_position + t), frequency.data(), d_rope / 2, angles);
    for (int64_t b = 0; b < B; ++b) {
      Scalar* row = rows.data() + (b * T + t) * width;
      for (int64_t chunk = 0; chunk < width; chunk += d_rope)  // one chunk per head
        rope_turn(row + chunk, 1, row + chunk, angles, RopePairing::Neighbours);
    }
  }
}

Tensor rotate_half(const Tensor& x, const Tensor& inv_freq, const std::string& name,
                   int64_t first_position, bool compute) {
  const int64_t L0 = x.size(0), L1 = x.size(1), T = x.size(2), d = x.size(3);
  Tensor out = Tensor::empty(name, {L0, L1, T, d}, compute);
  if (!compute) return out;
  const Shape& st = x.strides();
  RopeCosSin angles;
  Scalar* to = out.data();
  for (int64_t t = 0; t < T; ++t) {
    rope_cos_sin(double(first_position + t), inv_freq.data(), d / 2, angles);
    for (int64_t a = 0; a < L0; ++a)
      for (int64_t b = 0; b < L1; ++b)
        rope_turn(x.data() + a * st[0] + b * st[1] + t * st[2], st[3],
                  to + ((a * L1 + b) * T + t) * d, angles, RopePairing::Half);
  }
  return out;
}

void rotate_half_rows(Scalar* values, int64_t rows, int64_t T, int64_t width, int64_t d,
                      const Scalar* inv_freq, int64_t first_position) {
  RopeCosSin angles;
  for (int64_t r = 0; r < rows; ++r) {
    rope_cos_sin(double(first_position + r % T), inv_freq, d / 2, angles);
    for (int64_t chunk = 0; chunk < width; chunk += d) {  // one chunk per head
      Scalar* head = values + r * width + chunk;
      rope_turn(head, 1, head, angles, RopePairing::Half);
    }
  }
}

double rotation_flops(const Shape& shape) {
  double n = 1;
  for (int64_t size : shape) n *= double(size);
  return 3.0 * n;  // 6 per pair of values
}

}  // namespace attnlab
