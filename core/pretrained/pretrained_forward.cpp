#include "core/pretrained/pretrained_forward.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/attention/head_attention.hpp"
#include "core/kernels/parallel.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/vector_gemm.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {

namespace {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const Mat>;
using RowVec = Eigen::Matrix<float, 1, Eigen::Dynamic>;

ConstMap as_matrix(const Tensor& t) {
  return ConstMap(t.data(), t.size(0), t.numel() / t.size(0));
}
Eigen::Map<const RowVec> as_row(const Tensor& t) {
  return Eigen::Map<const RowVec>(t.data(), t.numel());
}

// (1, T, d) tensor holding a (T, d) matrix.
Tensor to_tensor(const std::string& name, const Mat& m) {
  Tensor t = Tensor::empty(name, {1, m.rows(), m.cols()});
  std::copy(m.data(), m.data() + m.size(), t.data());
  return t;
}

// y (T, out) = x (T, in) W (+ b), split over the output columns (T is small next to the widths).
// In the page (WebAssembly) the vector kernel does the product: Eigen's is scalar there.
Mat dense(const Mat& x, const Dense& layer) {
  const int64_t out = layer.out();
  Mat y(x.rows(), out);
  const ConstMap w = as_matrix(layer.w);
  const float* bias = layer.b.has_values() ? layer.b.data() : nullptr;
  const double flops = 2.0 * double(x.rows()) * double(x.cols()) * double(out);
  if constexpr (kVectorGemmPreferred) {  // split in blocks of 8 columns, the kernel's width
    const auto layout = layer.out_in ? WeightLayout::OutIn : WeightLayout::InOut;
    parallel_for((out + 7) / 8, flops, [&](int64_t b0, int64_t b1) {
      vector_gemm_columns(x.data(), x.rows(), x.cols(), w.data(), layout, out, bias, b0 * 8,
                          std::min(out, b1 * 8), y.data());
    });
    return y;
  }
  parallel_for(out, flops, [&](int64_t c0, int64_t c1) {
    if (layer.out_in)
      y.middleCols(c0, c1 - c0).noalias() = x * w.middleRows(c0, c1 - c0).transpose();
    else
      y.middleCols(c0, c1 - c0).noalias() = x * w.middleCols(c0, c1 - c0);
    if (bias) y.middleCols(c0, c1 - c0).rowwise() += as_row(layer.b).segment(c0, c1 - c0);
  });
  return y;
}

// The norm of its kind, row by row: (T, d) -> (T, d).
Mat normed(const Mat& x, const Norm& n) {
  Mat y(x.rows(), x.cols());
  const auto w = as_row(n.weight);
  for (int64_t r = 0; r < x.rows(); ++r) {
    const Eigen::ArrayXf row = x.row(r).transpose().array();
    switch (n.kind) {
      case NormKind::LayerNorm: {
        const float mean = row.mean();
        const float var = (row - mean).square().mean();
        y.row(r) = ((row - mean) / std::sqrt(var + float(n.eps))).matrix().transpose();
        y.row(r) = y.row(r).cwiseProduct(w) + as_row(n.bias);
        break;
      }
      case NormKind::RmsNorm:
        y.row(r) = (row / std::sqrt(row.square().mean() + float(n.eps))).matrix().transpose();
        y.row(r) = y.row(r).cwiseProduct(w);
        break;
      case NormKind::RmsNormOnePlusWeight:  // Gemma: the weight is stored as an offset from 1
        y.row(r) = (row / std::sqrt(row.square().mean() + float(n.eps))).matrix().transpose();
        y.row(r) = y.row(r).array() * (1.0f + w.array());
        break;
    }
  }
  return y;
}

float gelu_tanh(float x) {  // GPT-2's gelu_new
  const float c = float(std::sqrt(2.0 / std::numbers::pi));
  return 0.5f * x * (1.0f + std::tanh(c * (x + 0.044715f * x * x * x)));
}
float gelu_erf(float x) {  // BERT's gelu
  return 0.5f * x * (1.0f + std::erf(x / float(std::numbers::sqrt2)));
}
float silu(float x) {
  return x / (1.0f + std::exp(-x));
}

// The function an activation names.
float (*activation_function(Activation a))(float) {
  switch (a) {
    case Activation::GeluTanh:
      return &gelu_tanh;
    case Activation::GeluErf:
      return &gelu_erf;
    case Activation::Silu:
      return &silu;
  }
  return &gelu_tanh;
}

// The MLP's hidden activations on its input (T, d) -> (T, d_ff): act(x W_up), or a gated MLP's
// act(x W_gate) * (x W_up) (SwiGLU, GeGLU), gate and up from one product when they are fused.
Mat mlp_hidden(const PretrainedModel& m, const Block& b, const Mat& x) {
  const auto act = activation_function(m.spec.act);
  if (b.gate_up.w.has_values()) {
    const Mat gate_up = dense(x, b.gate_up);  // (T, 2 d_ff): gate | up
    const int64_t f = m.spec.d_ff;
    return gate_up.rightCols(f).cwiseProduct(gate_up.leftCols(f).unaryExpr(act));
  }
  Mat hidden = dense(x, b.up);  // (T, d_ff)
  if (m.spec.arch->mlp == MlpKind::Gated)
    return hidden.cwiseProduct(dense(x, b.gate).unaryExpr(act));
  return hidden.unaryExpr(act);
}

// Multi-head attention of one layer: q (T, h*dh) of the tokens at positions P..P+T-1 over the
// keys and values k, v (P+T, n_kv*dh) of every position so far, each head through the per-head
// kernel (causal: query P + i sees keys 0..P + i). The context (T, h*dh); each head's weights
// (h, T, P+T) are written into `weights`.
Mat attend(const ModelSpec& s, const Mat& q, const Mat& k, const Mat& v, float* weights,
           const std::vector<bool>& off) {
  const int64_t T = q.rows(), K = k.rows(), P = K - T, dh = s.d_head, g = s.n_heads / s.n_kv_heads;
  AttentionChoices choices;  // the model's: scaled by 1/sqrt(d_head), causal or not, heads off
  choices.scale = 1.0 / std::sqrt(double(dh));
  choices.mask = s.causal;
  choices.heads_off = off;
  std::vector<uint8_t> visible(size_t(choices.mask ? T * K : 0));  // (T, K)
  for (int64_t i = 0; choices.mask && i < T; ++i)
    for (int64_t j = 0; j < K; ++j) visible[size_t(i * K + j)] = j <= P + i;
  Mat context(T, s.n_heads * dh);
  parallel_for(s.n_heads, 4.0 * double(s.n_heads) * double(T) * double(K) * double(dh),
               [&](int64_t h0, int64_t h1) {
                 HeadScratch scratch;
                 for (int64_t h = h0; h < h1; ++h) {
                   const int64_t kv = h / g;  // the K/V head this query head reads
                   HeadOperands<float> op{q.data() + h * dh,
                                          q.cols(),
                                          k.data() + kv * dh,
                                          k.cols(),
                                          v.data() + kv * dh,
                                          v.cols(),
                                          context.data() + h * dh,
                                          context.cols(),
                                          T,
                                          K,
                                          dh,
                                          dh,
                                          0,
                                          h};
                   op.visible = visible.data();
                   op.visible_stride = K;
                   op.weights = weights + h * T * K;
                   op.weights_stride = K;
                   attend_head(op, choices, scratch);
                 }
               });
  return context;
}

// The embeddings entering layer 0 of tokens at positions p0, p0 + 1, ...: (T, d).
Mat embed(const PretrainedModel& m, const std::vector<int64_t>& ids, int64_t p0) {
  const int64_t T = int64_t(ids.size()), d = m.spec.d_model;
  Mat x(T, d);
  const ConstMap tokens = as_matrix(m.token_embedding);
  for (int64_t t = 0; t < T; ++t) {
    x.row(t) = tokens.row(ids[size_t(t)]);
    if (m.position_embedding.has_values()) x.row(t) += as_matrix(m.position_embedding).row(p0 + t);
    if (m.type_embedding.has_values()) x.row(t) += as_matrix(m.type_embedding).row(0);
  }
  if (m.embedding_scale != 1) x *= m.embedding_scale;  // Gemma: sqrt(d) in the weights' dtype
  return m.embedding_norm.weight.has_values() ? normed(x, m.embedding_norm) : x;
}

}  // namespace

