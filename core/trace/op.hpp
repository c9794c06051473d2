// What a step of the run does: the plan's steps and the trace's records carry it, so a record is
// found by what it holds (Trace::find(Op, which)), not by its export name.
#pragma once

namespace attnlab {

// What a planned step does (a record of the trace, or a line of the code view).
enum class Op {
  Input,          // x: (B, T, d_in)
  Project,        // q|k|v = x @ W (+ b): (B, T, h*d); MLA's k|v = c_kv @ W_uk|W_uv
  ProjectFused,   // fused QKV: qkv = x @ W_qkv (+ b_qkv): (B, T, h*d_k + n_kv*(d_k + d_v))
  SplitColumns,   // fused QKV: q|k|v = qkv's column block, a view: (B, T, h*d)
  Compress,       // MLA: c_kv = x @ W_dkv (B, T, d_c), c_q = x @ W_dq (B, T, d_c')
  RopeProject,    // MLA: q_rope (B, T, h*d_rope), k_rope (B, T, d_rope), rotated by position
  ExpandHeads,    // GQA/MLA: .unsqueeze().expand(): K/V heads repeated by a stride of 0
  MergeGroups,    // GQA: .reshape(B, h, T, d): copies (a view when there is one K/V head)
  JoinRope,       // MLA: torch.cat([nope, rope], -1): (B, h, T, d_k + d_rope)
  Rotate,         // Llama's RoPE: q|k * cos + rotate_half(q|k) * sin: (B, h|n_kv, T, d_k)
  Split,          // .view(B, T, h, d)
  Transpose,      // .transpose(1, 2): (B, h, T, d)
  Scores,         // q @ k^T: (B, h, T, T)
  Scale,          // / sqrt(d_k)
  AddBias,        // ALiBi: + alibi_bias[h] (-m_h |t - s|), broadcast over B: (B, h, T, T)
  Mask,           // masked_fill(~visible, -inf)
  Softmax,        // softmax over the keys
  ZeroMasked,     // mask-after-softmax: masked weights zeroed after the softmax
  DropWeights,    // dropout on the weights
  AttendValues,   // weights @ v: (B, h, T, d_v)
  DropContext,    // dropout-on-output: dropout on the context
  Ablate,         // switched-off heads' context = 0
  TransposeBack,  // concat: .transpose(1, 2)
  Contiguous,     // concat: .contiguous()
  ConcatView,     // concat: .view(B, T, h*d_v)
  OutputProject,  // concat @ W_o (+ b_o), or the concat itself without W_o
  // [SECTION] beside the forward pass (Pass::Prefill, Pass::Decode, Pass::Absorbed)
  PrefillCache,    // k|v of the P prompt tokens into the cache's first slots: (B, n_kv, P, d)
  DecodeInput,     // x_t = x[:, t:t+1]: (B, 1, d_in)
  DecodeProject,   // q|k|v of the one token, split into heads: (B, h|n_kv, 1, d)
  CacheAppend,     // k|v written into slot t; the cache's first t + 1 slots: (B, n_kv, t+1, d)
  DecodeScores,    // q_t K^T / sqrt(d_k), masked: one row per head (B, h, 1, t+1)
  DecodeSoftmax,   // the row's weights
  DecodeAttend,    // weights @ V over the cached values: (B, h, 1, d_v)
  DecodeOutput,    // the token's output: row t of the forward pass's out (B, 1, d_out)
  AbsorbedOutput,  // MLA: out with W_UK folded into the queries and W_UV after the weights
};

}  // namespace attnlab
