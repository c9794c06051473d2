// core/pretrained on tiny random checkpoints in the published layouts: the traced layer equals the
// forward pass's own layer, decoding with a KV cache equals the full pass, a switched-off head is
// the core's ablation, the head finder's scores are the averages they claim, and bad input is
// refused in one line. (The forward pass itself is checked against an independent NumPy reference
// by ctest -R numpy_pretrained.)
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/model/errors.hpp"
#include "core/pretrained/head_finder.hpp"
#include "core/pretrained/layer_trace.hpp"
#include "core/pretrained/model_session.hpp"
#include "core/pretrained/pretrained_forward.hpp"
#include "core/pretrained/pretrained_model.hpp"
#include "core/trace/mha.hpp"
#include "tiny_checkpoints.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;
using fixtures::tiny_checkpoints;

PretrainedModel model(const std::string& name) {
  return load_pretrained((tiny_checkpoints() / name).string());
}

double max_rel_difference(const Tensor& a, const Tensor& b) {
  EXPECT_EQ(a.shape(), b.shape());
  const std::vector<float> x = a.to_vector(), y = b.to_vector();
  double worst = 0, scale = 1;
  for (float v : y) scale = std::max(scale, double(std::abs(v)));
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    worst = std::max(worst, std::abs(double(x[i]) - double(y[i])));
  return worst / scale;
}

const std::vector<int64_t> kIds = {1, 5, 9, 13, 2, 7, 11, 3, 4};

class EachFamily : public ::testing::TestWithParam<const char*> {};

// The core's traced run of layer L (q, k, v projected by run(), RoPE's sub-step, GQA's expand)
// gives the same weights and output as the forward pass's own attention.
TEST_P(EachFamily, TheTracedLayerIsTheForwardPassesLayer) {
  const PretrainedModel m = model(GetParam());
  const PretrainedRun run = run_pretrained(m, kIds);
  for (int64_t l = 0; l < m.spec.n_layers; ++l) {
    const Trace trace = trace_layer(m, run, l, {});
    EXPECT_LT(max_rel_difference(trace.find("weights")->tensor, run.layers[size_t(l)].weights),
              1e-5)
        << GetParam() << " layer " << l;
    EXPECT_LT(max_rel_difference(trace.find("out")->tensor, run.layers[size_t(l)].attn_out), 1e-5)
        << GetParam() << " layer " << l;
  }
}

// The rest of each block hands the next layer its input: block_out (l) is hidden_in (l + 1).
TEST_P(EachFamily, EachBlocksOutputIsTheNextLayersInput) {
  const PretrainedModel m = model(GetParam());
  const PretrainedRun run = run_pretrained(m, kIds);
  for (size_t l = 0; l + 1 < run.layers.size(); ++l)
    EXPECT_EQ(run.layers[l].block_out.to_vector(), run.layers[l + 1].hidden_in.to_vector());
  EXPECT_EQ(run.layers.back().mlp_hidden.size(2), m.spec.d_ff);
}

// A head switched off in the forward pass is the core's ablation of that head.
TEST_P(EachFamily, ASwitchedOffHeadIsTheCoresAblation) {
  const PretrainedModel m = model(GetParam());
  const int64_t layer = m.spec.n_layers - 1, head = 1;
  const PretrainedRun plain = run_pretrained(m, kIds);
  const PretrainedRun off = run_pretrained(m, kIds, {{layer, head}});
  LayerOfModel l = layer_of_model(m, plain, layer);
  l.config.ablated_heads.assign(size_t(m.spec.n_heads), false);
  l.config.ablated_heads[size_t(head)] = true;
  const Trace ablated = run(l.config, l.inputs);
  EXPECT_LT(max_rel_difference(ablated.find("out")->tensor, off.layers[size_t(layer)].attn_out),
            1e-5);
  EXPECT_GT(
      max_rel_difference(off.layers[size_t(layer)].attn_out, plain.layers[size_t(layer)].attn_out),
      1e-3);
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, EachFamily,
                         ::testing::Values("gpt2-f32-tied", "gpt2-f16-prefix-untied",
                                           "llama-gqa-bf16-untied-sharded", "llama3-rope-scaling",
                                           "mistral-head-dim", "qwen2-bias-tied-bf16",
                                           "llama-attention-mlp-bias", "bert-prefix-mlm",
                                           "bert-noprefix-f16", "phi3-f32", "phi3-gqa-bf16-sharded",
                                           "gemma-mqa-f32", "gemma-gqa-bf16"));

class CausalFamily : public ::testing::TestWithParam<const char*> {};

