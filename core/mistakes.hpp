// The mistakes simulator: one classic multi-head attention bug at a time (the theory seed's
// "Common Mistakes", and seed 003's mask-after-softmax), what it changes, and how to tell.
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/trace.hpp"

namespace attnlab {

struct MistakeInfo {
  Mistake id;
  const char* name;     // CLI name: "forget-transpose"
  const char* title;    // "Forgetting the transpose after splitting heads"
  const char* symptom;  // one line: what goes wrong
  Stage stage;          // where the changed line is
  const char* wrong;    // the buggy PyTorch line
  const char* right;    // the correct one
};

// Every mistake, in the order of the seeds (None excluded).
const std::vector<MistakeInfo>& all_mistakes();
// Throws std::out_of_range for Mistake::None.
const MistakeInfo& mistake_info(Mistake mistake);
// By CLI name; false when unknown.
bool parse_mistake(const std::string& name, Mistake& mistake);
std::string mistake_names();  // "forget-transpose, concat-no-transpose, ..."

// The consequence of a mistake, measured against the correct run of the same config and inputs.
struct MistakeReport {
  bool outputs_comparable = false;  // same output shape, both computed
  double out_max_abs_error = 0;     // max |buggy out - correct out|
  double entropy_correct_bits = 0;  // mean over heads
  double entropy_buggy_bits = 0;
  double max_future_weight = 0;  // largest weight on a masked key (0 when none leak)
  double max_row_sum_error = 0;  // of the buggy weights
  std::string failure;           // the framework's error, when the buggy run stopped
  std::string symptom;           // the numbers above, in words
};

MistakeReport compare_with_correct(const Trace& correct, const Trace& buggy);

}  // namespace attnlab
