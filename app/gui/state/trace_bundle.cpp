#include "app/gui/state/trace_bundle.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <vector>

namespace attnlab::gui {

float largest_magnitude(const Tensor& tensor) {
  if (!tensor.has_values()) return 1;
  // Read in place; only strided views are copied.
  std::vector<Scalar> copy;
  const Scalar* values = tensor.data();
  if (!tensor.is_contiguous()) {
    copy = tensor.to_vector();
    values = copy.data();
  }
  float largest = 0;
  for (int64_t i = 0, n = tensor.numel(); i < n; ++i) {
    const float magnitude = std::abs(values[i]);
    if (magnitude <= FLT_MAX) largest = std::max(largest, magnitude);  // skips NaN and Inf
  }
  return largest > 0 ? largest : 1;
}

TraceBundle compute_bundle(const Config& config, const Inputs& inputs, const RunControl& control) {
  const auto started = std::chrono::steady_clock::now();
  const auto seconds_since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  TraceBundle bundle;
  bundle.trace = std::make_shared<const Trace>(run(config, inputs, control));
  for (const std::vector<TensorRecord>* list : {&bundle.trace->records, &bundle.trace->parameters})
    for (const TensorRecord& record : *list)
      bundle.magnitudes[record.name] = largest_magnitude(record.tensor);
  bundle.seconds = seconds_since_start();
  if (config.mistake == Mistake::None) return bundle;
  Config correct = config;
  correct.mistake = Mistake::None;
  bundle.correct = std::make_shared<const Trace>(run(correct, inputs, control));
  bundle.report = compare_with_correct(*bundle.correct, *bundle.trace);
  bundle.seconds = seconds_since_start();
  return bundle;
}

}  // namespace attnlab::gui
