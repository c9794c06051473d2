#include "tests/spine/every_path.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/flash/tiled_attention.hpp"
#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/model/mha_loop.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/plan.hpp"

namespace attnlab::spine {

double relative_difference(const Tensor& got, const Tensor& want) {
  if (got.shape() != want.shape()) return INFINITY;
  const std::vector<Scalar> a = got.to_vector(), b = want.to_vector();
  double scale = 1, worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, double(std::fabs(b[i])));
    worst = std::max(worst, double(std::fabs(a[i] - b[i])));
  }
  return worst / scale;  // NaN in either makes it NaN: not <= tolerance
}

namespace {

class Checker {
 public:
  Checker(double tolerance, PathReport& report) : tolerance_(tolerance), report_(report) {}

  void close(const Tensor& got, const Tensor& want, const std::string& path) {
    const double difference = relative_difference(got, want);
    report_.compared.push_back(path);
    if (!(difference <= tolerance_))
      report_.failures.push_back(path + " differs from the reference by " +
                                 std::to_string(difference) + " (relative)");
  }

  void refused(const std::function<void()>& path, const std::string& name) {
    try {
      path();
      report_.failures.push_back(name + " computed a config it cannot");
    } catch (const UserError& e) {
      report_.refused.push_back(name);
      if (std::string(e.what()).find('\n') != std::string::npos)
        report_.failures.push_back(name + " refused in more than one line");
    }
  }

  void fail(const std::string& what) { report_.failures.push_back(what); }

 private:
  const double tolerance_;
  PathReport& report_;
};

}  // namespace

PathReport check_every_path(const Config& config, const Inputs& given, const PathOptions& options) {
  PathReport report;
  Checker check(options.tolerance, report);
  const Trace trace = run(config, given);
  const Inputs in = trace_inputs(trace, given);
  const bool correct = config.mistake == Mistake::None;
  const TensorRecord* out_record = trace.find("out");
  if (!out_record) {  // view-no-contiguous stopped the run at concat: the other paths refuse it
    if (correct || !trace.failure.failed) check.fail("run() made no out");
    check.refused([&] { forward(config, in); }, "forward()");
    check.refused([&] { run_loop(config, in); }, "the per-head loop");
    return report;
  }
  const Tensor& out = out_record->tensor;  // (B, T, d_out)
  if (options.reference) check.close(out, *options.reference, "run()");
  // [SECTION] forward() and the loop: the correct path of everything but MLA
  if (correct && !config.latent()) {
    check.close(forward(config, in), out, "forward()");
    check.close(run_loop(config, in).out, out, "the per-head loop");
  } else {
    check.refused([&] { forward(config, in); }, "forward()");
    check.refused([&] { run_loop(config, in); }, "the per-head loop");
  }
  // [SECTION] MLA's absorbed form
  if (config.latent()) {
    const TensorRecord* absorbed = trace.find("out_absorbed");
    if (!absorbed) check.fail("an MLA trace without its absorbed form");
    if (absorbed) check.close(absorbed->tensor, out, "MLA's absorbed form");
  }
  // [SECTION] FlashAttention (within its memory cap: a tiny cap refuses it for that alone)
  const TileSizes tiles = options.tiles;
  const std::string tiled =
      "flash_forward " + std::to_string(tiles.rows) + ":" + std::to_string(tiles.cols);
  const std::string why = flash_unavailable(config, tiles);
  const bool fits = flash_bytes_needed(config, tiles) <= config.memory_cap_bytes;
  if (why.empty()) {
    check.close(flash_forward(config, in, tiles).out, out, tiled);
  } else {
    check.refused([&] { flash_forward(config, in, tiles); }, tiled);
  }
  if (fits && why.empty() != (correct && config.dropout == 0 && !config.latent()))
    check.fail("flash_unavailable says '" + why + "'");
  // [SECTION] KV-cache decoding: the config's own steps, or some tried
  Config decoding = config;
  if (decoding.decode_steps == 0) decoding.decode_steps = options.decode_steps;
  if (decoding.decode_steps == 0 || !validate(decoding).empty()) return report;
  const Trace decoded = decoding.decode_steps == config.decode_steps ? trace : run(decoding, in);
  if (int64_t(decoded.decode.steps.size()) != decoding.decode_steps)
    check.fail("decoding made " + std::to_string(decoded.decode.steps.size()) + " steps, not " +
               std::to_string(decoding.decode_steps));
  for (size_t i = 0; i < decoded.decode.steps.size(); ++i) {
    const int64_t t = decoded.decode.steps[i].position;
    const TensorRecord* row = decoded.find(decode_name(int64_t(i), "out"));
    if (!row) {
      check.fail("decode step " + std::to_string(i) + " without its output");
      continue;
    }
    check.close(row->tensor, out.narrow(1, t, 1), "decoding row " + std::to_string(t));
  }
  return report;
}

}  // namespace attnlab::spine
