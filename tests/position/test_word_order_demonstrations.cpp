// The four demonstrations of the Word order lesson, each checked against an independent
// computation: shuffling the tokens permutes every map and output row exactly when there is no
// position information (and changes the maps with any encoding); the sinusoidal table's PE PE^T
// depends on t - s alone; RoPE's scores are unchanged when every position shifts by k, and its
// pair view is the interleaved pairing in a permuted basis; ALiBi's heads look at different
// distances.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "core/model/errors.hpp"
#include "core/model/tokenizer.hpp"
#include "core/position/encoding_views.hpp"
#include "core/position/position_encoding.hpp"
#include "core/position/shuffle.hpp"
#include "core/trace/mha.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {
namespace {

Config sentence_config(PositionEncoding pos) {
  Config c;
  c.sentence = "the cat sat on the mat because it was tired";
  c.d_model = 16;
  c.n_heads = 4;
  c.pos = pos;
  c.seed = 7;
  return c;
}

// [SECTION] shuffle: permutation-equivariance without positions

TEST(Shuffle, ThePermutationIsSeededAndNeverTheIdentity) {
  for (int64_t T : {2, 3, 10, 50}) {
    for (uint64_t seed : {0u, 1u, 2u, 99u}) {
      const std::vector<int64_t> p = shuffle_permutation(T, seed);
      EXPECT_EQ(std::set<int64_t>(p.begin(), p.end()).size(), size_t(T));
      EXPECT_EQ(*std::min_element(p.begin(), p.end()), 0);
      EXPECT_EQ(*std::max_element(p.begin(), p.end()), T - 1);
      EXPECT_FALSE(std::is_sorted(p.begin(), p.end())) << "T=" << T << " seed=" << seed;
      EXPECT_EQ(p, shuffle_permutation(T, seed));
    }
  }
  EXPECT_NE(shuffle_permutation(10, 0), shuffle_permutation(10, 1));
}

TEST(Shuffle, TheSentenceIsRewrittenWithTheTokensInTheNewOrder) {
  const Config c = sentence_config(PositionEncoding::None);
  const std::vector<std::string> tokens = tokens_for(c.sentence, c.tokens());
  const ShuffledRun s = shuffle_tokens(c, tokens, {}, 3);
  const std::vector<std::string> again = tokens_for(s.config.sentence, s.config.tokens());
  ASSERT_EQ(again.size(), tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) EXPECT_EQ(again[i], tokens[size_t(s.permutation[i])]);
}

TEST(Shuffle, AGivenXHasItsRowsPermuted) {
  Config c = sentence_config(PositionEncoding::None);
  c.seq_len = 4;
  c.batch = 2;
  Inputs given;
  given.x = Tensor::zeros("x", {2, 4, 16});
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 4; ++t) given.x.at({b, t, 0}) = Scalar(10 * b + t);
  const ShuffledRun s = shuffle_tokens(c, tokens_for(c.sentence, 4), given, 5);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 4; ++t)
      EXPECT_EQ(s.given.x.at({b, t, 0}), Scalar(10 * b + s.permutation[size_t(t)]));
}

