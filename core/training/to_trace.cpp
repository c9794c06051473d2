#include "core/training/to_trace.hpp"

#include "core/training/position_layers.hpp"

namespace attnlab::training {

TraceOfModel first_layer_trace(const SavedModel& m, int64_t B, int64_t batch_index) {
  const Parameters<float>& p = m.parameters;
  const ModelShape& s = m.shape;
  const int64_t T = s.seq_len, D = s.d_model, H = s.qkv_width();
  TraceOfModel out;
  out.batch = make_batch(m.settings.task, B, T, s.vocab, m.settings.seed, batch_index);
  Config& c = out.config;
  c.batch = B;
  c.seq_len = T;
  c.d_model = D;
  c.n_heads = s.heads;
  c.d_k = s.head_dim();
  c.d_v = s.head_dim();
  c.bias = s.bias;
  c.output_proj = true;
  c.mask.causal = s.causal;
  c.seed = m.settings.seed;
  if (s.pos == PositionEncoding::Rope) c.rope_theta = 10000.0;  // the trainer's RoPE on q and k
  if (s.pos == PositionEncoding::Alibi) c.pos = PositionEncoding::Alibi;  // its bias on the scores
  for (int64_t t = 0; t < T; ++t)
    c.sentence += (t ? " " : "") + std::to_string(out.batch.tokens[size_t(t)]);

  // x = E[tokens] (+ P for sinusoidal and learned): (B, T, D)
  Matrix<float> x(B * T, D);
  for (int64_t n = 0; n < B * T; ++n)
    x.row(n) = p[p.layout.tok_emb].row(out.batch.tokens[size_t(n)]);
  add_positions(s.pos, p, T, x);
  Inputs& in = out.inputs;
  in.x = to_tensor("x", {B, T, D}, x);
  const LayerSlots& w = p.layout.layers.front();
  in.w_q = to_tensor("w_q", {D, H}, p[w.w_q]);
  in.w_k = to_tensor("w_k", {D, H}, p[w.w_k]);
  in.w_v = to_tensor("w_v", {D, H}, p[w.w_v]);
  in.w_o = to_tensor("w_o", {H, D}, p[w.w_o]);
  if (s.pos == PositionEncoding::Rope) {  // the frequencies the trainer turns q and k by
    const std::vector<double> inv_freq = rope_inverse_frequencies(s.head_dim());  // (d_k / 2)
    in.rope_inv_freq = Tensor::empty("rope_inv_freq", {int64_t(inv_freq.size())});
    for (size_t i = 0; i < inv_freq.size(); ++i) in.rope_inv_freq.data()[i] = Scalar(inv_freq[i]);
  }
  if (s.pos == PositionEncoding::Alibi)  // the bias the trainer adds to the scores: (h, T, T)
    in.alibi_bias = alibi_bias_tensor(s.heads, T, T);
  if (s.bias) {
    in.b_q = to_tensor("b_q", {H}, p[w.b_q]);
    in.b_k = to_tensor("b_k", {H}, p[w.b_k]);
    in.b_v = to_tensor("b_v", {H}, p[w.b_v]);
    in.b_o = to_tensor("b_o", {D}, p[w.b_o]);
  }
  return out;
}

}  // namespace attnlab::training
