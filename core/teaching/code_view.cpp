#include "core/teaching/code_view.hpp"

#include "core/trace/narration.hpp"
#include "core/trace/plan.hpp"

namespace attnlab {

namespace {

// Pads code to a column so the shape comments line up.
std::string line(const std::string& code, const std::string& comment) {
  std::string text = "    " + code;
  if (comment.empty()) return text;
  if (text.size() < 52) text.resize(52, ' ');
  return text + "  # " + comment;
}

}  // namespace

std::vector<CodeLine> reference_code(const Config& c) {
  const Plan plan = plan_for(c);
  std::vector<CodeLine> code;
  code.push_back(
      {"def forward(self, x):                                # x: (B, T, d_in)", Stage::Input});
  code.push_back({line("B, T, _ = x.shape", ""), Stage::Input});
  // The forward pass, then the passes beside it: decoding's prefill and one step (the loop's body:
  // every step runs the same lines), and MLA's absorbed form.
  const int64_t first_decoded = plan.decode_prompt;
  bool loop_started = false;
  for (const PlannedStep& step : plan.steps) {
    if (step.pass == Pass::Decode && step.position != first_decoded) continue;
    const Words words = narrate(plan, step);
    if (!words.in_code && !step.left_out) continue;
    std::string indent;
    if (step.pass == Pass::Prefill && step.which == 'k')
      code.push_back({line("# decoding with a KV cache: the prompt's K and V once", ""), step.stage,
                      Substep::None, false, step.pass});
    if (step.pass == Pass::Decode) {
      if (!loop_started)
        code.push_back({line("for t in range(P, T):  # then one token at a time", ""), step.stage,
                        Substep::None, false, step.pass});
      loop_started = true;
      indent = "    ";
    }
    if (step.op == Op::Rotate && step.which == 'q' && step.pass != Pass::Decode) {
      // RoPE's angles once per run: cos and sin of t * inv_freq[i], repeated over both halves.
      const std::string cos_sin =
          line("cos, sin = rotary_cos_sin(T, self.inv_freq)", "(T, d_k): angles t * inv_freq");
      code.push_back(
          {step.left_out ? line("# cos, sin = rotary_cos_sin(T, self.inv_freq)", "") : cos_sin,
           step.stage, step.substep, false, step.pass});
    }
    if (step.pass == Pass::Absorbed)
      code.push_back({line("# MLA's absorbed form: scores straight against the latent", ""),
                      step.stage, Substep::None, false, step.pass});
    const std::string note = words.note.empty() ? "" : "  " + words.note;
    const std::string text = step.left_out
                                 ? line("# " + words.code, words.note)
                                 : line(indent + words.code, axes_label(step.axes) + note);
    code.push_back({text, step.stage, step.substep, step.changed, step.pass});
  }
  return code;
}

}  // namespace attnlab