TEST(Shuffle, WithoutPositionsEveryMapIsTheOldOnePermutedAndTheOutputsArePermutedRows) {
  Config c = sentence_config(PositionEncoding::None);
  c.batch = 2;
  c.bias = true;
  const Trace original = run(c);
  const ShuffledRun s = shuffle_tokens(c, original.tokens, {}, 11);
  const Trace shuffled = run(s.config, s.given);
  const std::vector<int64_t>& p = s.permutation;
  // By hand: A'[b, h, i, j] against A[b, h, p(i), p(j)], out'[b, i] against out[b, p(i)].
  const Tensor& A = original.find("weights")->tensor;
  const Tensor& A2 = shuffled.find("weights")->tensor;
  const int64_t T = c.tokens();
  double worst_map = 0, worst_out = 0;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t hd = 0; hd < 4; ++hd)
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < T; ++j)
          worst_map =
              std::max(worst_map, std::abs(double(A2.at({b, hd, i, j})) -
                                           double(A.at({b, hd, p[size_t(i)], p[size_t(j)]}))));
  const Tensor& O = original.find("out")->tensor;
  const Tensor& O2 = shuffled.find("out")->tensor;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < T; ++i)
      for (int64_t e = 0; e < 16; ++e)
        worst_out = std::max(
            worst_out, std::abs(double(O2.at({b, i, e})) - double(O.at({b, p[size_t(i)], e}))));
  std::printf("none, shuffled: max map difference %.2e, max output difference %.2e\n", worst_map,
              worst_out);
  // Exact up to float32 rounding (the softmax sums the same numbers in another order).
  EXPECT_LT(worst_map, 1e-6);
  EXPECT_LT(worst_out, 1e-6);
  const PermutationCheck check = compare_permuted(original, shuffled, p);
  EXPECT_TRUE(check.equivariant(1e-6));
  EXPECT_DOUBLE_EQ(check.largest_map_difference(), worst_map);
  EXPECT_DOUBLE_EQ(check.out_difference, worst_out);
  // The check is not vacuous: the original against itself with p is not equivariant.
  EXPECT_FALSE(compare_permuted(original, original, p).equivariant(1e-3));
}

TEST(Shuffle, WithAnyEncodingTheMapsChange) {
  for (PositionEncoding pos : {PositionEncoding::Sinusoidal, PositionEncoding::Learned,
                               PositionEncoding::Rope, PositionEncoding::Alibi}) {
    const Config c = sentence_config(pos);
    const Trace original = run(c);
    const ShuffledRun s = shuffle_tokens(c, original.tokens, {}, 11);
    const PermutationCheck check =
        compare_permuted(original, run(s.config, s.given), s.permutation);
    std::printf("%s, shuffled: largest map difference %.3f\n",
                std::string(position_encoding_name(pos)).c_str(), check.largest_map_difference());
    EXPECT_GT(check.largest_map_difference(), 1e-3) << position_encoding_name(pos);
    EXPECT_GT(check.out_difference, 1e-3) << position_encoding_name(pos);
  }
}

TEST(Shuffle, ACausalMaskIsPositionalToo) {
  Config c = sentence_config(PositionEncoding::None);
  c.mask.causal = true;
  const Trace original = run(c);
  const ShuffledRun s = shuffle_tokens(c, original.tokens, {}, 11);
  EXPECT_FALSE(compare_permuted(original, run(s.config, s.given), s.permutation).equivariant());
}

TEST(Shuffle, WhatCannotBeShuffledIsRefused) {
  Config cross = sentence_config(PositionEncoding::None);
  cross.sentence_kv = "another sentence";
  EXPECT_THROW(shuffle_tokens(cross, {"a", "b"}, {}, 0), UserError);
  EXPECT_THROW(shuffle_tokens(sentence_config(PositionEncoding::None), {"a"}, {}, 0), UserError);
}

// [SECTION] sinusoidal: PE PE^T depends on t - s alone

TEST(Sinusoidal, ThePositionSimilarityDependsOnlyOnTheDistance) {
  const int64_t T = 24, d = 16;
  const std::vector<double> gram = sinusoidal_similarity(T, d);
  double worst_shift = 0, worst_formula = 0;
  for (int64_t t = 0; t < T; ++t)
    for (int64_t s = 0; s < T; ++s) {
      if (t + 1 < T && s + 1 < T)
        worst_shift = std::max(
            worst_shift, std::abs(gram[size_t(t * T + s)] - gram[size_t((t + 1) * T + s + 1)]));
      // sin a sin b + cos a cos b = cos(a - b), summed over the d/2 frequencies.
      double want = 0;
      for (int64_t k = 0; k < d / 2; ++k)
        want += std::cos(double(t - s) / std::pow(10000.0, 2.0 * double(k) / double(d)));
      worst_formula = std::max(worst_formula, std::abs(gram[size_t(t * T + s)] - want));
    }
  EXPECT_LT(worst_shift, 1e-9);
  EXPECT_LT(worst_formula, 1e-9);
  EXPECT_NEAR(gram[0], double(d) / 2, 1e-12) << "a position with itself: d/2 pairs of cos 0";
  // d = 2: one frequency, w = 1, so PE PE^T [t, s] = cos(t - s).
  EXPECT_NEAR(sinusoidal_similarity(5, 2)[size_t(4 * 5 + 1)], std::cos(3.0), 1e-12);
}

