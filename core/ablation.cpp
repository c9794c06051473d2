#include "core/ablation.hpp"

#include <cmath>

#include "core/forward.hpp"

namespace attnlab {

std::vector<double> head_importance(const Config& config, const Inputs& inputs) {
  Config base = config;
  base.mistake = Mistake::None;
  base.ablated_heads.resize(size_t(base.n_heads), false);
  const std::vector<Scalar> full = forward(base, inputs).to_vector();
  std::vector<double> importance(size_t(base.n_heads), 0.0);
  for (int64_t hd = 0; hd < base.n_heads; ++hd) {
    if (base.ablated_heads[size_t(hd)]) continue;  // already off: removing it changes nothing
    Config without = base;
    without.ablated_heads[size_t(hd)] = true;
    const std::vector<Scalar> ablated = forward(without, inputs).to_vector();
    double sum = 0;
    for (size_t i = 0; i < full.size(); ++i)
      sum += double(full[i] - ablated[i]) * (full[i] - ablated[i]);
    importance[size_t(hd)] = std::sqrt(sum);
  }
  return importance;
}

}  // namespace attnlab
