// The mistakes simulator: one classic multi-head attention bug at a time (the theory seed's
// "Common Mistakes", and seed 003's mask-after-softmax), what it changes, and how to tell.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

struct MistakeInfo {
  Mistake id;
  const char* name;     // CLI name: "forget-transpose"
  const char* title;    // "Forgetting the transpose after splitting heads"
  const char* symptom;  // one line: what goes wrong
  Stage stage;          // where the changed line is
  const char* wrong;    // the buggy PyTorch line
  const char* right;    // the correct one
  // The record where the harm lands, compared correct against buggy: "weights", "concat", ...
  // (forget-transpose: "scores", (B, T, h, h) against (B, h, T, T); view-no-contiguous: "concat",
  // which the buggy run never makes).
  const char* lands_in;
};

// Every mistake, in the order of the seeds (None excluded).
const std::vector<MistakeInfo>& all_mistakes();
// Mistake::None has an entry too: name "none", empty lines.
const MistakeInfo& mistake_info(Mistake mistake);
// By CLI name; false when unknown.
bool parse_mistake(const std::string& name, Mistake& mistake);
std::string mistake_names();  // "forget-transpose, concat-no-transpose, ..."

// The p dropout-on-output drops the context with: the dropout setting, or 0.1 when it is 0 (the bug
// would otherwise change nothing).
double dropout_on_output_p(const Config& config);

// A record whose largest change is under this fraction of its largest value looks the same correct
// and buggy: a quarter of the colour scale is the least a difference map shows plainly.
constexpr double kVisibleChange = 0.25;

// The consequence of a mistake, measured against the correct run of the same config and inputs.
struct MistakeReport {
  std::string record;        // the record compared (MistakeInfo::lands_in)
  double record_change = 0;  // largest |buggy - correct| over the whole record
  // That over the record's largest |value| (which bounds the colour scale its maps share); 1 when
  // the shapes differ or the buggy run failed.
  double visible_change = 0;
  bool too_small_to_see = false;  // visible_change < kVisibleChange
  std::string effect;  // "the largest change in weights is 0.122, 12% of its largest value"
  std::string layout;  // view-no-contiguous: the non-contiguous tensor's strides
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

// A config like `config` (same mistake) on which the mistake's harm is plain to see: what changes
// ("d_model = 64 (d_k = 32)") and why it helps. None when the mistake always shows.
struct ShowcaseConfig {
  Config config;
  std::string change;
  std::string why;
};
std::optional<ShowcaseConfig> config_where_it_shows(const Config& config);

}  // namespace attnlab
