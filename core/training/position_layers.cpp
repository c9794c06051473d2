#include "core/training/position_layers.hpp"

#include <cassert>

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

void rope_angles(int64_t T, int64_t d_k, RopeAngles& a) {
  const int64_t half = d_k / 2;
  if (int64_t(a.at.size()) == T && (T == 0 || int64_t(a.at[0].cos.size()) == half)) return;
  const std::vector<double> inv_freq = rope_inverse_frequencies(d_k);  // (d_k / 2)
  a.at.resize(size_t(T));
  for (int64_t t = 0; t < T; ++t) rope_cos_sin(double(t), inv_freq.data(), half, a.at[size_t(t)]);
}

template <typename S>
void rotate_heads(Matrix<S>& qkv, int64_t width, int64_t T, int64_t d_k, const RopeAngles& a,
                  bool transposed) {
  for (int64_t n = 0; n < qkv.rows(); ++n) {
    S* row = qkv.row(n).data();
    const RopeCosSin& angles = a.at[size_t(n % T)];
    for (int64_t head = 0; head < width; head += d_k)  // one head's (d_k) vector
      rope_turn(row + head, 1, row + head, angles, RopePairing::Half, transposed);
  }
}

template <typename S>
void add_alibi_bias(Matrix<S>& scores, int64_t T, int64_t heads) {
  const std::vector<double> slopes = alibi_slopes(heads);     // (h)
  for (int64_t pair = 0; pair < scores.rows() / T; ++pair) {  // (sequence, head) pairs
    S* block = scores.data() + pair * T * T;
    add_alibi<S>(block, block, T, T, T, 0, 0, nullptr, 0, slopes[size_t(pair % heads)]);
  }
}

#define ATTNLAB_POSITION_LAYERS(S)                                                               \
  template void add_positions<S>(PositionEncoding, const Parameters<S>&, int64_t, Matrix<S>&);   \
  template void position_gradients<S>(PositionEncoding, const Matrix<S>&, int64_t,               \
                                      Parameters<S>&);                                           \
  template void rotate_heads<S>(Matrix<S>&, int64_t, int64_t, int64_t, const RopeAngles&, bool); \
  template void add_alibi_bias<S>(Matrix<S>&, int64_t, int64_t);
ATTNLAB_POSITION_LAYERS(float)
ATTNLAB_POSITION_LAYERS(double)
#undef ATTNLAB_POSITION_LAYERS

}  // namespace attnlab::training
