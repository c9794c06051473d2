// Per-head pattern scores: how much of each head's attention goes where the tasks' relations
// point. Logged during training; the task tests assert them.
#pragma once

#include <vector>

#include "core/training/model.hpp"

namespace attnlab::training {

struct HeadScores {
  int64_t layer = 0, head = 0;
  double previous = 0;  // mean weight on key t-1 (queries t >= 1)
  double first = 0;     // mean weight on key 0 (queries t >= 1)
  double same = 0;      // mean weight on key t
  double mirror = 0;    // mean weight on key T-1-t (the reverse task's anti-diagonal)
  double prefix = 0;    // induction: mean weight on keys j <= t with tokens[j-1] == tokens[t]
                        // (the token after an earlier copy of the current one), over the queries
                        // that have such a key; 0 when none has
  double entropy = 0;   // mean entropy of a query's weights, in nats
};

// Every head of every layer (layer-major) from the weights the last forward pass kept.
template <typename S>
std::vector<HeadScores> head_scores(const ModelShape& shape, const Batch& batch,
                                    const ForwardCache<S>& cache);

}  // namespace attnlab::training