void check_token_ids(const PretrainedModel& m, const std::vector<int64_t>& ids) {
  if (ids.empty())
    throw UserError("no tokens: give a sentence, or token ids{{(tokens)}}, with at least one id");
  for (int64_t id : ids)
    if (id < 0 || id >= m.spec.vocab)
      throw UserError("token id " + std::to_string(id) + " is outside the vocabulary (0 to " +
                      std::to_string(m.spec.vocab - 1) + "): give ids the model knows");
  if (m.position_embedding.has_values() && int64_t(ids.size()) > m.spec.max_positions)
    throw UserError(std::to_string(ids.size()) + " tokens, but the model has learned " +
                    std::to_string(m.spec.max_positions) + " positions: shorten the sentence");
}

namespace {

// Layer l on the new tokens' residual stream h (T, d), after `cache` (the keys and values of the
// positions before, which the new ones are appended to); the layer's records into `rec` if given.
Mat block_forward(const PretrainedModel& m, int64_t l, Mat h, LayerCache& cache,
                  const std::vector<bool>& head_off, LayerRecord* rec) {
  const ModelSpec& s = m.spec;
  const Block& b = m.blocks[size_t(l)];
  const int64_t T = h.rows(), P = cache.k.rows(), dh = s.d_head;
  const bool post_norm = s.arch->post_norm;
  const Mat x = post_norm ? h : normed(h, b.attn_norm);  // (T, d)
  Mat q, k, v;
  if (b.qkv.w.has_values()) {  // c_attn, qkv_proj: q | k | v column blocks of one product
    const int64_t q_width = s.n_heads * dh, kv_width = s.n_kv_heads * dh;
    const Mat qkv = dense(x, b.qkv);  // (T, h*dh + 2 n_kv*dh)
    q = qkv.leftCols(q_width), k = qkv.middleCols(q_width, kv_width), v = qkv.rightCols(kv_width);
  } else {
    q = dense(x, b.q), k = dense(x, b.k), v = dense(x, b.v);  // (T, h*dh), (T, n_kv*dh)
  }
  if (!m.rope_inv_freq.empty()) {
    rotate_half_rows(q.data(), T, T, q.cols(), dh, m.rope_inv_freq.data(), P);  // positions P..
    rotate_half_rows(k.data(), T, T, k.cols(), dh, m.rope_inv_freq.data(), P);
  }
  cache.k.conservativeResize(P + T, k.cols());  // (P + T, n_kv*dh)
  cache.v.conservativeResize(P + T, v.cols());
  cache.k.bottomRows(T) = k;
  cache.v.bottomRows(T) = v;
  Tensor weights = Tensor::empty("weights", {1, s.n_heads, T, P + T});
  const Mat attn = dense(attend(s, q, cache.k, cache.v, weights.data(), head_off), b.o);  // (T, d)
  // The rest of the block: the residual, the second norm, the MLP, the residual (BERT: each
  // residual sum normed after).
  const Mat residual = post_norm ? normed(h + attn, b.attn_norm) : Mat(h + attn);  // (T, d)
  const Mat mlp_in = post_norm ? residual : normed(residual, b.mlp_norm);          // (T, d)
  const Mat hidden = mlp_hidden(m, b, mlp_in);                                     // (T, d_ff)
  const Mat mlp_out = dense(hidden, b.down);                                       // (T, d)
  Mat out = post_norm ? normed(residual + mlp_out, b.mlp_norm) : Mat(residual + mlp_out);
  if (rec) {
    rec->hidden_in = to_tensor("hidden_in", h);
    rec->attn_input = to_tensor("x", x);
    rec->weights = weights;
    rec->attn_out = to_tensor("out", attn);
    rec->residual = to_tensor("residual", residual);
    rec->mlp_input = to_tensor("mlp_in", mlp_in);
    rec->mlp_hidden = to_tensor("mlp_hidden", hidden);
    rec->block_out = to_tensor("block_out", out);
  }
  return out;
}

// The output head on the last layer's stream (T, d): (T, vocab).
Mat head_logits(const PretrainedModel& m, const Mat& h) {
  Mat final = h;
  if (m.final_norm.weight.has_values()) final = normed(h, m.final_norm);
  if (m.mlm_transform.w.has_values())  // BERT's MLM head: dense, the model's activation, norm
    final = normed(dense(final, m.mlm_transform).unaryExpr(activation_function(m.spec.act)),
                   m.mlm_norm);
  Dense head;
  head.w = m.head;
  head.b = m.head_bias;
  return dense(final, head);
}

std::vector<bool> heads_off_in(const ModelSpec& s, int64_t l, const std::vector<HeadSwitch>& off) {
  std::vector<bool> head_off(size_t(s.n_heads), false);
  for (const HeadSwitch& o : off)
    if (o.layer == l && o.head >= 0 && o.head < s.n_heads) head_off[size_t(o.head)] = true;
  return head_off;
}

}  // namespace

