// A small PRNG with the same output on every platform and standard library
// (std::normal_distribution differs between libstdc++ and libc++, so it is not used).
#pragma once

#include <cstdint>
#include <string>

namespace attnlab {

// SplitMix64 (Steele, Lea, Flood 2014): 64-bit state, passes BigCrush, trivially portable.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Standard normal by Box-Muller (both values used, so the sequence is fixed by the seed).
  double normal();

 private:
  uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// FNV-1a 64-bit hash of a string: the per-token embedding seed.
uint64_t fnv1a64(const std::string& text);

}  // namespace attnlab

namespace attnlab {

// Counter-based uniform in [0, 1) for element `index` of a tensor: the same draw whatever order
// the elements are visited in (so the batched and per-head paths drop the same weights).
double uniform_at(uint64_t seed, int64_t index);

}  // namespace attnlab
