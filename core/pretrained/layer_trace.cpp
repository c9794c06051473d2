#include "core/pretrained/layer_trace.hpp"

#include <algorithm>

#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {

namespace {

// A copy in storage of its own (the checkpoint's tensors may be views of a whole file).
Tensor copy_of(const Tensor& t, const std::string& name) {
  Tensor out = Tensor::empty(name, t.shape());
  t.copy_to(out.data());
  return out;
}

// A (rows, cols) copy of the layer's weight in the row-vector convention: W (in, out).
Tensor as_in_out(const Dense& layer, const std::string& name) {
  return copy_of(layer.out_in ? layer.w.transpose(0, 1) : layer.w, name);
}

// Columns [c0, c0 + n) of a (rows, cols) matrix, as a new (rows, n) tensor.
Tensor columns(const Tensor& m, int64_t c0, int64_t n, const std::string& name) {
  return copy_of(m.narrow(1, c0, n), name);
}

}  // namespace

LayerOfModel layer_of_model(const PretrainedModel& m, const PretrainedRun& run, int64_t layer) {
  const ModelSpec& s = m.spec;
  if (layer < 0 || layer >= s.n_layers)
    throw UserError("layer " + std::to_string(layer) + " is not one of the model's: choose 0 to " +
                    std::to_string(s.n_layers - 1));
  const Block& b = m.blocks[size_t(layer)];
  const int64_t T = int64_t(run.ids.size()), d = s.d_model;
  LayerOfModel out;
  Config& c = out.config;
  c.seq_len = T;
  c.d_in = d;
  c.d_model = d;
  c.n_heads = s.n_heads;
  c.d_k = c.d_v = s.d_head;
  c.n_kv_heads = s.n_kv_heads < s.n_heads ? s.n_kv_heads : 0;
  c.bias =
      s.qkv_bias || s.o_bias;  // the core's bias is on all four (zeros where the model has none)
  c.output_proj = true;
  c.mask.causal = s.causal;
  if (!m.rope_inv_freq.empty()) c.rope_theta = s.rope_theta;
  c.fused_qkv = b.qkv.w.has_values();  // c_attn, qkv_proj: the trace shows its q | k | v blocks

  Inputs& in = out.inputs;
  in.labels.words = with_layer(s.arch->attention_input, layer);
  in.x = copy_of(run.layers[size_t(layer)].attn_input, "x");  // (1, T, d)
  const int64_t q_width = s.n_heads * s.d_head, kv_width = s.n_kv_heads * s.d_head;
  // A bias of the layer, or zeros of `width` when the model has none there.
  const auto bias = [&](const Tensor& b, int64_t begin, int64_t width, const std::string& name) {
    return b.has_values() ? copy_of(b.narrow(0, begin, width), name) : Tensor::zeros(name, {width});
  };
  if (b.qkv.w.has_values()) {  // fused: W_qkv (d, h*d_head + 2 n_kv*d_head) is W_q | W_k | W_v
    const Tensor w = b.qkv.out_in ? b.qkv.w.transpose(0, 1) : b.qkv.w;  // (d, out)
    in.w_q = columns(w, 0, q_width, "w_q");
    in.w_k = columns(w, q_width, kv_width, "w_k");
    in.w_v = columns(w, q_width + kv_width, kv_width, "w_v");
    if (c.bias) {
      in.b_q = bias(b.qkv.b, 0, q_width, "b_q");
      in.b_k = bias(b.qkv.b, q_width, kv_width, "b_k");
      in.b_v = bias(b.qkv.b, q_width + kv_width, kv_width, "b_v");
    }
  } else {
    in.w_q = as_in_out(b.q, "w_q");  // (d, h*d_head)
    in.w_k = as_in_out(b.k, "w_k");  // (d, n_kv*d_head)
    in.w_v = as_in_out(b.v, "w_v");
    if (c.bias) {
      in.b_q = bias(b.q.b, 0, q_width, "b_q");
      in.b_k = bias(b.k.b, 0, kv_width, "b_k");
      in.b_v = bias(b.v.b, 0, kv_width, "b_v");
    }
  }
  in.w_o = as_in_out(b.o, "w_o");  // (h*d_head, d)
  if (c.bias) in.b_o = bias(b.o.b, 0, d, "b_o");
  if (!m.rope_inv_freq.empty()) {
    in.rope_inv_freq = Tensor::empty("rope_inv_freq", {int64_t(m.rope_inv_freq.size())});
    std::copy(m.rope_inv_freq.begin(), m.rope_inv_freq.end(), in.rope_inv_freq.data());
  }
  return out;
}

Trace trace_layer(const PretrainedModel& m, const PretrainedRun& forward, int64_t layer,
                  const std::vector<std::string>& pieces) {
  LayerOfModel l = layer_of_model(m, forward, layer);
  l.inputs.labels.tokens = pieces;
  return run(l.config, l.inputs);
}

std::vector<std::pair<std::string, std::string>> model_export_files(const PretrainedRun& run,
                                                                    int64_t layer) {
  const int64_t T = int64_t(run.ids.size()), L = int64_t(run.layers.size());
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("token_ids.npy", npy_bytes_int64(run.ids, {1, T}));
  const int64_t h = L > 0 ? run.layers[0].weights.size(1) : 0;
  Tensor attentions = Tensor::empty("attentions", {L, 1, h, T, T});
  for (int64_t l = 0; l < L; ++l)
    run.layers[size_t(l)].weights.copy_to(attentions.data() + l * h * T * T);
  files.emplace_back("attentions.npy", npy_bytes(attentions));
  if (run.logits.has_values()) files.emplace_back("logits.npy", npy_bytes(run.logits));
  const LayerRecord& rest = run.layers.at(size_t(layer));
  for (const Tensor* t : {&rest.residual, &rest.mlp_input, &rest.mlp_hidden, &rest.block_out})
    files.emplace_back(t->storage()->name + ".npy", npy_bytes(*t));
  return files;
}

}  // namespace attnlab
