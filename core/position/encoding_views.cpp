#include "core/position/encoding_views.hpp"

#include <cmath>

#include "core/position/rope_alibi.hpp"

namespace attnlab {

std::vector<double> sinusoidal_similarity(int64_t T, int64_t d) {
  const std::vector<double> pe = sinusoidal_table(T, d);  // (T, d)
  std::vector<double> gram(static_cast<size_t>(T * T));   // (T, T)
  for (int64_t t = 0; t < T; ++t)
    for (int64_t s = 0; s < T; ++s) {
      double dot = 0;
      for (int64_t i = 0; i < d; ++i) dot += pe[size_t(t * d + i)] * pe[size_t(s * d + i)];
      gram[size_t(t * T + s)] = dot;
    }
  return gram;
}

double PlanePoint::angle() const {
  return std::atan2(y, x);
}

double PlanePoint::length() const {
  return std::hypot(x, y);
}

namespace {

// x (d) turned by its position with rope_turn, the one function that applies RoPE.
std::vector<double> rope_turned(const std::vector<double>& x, const std::vector<double>& inv_freq,
                                int64_t position) {
  RopeCosSin angles;
  rope_cos_sin(double(position), inv_freq.data(), int64_t(x.size() / 2), angles);
  std::vector<double> turned(x.size());
  rope_turn(x.data(), 1, turned.data(), angles, RopePairing::Half);
  return turned;
}

}  // namespace

PlanePoint rope_pair(const std::vector<double>& x, const std::vector<double>& inv_freq,
                     int64_t pair, int64_t position) {
  const std::vector<double> turned = rope_turned(x, inv_freq, position);
  const size_t i = size_t(pair);
  return {turned[i], turned[i + x.size() / 2]};
}

double rope_pair_angle(const std::vector<double>& q, const std::vector<double>& k,
                       const std::vector<double>& inv_freq, int64_t pair, int64_t t, int64_t s) {
  const PlanePoint a = rope_pair(q, inv_freq, pair, t), b = rope_pair(k, inv_freq, pair, s);
  return std::atan2(b.x * a.y - b.y * a.x, b.x * a.x + b.y * a.y);  // from b to a
}

double rope_score(const std::vector<double>& q, const std::vector<double>& k,
                  const std::vector<double>& inv_freq, int64_t t, int64_t s) {
  const std::vector<double> q_t = rope_turned(q, inv_freq, t), k_s = rope_turned(k, inv_freq, s);
  double score = 0;
  for (size_t i = 0; i < q_t.size(); ++i) score += q_t[i] * k_s[i];
  return score;
}

std::vector<double> rope_scores_by_distance(const std::vector<double>& q,
                                            const std::vector<double>& k,
                                            const std::vector<double>& inv_freq,
                                            int64_t query_position, int64_t max_distance) {
  std::vector<double> scores;
  for (int64_t distance = 0; distance <= max_distance; ++distance)
    scores.push_back(rope_score(q, k, inv_freq, query_position, query_position - distance));
  return scores;
}

std::vector<double> head_vector(const TensorRecord& record, int64_t b, int64_t hd, int64_t t) {
  std::vector<double> v(static_cast<size_t>(record.tensor.size(3)));
  for (int64_t e = 0; e < record.tensor.size(3); ++e)
    v[size_t(e)] = record.tensor.at({b, hd, t, e});
  return v;
}

std::vector<double> mean_attention_distance(const Trace& trace) {
  const TensorRecord* w = trace.find("weights");
  if (!w || trace.shape_only || w->tensor.dim() != 4 || w->tensor.size(2) != w->tensor.size(3))
    return {};
  const Tensor& A = w->tensor;  // (B, h, T, T)
  const int64_t B = A.size(0), h = A.size(1), T = A.size(2);
  std::vector<double> distance(size_t(h), 0.0);
  for (int64_t hd = 0; hd < h; ++hd) {
    for (int64_t b = 0; b < B; ++b)
      for (int64_t t = 0; t < T; ++t)
        for (int64_t s = 0; s < T; ++s)
          distance[size_t(hd)] += double(A.at({b, hd, t, s})) * double(t > s ? t - s : s - t);
    distance[size_t(hd)] /= double(B * T);
  }
  return distance;
}

}  // namespace attnlab
