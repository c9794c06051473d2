#include "tests/fuzz/fuzz_inputs.hpp"

#include <cstdint>
#include <limits>

#include "core/config.hpp"
#include "core/config_json.hpp"
#include "core/errors.hpp"
#include "core/export.hpp"
#include "core/mha.hpp"
#include "core/npy.hpp"
#include "core/preset.hpp"

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

// Every trace holds at least scores, scaled scores and weights, each (B, h, T, T) float32: a
// lower bound, computed in floating point, that an int64 overflow in trace_bytes_needed breaks.
// A size past int64 may saturate at its maximum.
void check_bytes_needed(const Config& config) {
  const double maps = 3.0 * static_cast<double>(config.batch) *
                      static_cast<double>(config.n_heads) * static_cast<double>(config.tokens()) *
                      static_cast<double>(config.tokens()) * sizeof(float);
  const int64_t needed = trace_bytes_needed(config);
  require(needed == std::numeric_limits<int64_t>::max() || static_cast<double>(needed) >= maps,
          "trace_bytes_needed is below the size of the attention maps alone (int64 overflow?)");
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
    trace_to_json(trace);  // what the CLI's --json and the export write
  } catch (const UserError& e) {
    require(e.what()[0] != '\0', "run() refused a preset without saying why");
    require(std::string(e.what()).size() <= kMaxMessageChars, "run() refused at great length");
  }
}

}  // namespace attnlab::fuzz
