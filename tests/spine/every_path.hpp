// Every attention path on one config, each held to the traced run's out: what the crossing test
// (test_every_path.cpp) and the fuzzer (tests/fuzz/fuzz_inputs.cpp) both check, so they compare
// the same paths the same way. No GoogleTest here: the result says what failed, in words.
#pragma once

#include <string>
#include <vector>

#include "core/flash/tile_plan.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"

namespace attnlab::spine {

struct PathOptions {
  TileSizes tiles{3, 2};              // FlashAttention's Br:Bc
  double tolerance = 1e-5;            // max |difference| over max(1, max |out|)
  const Tensor* reference = nullptr;  // held against run()'s out too (a pretrained model's layer)
  // KV-cache decoding: the config's own decode steps when it has some, else this many tried (kept
  // when validate() accepts them; 0: not tried).
  int64_t decode_steps = 3;
};

struct PathReport {
  std::vector<std::string> compared;  // paths compared with run()'s out: "forward()", ...
  std::vector<std::string> refused;   // paths that refused the config in one line
  std::vector<std::string> failures;  // each disagreement or broken refusal, in one line
};

// run() on (config, given), then every other path on the same complete inputs:
//   forward(), run_loop()  correct-path MHA, GQA, MQA and cross-attention; refuse MLA and mistakes
//   flash_forward()        the same without dropout; flash_unavailable() says why not in one line
//   decoding               each decoded row against run()'s row (configs with a causal mask)
//   absorbed               MLA's absorbed form (MLA only)
// A path that cannot compute the config must refuse it with a UserError of one line.
PathReport check_every_path(const Config& config, const Inputs& given, const PathOptions& options);

// max |got - want| over max(1, max |want|); infinite when the shapes differ.
double relative_difference(const Tensor& got, const Tensor& want);

}  // namespace attnlab::spine
