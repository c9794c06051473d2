#include "core/variants/variant_rules.hpp"

#include <string>

namespace attnlab {

namespace {

std::string str(int64_t n) {
  return std::to_string(n);
}

std::string divisors_of(int64_t n) {
  std::string list;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0) list += (list.empty() ? "" : ", ") + str(d);
  return list;
}

void check_grouped_heads(const Config& c, std::vector<ConfigIssue>& issues) {
  const int64_t h = c.n_heads, hk = c.kv_heads();
  if (hk <= h && h % hk == 0) return;
  issues.push_back(
      {"n_kv_heads", "n_kv_heads=" + str(hk) + " does not divide n_heads=" + str(h) +
                         " (each K/V head must serve the same number of query heads): choose "
                         "n_kv_heads in {" +
                         divisors_of(h) + "} (1 = multi-query, " + str(h) + " = multi-head)"});
}

void check_cross(const Config& c, std::vector<ConfigIssue>& issues) {
  if (!c.cross()) {
    if (c.d_in_kv != 0)
      issues.push_back(
          {"d_in_kv",
           "d_in_kv sets the key/value side's width in cross-attention: give a "
           "key/value sentence{{(sentence_kv)}} or X_kv{{(x_kv)}}, or {{drop d_in_kv}}"});
    return;
  }
  if (c.mask.causal || c.mask.window > 0)
    issues.push_back({"mask",
                      "causal and window masks compare positions in one sequence, but "
                      "cross-attention's keys are another sentence: use a padding mask (it hides "
                      "the key side's padding) or no mask"});
}

void check_decode(const Config& c, std::vector<ConfigIssue>& issues) {
  if (c.decode_steps == 0) return;
  const int64_t T = c.tokens(), n = c.decode_steps;
  if (n >= T)
    issues.push_back({"decode", "decode=" + str(n) + " leaves no prompt: T=" + str(T) +
                                    " tokens, and at least one is processed before decoding "
                                    "starts: decode at most " +
                                    str(T - 1) + " tokens, or raise T{{(seq_len)}}"});
  if (!c.mask.causal)
    issues.push_back({"decode",
                      "decoding generates tokens left to right, so each token may only see "
                      "earlier ones: turn the causal mask on{{(mask causal)}}"});
  if (c.cross())
    issues.push_back(
        {"decode",
         "decoding is simulated for self-attention: {{drop cross}}, or {{drop decode_steps}}"});
  if (c.latent())
    issues.push_back({"decode",
                      "decoding is simulated for multi-head, grouped-query and multi-query "
                      "attention; MLA's cache is compared in its counters: {{drop mla}} or "
                      "{{drop decode_steps}}"});
  if (c.dropout > 0)
    issues.push_back(
        {"decode", "decoding is inference, where dropout is off: set dropout to 0 to decode"});
}

void check_latent(const Config& c, std::vector<ConfigIssue>& issues) {
  if (!c.latent()) {
    if (c.rope_dim != 0 || c.q_latent != 0)
      issues.push_back({"mla",
                        "d_rope and the query latent are parts of multi-head latent attention: "
                        "set its latent width too{{(mla D_C[:D_ROPE])}}"});
    return;
  }
  if (c.rope_dim % 2 != 0)
    issues.push_back({"rope_dim", "d_rope=" + str(c.rope_dim) +
                                      " must be even: the rotary embedding turns pairs of "
                                      "dimensions (try " +
                                      str(c.rope_dim + 1) + ")"});
  if (c.grouped())
    issues.push_back({"mla",
                      "MLA shares keys and values through its latent, not through K/V heads: "
                      "{{drop n_kv_heads}}, or {{drop mla}}"});
  if (c.cross()) issues.push_back({"mla", "MLA is simulated for self-attention: {{drop cross}}"});
  if (c.bias)
    issues.push_back({"mla", "DeepSeek-V2's attention projections have no biases: {{drop bias}}"});
}

// How the run's RoPE was switched on, for the messages: the field and how to switch it off.
struct RotarySwitch {
  const char* field;
  const char* drop;
};
RotarySwitch rotary_switch(const Config& c) {
  return c.rope_theta > 0 ? RotarySwitch{"rope_theta", "{{drop rope_theta}}"}
                          : RotarySwitch{"pos", "choose another position encoding{{(pos)}}"};
}

// Llama's RoPE: positions within one sequence, on every head's d_k dimensions in pairs.
void check_rotary(const Config& c, std::vector<ConfigIssue>& issues) {
  if (!c.rotary()) return;
  const RotarySwitch on = rotary_switch(c);
  if (c.latent())
    issues.push_back({on.field, std::string("MLA has its own rotary part, interleaved pairs on a "
                                            "separate key{{(mla D_C:D_ROPE)}}: ") +
                                    on.drop + ", or {{drop mla}}"});
  if (c.cross())
    issues.push_back({on.field, std::string("RoPE turns queries and keys by their positions in "
                                            "one sequence, but cross-attention's keys are another "
                                            "sentence: ") +
                                    on.drop + ", or {{drop cross}}"});
  const int64_t dk = c.head_dim_k();
  if (dk % 2 != 0)
    issues.push_back({on.field, "d_k=" + str(dk) +
                                    " must be even for RoPE, which turns pairs of dimensions: "
                                    "set d_k to " +
                                    str(dk + 1) + "{{(d_k " + str(dk + 1) + ")}}, or " + on.drop});
}

// ALiBi: a bias by the distance between two positions of one sequence, on the (T, T) maps.
void check_alibi(const Config& c, std::vector<ConfigIssue>& issues) {
  if (!c.alibi()) return;
  if (c.cross())
    issues.push_back({"pos",
                      "ALiBi biases a score by the distance between a query and a key of one "
                      "sequence, but cross-attention's keys are another sentence: choose another "
                      "position encoding{{(pos)}}, or {{drop cross}}"});
  if (c.latent())
    issues.push_back(
        {"pos",
         "MLA is simulated with its own rotary part, not ALiBi: choose another position "
         "encoding{{(pos)}}, or {{drop mla}}"});
}

// Fused QKV: one GEMM over x for all three, so q, k and v must read the same input with their own
// weights.
void check_fused(const Config& c, std::vector<ConfigIssue>& issues) {
  if (!c.fused_qkv) return;
  if (c.cross())
    issues.push_back({"fused_qkv",
                      "cross-attention's keys and values read another sentence, so one fused "
                      "projection cannot make all three: {{drop fused_qkv}}, or {{drop cross}}"});
  if (c.latent())
    issues.push_back({"fused_qkv",
                      "MLA's keys and values come from its latent, not from x: {{drop fused_qkv}}, "
                      "or {{drop mla}}"});
  if (c.mistake == Mistake::SharedQkProjection)
    issues.push_back(
        {"fused_qkv",
         "the shared-qk-projection mistake needs W_q and W_k apart: {{drop fused_qkv}}, "
         "or choose another mistake"});
}

}  // namespace

void check_variants(const Config& c, std::vector<ConfigIssue>& issues) {
  check_grouped_heads(c, issues);
  check_cross(c, issues);
  check_decode(c, issues);
  check_latent(c, issues);
  check_rotary(c, issues);
  check_alibi(c, issues);
  check_fused(c, issues);
  const bool variant = c.grouped() || c.cross() || c.decode_steps > 0 || c.latent();
  if (variant && c.mistake != Mistake::None)
    issues.push_back({"mistake",
                      "the mistakes simulator works on plain multi-head attention: choose mistake "
                      "none, or switch the variant (K/V heads, cross-attention, decoding, MLA) "
                      "off"});
}

}  // namespace attnlab
