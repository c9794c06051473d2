#include "core/teaching/ablation.hpp"

#include <cmath>

#include "core/model/forward.hpp"

namespace attnlab {

std::vector<double> head_importance(const Config& config, const Inputs& inputs,
                                    const RunControl& control) {
  require_values(config, "head importance");
  Config base = config;
  base.mistake = Mistake::None;
  base.ablated_heads.resize(size_t(base.n_heads), false);
  const double runs = double(base.n_heads + 1);  // the full output, then one per head
  const std::vector<Scalar> full = forward(base, inputs, control.part(0, 1 / runs)).to_vector();
  std::vector<double> importance(size_t(base.n_heads), 0.0);
  for (int64_t hd = 0; hd < base.n_heads; ++hd) {
    if (base.ablated_heads[size_t(hd)]) continue;  // already off: removing it changes nothing
    Config without = base;
    without.ablated_heads[size_t(hd)] = true;
    const RunControl part = control.part(double(hd + 1) / runs, double(hd + 2) / runs);
    const std::vector<Scalar> ablated = forward(without, inputs, part).to_vector();
    part.report(1);
    double sum = 0;
    for (size_t i = 0; i < full.size(); ++i)
      sum += double(full[i] - ablated[i]) * (full[i] - ablated[i]);
    importance[size_t(hd)] = std::sqrt(sum);
  }
  return importance;
}

}  // namespace attnlab
