#include "core/training/tasks.hpp"

#include <numeric>

#include "core/kernels/rng.hpp"
#include "core/model/errors.hpp"

namespace attnlab::training {

const std::vector<TaskInfo>& all_tasks() {
  static const std::vector<TaskInfo> tasks{
      {Task::PreviousToken, "previous-token",
       "predict the previous token: a previous-token head (weights on the diagonal -1)", 1, true, 2,
       1},
      {Task::FirstToken, "first-token",
       "predict the first token: a first-token (BOS, 'separator') head, every query on key 0", 1,
       true, 2, 1},
      {Task::PreviousAndFirst, "previous-and-first",
       "two outputs, the previous token and the first token: with 2 heads one head per relation, "
       "with 1 head a blend",
       2, true, 3, 1},
      {Task::Induction, "induction",
       "random tokens, then a repeat of their last m, predict the next token in the repeat: a "
       "previous-token "
       "head in layer 0 and an induction (prefix-matching) head in layer 1",
       1, true, 6, 2},
      {Task::Reverse, "reverse",
       "predict the token at the mirrored position T-1-t (bidirectional): an anti-diagonal head", 1,
       false, 2, 1},
  };
  return tasks;
}

const TaskInfo& task_info(Task task) {
  for (const TaskInfo& info : all_tasks())
    if (info.task == task) return info;
  return all_tasks().front();
}

Task task_from_name(const std::string& name) {
  std::string known;
  for (const TaskInfo& info : all_tasks()) {
    if (name == info.name) return info.task;
    known += std::string(known.empty() ? "" : ", ") + info.name;
  }
  throw UserError("{{task " + name + "}}: unknown task; choose one of " + known);
}

void check_task_sizes(Task task, int64_t seq_len, int64_t vocab) {
  const TaskInfo& info = task_info(task);
  if (vocab < 2) {
    throw UserError("{{vocab " + std::to_string(vocab) +
                    "}}: a task needs at least 2 tokens to tell apart; use {{vocab 2}} or more");
  }
  if (seq_len < info.min_seq_len) {
    throw UserError("{{seq_len " + std::to_string(seq_len) + "}} is too short for " + info.name +
                    ": it needs T >= " + std::to_string(info.min_seq_len) + "; use {{seq_len " +
                    std::to_string(info.min_seq_len) + "}} or more");
  }
}

Batch make_batch(Task task, int64_t B, int64_t T, int64_t V, uint64_t seed, int64_t index) {
  // One stream per (seed, batch index): SplitMix64 of a mix of both.
  Rng rng(seed * 0x9E3779B97F4A7C15ull + uint64_t(index) * 0xD1B54A32D192ED03ull + 0x5851F42Dull);
  auto draw = [&](int64_t n) { return int64_t(rng.next_u64() % uint64_t(n)); };
  const TaskInfo& info = task_info(task);
  Batch out;
  out.batch = B;
  out.seq_len = T;
  out.tokens.resize(size_t(B * T));
  out.targets.assign(size_t(info.outputs), std::vector<int64_t>(size_t(B * T), -1));
  for (int64_t b = 0; b < B; ++b) {
    int64_t* tok = out.tokens.data() + b * T;
    int64_t repeat = 0;  // induction: the length m of the repeated part
    if (task == Task::Induction) {
      // T-2m filler tokens, r_0..r_{m-1}, then r_0..r_{m-1} again, with m uniform in [2, T/2]
      // so that the distance between the copies varies: no fixed offset solves it. The first T-m
      // tokens are distinct when V allows, so every position in the repeat has one answer.
      repeat = 2 + draw(T / 2 - 1);
      const int64_t fresh = T - repeat;
      std::vector<int64_t> pool(static_cast<size_t>(V));
      std::iota(pool.begin(), pool.end(), 0);
      for (int64_t t = 0; t < fresh; ++t) {
        if (V >= fresh) {  // partial Fisher-Yates: distinct tokens
          const int64_t pick = t + draw(V - t);
          std::swap(pool[size_t(t)], pool[size_t(pick)]);
          tok[t] = pool[size_t(t)];
        } else {
          tok[t] = draw(V);
        }
      }
      for (int64_t t = fresh; t < T; ++t) tok[t] = tok[t - repeat];
    } else {
      for (int64_t t = 0; t < T; ++t) tok[t] = draw(V);
    }
    int64_t* target0 = out.targets[0].data() + b * T;
    switch (task) {
      case Task::PreviousToken:
        for (int64_t t = 1; t < T; ++t) target0[t] = tok[t - 1];
        break;
      case Task::FirstToken:
        for (int64_t t = 1; t < T; ++t) target0[t] = tok[0];
        break;
      case Task::PreviousAndFirst: {
        int64_t* target1 = out.targets[1].data() + b * T;
        for (int64_t t = 1; t < T; ++t) {
          target0[t] = tok[t - 1];
          target1[t] = tok[0];
        }
        break;
      }
      case Task::Induction:
        // In the repeat, the next token is the one that followed this token's first occurrence.
        for (int64_t t = T - repeat; t + 1 < T; ++t) target0[t] = tok[t + 1];
        break;
      case Task::Reverse:
        for (int64_t t = 0; t < T; ++t) target0[t] = tok[T - 1 - t];
        break;
    }
  }
  return out;
}

}  // namespace attnlab::training
