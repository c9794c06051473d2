#include "tests/fuzz/fuzz_inputs.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "core/checkpoints/model_config.hpp"
#include "core/checkpoints/safetensors.hpp"
#include "core/exercise/answer.hpp"
#include "core/model/config.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/model/preset.hpp"
#include "core/tensor/npy.hpp"
#include "core/tensor/zip_store.hpp"
#include "core/trace/export.hpp"
#include "core/trace/mha.hpp"
#include "tests/spine/every_path.hpp"

namespace attnlab::fuzz {
namespace {

// Runs above this are skipped: the fuzzer must stay fast and within its memory limit.
constexpr int64_t kMaxRunBytes = int64_t{8} << 20;
// A refusal is one line for a person to read, not a copy of the file.
constexpr size_t kMaxMessageChars = 2000;

void require(bool holds, const std::string& promise) {
  if (!holds) throw BrokenPromise(promise);
}

void check_refusal(const UserError& error, const std::string& source) {
  const std::string message = error.what();
  require(message.size() > source.size() + 2, source + " refused without saying why");
  require(message.size() <= kMaxMessageChars,
          source + " refused with a " + std::to_string(message.size()) + "-character message");
}

// The readers of model folders also promise one line: a message is printed as one stderr line.
void check_one_line_refusal(const UserError& error, const std::string& source) {
  check_refusal(error, source);
  require(std::string(error.what()).find('\n') == std::string::npos,
          source + " refused with a message of more than one line");
}

// Every trace holds at least its weight matrices (W_q or MLA's query up-projection; K/V's for its
// K/V heads from the key/value side's width, or MLA's down-projection to the latent; W_o) and the
// scores, scaled scores and weights, each (B, h, T, T_k), all float32: a lower bound, computed in
// floating point, that trace_bytes_needed must reach (an int64 overflow, or a tensor left out,
// breaks it). A size past int64 may saturate.
void check_bytes_needed(const Config& config) {
  const double h = config.n_heads, kv = config.kv_heads();
  const double d_k = config.head_dim_k(), d_v = config.head_dim_v();
  const double T = config.tokens(), T_k = config.key_tokens();
  const double queries =
      double(config.q_latent > 0 ? config.q_latent : config.input_dim()) * h * d_k;
  const double keys_values = config.latent() ? double(config.input_dim()) * double(config.kv_latent)
                                             : double(config.kv_input_dim()) * kv * (d_k + d_v);
  const double weights =
      queries + keys_values + (config.output_proj ? h * d_v * double(config.d_model) : 0);
  const double maps = 3 * double(config.batch) * h * T * T_k;
  const double at_least = (weights + maps) * sizeof(float);
  const int64_t needed = trace_bytes_needed(config);
  require(needed == std::numeric_limits<int64_t>::max() || static_cast<double>(needed) >= at_least,
          "trace_bytes_needed (" + std::to_string(needed) +
              ") is below the weights and attention maps alone (" + std::to_string(at_least) +
              " bytes)");
}

void check_trace(const Trace& trace) {
  require(!trace.records.empty(), "run() returned a trace without records");
  if (trace.shape_only) return;
  const Diagnostics& d = trace.diagnostics;
  require(d.masked_nonzero == 0, "masked attention weights are not exactly 0");
  // Preset values are finite, but large ones may overflow float32 in the products: the
  // diagnostics must then name the tensor, never stay silent.
  require(d.nonfinite_values == 0 || !d.first_nonfinite.empty(),
          "non-finite values reported without naming the tensor");
}

// Inputs whose values stay within this keep float32 rounding small enough for the two MHA paths to
// agree closely; huge values can legitimately flip saturated softmax rows.
constexpr float kModerateInput = 10;
constexpr double kPathTolerance = 1e-3;

bool moderate(const Tensor& tensor) {
  if (!tensor.has_values()) return true;
  for (float value : tensor.to_vector()) {
    if (!(std::fabs(value) <= kModerateInput)) return false;
  }
  return true;
}

// Every attention path must give run()'s out (tests/spine/every_path.hpp, the check the crossing
// test makes on its table): forward() and the per-head loop for MHA, GQA and cross-attention (with
// ablation), FlashAttention's tiles without dropout, MLA's absorbed form, decoding one token at a
// time (the config's own steps, or two tried where validate() allows them) against the full run's
// rows; and a path that cannot compute the config (a mistake, MLA, dropout) refuses it in one line.
void check_paths_agree(const Config& config, const Inputs& inputs) {
  for (const InputTensor& given : kInputTensors) {
    if (!moderate(inputs.*given.member)) return;
  }
  spine::PathOptions options;
  options.tiles = {1 + config.tokens() % 3, 1 + config.key_tokens() % 4};
  options.tolerance = kPathTolerance;
  options.decode_steps = 2;
  const spine::PathReport report = spine::check_every_path(config, inputs, options);
  require(report.failures.empty(),
          report.failures.empty() ? "" : "paths disagree: " + report.failures.front());
}

bool same_entries(const std::map<std::string, SafetensorsEntry>& a,
                  const std::map<std::string, SafetensorsEntry>& b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
    if (i->first != j->first || i->second.dtype != j->second.dtype ||
        i->second.shape != j->second.shape || i->second.begin != j->second.begin ||
        i->second.end != j->second.end)
      return false;
  return true;
}

// The file reader on `bytes`: its entries, or its refusal's message.
std::string open_as_file(const std::string& bytes, std::map<std::string, SafetensorsEntry>& out) {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("attnlab_fuzz_" + std::to_string(getpid()) + ".safetensors"))
                                      .string();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  try {
    const SafetensorsFile file(path);
    for (const std::string& name : file.names()) out[name] = file.entry(name);
    return "";
  } catch (const UserError& e) {
    return e.what();
  }
}

}  // namespace

