// The PyTorch reference forward of the seeds' MultiHeadAttention, one line per planned step
// (core/trace/plan.hpp), in the narration's words, with shapes as comments: the code view beside
// the pipeline.
#pragma once

#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

struct CodeLine {
  std::string text;                 // "    q = q.view(B, T, h, d_k)        # (B, T, h, d_k)"
  Stage stage;                      // the stage this line runs in (Input for the def line)
  Substep substep = Substep::None;  // as the record the line makes
  bool changed = false;             // this line is what the injected mistake changed
  Pass pass = Pass::Forward;        // decoding's and MLA's absorbed lines run beside the stages
};

// The forward() for this config: mask and dropout lines only when they are on, the output
// projection only with W_o, and the mistake's wrong line in place of the right one; then the
// plan's passes beside it (decoding's prefill and loop body, MLA's absorbed form).
std::vector<CodeLine> reference_code(const Config& config);

}  // namespace attnlab
