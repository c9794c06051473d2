// What the Word order tab shows of each encoding, computed here so that panels only draw it, and
// each one a demonstration the tests check:
//   sinusoidal  PE PE^T (T, T): entry (t, s) = sum_i cos((t - s) w_i), a function of t - s alone
//   rope        one query-key pair of dimensions turned by position: the angle between them grows
//               with the distance, and q_rot(t) . k_rot(s) depends on t - s alone
//   alibi       how far each head looks: the weights' mean distance |t - s| per head
#pragma once

#include <cstdint>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnlab {

// [SECTION] sinusoidal

// PE PE^T (T, T), row-major, in double: the similarity of two positions' encodings.
std::vector<double> sinusoidal_similarity(int64_t T, int64_t d);

// [SECTION] RoPE

// Pair i of a head's vector x (d): the two dimensions (i, i + d/2) RoPE turns together (Llama's
// rotate-half), as a point in the plane, turned by position * inv_freq[i].
struct PlanePoint {
  double x = 0, y = 0;
  double angle() const;   // atan2(y, x), radians
  double length() const;  // unchanged by the turn
};
PlanePoint rope_pair(const std::vector<double>& x, const std::vector<double>& inv_freq,
                     int64_t pair, int64_t position);

// The angle from k's pair i at position s to q's pair i at position t, in (-pi, pi]: the angle
// they had at the same position plus (t - s) * inv_freq[i].
double rope_pair_angle(const std::vector<double>& q, const std::vector<double>& k,
                       const std::vector<double>& inv_freq, int64_t pair, int64_t t, int64_t s);

// q_rot(t) . k_rot(s): each pair's dot product after both are turned (unscaled score of a query
// at position t and a key at position s). Depends on t - s only.
double rope_score(const std::vector<double>& q, const std::vector<double>& k,
                  const std::vector<double>& inv_freq, int64_t t, int64_t s);

// rope_score for a query at `query_position` and keys 0 .. max_distance tokens before it
// (distance 0 first; distances past the query's position taken by negative key positions).
std::vector<double> rope_scores_by_distance(const std::vector<double>& q,
                                            const std::vector<double>& k,
                                            const std::vector<double>& inv_freq,
                                            int64_t query_position, int64_t max_distance);

// A recorded (B, h, T, d) tensor's vector at [b, hd, t] (q_heads, k_heads), in double.
std::vector<double> head_vector(const TensorRecord& record, int64_t b, int64_t hd, int64_t t);

// [SECTION] ALiBi

// Per head: sum over queries t and keys s of weights[b, h, t, s] * |t - s|, averaged over the
// queries and the batch (the "weights" record, (B, h, T, T)). Empty without values.
std::vector<double> mean_attention_distance(const Trace& trace);

}  // namespace attnlab