void exercise_safetensors(const std::string& bytes) {
  const std::string source = "fuzz.safetensors";
  SafetensorsHeader header;
  std::string refusal;
  try {
    header = parse_safetensors_header(bytes, bytes.size(), source);
  } catch (const UserError& e) {
    check_one_line_refusal(e, source);
    refusal = e.what();
  }
  std::map<std::string, SafetensorsEntry> from_file;
  const std::string file_refusal = open_as_file(bytes, from_file);
  require(refusal.empty() == file_refusal.empty(),
          "the bytes and the file reader disagree on whether the file opens");
  if (!refusal.empty()) return;
  require(same_entries(header.entries, from_file),
          "the bytes and the file reader read "
          "different entries");
  require(header.data_start >= 8 && header.data_start <= bytes.size(),
          "the data starts outside the file");
  const uint64_t data_bytes = bytes.size() - header.data_start;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const auto& [name, e] : header.entries) {
    require(e.begin <= e.end && e.end <= data_bytes, "an accepted tensor's bytes are outside");
    ranges.emplace_back(e.begin, e.end);
    Tensor tensor;
    try {
      tensor = decode_safetensors_tensor(
          source, name, e,
          bytes.substr(size_t(header.data_start + e.begin), size_t(e.end - e.begin)));
    } catch (const UserError& error) {
      check_one_line_refusal(error, source);
      continue;
    }
    require(tensor.shape() == e.shape, "a decoded tensor lost its shape");
    for (float value : tensor.to_vector())
      require(std::isfinite(value), "a decoded tensor holds NaN or Inf");
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i)
    require(ranges[i].first >= ranges[i - 1].second, "two accepted tensors overlap");
}

