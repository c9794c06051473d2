#include "app/cli/options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>

#include "app/cli/parse_arguments.hpp"
#include "app/cli/real_model.hpp"
#include "app/common/config_flags.hpp"
#include "core/checkpoints/architectures.hpp"
#include "core/model/errors.hpp"
#include "core/model/preset.hpp"
#include "core/model/tokenizer.hpp"
#include "core/pretrained/layer_trace.hpp"
#include "core/tensor/npy.hpp"
#include "core/training/to_trace.hpp"

namespace attnlab::cli {

namespace {

// Everything given on the command line, before it is merged over the preset.
struct Flags {
  std::string preset;
  ConfigFlags config;
  std::string x, wq, wk, wv, wo, bq, bk, bv, bo;
  std::string x_kv;   // --x-kv FILE: cross-attention's key/value side
  std::string model;  // --model DIR: a Hugging Face folder, or a model saved by attnlab-cli train
  std::optional<std::string> tokens;  // --tokens IDS: a Hugging Face model's token ids
  int64_t layer = 0;                  // --layer L
  std::optional<std::string> flash;   // --flash BR:BC
};

// A model sets the sizes, X and the weights, so the flags that would set them are refused; a
// Hugging Face model takes a sentence (its own tokenizer), a trained model does not.
void refuse_flags_a_model_sets(const Flags& f, bool takes_sentence) {
  const std::vector<std::pair<bool, const char*>> conflicts{
      {!f.preset.empty(), "--preset"},
      {!f.x.empty(), "--x"},
      {!f.x_kv.empty() || f.config.given("sentence_kv"), "--x-kv/--sentence-kv"},
      {f.config.given("n_kv_heads") || f.config.given("kv_latent") || f.config.mla.has_value(),
       "--kv-heads/--mla"},
      {!f.wq.empty(), "--wq"},
      {!f.wk.empty(), "--wk"},
      {!f.wv.empty(), "--wv"},
      {!f.wo.empty(), "--wo"},
      {!f.bq.empty() || !f.bk.empty() || !f.bv.empty() || !f.bo.empty(), "--bq/--bk/--bv/--bo"},
      {f.config.given("sentence") && !takes_sentence, "--sentence"},
      {f.config.given("seq_len"), "--seq-len"},
      {f.config.given("d_in"), "--d-in"},
      {f.config.given("d_model"), "--d-model"},
      {f.config.given("n_heads"), "--heads"},
      {f.config.given("d_k"), "--d-k"},
      {f.config.given("d_v"), "--d-v"},
      {f.config.given("bias"), "--bias/--no-bias"},
      {f.config.given("output_proj"), "--output-proj/--no-output-proj"},
      {f.config.given("seed"), "--seed"},
  };
  for (const auto& [given, flag] : conflicts) {
    if (given) {
      throw UserError(std::string("--model ") + f.model +
                      " sets the sizes, X and the weights: " + "drop " + flag);
    }
  }
}

// --model DIR: the saved model's first layer on a batch of its task.
void load_trained_model(const Flags& f, Request& r) {
  refuse_flags_a_model_sets(f, false);
  if (f.tokens) throw UserError("--tokens is for a Hugging Face model folder: drop it");
  const training::SavedModel model = training::load_model(f.model);
  const int64_t batch = f.config.value("batch").count.value_or(1);
  training::TraceOfModel trace = training::first_layer_trace(model, batch);
  Config& c = r.config;
  // What the model fixes; masks, dropout, mistakes and ablation stay as the flags set them.
  c.sentence = trace.config.sentence;
  c.batch = trace.config.batch;
  c.seq_len = trace.config.seq_len;
  c.d_in = 0;
  c.d_model = trace.config.d_model;
  c.n_heads = trace.config.n_heads;
  c.d_k = trace.config.d_k;
  c.d_v = trace.config.d_v;
  c.bias = trace.config.bias;
  if (trace.config.rotary()) c.rope_theta = trace.config.rope_theta;  // a --pos rope model
  if (trace.config.alibi()) c.pos = trace.config.pos;                 // a --pos alibi model
  c.output_proj = true;
  c.ablated_heads = ablated_heads_for(f.config.value("ablated_heads").heads, c.n_heads);
  c.mask.causal = c.mask.causal || trace.config.mask.causal;
  c.seed = trace.config.seed;
  r.inputs = trace.inputs;
}

// --model DIR on a Hugging Face folder: the whole forward pass on the sentence (or --tokens), and
// layer --layer as the traced run. Masks and K/V heads come from the model; mistakes, dropout,
// ablation and decoding stay as the flags set them.
void load_real_model(const Flags& f, Request& r) {
  refuse_flags_a_model_sets(f, true);
  if (f.config.value("batch").count.value_or(1) != 1)
    throw UserError("--model " + f.model + " runs one sentence: drop --batch");
  if (f.config.given("mask"))
    throw UserError("--model " + f.model + " sets the mask (causal or none): drop --mask");
  auto m = std::make_shared<RealModel>();
  m->session = open_model_session(f.model);
  const ModelSpec& spec = m->session.model.spec;
  if (f.layer < 0 || f.layer >= spec.n_layers)
    throw UserError("--layer " + std::to_string(f.layer) + ": the model has layers 0 to " +
                    std::to_string(spec.n_layers - 1));
  m->layer = f.layer;
  const std::optional<std::string>& sentence = f.config.value("sentence").text;
  if (f.tokens && sentence)
    throw UserError("--tokens and --sentence both give the tokens: give one");
  m->tokens = f.tokens ? tokens_of_ids(m->session, parse_token_ids(*f.tokens))
                       : tokens_of_sentence(m->session, sentence.value_or(default_sentence(spec)));
  const std::vector<bool> off =
      ablated_heads_for(f.config.value("ablated_heads").heads, spec.n_heads);
  for (size_t h = 0; h < off.size(); ++h)
    if (off[h]) m->off.push_back({f.layer, int64_t(h)});
  m->forward = run_pretrained(m->session.model, m->tokens.ids, m->off);
  LayerOfModel layer = layer_of_model(m->session.model, m->forward, f.layer);
  Config& c = r.config;
  layer.config.mistake = c.mistake;
  layer.config.dropout = c.dropout;
  layer.config.dropout_seed = c.dropout_seed;
  layer.config.ablated_heads = off;
  layer.config.decode_steps = c.decode_steps;
  layer.config.memory_cap_bytes = c.memory_cap_bytes;
  layer.config.shape_only = c.shape_only;
  c = layer.config;
  r.inputs = layer.inputs;
  r.inputs.labels.tokens = m->tokens.pieces;
  r.real_model = std::move(m);
}

Tensor load_if_given(const std::string& path, const std::string& flag, const std::string& name) {
  if (path.empty()) return Tensor();
  try {
    return load_npy(path, name);
  } catch (const UserError& e) {
    throw UserError(flag + ": " + e.what());
  }
}

void load_files(const Flags& f, Request& r) {
  Inputs& in = r.inputs;
  Config& c = r.config;
  if (!f.x.empty()) {
    Tensor x = load_if_given(f.x, "--x", "x");
    if (x.dim() == 2) x = x.view({1, x.size(0), x.size(1)});
    if (x.dim() != 3 || x.numel() == 0) {
      throw UserError("--x " + f.x + ": X must be (T, d_in) or (B, T, d_in), not " +
                      shape_to_string(x.shape()));
    }
    c.batch = x.size(0);
    c.seq_len = x.size(1);
    c.d_in = x.size(2);
    in.x = x;
  }
  if (!f.x_kv.empty()) {
    Tensor x_kv = load_if_given(f.x_kv, "--x-kv", "x_kv");
    if (x_kv.dim() == 2) x_kv = x_kv.view({1, x_kv.size(0), x_kv.size(1)});
    if (x_kv.dim() != 3 || x_kv.numel() == 0) {
      throw UserError("--x-kv " + f.x_kv +
                      ": X_kv must be (T_k, d_in_kv) or (B, T_k, d_in_kv), not " +
                      shape_to_string(x_kv.shape()));
    }
    if (f.config.given("sentence_kv"))
      throw UserError("--x-kv and --sentence-kv both set the key/value side: give one");
    c.sentence_kv.clear();
    c.kv_len = x_kv.size(1);
    c.d_in_kv = x_kv.size(2);
    in.x_kv = x_kv;
  }
  auto weights = [&](const std::string& path, const std::string& flag, const std::string& name,
                     Tensor& slot) {
    if (path.empty()) return;
    slot = load_if_given(path, flag, name);
  };
  weights(f.wq, "--wq", "w_q", in.w_q);
  weights(f.wk, "--wk", "w_k", in.w_k);
  weights(f.wv, "--wv", "w_v", in.w_v);
  weights(f.wo, "--wo", "w_o", in.w_o);
  weights(f.bq, "--bq", "b_q", in.b_q);
  weights(f.bk, "--bk", "b_k", in.b_k);
  weights(f.bv, "--bv", "b_v", in.b_v);
  weights(f.bo, "--bo", "b_o", in.b_o);
  // The widths follow from the weight files unless given: d_model from W_o's columns (or W_q's).
  if (!f.config.given("d_model")) {
    if (in.w_o.storage() && in.w_o.dim() == 2)
      c.d_model = in.w_o.size(1);
    else if (in.w_q.storage() && in.w_q.dim() == 2 && !f.config.given("d_k"))
      c.d_model = in.w_q.size(1);
  }
  if (!f.config.given("d_in") && in.w_q.storage() && in.w_q.dim() == 2 && f.x.empty())
    c.d_in = in.w_q.size(0);
  const bool any_bias = !f.bq.empty() || !f.bk.empty() || !f.bv.empty() || !f.bo.empty();
  if (any_bias) {
    const bool all =
        !f.bq.empty() && !f.bk.empty() && !f.bv.empty() && (!f.bo.empty() || !c.output_proj);
    if (!all) {
      throw UserError("biases come together: give --bq, --bk and --bv" +
                      std::string(c.output_proj ? " and --bo" : "") +
                      " (or none of them and --bias for random ones)");
    }
    c.bias = true;
  }
}

}  // namespace

int parse(int argc, char** argv, Request& r) {
  CLI::App app{
      "attnlab-cli: multi-head attention, step by step. Prints the shape journey and "
      "diagnostics; --export writes every stage as .npy for NumPy/PyTorch."};
  Flags f;
  app.add_option("--preset", f.preset,
                 "Start from a preset in assets/presets (see --list-presets)");
  app.add_flag("--list-presets", r.list_presets, "List the presets and exit");
  add_config_flags(app, f.config);
  app.add_flag("--list-mistakes", r.list_mistakes,
               "List the mistakes with their symptoms and exit");
  app.add_flag("--importance", r.importance, "Print each head's ablation importance");
  app.add_flag("--model-table", r.model_table, "Print the hyperparameter table of real models");
  app.add_flag("--compare-heads", r.compare_heads, "Compare with one head of the same width");
  app.add_flag("--compare-paths", r.compare_paths,
               "Time the per-head loop against the batched path");
  app.add_option("--shuffle", r.shuffle,
                 "Word order: run the sentence with its tokens shuffled by SEED and compare each "
                 "head's map with the original's, permuted (equal with --pos none, no mask)");
  app.add_flag("--code", r.code, "Print the PyTorch forward() of this config (mistake marked)");
  app.add_option("--x", f.x, "X as .npy: (T, d_in) or (B, T, d_in)");
  app.add_option(
      "--x-kv", f.x_kv,
      "Cross-attention: the key/value side as .npy: (T_k, d_in_kv) or (B, T_k, d_in_kv)");
  app.add_option("--wq", f.wq, "W_q as .npy: (d_in, h*d_k)");
  app.add_option("--wk", f.wk, "W_k as .npy: (d_in, n_kv*d_k)");
  app.add_option("--wv", f.wv, "W_v as .npy: (d_in, n_kv*d_v)");
  app.add_option("--wo", f.wo, "W_o as .npy: (h*d_v, d_model)");
  app.add_option("--bq", f.bq, "b_q as .npy: (h*d_k)");
  app.add_option("--bk", f.bk, "b_k as .npy: (n_kv*d_k)");
  app.add_option("--bv", f.bv, "b_v as .npy: (n_kv*d_v)");
  app.add_option("--bo", f.bo, "b_o as .npy: (d_model)");
  app.add_option(
      "--model", f.model,
      "A Hugging Face model folder (" + known_model_types() +
          ": config.json, model.safetensors and the tokenizer's files): trace layer --layer on "
          "the sentence; or a folder written by attnlab-cli train: its first layer on a batch "
          "of its task (--batch sequences, default 1)");
  app.add_option("--tokens", f.tokens,
                 "With a Hugging Face model: the token ids, comma-separated, instead of "
                 "--sentence");
  app.add_option("--layer", f.layer, "With a Hugging Face model: the layer traced (from 0)");
  app.add_flag("--heads-report", r.heads_report,
               "With a Hugging Face model: the head finder's table (previous, first, same "
               "token, entropy, induction) for every head of every layer");
  app.add_option("--sort", r.heads_sort, "--heads-report's order")
      ->check(CLI::IsMember({"previous", "first", "same", "entropy", "induction"}));
  app.add_flag("--next-token", r.next_token,
               "With a Hugging Face model: the 10 likeliest next tokens (BERT: each [MASK]'s)");
  app.add_option("--temperature", r.temperature, "--next-token's temperature")
      ->check(CLI::PositiveNumber);
  app.add_option("--generate", r.generate,
                 "With a causal Hugging Face model: decode N more tokens (the likeliest each "
                 "time), each computed once with a KV cache")
      ->check(CLI::Range(int64_t{1}, int64_t{4096}));
  app.add_option("--flash", f.flash,
                 "FlashAttention's tiled kernel with tiles of BR query rows by BC keys (e.g. "
                 "64:64) instead of the trace: prints the tiles computed and skipped, FLOPs and "
                 "memory against the ordinary path; runs where the trace is refused by the memory "
                 "cap; --export writes out, and for T <= 256 flash_m and flash_l per step");
  app.add_option("--export", r.export_dir, "Write every stage as .npy plus trace.json into DIR");
  app.add_flag("--json", r.json, "Print trace.json instead of the table");
  app.add_option("--show", r.show, "Also print the values of these tensors (e.g. --show out)");
  if (const int stop = parse_arguments(app, argc, argv, "attnlab-cli"); stop >= 0) return stop;
  if (r.list_presets || r.list_mistakes || r.model_table) return -1;
  try {
    if (!f.preset.empty()) {
      Preset preset = find_preset(f.preset);
      r.config = preset.config;
      r.inputs = preset.inputs;
      r.warnings = preset.warnings;
    }
    if (f.flash) {
      try {
        r.flash_tiles = parse_tile_sizes(*f.flash);
      } catch (const UserError& e) {
        throw UserError("--flash " + *f.flash + ": " + e.what());
      }
      r.flash = true;
    }
    // A model's heads are known once it is read: --ablate is checked against them there.
    apply_config_flags(f.model.empty() ? f.config : f.config.without("ablated_heads"), r.config,
                       r.inputs);
    if (const std::optional<std::string>& sentence = f.config.value("sentence").text) {
      if (std::string notice = sample_text_notice("--sentence", *sentence); !notice.empty())
        r.notices.push_back(std::move(notice));
    }
    if (f.model.empty()) {
      if (f.tokens || f.layer != 0 || r.heads_report || r.next_token || r.generate)
        throw UserError(
            "--tokens, --layer, --heads-report, --next-token and --generate need --model DIR");
      load_files(f, r);
    } else if (r.shuffle) {
      throw UserError(
          "--shuffle reorders the toy pipeline's sentence: drop --model, or drop "
          "--shuffle");
    } else if (is_pretrained_folder(f.model)) {
      load_real_model(f, r);
    } else {
      load_trained_model(f, r);
    }
  } catch (const UserError& e) {
    std::cerr << "attnlab-cli: " << e.what() << "\n";
    return 2;
  }
  return -1;
}

}  // namespace attnlab::cli
