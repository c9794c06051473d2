// The synthetic tasks of issue 12, generated on the fly from the seed: each asks for one relation
// between positions, so the head that solves it has a recognisable pattern.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/training/model.hpp"

namespace attnlab::training {

enum class Task { PreviousToken, FirstToken, PreviousAndFirst, Induction, Reverse };

struct TaskInfo {
  Task task;
  const char* name;          // as on the command line: "previous-and-first"
  const char* pattern;       // the head pattern it should produce, one line
  int outputs;               // output heads
  bool causal;               // false: bidirectional attention
  int64_t min_seq_len;       // shortest T that has a target
  int64_t suggested_layers;  // what it needs to be solvable
};

const std::vector<TaskInfo>& all_tasks();
const TaskInfo& task_info(Task task);
// Throws UserError naming the known tasks when `name` is none of them.
Task task_from_name(const std::string& name);

// Checks V and T for `task`; throws UserError (what is wrong, how to fix it).
void check_task_sizes(Task task, int64_t seq_len, int64_t vocab);

// Batch number `index` of the task for this seed: the same (seed, index) gives the same batch,
// whatever was generated before. Tokens are uniform over the vocabulary (induction: see
// tasks.cpp for its layout).
Batch make_batch(Task task, int64_t batch, int64_t seq_len, int64_t vocab, uint64_t seed,
                 int64_t index);

}  // namespace attnlab::training
