// Core soak: N seeded random config changes through validate() + run(), as a long lecture would
// make them, with flat memory. Usage: soak_core [CHANGES=10000] [SEED=1]
//
// Every invalid config must be refused with a message (by validate() and by run()); every valid
// one must give a trace with no NaN/Inf, exactly-zero masked weights and the same output as the
// per-head loop (run_loop; MLA: its absorbed form), and decoding must give the full run's rows.
// Every variant (GQA/MQA, cross-attention, decoding, MLA) must be computed at least once. Peak and
// current RSS are measured after a warm-up and at the end; growth above kMaxGrowthBytes fails (exit
// 1).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/model/mha_loop.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/plan.hpp"
#include "tests/soak/process_memory.hpp"
#include "tests/soak/random_changes.hpp"

namespace {

using attnlab::soak::kMiB;
using attnlab::soak::kUnderSanitizer;
using attnlab::soak::measure_memory;
using attnlab::soak::Memory;
using attnlab::soak::mib;

using attnlab::Config;
using attnlab::Trace;

// Keeps each run small: validate() refuses anything whose trace needs more (shape-only aside).
constexpr int64_t kMemoryCapBytes = 4 * kMiB;
constexpr int64_t kMaxGrowthBytes = 8 * kMiB;
constexpr int64_t kWarmUpChanges = 1000;
constexpr double kPathTolerance = 1e-4;
// A user facing an error message fixes it soon: after this many refusals in a row, go back to the
// last config that ran, so the soak keeps computing rather than piling up invalid settings.
constexpr int kRefusalsBeforeUndo = 3;

struct Tally {
  int64_t refused = 0, computed = 0, shape_only = 0;
  // Computed traces of each variant: a soak that never reaches one has not tested it.
  int64_t grouped = 0, cross = 0, decoded = 0, latent = 0;
};

// A soak this long must have computed every variant at least once.
constexpr int64_t kChangesThatReachEveryVariant = 500;

bool all_finite(const Trace& trace, const char* name) {
  const attnlab::TensorRecord* record = trace.find(name);
  if (!record) return false;
  for (float value : record->tensor.to_vector()) {
    if (!std::isfinite(value)) return false;
  }
  return true;
}

// run() (batched, strided views, BLAS) and run_loop() (one head at a time) must agree (mha.hpp);
// the soak's generated weights are small, so float32 rounding stays far below the tolerance.
// Returns the largest difference relative to the output's magnitude.
double max_path_difference(const Config& config, const Trace& trace) {
  const std::vector<float> batched = trace.find("out")->tensor.to_vector();
  // The loop computes MHA, GQA and cross-attention; MLA's second path is its absorbed form.
  const std::vector<float> looped = config.latent() ? trace.find("out_absorbed")->tensor.to_vector()
                                                    : attnlab::run_loop(config).out.to_vector();
  if (batched.size() != looped.size()) return INFINITY;
  double scale = 1, difference = 0;  // relative to the output's size (dropout scales by 1/(1-p))
  for (size_t i = 0; i < batched.size(); ++i) {
    scale = std::max(scale, double(std::fabs(batched[i])));
    difference = std::max(difference, double(std::fabs(batched[i] - looped[i])));
  }
  return difference / scale;
}

// Decoding one token at a time must give the forward pass's rows: decode{i}_out (B, 1, d_out) is
// row t of out (B, T, d_out). Empty when it does.
std::string check_decoding(const Trace& trace) {
  const attnlab::Tensor& out = trace.find("out")->tensor;
  for (size_t i = 0; i < trace.decode.steps.size(); ++i) {
    const int64_t t = trace.decode.steps[i].position;
    const attnlab::TensorRecord* row = trace.find(attnlab::decode_name(int64_t(i), "out"));
    if (!row) return "decode step " + std::to_string(i) + " has no record";
    for (int64_t b = 0; b < out.size(0); ++b)
      for (int64_t o = 0; o < out.size(2); ++o) {
        const double a = row->tensor.at({b, 0, o}), want = out.at({b, t, o});
        if (!(std::fabs(a - want) <= kPathTolerance * std::max(1.0, std::fabs(want))))
          return "decode step " + std::to_string(i) + " differs from the full run's row " +
                 std::to_string(t);
      }
  }
  return "";
}

// Empty when the core kept its promises for this config; else what it broke.
std::string check_config(const Config& config, Tally& tally) {
  const std::vector<attnlab::ConfigIssue> issues = attnlab::validate(config);
  for (const attnlab::ConfigIssue& issue : issues) {
    if (issue.field.empty() || issue.message.empty()) return "an issue without field or message";
  }
  Trace trace;
  try {
    trace = attnlab::run(config);
  } catch (const attnlab::UserError& e) {
    if (issues.empty())
      return std::string("run() refused a config validate() accepted: ") + e.what();
    if (e.what()[0] == '\0') return "run() refused with an empty message";
    ++tally.refused;
    return "";
  } catch (const std::exception& e) {
    return std::string("run() threw something other than UserError: ") + e.what();
  }
  if (!issues.empty()) return "run() computed a config validate() refused: " + issues[0].message;
  if (trace.records.empty()) return "a trace without records";
  if (config.shape_only) {
    ++tally.shape_only;
    return "";
  }
  const attnlab::Diagnostics& d = trace.diagnostics;
  if (d.nonfinite_values != 0) return "non-finite values in " + d.first_nonfinite;
  if (d.masked_nonzero != 0) return "masked weights that are not 0";
  if (!all_finite(trace, "weights") || !all_finite(trace, "out")) return "NaN/Inf in weights/out";
  const double difference = max_path_difference(config, trace);
  if (!(difference <= kPathTolerance)) {
    return "run() and run_loop() (MLA: its absorbed form) disagree by " +
           std::to_string(difference);
  }
  if (const std::string decoding = check_decoding(trace); !decoding.empty()) return decoding;
  ++tally.computed;
  tally.grouped += config.grouped();
  tally.cross += config.cross();
  tally.decoded += config.decode_steps > 0;
  tally.latent += config.latent();
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t changes = argc > 1 ? std::stoll(argv[1]) : 10000;
  const uint64_t seed = argc > 2 ? std::stoull(argv[2]) : 1;
  const int64_t warm_up = std::min(kWarmUpChanges, changes / 2);

  attnlab::soak::RandomChanges random_changes(seed);
  Config config;
  config.memory_cap_bytes = kMemoryCapBytes;
  Config last_valid = config;
  int refusals_in_a_row = 0;
  Tally tally;
  Memory after_warm_up = measure_memory();
  for (int64_t i = 0; i < changes; ++i) {
    const std::string change = random_changes.apply(config);
    const int64_t refused_before = tally.refused;
    const std::string broken = check_config(config, tally);
    if (!broken.empty()) {
      std::cerr << "soak: change " << i << " (" << change << ", seed " << seed << "): " << broken
                << "\nconfig: "
                << attnlab::config_to_json(config).dump(-1, ' ', false,
                                                        nlohmann::json::error_handler_t::replace)
                << "\n";
      return 1;
    }
    if (tally.refused == refused_before) {
      last_valid = config;
      refusals_in_a_row = 0;
    } else if (++refusals_in_a_row == kRefusalsBeforeUndo) {
      config = last_valid;
      refusals_in_a_row = 0;
    }
    if (i + 1 == warm_up) after_warm_up = measure_memory();
  }
  const Memory at_end = measure_memory();
  std::printf("soak: computed %lld grouped-query, %lld cross-attention, %lld decoding, %lld MLA\n",
              static_cast<long long>(tally.grouped), static_cast<long long>(tally.cross),
              static_cast<long long>(tally.decoded), static_cast<long long>(tally.latent));
  if (changes >= kChangesThatReachEveryVariant &&
      std::min({tally.grouped, tally.cross, tally.decoded, tally.latent}) == 0) {
    std::fprintf(stderr, "soak: a variant was never computed in %lld changes\n",
                 static_cast<long long>(changes));
    return 1;
  }

  std::printf("soak: %lld changes (%lld computed, %lld shape-only, %lld refused), seed %llu\n",
              static_cast<long long>(changes), static_cast<long long>(tally.computed),
              static_cast<long long>(tally.shape_only), static_cast<long long>(tally.refused),
              static_cast<unsigned long long>(seed));
  std::printf(
      "soak: %lld changes, RSS after warm-up %.1f MiB, at end %.1f MiB "
      "(peak after warm-up %.1f MiB, at end %.1f MiB)\n",
      static_cast<long long>(changes), mib(after_warm_up.current_bytes), mib(at_end.current_bytes),
      mib(after_warm_up.peak_bytes), mib(at_end.peak_bytes));
  const int64_t growth = std::max(at_end.current_bytes - after_warm_up.current_bytes,
                                  at_end.peak_bytes - after_warm_up.peak_bytes);
  if (kUnderSanitizer) {
    std::printf(
        "soak: RSS limit not checked under a sanitizer (its quarantine holds freed memory)\n");
    return 0;
  }
  if (growth > kMaxGrowthBytes) {
    std::fprintf(stderr, "soak: memory grew by %.1f MiB after warm-up (limit %.1f MiB)\n",
                 mib(growth), mib(kMaxGrowthBytes));
    return 1;
  }
  return 0;
}
