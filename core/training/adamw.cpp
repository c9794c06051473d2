#include "core/training/adamw.hpp"

#include <cmath>

namespace attnlab::training {

AdamW::AdamW(const ModelShape& shape, AdamWSettings settings)
    : settings_(settings), m_(zero_parameters<float>(shape)), v_(zero_parameters<float>(shape)) {}

double AdamW::step(Parameters<float>& params, Parameters<float>& grads) {
  double squares = 0;
  for (const Matrix<float>& g : grads.values) squares += double(g.squaredNorm());
  const double norm = std::sqrt(squares);
  if (settings_.clip_norm > 0 && norm > settings_.clip_norm) {
    const auto factor = float(settings_.clip_norm / (norm + 1e-6));
    for (Matrix<float>& g : grads.values) g *= factor;
  }
  ++step_;
  const auto b1 = float(settings_.beta1), b2 = float(settings_.beta2);
  const double correction1 = 1.0 - std::pow(settings_.beta1, double(step_));
  const double correction2 = 1.0 - std::pow(settings_.beta2, double(step_));
  const auto step_size = float(settings_.lr / correction1);
  const auto sqrt_correction2 = float(std::sqrt(correction2));
  const auto decay = float(1.0 - settings_.lr * settings_.weight_decay);
  const auto eps = float(settings_.eps);
  for (size_t i = 0; i < params.values.size(); ++i) {
    auto p = params.values[i].array();
    const auto g = grads.values[i].array();
    auto m = m_.values[i].array();
    auto v = v_.values[i].array();
    p *= decay;                          // decoupled weight decay
    m = b1 * m + (1 - b1) * g;           // first moment
    v = b2 * v + (1 - b2) * g.square();  // second moment
    p -= step_size * m / (v.sqrt() / sqrt_correction2 + eps);
  }
  return norm;
}

}  // namespace attnlab::training
