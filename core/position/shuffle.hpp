// Word order's first demonstration: without position information attention is permutation-
// equivariant. Shuffle the sentence's tokens and, with --pos none (and no mask, which is itself
// positional), every head's map is the old one with rows and columns permuted the same way, and
// the outputs are the old rows permuted; with any encoding the maps change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

// A permutation of T positions drawn from `seed` (Fisher-Yates): shuffled position i holds the
// original token perm[i]. Never the identity when T >= 2 (a draw that is, is rotated by one).
std::vector<int64_t> shuffle_permutation(int64_t T, uint64_t seed);

// The same run with its tokens in a shuffled order: the sentence rewritten from the permuted
// tokens (seq_len kept), a given x's rows and the token labels permuted alike. Positions are not
// permuted: position t still gets row t of the encoding.
struct ShuffledRun {
  Config config;
  Inputs given;
  std::vector<int64_t> permutation;  // (T): shuffled position i holds original token perm[i]
};

// `tokens` are the original run's T tokens (trace.tokens). Throws UserError for what cannot be
// shuffled (cross-attention, fewer than two tokens, a sentence longer than kMaxTokens).
ShuffledRun shuffle_tokens(const Config& config, const std::vector<std::string>& tokens,
                           const Inputs& given, uint64_t seed);

// How far the shuffled run is from the original one permuted: per head the largest
// |A'[b, h, i, j] - A[b, h, p(i), p(j)]| over the weights, and max |out'[b, i] - out[b, p(i)]|.
// Zero (to float rounding) exactly when attention did not see the order.
struct PermutationCheck {
  std::vector<double> map_difference;  // (h)
  double out_difference = 0;
  double largest_map_difference() const;
  // Every map and the output agree with the original permuted, within `tolerance`.
  bool equivariant(double tolerance = 1e-5) const;
};

// Both traces must have values and the same shapes (one from shuffle_tokens of the other).
PermutationCheck compare_permuted(const Trace& original, const Trace& shuffled,
                                  const std::vector<int64_t>& permutation);

}  // namespace attnlab
