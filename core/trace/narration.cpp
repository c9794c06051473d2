#include "core/trace/narration.hpp"

#include <cctype>

#include "core/model/masks.hpp"

namespace attnlab {

namespace {

std::string upper(std::string name) {
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

std::string head_list(const std::vector<int64_t>& heads) {
  std::string list;
  for (int64_t hd : heads) list += (list.empty() ? "" : ", ") + std::to_string(hd);
  return list;
}

// What a projection reads: x, or x_kv (cross-attention), or a latent (MLA).
std::string source_of(const Config& c, char which) {
  if (which == 'q') return c.q_latent > 0 ? "c_q" : "x";
  return c.latent() ? "c_kv" : c.cross() ? "x_kv" : "x";
}

Words project(const Plan& p, const PlannedStep& s) {
  const std::string n(1, s.which);
  const bool shared = s.changed;
  const std::string weight = shared ? "q" : n;
  const std::string bias = p.config.bias ? " + b_" + weight : "";
  const std::string code_bias = p.config.bias ? " + self.b_" + weight : "";
  const std::string source = source_of(p.config, s.which);
  const std::string from = source == "x" ? "X" : source == "x_kv" ? "X_kv" : source;
  std::string note = shared ? "<- W_q reused" : "";
  if (s.which != 'q' && p.config.grouped())
    note =
        std::to_string(p.config.kv_heads()) + " K/V heads, not " + std::to_string(p.config.n_heads);
  if (s.which != 'q' && p.config.latent()) note = "up from the latent";
  return {upper(n) + " = " + from + " W_" + weight + bias + (shared ? "  (bug: W_k unused)" : ""),
          n + " = " + source + " @ self.W_" + weight + code_bias, note};
}

// Fused QKV (GPT-2's c_attn): one GEMM for the three, then each a block of its columns.
Words project_fused(const Plan& p) {
  const std::string bias = p.config.bias ? " + b_qkv" : "";
  return {"[Q | K | V] = X W_qkv" + bias +
              ": one GEMM makes all three (GPT-2's c_attn, Phi-3's qkv_proj)",
          "qkv = x @ self.W_qkv" + std::string(p.config.bias ? " + self.b_qkv" : ""), ""};
}

Words split_columns(const Plan& p, const PlannedStep& s) {
  const Config& c = p.config;
  const int64_t wq = c.n_heads * c.head_dim_k(), wk = c.kv_heads() * c.head_dim_k();
  const int64_t begin = s.which == 'q' ? 0 : s.which == 'k' ? wq : wq + wk;
  const int64_t width = s.which == 'v' ? c.kv_heads() * c.head_dim_v() : s.which == 'q' ? wq : wk;
  const std::string n(1, s.which);
  const std::string code =
      s.which == 'q' ? "q, k, v = qkv.split([" + std::to_string(wq) + ", " + std::to_string(wk) +
                           ", " + std::to_string(c.kv_heads() * c.head_dim_v()) + "], dim=2)"
                     : "";
  return {upper(n) + " = columns " + std::to_string(begin) + ".." +
              std::to_string(begin + width - 1) + " of qkv: a view, each row's next token " +
              std::to_string(fused_width(c)) + " floats on",
          code, "", s.which == 'q'};
}

// [SECTION] the variants' steps (core/variants/ explains each lesson)

Words compress(const Plan& p, const PlannedStep& s) {
  if (s.which == 'q')
    return {"c_q = X W_dq: the queries' latent, d_c' = " + std::to_string(p.config.q_latent),
            "c_q = x @ self.W_dq", ""};
  return {"c_kv = X W_dkv: the latent K and V are made from, d_c = " +
              std::to_string(p.config.kv_latent) + " (the cache holds only this)",
          "c_kv = x @ self.W_dkv", "cached"};
}

Words rope_project(const Plan& p, const PlannedStep& s) {
  const std::string source = source_of(p.config, 'q');
  if (s.which == 'r')
    return {"Q_rope = RoPE(" + source +
                " W_qr): each head's rotary part, d_rope = " + std::to_string(p.config.rope_dim),
            "q_rope = rope(" + source + " @ self.W_qr)", ""};
  return {"K_rope = RoPE(X W_kr): one rotary key shared by every head",
          "k_rope = rope(x @ self.W_kr)", "cached"};
}

Words expand_heads(const Plan& p, const PlannedStep& s) {
  if (s.which == 'r')
    return {"the one rotary key read by all h heads: stride 0 on the head axis, no copy",
            "k_rope = k_rope[:, None].expand(B, h, T, d_rope)", "a view"};
  const std::string n(1, s.which), d = s.which == 'v' ? "d_v" : "d_k";
  return {"each K/V head repeated for the g = " + std::to_string(p.config.group_size()) +
              " query heads it serves by a stride of 0: no copy",
          n + " = " + n + "[:, :, None].expand(B, n_kv, g, T, " + d + ")", "a view"};
}

Words merge_groups(const Plan& p, const PlannedStep& s) {
  const std::string n(1, s.which), d = s.which == 'v' ? "d_v" : "d_k";
  const bool view = p.config.kv_heads() == 1;
  return {std::string("n_kv x g merged into h heads: ") +
              (view ? "one K/V head, so still a view (stride 0 on h)"
                    : "a stride of 0 cannot merge, so this copies (as repeat_interleave does)"),
          n + " = " + n + ".reshape(B, h, T, " + d + ")", view ? "a view" : "copies"};
}

Words join_rope(const PlannedStep& s) {
  const std::string n(1, s.which);
  return {upper(n) + " = [" + upper(n) + "_nope, " + upper(n) +
              "_rope] per head: scores add both parts",
          n + " = torch.cat([" + n + ", " + n + "_rope], dim=-1)", "copies"};
}

// Llama's RoPE: pair (i, i + d_k/2) of each head's q or k turned by t * theta^(-2i/d_k).
Words rotate(const Plan& p, const PlannedStep& s) {
  const std::string n(1, s.which), N = upper(n);
  if (s.pass == Pass::Decode)
    return {N + "_t turned by its position t (RoPE): " +
                (s.which == 'k' ? "the cache holds turned keys" : "the same angles as row t"),
            n + " = " + n + " * cos[t] + rotate_half(" + n + ") * sin[t]", ""};
  if (s.left_out)
    return {"", n + " = " + n + " * cos + rotate_half(" + n + ") * sin",
            "<- skipped: the heads were not transposed"};
  if (s.which == 'k')
    return {
        "K_rot: each key turned by its own position the same way, so Q_rot K_rot^T depends "
        "only on the distance between the positions",
        "k = k * cos + rotate_half(k) * sin", ""};
  return {"Q_rot = Q cos(t w_i) + rotate_half(Q) sin(t w_i), w_i = theta^(-2i/d_k), theta = " +
              format_number(p.config.rope_base()) + ": pair (i, i + d_k/2) turned by position t",
          "q = q * cos + rotate_half(q) * sin", ""};
}

Words scale(const Plan& p) {
  const std::string by = std::to_string(p.scale_by);
  if (!p.scale)
    return {"not scaled (bug): scores keep their size", "scores = scores / math.sqrt(d_k)",
            "<- missing"};
  if (p.config.mistake == Mistake::ScaleDModel)
    return {"S / sqrt(d_model) (bug: should be sqrt(d_k)), d_model = " + by,
            "scores = scores / math.sqrt(d_model)", "<- should be d_k"};
  if (p.config.latent() && p.config.rope_dim > 0) {
    // MLA: each head's query and key are [nope, rope] wide, and the scale follows their width.
    return {"S / sqrt(d_k + d_rope), d_k + d_rope = " + by,
            "scores = scores / math.sqrt(d_k + d_rope)", ""};
  }
  return {"S / sqrt(d_k), d_k = " + by, "scores = scores / math.sqrt(d_k)", ""};
}

// ALiBi (Press et al.): head h's scores lowered by m_h per token of distance.
Words add_bias(const Plan& p, const PlannedStep& s) {
  const std::string code = "scores = scores + self.alibi_bias[:, :T, :T]";
  if (s.left_out) return {"", code, "<- skipped: the heads were not transposed"};
  return {"S - m_h |t - s| (ALiBi), m_h = 2^(-8(h+1)/" + std::to_string(p.config.n_heads) + ")",
          code, "", s.recorded};
}

// Where the positions entered, for the input stage's words.
std::string position_words(const Config& c) {
  switch (c.pos) {
    case PositionEncoding::None:
      return "X = token embedding only: no position, so word order is invisible";
    case PositionEncoding::Sinusoidal:
      return "X = token embedding + pos (sinusoidal: sin/cos of t / 10000^(2i/d))";
    case PositionEncoding::Learned:
      return "X = token embedding + pos (a learned table, random before training)";
    case PositionEncoding::Rope:
      return "X = token embedding: positions enter later, as RoPE's turn of q and k";
    case PositionEncoding::Alibi:
      return "X = token embedding: positions enter later, as ALiBi's bias on the scores";
  }
  return "X = token embedding";
}

Words mask(const Plan& p) {
  if (!p.mask_before_softmax) {
    Words none{p.config.mask.any() ? "mask not applied before the softmax"
               : p.alibi           ? "no mask: the biased scores unchanged"
                                   : "no mask: the scaled scores unchanged",
               "# no mask", "", false};
    return none;
  }
  if (p.mask_fill_zero)
    return {"masked keys set to 0, not -inf (bug): exp(0) = 1 lets them through",
            "scores = scores.masked_fill(~visible, 0)", "<- should be -inf"};
  return {"masked keys set to -inf (" + describe(p.config.mask) + ")",
          "scores = scores.masked_fill(~visible, float('-inf'))", ""};
}

Words softmax(const Plan& p) {
  if (p.softmax_over_queries)
    return {"softmax over the queries, dim=-2 (bug): columns sum to 1, rows do not",
            "weights = F.softmax(scores, dim=-2)", "<- over the queries"};
  return {"A = softmax(S) over the keys (last axis)", "weights = F.softmax(scores, dim=-1)", ""};
}

Words concat_view(const Plan& p) {
  const int64_t width = p.config.n_heads * p.config.head_dim_v();
  switch (p.concat) {
    case Plan::ConcatPath::ViewOnly:
      return {"viewed without transposing back (bug): row t mixes heads and tokens",
              "out = context.view(B, T, h * d_v)", "<- no transpose back"};
    case Plan::ConcatPath::ViewFails:
      return {"view of a non-contiguous tensor (bug): the framework raises an error",
              "out = out.view(B, T, h * d_v)", "RuntimeError: not contiguous"};
    case Plan::ConcatPath::TransposeCopyView:
      break;
  }
  return {"heads laid side by side: h*d_v = " + std::to_string(width),
          "out = out.view(B, T, h * d_v)", ""};
}

Words output(const Plan& p) {
  if (!p.config.output_proj)
    return {"no output projection: the output is the concat", "return out", "no W_o"};
  const bool bias = p.config.bias;
  return {std::string("Y = concat W_o") + (bias ? " + b_o" : ""),
          std::string("return out @ self.W_o") + (bias ? " + self.b_o" : ""), ""};
}

// [SECTION] beside the forward pass: decoding with a KV cache, MLA's absorbed form

Words prefill_cache(const PlannedStep& s) {
  if (s.which == 'k')
    return {"the prompt's keys, computed once: the cache's first P slots", "k_cache[:, :, :P] = k",
            ""};
  return {"the prompt's values, computed once", "v_cache[:, :, :P] = v", ""};
}

Words decode_project(const Plan& p, const PlannedStep& s) {
  const std::string n(1, s.which), d = s.which == 'v' ? "d_v" : "d_k";
  const std::string heads = s.which == 'q' ? "h" : "n_kv";
  const std::string bias = p.config.bias ? " + b_" + n : "";
  const char* what = s.which == 'q'   ? "one query per head"
                     : s.which == 'k' ? "the new token's key only"
                                      : "the new token's value only";
  return {n + "_t = X_t W_" + n + bias + ": " + what,
          n + " = (x_t @ W_" + n + bias + ").view(B, 1, " + heads + ", " + d + ").transpose(1, 2)",
          ""};
}

Words cache_append(const PlannedStep& s) {
  if (s.which == 'k')
    return {"K cache: k_t written into slot t; t + 1 keys, none recomputed",
            "k_cache[:, :, t] = k; keys = k_cache[:, :, :t+1]", "a view"};
  return {"V cache: v_t written into slot t", "v_cache[:, :, t] = v; values = v_cache[:, :, :t+1]",
          "a view"};
}

Words decode_output(const Plan& p) {
  const std::string concat = "out = context.transpose(1, 2).reshape(B, 1, h * d_v)";
  if (!p.config.output_proj) return {"y_t: row t of the full causal run's output", concat, ""};
  return {"y_t: row t of the full causal run's output",
          concat + " @ W_o" + (p.config.bias ? " + b_o" : ""), ""};
}

Words absorbed_output(const Plan& p) {
  const bool rope = p.config.rope_dim > 0, w_o = p.config.output_proj;
  return {std::string("Y = concat_i(softmax((q_i W_UK_i^T) c_kv^T") +
              (rope ? " + q_rope_i k_rope^T" : "") + ") c_kv W_UV_i)" + (w_o ? " W_o" : ""),
          std::string("out = absorbed(q @ W_uk.mT, c_kv, W_uv)") + (w_o ? " @ self.W_o" : ""),
          "the same out"};
}

}  // namespace

Words narrate(const Plan& p, const PlannedStep& s) {
  const std::string n = s.which == 'r' ? "q_rope" : std::string(1, s.which);
  const std::string d = s.which == 'v' ? "d_v" : s.which == 'r' ? "d_rope" : "d_k";
  const bool kv_side = s.which == 'k' || s.which == 'v';
  const std::string heads = kv_side && p.config.grouped() ? "n_kv" : "h";
  const std::string t = kv_side && p.config.cross() ? "T_k" : "T";
  switch (s.op) {
    case Op::Input:
      if (s.which == 'k')
        return {"X_kv = the other sentence's embeddings: keys and values come from it", "x_kv", "",
                false};
      return {position_words(p.config), "x", "", false};
    case Op::Project:
      return project(p, s);
    case Op::ProjectFused:
      return project_fused(p);
    case Op::SplitColumns:
      return split_columns(p, s);
    case Op::Compress:
      return compress(p, s);
    case Op::RopeProject:
      return rope_project(p, s);
    case Op::ExpandHeads:
      return expand_heads(p, s);
    case Op::MergeGroups:
      return merge_groups(p, s);
    case Op::JoinRope:
      return join_rope(s);
    case Op::Rotate:
      return rotate(p, s);
    case Op::Split:
      return {upper(n) + " viewed as " + heads + " heads of " + d + " columns each",
              n + " = " + n + ".view(B, " + t + ", " + heads + ", " + d + ")", ""};
    case Op::Transpose:
      return {"swap the T and h axes: only the strides change", n + " = " + n + ".transpose(1, 2)",
              s.left_out ? "<- forgotten" : ""};
    case Op::Scores:
      return {"S = Q K^T  (per head)", "scores = q @ k.transpose(-2, -1)", ""};
    case Op::Scale:
      return scale(p);
    case Op::AddBias:
      return add_bias(p, s);
    case Op::Mask:
      return mask(p);
    case Op::Softmax:
      return softmax(p);
    case Op::ZeroMasked:
      return {"masked weights zeroed AFTER the softmax (bug): rows no longer sum to 1",
              "weights = weights.masked_fill(~visible, 0)", "<- after the softmax", s.recorded};
    case Op::DropWeights:
      return {"each weight zeroed with p = " + format_number(p.config.dropout) +
                  ", survivors scaled by 1/(1-p)",
              "weights = F.dropout(weights, p)", "", s.recorded};
    case Op::AttendValues:
      return {"C = A V  (per head)", "context = weights @ v", ""};
    case Op::DropContext:
      return {"dropout on the context instead of the weights (bug), p = " +
                  format_number(p.context_dropout),
              "context = F.dropout(context, p)", "<- should drop weights", s.recorded};
    case Op::Ablate:
      return {"heads " + head_list(p.ablated) + " switched off: their context is 0",
              std::string(p.heads_transposed ? "context[:, [" : "context[:, :, [") +
                  head_list(p.ablated) + "]] = 0",
              "", s.recorded};
    case Op::TransposeBack:
      return {"swap axes 1 and 2 back: a non-contiguous view", "out = context.transpose(1, 2)", "",
              s.recorded};
    case Op::Contiguous:
      return {"copy into row-major order: each token's heads side by side",
              "out = out.contiguous()", "copies", s.recorded};
    case Op::ConcatView:
      return concat_view(p);
    case Op::OutputProject:
      return output(p);
    case Op::PrefillCache:
      return prefill_cache(s);
    case Op::DecodeInput:
      return {"X_t: only the new token enters", "x_t = x[:, t:t+1]", ""};
    case Op::DecodeProject:
      return decode_project(p, s);
    case Op::CacheAppend:
      return cache_append(s);
    case Op::DecodeScores:
      if (p.alibi)
        return {"s = q_t K^T / sqrt(d_k) + ALiBi's row t: one row of t + 1 scores per head",
                "scores = q @ keys.transpose(-2, -1) / math.sqrt(d_k) + self.alibi_bias[:, t]", ""};
      return {"s = q_t K^T / sqrt(d_k): one row of t + 1 scores per head",
              "scores = q @ keys.transpose(-2, -1) / math.sqrt(d_k)", ""};
    case Op::DecodeSoftmax:
      return {"a = softmax(s): the new row of each head's map",
              "weights = F.softmax(scores, dim=-1)", ""};
    case Op::DecodeAttend:
      return {"c = a V over the cached values", "context = weights @ values", ""};
    case Op::DecodeOutput:
      return decode_output(p);
    case Op::AbsorbedOutput:
      return absorbed_output(p);
  }
  return {};
}

std::string pytorch_line(const Plan& p, const PlannedStep& s) {
  const Words w = narrate(p, s);
  if (s.left_out) return "# " + w.code + "  " + w.note;
  if (!w.in_code && w.code.rfind("#", 0) == 0) return w.code;  // "# no mask"
  return w.code + "  # " + axes_label(s.axes);
}

std::vector<std::string> plan_notices(const Plan& p) {
  std::vector<std::string> notices;
  if (!p.heads_transposed) {
    notices.push_back(
        "forget-transpose: the heads stay in axis 2, so attention runs over (B, T, h, d_k) and "
        "each token's heads attend to each other");
    if (p.config.mask.any())
      notices.push_back("the (T, T) mask does not fit (h, h) maps, so it was not applied");
    if (p.config.rotary())
      notices.push_back(
          "RoPE's cos and sin have one row per position, which (B, T, h, d_k) does not have on "
          "axis 2, so q and k were not rotated");
    if (p.config.alibi())
      notices.push_back(
          "ALiBi's bias is by the distance between two tokens, which (h, h) maps do not have, so "
          "it was not added");
  }
  if (p.drop_context && p.config.dropout <= 0)
    notices.push_back("dropout-on-output: dropout is off, so p = " +
                      format_number(p.context_dropout) + " is used");
  return notices;
}

}  // namespace attnlab
