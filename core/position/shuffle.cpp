#include "core/position/shuffle.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/kernels/rng.hpp"
#include "core/model/errors.hpp"
#include "core/model/tokenizer.hpp"

namespace attnlab {

std::vector<int64_t> shuffle_permutation(int64_t T, uint64_t seed) {
  std::vector<int64_t> perm(static_cast<size_t>(std::max<int64_t>(T, 0)));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  Rng rng(seed ^ 0x5eed5eed5eed5eedULL);
  for (int64_t i = T - 1; i > 0; --i) {
    const auto j = static_cast<int64_t>(rng.uniform() * double(i + 1));
    std::swap(perm[size_t(i)], perm[size_t(std::min(j, i))]);
  }
  const bool identity = std::is_sorted(perm.begin(), perm.end());
  if (identity && T >= 2) std::rotate(perm.begin(), perm.begin() + 1, perm.end());
  return perm;
}

namespace {

// x (B, T, d) with row i of every sequence taken from row perm[i].
Tensor permute_rows(const Tensor& x, const std::vector<int64_t>& perm) {
  const Tensor in = x.contiguous("x");
  const int64_t B = in.size(0), T = in.size(1), d = in.size(2);
  Tensor out = Tensor::empty("x", {B, T, d});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < T; ++i)
      std::copy_n(in.data() + (b * T + perm[size_t(i)]) * d, d, out.data() + (b * T + i) * d);
  return out;
}

}  // namespace

ShuffledRun shuffle_tokens(const Config& config, const std::vector<std::string>& tokens,
                           const Inputs& given, uint64_t seed) {
  if (config.cross())
    throw UserError(
        "{{shuffle}} permutes one sentence attending to itself, but cross-attention's keys are "
        "another sentence: {{drop cross}}, or {{drop shuffle}}");
  const auto T = static_cast<int64_t>(tokens.size());
  if (T < 2)
    throw UserError(
        "{{shuffle}} needs at least two tokens to reorder: use a longer sentence{{(sentence)}}");
  if (T > kMaxTokens)
    throw UserError("{{shuffle}} rewrites the sentence, which holds at most " +
                    std::to_string(kMaxTokens) + " tokens: lower T{{(seq_len)}}");
  ShuffledRun run{config, given, shuffle_permutation(T, seed)};
  std::vector<std::string> shuffled(tokens.size());
  for (int64_t i = 0; i < T; ++i) shuffled[size_t(i)] = tokens[size_t(run.permutation[size_t(i)])];
  run.config.sentence.clear();
  for (const std::string& token : shuffled)
    run.config.sentence += (run.config.sentence.empty() ? "" : " ") + token;
  run.config.seq_len = T;
  if (given.x.storage()) run.given.x = permute_rows(given.x, run.permutation);
  if (int64_t(given.labels.tokens.size()) == T) run.given.labels.tokens = shuffled;
  return run;
}

double PermutationCheck::largest_map_difference() const {
  double largest = 0;
  for (double d : map_difference) largest = std::max(largest, d);
  return largest;
}

bool PermutationCheck::equivariant(double tolerance) const {
  return largest_map_difference() <= tolerance && out_difference <= tolerance;
}

PermutationCheck compare_permuted(const Trace& original, const Trace& shuffled,
                                  const std::vector<int64_t>& perm) {
  const TensorRecord* a = original.find("weights");
  const TensorRecord* a2 = shuffled.find("weights");
  const TensorRecord* out = original.find("out");
  const TensorRecord* out2 = shuffled.find("out");
  if (!a || !a2 || !out || !out2 || original.shape_only || shuffled.shape_only ||
      a->tensor.shape() != a2->tensor.shape() || out->tensor.shape() != out2->tensor.shape() ||
      a->tensor.dim() != 4 || a->tensor.size(2) != int64_t(perm.size()) ||
      a->tensor.size(3) != int64_t(perm.size()))
    throw UserError("the shuffled run cannot be compared: both runs need values and (T, T) maps");
  PermutationCheck check;
  const Tensor& A = a->tensor;  // (B, h, T, T)
  const Tensor& A2 = a2->tensor;
  const int64_t B = A.size(0), h = A.size(1), T = A.size(2);
  check.map_difference.assign(size_t(h), 0.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t hd = 0; hd < h; ++hd)
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < T; ++j) {
          const double diff = std::abs(double(A2.at({b, hd, i, j})) -
                                       double(A.at({b, hd, perm[size_t(i)], perm[size_t(j)]})));
          check.map_difference[size_t(hd)] = std::max(check.map_difference[size_t(hd)], diff);
        }
  const Tensor& O = out->tensor;  // (B, T, d_out)
  const Tensor& O2 = out2->tensor;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < T; ++i)
      for (int64_t e = 0; e < O.size(2); ++e)
        check.out_difference =
            std::max(check.out_difference,
                     std::abs(double(O2.at({b, i, e})) - double(O.at({b, perm[size_t(i)], e}))));
  return check;
}

}  // namespace attnlab