// [SECTION] RoPE: shifting every position by k changes no score

TEST(Rope, ShiftingEveryPositionByKLeavesTheScoresUnchanged) {
  Config c = sentence_config(PositionEncoding::Rope);
  const Trace t = run(c);
  const Tensor& q = t.find("q_heads")->tensor;  // (B, h, T, d_k), before the turn
  const Tensor& k = t.find("k_heads")->tensor;
  const Tensor& inv = t.find("rope_inv_freq")->tensor;
  const Tensor q0 = rotate_half(q, inv, "q0"), k0 = rotate_half(k, inv, "k0");
  const int64_t T = c.tokens(), dk = 4;
  for (int64_t shift : {1, 3, 10, 100, 1000}) {
    const Tensor qs = rotate_half(q, inv, "qs", shift), ks = rotate_half(k, inv, "ks", shift);
    double worst = 0, largest = 0;
    for (int64_t hd = 0; hd < 4; ++hd)
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < T; ++j) {
          double a = 0, b = 0;
          for (int64_t e = 0; e < dk; ++e) {
            a += double(q0.at({0, hd, i, e})) * double(k0.at({0, hd, j, e}));
            b += double(qs.at({0, hd, i, e})) * double(ks.at({0, hd, j, e}));
          }
          worst = std::max(worst, std::abs(a - b));
          largest = std::max(largest, std::abs(a));
        }
    EXPECT_LT(worst, 1e-5 * std::max(1.0, largest)) << "shift " << shift;
  }
}

TEST(Rope, ThePairViewTurnsByTheDistanceAndScoresAsTheTracedRun) {
  const Config c = sentence_config(PositionEncoding::Rope);
  const Trace t = run(c);
  const TensorRecord& q_heads = *t.find("q_heads");
  const TensorRecord& k_heads = *t.find("k_heads");
  const std::vector<Scalar> inv_f = t.find("rope_inv_freq")->tensor.to_vector();
  const std::vector<double> inv(inv_f.begin(), inv_f.end());
  const std::vector<double> q = head_vector(q_heads, 0, 1, 6), k = head_vector(k_heads, 0, 1, 2);
  // The angle between the pair's two points grows by (t - s) w_i from its angle at one position.
  for (int64_t pair : {0, 1}) {
    const double at_same = rope_pair_angle(q, k, inv, pair, 0, 0);
    for (int64_t distance : {1, 2, 5}) {
      double turned = rope_pair_angle(q, k, inv, pair, distance, 0) - at_same -
                      double(distance) * inv[size_t(pair)];
      turned = std::remainder(turned, 2 * std::numbers::pi);
      EXPECT_NEAR(turned, 0.0, 1e-9) << "pair " << pair << " distance " << distance;
    }
    EXPECT_NEAR(rope_pair(q, inv, pair, 9).length(), rope_pair(q, inv, pair, 0).length(), 1e-12);
  }
  // rope_score(6, 2) is the traced run's q_rot[6] . k_rot[2], and any shift of both keeps it.
  const Tensor& q_rot = t.find("q_rot")->tensor;
  const Tensor& k_rot = t.find("k_rot")->tensor;
  double traced = 0;
  for (int64_t e = 0; e < 4; ++e)
    traced += double(q_rot.at({0, 1, 6, e})) * double(k_rot.at({0, 1, 2, e}));
  EXPECT_NEAR(rope_score(q, k, inv, 6, 2), traced, 1e-5);
  for (int64_t shift : {1, 7, 40})
    EXPECT_NEAR(rope_score(q, k, inv, 6 + shift, 2 + shift), traced, 1e-5);
  const std::vector<double> by_distance = rope_scores_by_distance(q, k, inv, 6, 4);
  ASSERT_EQ(by_distance.size(), 5u);
  EXPECT_NEAR(by_distance[4], traced, 1e-5);
}

