#include "tests/fuzz/fuzz_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/trace/export.hpp"
#include "core/trace/mha.hpp"
#include "core/model/mha_loop.hpp"
#include "core/tensor/npy.hpp"
#include "core/model/preset.hpp"

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

// Every trace holds at least its weight matrices and the scores, scaled scores and weights, each
// (B, h, T, T), all float32: a lower bound, computed in floating point, that trace_bytes_needed
// must reach (an int64 overflow, or a tensor left out, breaks it). A size past int64 may saturate.
void check_bytes_needed(const Config& config) {
  const double h = config.n_heads, d_k = config.head_dim_k(), d_v = config.head_dim_v();
  const double T = config.tokens();
  const double weights = config.input_dim() * h * (2 * d_k + d_v) +
                         (config.output_proj ? h * d_v * config.d_model : 0);
  const double maps = 3 * config.batch * h * T * T;
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

// run() (batched, strided views, BLAS) and run_loop() (one head at a time) must agree (mha.hpp).
void check_paths_agree(const Config& config, const Inputs& inputs, const Trace& trace) {
  for (const Tensor* given : {&inputs.x, &inputs.w_q, &inputs.w_k, &inputs.w_v, &inputs.w_o,
                              &inputs.b_q, &inputs.b_k, &inputs.b_v, &inputs.b_o}) {
    if (!moderate(*given)) return;
  }
  const std::vector<Scalar> batched = trace.find("out")->tensor.to_vector();
  const std::vector<Scalar> looped = run_loop(config, inputs).out.to_vector();
  require(batched.size() == looped.size(), "run() and run_loop() give outputs of different sizes");
  double scale = 1, difference = 0;
  for (size_t i = 0; i < batched.size(); ++i) {
    scale = std::max(scale, double(std::fabs(batched[i])));
    difference = std::max(difference, double(std::fabs(batched[i] - looped[i])));
  }
  require(difference <= kPathTolerance * scale,
          "run() and run_loop() disagree: max |difference| " + std::to_string(difference));
}

}  // namespace

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
      check_paths_agree(config, preset.inputs, trace);
    }
    trace_to_json(trace);  // what the CLI's --json and the export write
  } catch (const UserError& e) {
    require(e.what()[0] != '\0', "run() refused a preset without saying why");
    require(std::string(e.what()).size() <= kMaxMessageChars, "run() refused at great length");
  }
}

}  // namespace attnlab::fuzz
