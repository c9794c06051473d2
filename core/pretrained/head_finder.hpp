// The head finder: per head of every layer of a pretrained model, the attention patterns that have
// names (Olsson et al. 2022; Clark et al. 2019): previous token, first token (the sink), same
// token, the entropy of its weights on the user's sentence, and the induction score on a repeated
// random-token sequence.
#pragma once

#include <cstdint>
#include <vector>

#include "core/pretrained/pretrained_forward.hpp"

namespace attnlab {

struct FoundHead {
  int64_t layer = 0, head = 0;
  double previous = 0;   // mean weight on key t-1 (queries t >= 1), on the sentence
  double first = 0;      // mean weight on key 0 (queries t >= 1)
  double same = 0;       // mean weight on key t
  double entropy = 0;    // mean entropy of a query's weights, bits
  double induction = 0;  // on random tokens r_0..r_{n-1} repeated once: the mean weight from
                         // each second-half token n+i to key i+1, the token after its copy
};

// The scores of `sentence`'s run (previous, first, same, entropy) and of an induction run on
// `induction_length` random ids (seeded) repeated once.
std::vector<FoundHead> find_heads(const PretrainedModel& model, const PretrainedRun& sentence,
                                  int64_t induction_length = 24, uint64_t seed = 0);

// The induction sequence find_heads uses: n random ids (avoiding the lowest 100, which are often
// special or byte tokens, when the vocabulary is large enough), then the same n again.
std::vector<int64_t> induction_sequence(int64_t vocab, int64_t n, uint64_t seed);

}  // namespace attnlab