void exercise_model_config(const std::string& text) {
  const std::string source = "fuzz/config.json";
  ModelSpec m;
  try {
    m = parse_model_config(text, source);
  } catch (const UserError& e) {
    check_one_line_refusal(e, source);
    return;
  }
  constexpr int64_t kMax = int64_t{1} << 30;
  for (const int64_t size :
       {m.vocab, m.d_model, m.n_layers, m.n_heads, m.n_kv_heads, m.d_head, m.max_positions})
    require(size > 0 && size <= kMax, "an accepted size is not in 1 .. 2^30");
  require(m.d_ff > 0 && m.d_ff <= 4 * kMax, "an accepted MLP width is not positive or is huge");
  require(m.n_heads % m.n_kv_heads == 0, "K/V heads that do not divide the heads were accepted");
  require(m.arch != nullptr, "a config was accepted without a row of the architecture table");
  require(m.arch->keys.type_vocab.empty() || m.type_vocab > 0, "BERT without token types");
  require(m.norm_eps > 0 && m.rope_theta > 0, "a non-positive epsilon or theta was accepted");
  Activation act;
  require(activation_named(m.activation, act) && act == m.act &&
              std::find(m.arch->keys.activations.begin(), m.arch->keys.activations.end(),
                        m.activation) != m.arch->keys.activations.end(),
          "an activation the forward does not compute was accepted");
  require(m.rope_scaling.type.empty() || m.rope_scaling.type == "linear" ||
              m.rope_scaling.type == "llama3",
          "an unknown rope_scaling type was accepted");
  require(m.rope_scaling.type != "llama3" ||
              m.rope_scaling.high_freq_factor > m.rope_scaling.low_freq_factor,
          "llama3 rope_scaling with high_freq_factor <= low_freq_factor was accepted");
}

void exercise_npy(const std::string& bytes) {
  Tensor tensor;
  try {
    tensor = parse_npy(bytes, "fuzz.npy", "x");
  } catch (const UserError& e) {
    check_refusal(e, "fuzz.npy");
    return;
  }
  const Tensor again = parse_npy(npy_bytes(tensor), "round-trip.npy", "x");
  require(again.shape() == tensor.shape(), "npy_bytes + parse_npy changed the shape");
  require(again.to_vector() == tensor.to_vector(), "npy_bytes + parse_npy changed the values");
}

void exercise_npz(const std::string& bytes) {
  Answer answer;
  try {
    answer = parse_answer_archive(bytes, "fuzz.npz");
  } catch (const UserError& e) {
    check_one_line_refusal(e, "fuzz.npz");
    return;
  }
  std::vector<std::pair<std::string, std::string>> files;
  for (const AnswerArray& a : answer.arrays)
    files.emplace_back(a.name + ".npy", npy_bytes(a.tensor));
  const Answer again = parse_answer_archive(zip_store(files), "round-trip.npz");
  require(again.arrays.size() == answer.arrays.size(), "zip_store + parse changed the arrays");
  for (size_t i = 0; i < answer.arrays.size(); ++i) {
    const Tensor &a = answer.arrays[i].tensor, &b = again.arrays[i].tensor;
    require(again.arrays[i].name == answer.arrays[i].name, "zip_store + parse changed a name");
    require(a.shape() == b.shape(), "zip_store + parse changed a shape");
    const std::vector<Scalar> va = a.to_vector(), vb = b.to_vector();
    require(std::equal(va.begin(), va.end(), vb.begin(), vb.end(),
                       [](Scalar x, Scalar y) {
                         return std::bit_cast<uint32_t>(x) == std::bit_cast<uint32_t>(y);
                       }),
            "zip_store + parse changed a value");
  }
}

void exercise_preset(const std::string& text) {
  Preset preset;
  try {
    preset = parse_preset(text, "fuzz.json");
  } catch (const UserError& e) {
    check_refusal(e, "fuzz.json");
    return;
  }
  const Config& config = preset.config;
  require(validate(config).empty(), "parse_preset returned a config validate() rejects");
  std::vector<std::string> warnings;
  require(config_from_json(config_to_json(config), "round-trip", {}, warnings) == config,
          "config_to_json + config_from_json changed the config");
  check_bytes_needed(config);
  // Shape-only runs allocate no values, so they run at any size.
  if (!config.shape_only && trace_bytes_needed(config) >= kMaxRunBytes) return;
  try {
    const Trace trace = run(config, preset.inputs);
    check_trace(trace);
    if (!trace.shape_only && trace.diagnostics.nonfinite_values == 0) {
      check_paths_agree(config, preset.inputs);
    }
    trace_to_json(trace);  // what the CLI's --json and the export write
  } catch (const UserError& e) {
    require(e.what()[0] != '\0', "run() refused a preset without saying why");
    require(std::string(e.what()).size() <= kMaxMessageChars, "run() refused at great length");
  }
}

}  // namespace attnlab::fuzz