PretrainedRun run_pretrained(const PretrainedModel& m, const std::vector<int64_t>& ids,
                             const std::vector<HeadSwitch>& off, bool logits,
                             const RunControl& control) {
  check_token_ids(m, ids);
  PretrainedRun run;
  run.ids = ids;
  Mat h = embed(m, ids, 0);  // (T, d): the residual stream
  for (int64_t l = 0; l < m.spec.n_layers; ++l) {
    LayerCache cache;
    LayerRecord rec;
    h = block_forward(m, l, std::move(h), cache, heads_off_in(m.spec, l, off), &rec);
    run.layers.push_back(std::move(rec));
    control.check_cancel();
    control.report(double(l + 1) / double(m.spec.n_layers + 1));
  }
  if (logits && m.has_head()) run.logits = to_tensor("logits", head_logits(m, h));  // (1, T, vocab)
  return run;
}

Generator::Generator(const PretrainedModel& model, std::vector<HeadSwitch> off)
    : model_(model), off_(std::move(off)), caches_(size_t(model.spec.n_layers)) {
  if (!model.spec.causal || !model.has_head())
    throw UserError(model.spec.model_type +
                    " does not generate: it sees both sides (BERT) or has no output head");
}

std::vector<float> Generator::feed(const std::vector<int64_t>& ids) {
  std::vector<int64_t> all = fed_;
  all.insert(all.end(), ids.begin(), ids.end());
  check_token_ids(model_, all);
  Mat h = embed(model_, ids, int64_t(fed_.size()));  // (n, d) at positions t..t+n-1
  for (int64_t l = 0; l < model_.spec.n_layers; ++l)
    h = block_forward(model_, l, std::move(h), caches_[size_t(l)],
                      heads_off_in(model_.spec, l, off_), nullptr);
  fed_ = std::move(all);
  const Mat logits = head_logits(model_, h.bottomRows(1));  // (1, vocab)
  return std::vector<float>(logits.data(), logits.data() + logits.size());
}

