#include "app/gui/trace_bundle.hpp"

namespace attnlab::gui {

TraceBundle compute_bundle(const Config& config, const Inputs& inputs, const RunControl& control) {
  TraceBundle bundle;
  bundle.trace = std::make_shared<const Trace>(run(config, inputs, control));
  if (config.mistake == Mistake::None) return bundle;
  Config correct = config;
  correct.mistake = Mistake::None;
  bundle.correct = std::make_shared<const Trace>(run(correct, inputs, control));
  bundle.report = compare_with_correct(*bundle.correct, *bundle.trace);
  return bundle;
}

}  // namespace attnlab::gui