// Each token decoded with the KV cache gives the logits the full pass gives at its position.
TEST_P(CausalFamily, DecodingWithTheCacheIsTheFullPass) {
  const PretrainedModel m = model(GetParam());
  const PretrainedRun full = run_pretrained(m, kIds);
  const int64_t V = m.spec.vocab, T = int64_t(kIds.size()), prompt = 4;
  Generator generator(m);
  std::vector<float> logits = generator.feed({kIds.begin(), kIds.begin() + prompt});
  for (int64_t t = prompt - 1; t < T; ++t) {
    Tensor row = Tensor::empty("row", {V}), want = Tensor::empty("want", {V});
    std::copy(logits.begin(), logits.end(), row.data());
    std::copy(full.logits.data() + t * V, full.logits.data() + (t + 1) * V, want.data());
    EXPECT_LT(max_rel_difference(row, want), 1e-5) << GetParam() << " position " << t;
    if (t + 1 < T) logits = generator.feed({kIds[size_t(t + 1)]});
  }
  EXPECT_EQ(generator.position(), T);
  // Every layer keeps T keys and T values of n_kv * d_head floats.
  EXPECT_EQ(generator.cache_bytes(),
            m.spec.n_layers * T * 2 * m.spec.n_kv_heads * m.spec.d_head * 4);
}

// Greedy decoding picks what the full pass on the grown sentence ranks first, with its
// probability, from a cache of every earlier position.
TEST_P(CausalFamily, GreedyGenerationIsTheFullPassesArgmax) {
  const PretrainedModel m = model(GetParam());
  std::vector<int64_t> ids(kIds.begin(), kIds.begin() + 5);
  const std::vector<GeneratedToken> generated = generate_greedy(m, ids, 4);
  ASSERT_EQ(generated.size(), 4u);
  for (const GeneratedToken& g : generated) {
    const PretrainedRun full = run_pretrained(m, ids);
    const std::vector<double> p = next_token_probabilities(full, int64_t(ids.size()) - 1);
    const int64_t best = std::max_element(p.begin(), p.end()) - p.begin();
    EXPECT_EQ(g.id, best) << GetParam() << " position " << g.position;
    EXPECT_NEAR(g.probability, p[size_t(best)], 1e-5);
    EXPECT_EQ(g.position, int64_t(ids.size()));
    EXPECT_EQ(g.cache_bytes,
              m.spec.n_layers * g.position * 2 * m.spec.n_kv_heads * m.spec.d_head * 4);
    ids.push_back(g.id);
  }
}

// The app runs both passes as jobs: each stops when its cancel flag is set (after a layer, after a
// token) and reports its progress, rising to the end.
TEST_P(CausalFamily, TheForwardAndGenerationStopWhenCancelledAndReportProgress) {
  const PretrainedModel m = model(GetParam());
  const std::vector<int64_t> ids(kIds.begin(), kIds.begin() + 5);
  std::atomic<bool> cancel{true};
  RunControl stopped;
  stopped.cancel = &cancel;
  EXPECT_THROW(run_pretrained(m, ids, {}, true, stopped), Cancelled) << GetParam();
  EXPECT_THROW(generate_greedy(m, ids, 4, {}, stopped), Cancelled) << GetParam();
  std::vector<double> seen;
  RunControl followed;
  followed.progress = [&seen](double fraction) { seen.push_back(fraction); };
  const PretrainedRun run = run_pretrained(m, ids, {}, true, followed);
  ASSERT_EQ(seen.size(), size_t(m.spec.n_layers)) << GetParam();
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_GT(seen.front(), 0.0);
  EXPECT_LT(seen.back(), 1.0);
  // The same numbers as without a control.
  EXPECT_EQ(run.logits.to_vector(), run_pretrained(m, ids).logits.to_vector()) << GetParam();
  seen.clear();
  EXPECT_EQ(generate_greedy(m, ids, 4, {}, followed).size(), 4u);
  EXPECT_EQ(seen, (std::vector<double>{0.25, 0.5, 0.75})) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, CausalFamily,
                         ::testing::Values("gpt2-f32-tied", "llama-gqa-bf16-untied-sharded",
                                           "llama3-rope-scaling", "qwen2-bias-tied-bf16",
                                           "phi3-gqa-bf16-sharded", "gemma-mqa-f32",
                                           "gemma-gqa-bf16"));

