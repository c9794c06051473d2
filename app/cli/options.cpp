#include "app/cli/options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/common/config_flags.hpp"
#include "core/model/errors.hpp"
#include "core/model/preset.hpp"
#include "core/model/tokenizer.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::cli {

namespace {

// Everything given on the command line, before it is merged over the preset.
struct Flags {
  std::string preset;
  ConfigFlags config;
  std::string x, wq, wk, wv, wo, bq, bk, bv, bo;
};

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
  if (!f.config.d_model) {
    if (in.w_o.storage() && in.w_o.dim() == 2)
      c.d_model = in.w_o.size(1);
    else if (in.w_q.storage() && in.w_q.dim() == 2 && !f.config.d_k)
      c.d_model = in.w_q.size(1);
  }
  if (!f.config.d_in && in.w_q.storage() && in.w_q.dim() == 2 && f.x.empty())
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
    apply_config_flags(f.config, r.config, r.inputs);
    if (f.config.sentence) {
      if (std::string notice = sample_text_notice("--sentence", *f.config.sentence);
          !notice.empty())
        r.notices.push_back(std::move(notice));
    }
    load_files(f, r);
  } catch (const UserError& e) {
    std::cerr << "attnlab-cli: " << e.what() << "\n";
    return 2;
  }
  return -1;
}

}  // namespace attnlab::cli
