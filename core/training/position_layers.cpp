#include "core/training/position_layers.hpp"

#include <cassert>

#include "core/position/rope_alibi.hpp"

namespace attnlab::training {

template <typename S>
void add_positions(PositionEncoding pos, const Parameters<S>& p, int64_t T, Matrix<S>& x0) {
  if (pos == PositionEncoding::Learned) {
    const Matrix<S>& table = p[p.layout.pos_emb];  // (T_train, D)
    assert(T <= table.rows());
    for (int64_t n = 0; n < x0.rows(); ++n) x0.row(n) += table.row(n % T);
  } else if (pos == PositionEncoding::Sinusoidal) {
    const int64_t D = x0.cols();
    const std::vector<double> pe = sinusoidal_table(T, D);  // (T, D)
    for (int64_t n = 0; n < x0.rows(); ++n) {
      const double* row = pe.data() + (n % T) * D;
      for (int64_t i = 0; i < D; ++i) x0(n, i) += S(row[i]);
    }
  }
}

template <typename S>
void position_gradients(PositionEncoding pos, const Matrix<S>& dx0, int64_t T, Parameters<S>& g) {
  if (pos != PositionEncoding::Learned) return;
  Matrix<S>& dtable = g[g.layout.pos_emb];  // (T_train, D)
  dtable.setZero();
  for (int64_t n = 0; n < dx0.rows(); ++n) dtable.row(n % T) += dx0.row(n);
}

template <typename S>
void rope_angles(int64_t T, int64_t d_k, RopeAngles<S>& a) {
  const int64_t half = d_k / 2;
  if (a.cos.rows() == T && a.cos.cols() == half) return;
  const std::vector<double> inv_freq = rope_inverse_frequencies(d_k);  // (d_k / 2)
  a.cos.resize(T, half);
  a.sin.resize(T, half);
  RopeCosSin angles;
  for (int64_t t = 0; t < T; ++t) {
    rope_cos_sin(double(t), inv_freq.data(), half, angles);
    for (int64_t i = 0; i < half; ++i) {
      a.cos(t, i) = S(angles.cos[size_t(i)]);
      a.sin(t, i) = S(angles.sin[size_t(i)]);
    }
  }
}

template <typename S>
void rotate_heads(Matrix<S>& qkv, int64_t width, int64_t T, int64_t d_k, const RopeAngles<S>& a,
                  bool transposed) {
  const int64_t half = d_k / 2;
  for (int64_t n = 0; n < qkv.rows(); ++n) {
    S* row = qkv.row(n).data();
    const S* cos = a.cos.row(n % T).data();
    const S* sin = a.sin.row(n % T).data();
    for (int64_t head = 0; head < width; head += d_k)  // one head's (d_k) vector, by rope_turn
      rope_turn(row + head, 1, row + head, half, cos, sin, RopePairing::Half, transposed);
  }
}

template <typename S>
void alibi_bias_table(int64_t T, int64_t heads, Matrix<S>& bias) {
  if (bias.rows() == heads * T && bias.cols() == T) return;
  const std::vector<double> slopes = alibi_slopes(heads);  // (h)
  bias.resize(heads * T, T);
  for (int64_t head = 0; head < heads; ++head)
    for (int64_t query = 0; query < T; ++query)
      for (int64_t key = 0; key < T; ++key)
        bias(head * T + query, key) = S(alibi_bias(slopes[size_t(head)], query, key));
}

template <typename S>
void add_alibi_bias(Matrix<S>& scores, int64_t T, int64_t heads, const Matrix<S>& bias) {
  for (int64_t pair = 0; pair < scores.rows() / T; ++pair) {  // (sequence, head) pairs
    S* block = scores.data() + pair * T * T;
    add_alibi(block, block, T, T, T, 0, 0, bias.data() + (pair % heads) * T * T, T, 0.0);
  }
}

#define ATTNLAB_POSITION_LAYERS(S)                                                             \
  template void add_positions<S>(PositionEncoding, const Parameters<S>&, int64_t, Matrix<S>&); \
  template void position_gradients<S>(PositionEncoding, const Matrix<S>&, int64_t,             \
                                      Parameters<S>&);                                         \
  template void rope_angles<S>(int64_t, int64_t, RopeAngles<S>&);                              \
  template void rotate_heads<S>(Matrix<S>&, int64_t, int64_t, int64_t, const RopeAngles<S>&,   \
                                bool);                                                         \
  template void alibi_bias_table<S>(int64_t, int64_t, Matrix<S>&);                             \
  template void add_alibi_bias<S>(Matrix<S>&, int64_t, int64_t, const Matrix<S>&);
ATTNLAB_POSITION_LAYERS(float)
ATTNLAB_POSITION_LAYERS(double)
#undef ATTNLAB_POSITION_LAYERS

}  // namespace attnlab::training