// The rows' own choices reach the loaded model: Phi-3's fused projections are one tensor each
// ((h + 2 n_kv) d_head and 2 d_ff rows, nn.Linear's (out, in)), the traced layer shows q | k | v
// as column blocks of one product; Gemma's head is its token embedding, its norms scale by 1 + w
// and its embeddings by sqrt(d) rounded to bfloat16 (sqrt(40) = 6.3246 -> 6.3125).
TEST(Rows, FusedPhi3AndScaledGemmaLoadAsTheirRowsSay) {
  const PretrainedModel phi = model("phi3-gqa-bf16-sharded");
  const ModelSpec& p = phi.spec;
  EXPECT_EQ(p.arch->name, "Phi-3");
  const Block& b = phi.blocks[0];
  EXPECT_FALSE(b.q.w.has_values());
  EXPECT_EQ(b.qkv.w.shape(), (Shape{(p.n_heads + 2 * p.n_kv_heads) * p.d_head, p.d_model}));
  EXPECT_EQ(b.gate_up.w.shape(), (Shape{2 * p.d_ff, p.d_model}));
  EXPECT_FALSE(phi.head.shares_storage_with(phi.token_embedding));
  const PretrainedRun run = run_pretrained(phi, kIds);
  EXPECT_TRUE(layer_of_model(phi, run, 0).config.fused_qkv);

  const PretrainedModel gemma = model("gemma-gqa-bf16");
  const ModelSpec& g = gemma.spec;
  EXPECT_EQ(g.d_head, 12);
  EXPECT_NE(g.n_heads * g.d_head, g.d_model);
  EXPECT_EQ(g.act, Activation::GeluTanh) << "hidden_activation, not hidden_act \"gelu\"";
  EXPECT_EQ(gemma.embedding_scale, 6.3125f);
  EXPECT_EQ(model("gemma-mqa-f32").embedding_scale, std::sqrt(32.0f));
  EXPECT_TRUE(gemma.head.shares_storage_with(gemma.token_embedding));
  EXPECT_EQ(gemma.blocks[0].attn_norm.kind, NormKind::RmsNormOnePlusWeight);
  // The first layer reads (1 + w) * x / rms(x) of the scaled embeddings.
  const PretrainedRun r = run_pretrained(gemma, {5});
  const std::vector<float> x = r.layers[0].attn_input.to_vector();
  const Tensor& e = gemma.token_embedding;
  const Tensor& w = gemma.blocks[0].attn_norm.weight;
  double square = 0;
  for (int64_t i = 0; i < g.d_model; ++i) square += std::pow(6.3125 * e.at({5, i}), 2);
  const double rms = std::sqrt(square / double(g.d_model) + g.norm_eps);
  for (int64_t i = 0; i < g.d_model; ++i)
    EXPECT_NEAR(x[size_t(i)], 6.3125 * e.at({5, i}) / rms * (1 + w.at({i})), 1e-5) << i;
}

// An all-F32 checkpoint is read once and its weights used in place (views of that read); other
// dtypes are decoded tensor by tensor. The traced layer's weights are copies of their own either
// way, so a trace never holds a whole file.
TEST(InPlace, F32WeightsAreViewsOfOneReadAndTheTraceCopiesThem) {
  const PretrainedModel m = model("gpt2-f32-tied");
  EXPECT_TRUE(m.token_embedding.shares_storage_with(m.blocks[0].qkv.w));
  EXPECT_EQ(m.token_embedding.storage()->name, "model.safetensors");
  const PretrainedModel half = model("gpt2-f16-prefix-untied");
  EXPECT_FALSE(half.token_embedding.shares_storage_with(half.blocks[0].qkv.w));
  const PretrainedRun run = run_pretrained(m, kIds);
  const LayerOfModel l = layer_of_model(m, run, 0);
  for (const Tensor* t : {&l.inputs.w_q, &l.inputs.b_q, &l.inputs.w_o, &l.inputs.b_o}) {
    EXPECT_FALSE(t->shares_storage_with(m.token_embedding));
    EXPECT_EQ(t->storage()->numel, t->numel());
  }
}

TEST(Generator, BertDoesNotGenerate) {
  const PretrainedModel m = model("bert-prefix-mlm");
  EXPECT_THROW(Generator{m}, UserError);
}