std::vector<GeneratedToken> generate_greedy(const PretrainedModel& model,
                                            const std::vector<int64_t>& prompt, int64_t n,
                                            const std::vector<HeadSwitch>& off,
                                            const RunControl& control) {
  Generator generator(model, off);
  std::vector<float> logits = generator.feed(prompt);
  const bool learned_positions = model.position_embedding.has_values();
  std::vector<GeneratedToken> out;
  for (int64_t i = 0; i < n; ++i) {
    const auto best = std::max_element(logits.begin(), logits.end());
    double sum = 0;  // softmax's denominator relative to the largest logit
    for (float l : logits) sum += std::exp(double(l - *best));
    out.push_back(
        {generator.position(), best - logits.begin(), 1.0 / sum, generator.cache_bytes()});
    if (i + 1 == n || (learned_positions && generator.position() + 1 >= model.spec.max_positions))
      break;
    control.check_cancel();
    control.report(double(i + 1) / double(n));
    logits = generator.feed({out.back().id});
  }
  return out;
}

int64_t Generator::cache_bytes() const {
  int64_t n = 0;
  for (const LayerCache& c : caches_) n += (c.k.size() + c.v.size()) * int64_t(sizeof(float));
  return n;
}

std::vector<double> next_token_probabilities(const PretrainedRun& run, int64_t t,
                                             double temperature) {
  const int64_t V = run.logits.size(2);
  const float* row = run.logits.data() + t * V;
  const double top = *std::max_element(row, row + V);
  std::vector<double> p(static_cast<size_t>(V));
  double sum = 0;
  for (int64_t i = 0; i < V; ++i) sum += p[size_t(i)] = std::exp((row[i] - top) / temperature);
  for (double& x : p) x /= sum;
  return p;
}

double next_token_loss(const PretrainedRun& run) {
  if (!run.logits.has_values() || run.ids.size() < 2) return std::nan("");
  const int64_t T = int64_t(run.ids.size()), V = run.logits.size(2);
  double loss = 0;
  for (int64_t t = 0; t + 1 < T; ++t) {
    const float* row = run.logits.data() + t * V;
    const double top = *std::max_element(row, row + V);
    double sum = 0;
    for (int64_t i = 0; i < V; ++i) sum += std::exp(row[i] - top);
    loss += std::log(sum) + top - row[run.ids[size_t(t + 1)]];
  }
  return loss / double(T - 1);
}

}  // namespace attnlab
