#include "app/cli/options.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <iostream>
#include <optional>

#include "core/errors.hpp"
#include "core/mistakes.hpp"
#include "core/npy.hpp"
#include "core/preset.hpp"
#include "core/tokenizer.hpp"

namespace attnlab::cli {

namespace {

int64_t parse_count(const std::string& text, const std::string& what) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) {
    throw UserError("--mask: " + what + " \"" + text + "\" is not a whole number >= 0");
  }
  return value;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// Everything given on the command line, before it is merged over the preset.
struct Flags {
  std::string preset;
  std::optional<std::string> sentence;
  std::optional<int64_t> seq_len, batch, d_in, d_model, heads, d_k, d_v;
  std::vector<std::string> masks;
  bool bias = false, no_bias = false;
  bool no_output_proj = false;
  std::optional<double> dropout;
  std::optional<uint64_t> seed, dropout_seed;
  bool shape_only = false;
  std::optional<double> memory_cap_mb;
  std::string mistake;
  std::vector<int64_t> ablate;
  std::string x, wq, wk, wv, wo, bq, bk, bv, bo;
};

template <typename T>
void override_with(const std::optional<T>& flag, T& field) {
  if (flag) field = *flag;
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
  if (!f.d_model) {
    if (in.w_o.storage() && in.w_o.dim() == 2)
      c.d_model = in.w_o.size(1);
    else if (in.w_q.storage() && in.w_q.dim() == 2 && !f.d_k)
      c.d_model = in.w_q.size(1);
  }
  if (!f.d_in && in.w_q.storage() && in.w_q.dim() == 2 && f.x.empty()) c.d_in = in.w_q.size(0);
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

void add_mask(const std::string& text, MaskSpec& mask) {
  const std::vector<std::string> parts = split(text, ':');
  const std::string& kind = parts[0];
  if (kind == "none" && parts.size() == 1) {
    mask = MaskSpec{};
  } else if (kind == "causal" && parts.size() == 1) {
    mask.causal = true;
  } else if (kind == "padding" && parts.size() == 2) {
    mask.padding_lengths.clear();
    for (const std::string& length : split(parts[1], ','))
      mask.padding_lengths.push_back(parse_count(length, "padding length"));
  } else if (kind == "window" && (parts.size() == 2 || parts.size() == 3)) {
    mask.window = parse_count(parts[1], "window width");
    if (mask.window < 1)
      throw UserError("--mask window:" + parts[1] + ": the window must be at least 1");
    mask.global_tokens = parts.size() == 3 ? parse_count(parts[2], "global token count") : 0;
  } else {
    throw UserError("--mask \"" + text +
                    "\" is not a mask: use none, causal, padding:L1,L2,... or window:W[:G]");
  }
}

int parse(int argc, char** argv, Request& r) {
  CLI::App app{
      "attnlab-cli: multi-head attention, step by step. Prints the shape journey and "
      "diagnostics; --export writes every stage as .npy for NumPy/PyTorch."};
  Flags f;
  app.add_option("--preset", f.preset,
                 "Start from a preset in assets/presets (see --list-presets)");
  app.add_flag("--list-presets", r.list_presets, "List the presets and exit");
  app.add_option("--sentence", f.sentence, "Input text; tokens are words and punctuation");
  app.add_option("--seq-len", f.seq_len, "T: number of tokens (the sentence is cut or repeated)");
  app.add_option("--batch", f.batch, "B: number of sequences");
  app.add_option("--d-in", f.d_in, "Embedding width (default: d_model)");
  app.add_option("--d-model", f.d_model, "Model width; the output width with W_o");
  app.add_option("--heads", f.heads, "n_heads");
  app.add_option("--d-k", f.d_k, "Per-head query/key width (default: d_model / n_heads)");
  app.add_option("--d-v", f.d_v, "Per-head value width (default: d_k)");
  app.add_option("--mask", f.masks,
                 "none | causal | padding:L1,L2,... | window:W[:G]; repeat to combine");
  app.add_flag("--bias", f.bias, "Biases on the projections (random unless given)");
  app.add_flag("--no-bias", f.no_bias, "No biases on the projections");
  app.add_flag("--no-output-proj", f.no_output_proj, "No W_o: the output is the concat (seed 003)");
  app.add_option("--dropout", f.dropout, "Dropout probability on the attention weights");
  app.add_option("--seed", f.seed, "Seed of the weight initialisation");
  app.add_option("--dropout-seed", f.dropout_seed, "Seed of the dropout mask");
  app.add_flag("--shape-only", f.shape_only, "Shapes, strides and counters only (no values)");
  app.add_option("--memory-cap-mb", f.memory_cap_mb, "Refuse to compute traces larger than this");
  app.add_option("--mistake", f.mistake, "Inject a classic bug (see --list-mistakes)");
  app.add_flag("--list-mistakes", r.list_mistakes,
               "List the mistakes with their symptoms and exit");
  app.add_option("--ablate", f.ablate, "Switch head H off (its context zeroed); repeat for more");
  app.add_flag("--importance", r.importance, "Print each head's ablation importance");
  app.add_flag("--model-table", r.model_table, "Print the hyperparameter table of real models");
  app.add_flag("--compare-heads", r.compare_heads, "Compare with one head of the same width");
  app.add_flag("--compare-paths", r.compare_paths,
               "Time the per-head loop against the batched path");
  app.add_flag("--code", r.code, "Print the PyTorch forward() of this config (mistake marked)");
  app.add_option("--x", f.x, "X as .npy: (T, d_in) or (B, T, d_in)");
  app.add_option("--wq", f.wq, "W_q as .npy: (d_in, h*d_k)");
  app.add_option("--wk", f.wk, "W_k as .npy: (d_in, h*d_k)");
  app.add_option("--wv", f.wv, "W_v as .npy: (d_in, h*d_v)");
  app.add_option("--wo", f.wo, "W_o as .npy: (h*d_v, d_model)");
  app.add_option("--bq", f.bq, "b_q as .npy: (h*d_k)");
  app.add_option("--bk", f.bk, "b_k as .npy: (h*d_k)");
  app.add_option("--bv", f.bv, "b_v as .npy: (h*d_v)");
  app.add_option("--bo", f.bo, "b_o as .npy: (d_model)");
  app.add_option("--export", r.export_dir, "Write every stage as .npy plus trace.json into DIR");
  app.add_flag("--json", r.json, "Print trace.json instead of the table");
  app.add_option("--show", r.show, "Also print the values of these tensors (e.g. --show out)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "attnlab-cli: " << e.what() << " (see attnlab-cli --help)\n";
    return 2;
  }
  if (r.list_presets || r.list_mistakes || r.model_table) return -1;
  try {
    if (!f.preset.empty()) {
      Preset preset = find_preset(f.preset);
      r.config = preset.config;
      r.inputs = preset.inputs;
      r.warnings = preset.warnings;
    }
    Config& c = r.config;
    if (f.sentence) {
      c.sentence = *f.sentence;
      if (std::string notice = sample_text_notice("--sentence", c.sentence); !notice.empty())
        r.notices.push_back(std::move(notice));
      if (!f.seq_len) c.seq_len = 0;  // T follows the new sentence
      r.inputs.x = Tensor();          // the preset's X belonged to its own tokens
    }
    override_with(f.seq_len, c.seq_len);
    override_with(f.batch, c.batch);
    override_with(f.d_in, c.d_in);
    override_with(f.d_model, c.d_model);
    override_with(f.heads, c.n_heads);
    override_with(f.d_k, c.d_k);
    override_with(f.d_v, c.d_v);
    for (const std::string& mask : f.masks) add_mask(mask, c.mask);
    if (f.bias) c.bias = true;
    if (f.no_bias) c.bias = false;
    if (f.no_output_proj) c.output_proj = false;
    override_with(f.dropout, c.dropout);
    override_with(f.seed, c.seed);
    override_with(f.dropout_seed, c.dropout_seed);
    if (f.shape_only) c.shape_only = true;
    if (f.memory_cap_mb) {
      if (!(*f.memory_cap_mb > 0 && *f.memory_cap_mb < 1e9))
        throw UserError("--memory-cap-mb must be a positive number of MiB");
      c.memory_cap_bytes = static_cast<int64_t>(*f.memory_cap_mb * 1024 * 1024);
    }
    if (f.seed && !f.preset.empty()) {
      // A new seed means new weights: drop the preset's explicit ones.
      r.inputs.w_q = r.inputs.w_k = r.inputs.w_v = r.inputs.w_o = Tensor();
      r.inputs.b_q = r.inputs.b_k = r.inputs.b_v = r.inputs.b_o = Tensor();
    }
    if (!f.mistake.empty() && !parse_mistake(f.mistake, c.mistake)) {
      throw UserError("--mistake " + f.mistake + ": unknown; choose one of " + mistake_names());
    }
    for (int64_t head : f.ablate) {
      if (head < 0 || head >= c.n_heads) {
        throw UserError("--ablate " + std::to_string(head) + ": heads are numbered 0.." +
                        std::to_string(c.n_heads - 1));
      }
      c.ablated_heads.resize(size_t(c.n_heads), false);
      c.ablated_heads[size_t(head)] = true;
    }
    load_files(f, r);
  } catch (const UserError& e) {
    std::cerr << "attnlab-cli: " << e.what() << "\n";
    return 2;
  }
  return -1;
}

}  // namespace attnlab::cli
