#include "core/code_view.hpp"

namespace attnlab {

namespace {

// Pads code to a column so the shape comments line up.
std::string line(const std::string& code, const std::string& shape) {
  std::string text = "    " + code;
  if (shape.empty()) return text;
  if (text.size() < 52) text.resize(52, ' ');
  return text + "  # " + shape;
}

}  // namespace

std::vector<CodeLine> reference_code(const Config& c) {
  const Mistake bug = c.mistake;
  std::vector<CodeLine> code;
  auto add = [&](const std::string& text, Stage stage, const std::string& substep = "",
                 bool changed = false) {
    code.push_back({text, stage, substep, changed});
  };
  const std::string bias = c.bias ? " + self.b_" : "";
  add("def forward(self, x):                                # x: (B, T, d_in)", Stage::Input);
  add(line("B, T, _ = x.shape", ""), Stage::Input);
  add(line("q = x @ self.W_q" + (c.bias ? bias + "q" : ""), "(B, T, h*d_k)"), Stage::Project);
  if (bug == Mistake::SharedQkProjection) {
    add(line("k = x @ self.W_q" + (c.bias ? bias + "q" : ""), "(B, T, h*d_k)  <- W_q reused"),
        Stage::Project, "", true);
  } else {
    add(line("k = x @ self.W_k" + (c.bias ? bias + "k" : ""), "(B, T, h*d_k)"), Stage::Project);
  }
  add(line("v = x @ self.W_v" + (c.bias ? bias + "v" : ""), "(B, T, h*d_v)"), Stage::Project);
  for (const char* n : {"q", "k", "v"}) {
    const std::string d = std::string(n) == "v" ? "d_v" : "d_k";
    add(line(std::string(n) + " = " + n + ".view(B, T, h, " + d + ")", "(B, T, h, " + d + ")"),
        Stage::Split);
  }
  const bool forgot = bug == Mistake::ForgetTranspose;
  for (const char* n : {"q", "k", "v"}) {
    const std::string d = std::string(n) == "v" ? "d_v" : "d_k";
    if (forgot) {
      add(line("# " + std::string(n) + " = " + n + ".transpose(1, 2)", "<- forgotten"),
          Stage::Transpose, "", true);
    } else {
      add(line(std::string(n) + " = " + n + ".transpose(1, 2)", "(B, h, T, " + d + ")"),
          Stage::Transpose);
    }
  }
  const std::string maps = forgot ? "(B, T, h, h)" : "(B, h, T, T)";
  add(line("scores = q @ k.transpose(-2, -1)", maps), Stage::Attend, "QK^T");
  if (bug == Mistake::NoScale) {
    add(line("# scores = scores / math.sqrt(d_k)", "<- missing"), Stage::Attend, "scale", true);
  } else if (bug == Mistake::ScaleDModel) {
    add(line("scores = scores / math.sqrt(d_model)", maps + "  <- should be d_k"), Stage::Attend,
        "scale", true);
  } else {
    add(line("scores = scores / math.sqrt(d_k)", maps), Stage::Attend, "scale");
  }
  const bool masks = c.mask.any();
  if (masks && bug == Mistake::MaskZero) {
    add(line("scores = scores.masked_fill(~visible, 0)", maps + "  <- should be -inf"),
        Stage::Attend, "mask", true);
  } else if (masks && bug != Mistake::MaskAfterSoftmax) {
    add(line("scores = scores.masked_fill(~visible, float('-inf'))", maps), Stage::Attend, "mask");
  }
  if (bug == Mistake::SoftmaxWrongAxis) {
    add(line("weights = F.softmax(scores, dim=-2)", maps + "  <- over the queries"), Stage::Attend,
        "softmax", true);
  } else {
    add(line("weights = F.softmax(scores, dim=-1)", maps), Stage::Attend, "softmax");
  }
  if (masks && bug == Mistake::MaskAfterSoftmax) {
    add(line("weights = weights.masked_fill(~visible, 0)", maps + "  <- after the softmax"),
        Stage::Attend, "mask", true);
  }
  if (bug == Mistake::DropoutOnOutput) {
    add(line("context = weights @ v", "(B, h, T, d_v)"), Stage::Attend, "@V");
    add(line("context = F.dropout(context, p)", "(B, h, T, d_v)  <- should drop weights"),
        Stage::Attend, "dropout", true);
  } else {
    if (c.dropout > 0) add(line("weights = F.dropout(weights, p)", maps), Stage::Attend, "dropout");
    add(line("context = weights @ v", forgot ? "(B, T, h, d_v)" : "(B, h, T, d_v)"), Stage::Attend,
        "@V");
  }
  if (bug == Mistake::ConcatNoTranspose) {
    add(line("out = context.view(B, T, h * d_v)", "(B, T, h*d_v)  <- no transpose back"),
        Stage::Concat, "view", true);
  } else {
    add(line("out = context.transpose(1, 2)", forgot ? "(B, h, T, d_v)" : "(B, T, h, d_v)"),
        Stage::Concat, "transpose");
    if (bug == Mistake::ViewNoContiguous) {
      add(line("out = out.view(B, T, h * d_v)", "RuntimeError: not contiguous"), Stage::Concat,
          "view", true);
    } else {
      add(line("out = out.contiguous()", "copies"), Stage::Concat, "contiguous");
      add(line("out = out.view(B, T, h * d_v)", "(B, T, h*d_v)"), Stage::Concat, "view");
    }
  }
  if (c.output_proj) {
    add(line("return out @ self.W_o" + (c.bias ? bias + "o" : ""), "(B, T, d_model)"),
        Stage::OutputProject);
  } else {
    add(line("return out", "(B, T, h*d_v): no W_o"), Stage::OutputProject);
  }
  return code;
}

}  // namespace attnlab