TEST(Rope, ThePairViewIsTheInterleavedPairingInAPermutedBasis) {
  // MLA's interleaved pairing turns (2p, 2p + 1); Llama's rotate-half (p, p + d/2) by the same
  // angle t * 10000^(-2p/d). Permute a vector's basis (evens first, then odds) and the two agree.
  const int64_t d = 8;
  const std::vector<double> inv = rope_inverse_frequencies(d);
  Tensor rows = Tensor::zeros("rows", {1, 1, d});  // one token, interleaved layout
  for (int64_t e = 0; e < d; ++e) rows.at({0, 0, e}) = Scalar(0.3 * double(e) - 0.7);
  std::vector<double> permuted(static_cast<size_t>(d), 0.0);  // P x: evens, then odds
  for (int64_t p = 0; p < d / 2; ++p) {
    permuted[size_t(p)] = rows.at({0, 0, 2 * p});
    permuted[size_t(p + d / 2)] = rows.at({0, 0, 2 * p + 1});
  }
  for (int64_t position : {0, 1, 5, 17}) {
    Tensor turned = Tensor::zeros("turned", {1, 1, d});  // a fresh copy: turned in place below
    for (int64_t e = 0; e < d; ++e) turned.at({0, 0, e}) = rows.at({0, 0, e});
    rotate_by_position(turned, d, position);  // interleaved, at this position
    for (int64_t p = 0; p < d / 2; ++p) {
      const PlanePoint half = rope_pair(permuted, inv, p, position);
      EXPECT_NEAR(half.x, turned.at({0, 0, 2 * p}), 1e-5);
      EXPECT_NEAR(half.y, turned.at({0, 0, 2 * p + 1}), 1e-5);
    }
  }
}

// [SECTION] ALiBi: each head looks at a different distance

TEST(Alibi, WithoutContentEachHeadLooksFartherAsItsSlopeShrinks) {
  Config c = sentence_config(PositionEncoding::Alibi);
  Inputs given;
  given.w_q = Tensor::zeros("w_q", {16, 16});  // every score 0: the weights are softmax(bias)
  const Trace t = run(c, given);
  const std::vector<double> distance = mean_attention_distance(t);
  ASSERT_EQ(distance.size(), 4u);
  const int64_t T = c.tokens();
  for (int64_t hd = 0; hd < 4; ++hd) {
    // By hand: weights[t, s] = exp(-m |t - s|) / sum_s' exp(-m |t - s'|), m = 2^(-8(h+1)/4).
    const double m = std::pow(2.0, -2.0 * double(hd + 1));
    double want = 0;
    for (int64_t q = 0; q < T; ++q) {
      double total = 0, weighted = 0;
      for (int64_t s = 0; s < T; ++s) {
        total += std::exp(-m * double(std::abs(q - s)));
        weighted += std::exp(-m * double(std::abs(q - s))) * double(std::abs(q - s));
      }
      want += weighted / total / double(T);
    }
    EXPECT_NEAR(distance[size_t(hd)], want, 1e-5) << "head " << hd;
    if (hd > 0) EXPECT_GT(distance[size_t(hd)], distance[size_t(hd - 1)]);
  }
  std::printf("ALiBi without content: mean distance per head %.2f %.2f %.2f %.2f\n", distance[0],
              distance[1], distance[2], distance[3]);
}

TEST(Alibi, NoWeightsNoDistances) {
  Config c = sentence_config(PositionEncoding::Alibi);
  c.shape_only = true;
  EXPECT_TRUE(mean_attention_distance(run(c)).empty());
}

}  // namespace
}  // namespace attnlab
