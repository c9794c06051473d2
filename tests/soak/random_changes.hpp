// Seeded random config changes, like a lecturer or a student dragging the GUI's controls: one
// setting at a time, with values that are often invalid (h > d_model, d_k = 0 chosen by hand,
// T = 0, padding past T, window < 1, dropout 1 or NaN) and sentences that are empty, very long,
// non-ASCII or full of control characters. The next lessons' variants too: K/V heads (divisors of
// h and not), a key/value sentence or T_k (cross-attention), decoding with a KV cache, and MLA's
// latent, rotary and query-latent widths, alone and in combinations the rules refuse.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "core/model/config.hpp"

namespace attnlab::soak {

class RandomChanges {
 public:
  explicit RandomChanges(uint64_t seed) : rng_(seed) {}

  // Changes one setting of `config` and returns what it did, e.g. "n_heads=5".
  std::string apply(Config& config);

 private:
  int64_t pick(int64_t low, int64_t high);  // uniform in [low, high]
  bool chance(double p);
  std::string change_mask(Config& config);
  std::string change_sentence(Config& config);
  std::string change_variant(Config& config);

  std::mt19937_64 rng_;
};

}  // namespace attnlab::soak