// The head finder's scores, averaged here by hand from the weights it read.
TEST(HeadFinder, ScoresAreTheAveragesTheyClaim) {
  const PretrainedModel m = model("gpt2-f32-tied");
  const PretrainedRun run = run_pretrained(m, kIds);
  const std::vector<FoundHead> found = find_heads(m, run, 6, 3);
  ASSERT_EQ(int64_t(found.size()), m.spec.n_layers * m.spec.n_heads);
  const std::vector<int64_t> seq = induction_sequence(m.spec.vocab, 6, 3);
  ASSERT_EQ(seq.size(), 12u);
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(seq[i], seq[i + 6]);
  const PretrainedRun repeated = run_pretrained(m, seq);
  const int64_t T = int64_t(kIds.size());
  for (const FoundHead& f : found) {
    const Tensor& w = run.layers[size_t(f.layer)].weights;
    double previous = 0, first = 0, same = 0;
    for (int64_t t = 0; t < T; ++t) {
      same += w.at({0, f.head, t, t});
      if (t == 0) continue;
      previous += w.at({0, f.head, t, t - 1});
      first += w.at({0, f.head, t, 0});
    }
    EXPECT_NEAR(f.previous, previous / double(T - 1), 1e-6);
    EXPECT_NEAR(f.first, first / double(T - 1), 1e-6);
    EXPECT_NEAR(f.same, same / double(T), 1e-6);
    // Induction: token 6 + i looks at key i + 1, the token after its earlier copy.
    double induction = 0;
    for (int64_t i = 0; i < 6; ++i)
      induction += repeated.layers[size_t(f.layer)].weights.at({0, f.head, 6 + i, i + 1});
    EXPECT_NEAR(f.induction, induction / 6, 1e-6);
    EXPECT_GE(f.entropy, 0);
    EXPECT_LE(f.entropy, std::log2(double(T)) + 1e-9);
  }
}

TEST(RopeFrequencies, PlainAndLinearScaling) {
  ModelSpec s;
  s.d_head = 8;
  s.rope_theta = 10000;
  const std::vector<float> plain = rope_frequencies(s);
  const std::vector<float> want = {1.0f, 0.1f, 0.01f, 0.001f};  // 10000^(-2i/8)
  ASSERT_EQ(plain.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(plain[i], want[i], 1e-6 * want[i]);
  s.rope_scaling.type = "linear";
  s.rope_scaling.factor = 4;
  const std::vector<float> linear = rope_frequencies(s);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(linear[i], want[i] / 4, 1e-6 * want[i]);
}

TEST(Refusals, OneLineNamingWhatIsWrong) {
  const PretrainedModel m = model("gpt2-f32-tied");
  const auto message = [](const auto& work) {
    try {
      work();
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(message([&] {
              run_pretrained(m, {1, 2, m.spec.vocab});
            }).find("token id " + std::to_string(m.spec.vocab) + " is outside the vocabulary"),
            std::string::npos);
  EXPECT_NE(message([&] { run_pretrained(m, {}); }).find("no tokens"), std::string::npos);
  const std::vector<int64_t> too_long(size_t(m.spec.max_positions + 1), 1);
  EXPECT_NE(message([&] { run_pretrained(m, too_long); }).find("learned"), std::string::npos);
  const PretrainedRun run = run_pretrained(m, kIds);
  EXPECT_NE(message([&] { layer_of_model(m, run, m.spec.n_layers); }).find("choose 0 to 1"),
            std::string::npos);
  EXPECT_NE(message([] { parse_token_ids("1, two,3"); }).find("\"two\" is not a token id"),
            std::string::npos);
  EXPECT_NE(message([] { parse_token_ids("-4"); }).find("\"-4\""), std::string::npos);
  EXPECT_EQ(parse_token_ids(" 464, 3797,3332 "), (std::vector<int64_t>{464, 3797, 3332}));
  EXPECT_TRUE(is_pretrained_folder((tiny_checkpoints() / "gpt2-f32-tied").string()));
  const fs::path trained = tiny_checkpoints() / "trained";  // attnlab-cli train writes model.json
  fs::create_directories(trained);
  std::ofstream(trained / "model.json") << "{}";
  EXPECT_FALSE(is_pretrained_folder(trained.string()));
}

// Without tokenizer files, a sentence is refused with the reason and the way round it; ids work,
// shown as #id.
TEST(Session, WithoutATokenizerIdsStillWork) {
  const ModelSession s =
      open_model_session((tiny_checkpoints() / "llama-gqa-bf16-untied-sharded").string());
  EXPECT_EQ(s.tokenizer, nullptr);
  EXPECT_NE(s.tokenizer_error.find("tokenizer.json"), std::string::npos);
  try {
    tokens_of_sentence(s, "the cat");
    ADD_FAILURE() << "a sentence without a tokenizer was accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("--tokens"), std::string::npos);
  }
  const ModelTokens t = tokens_of_ids(s, {3, 4});
  EXPECT_EQ(t.pieces, (std::vector<std::string>{"#3", "#4"}));
}

}  // namespace
}  // namespace attnlab
