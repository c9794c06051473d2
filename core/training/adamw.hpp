// AdamW (Loshchilov & Hutter), as torch.optim.AdamW: decoupled weight decay, bias-corrected
// moments; optional clipping of the global gradient norm first (torch.nn.utils.clip_grad_norm_).
#pragma once

#include "core/training/parameters.hpp"

namespace attnlab::training {

struct AdamWSettings {
  double lr = 3e-3;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0.0;  // applied to every parameter, as PyTorch does by default
  double clip_norm = 0.0;     // 0 = no clipping
};

class AdamW {
 public:
  AdamW(const ModelShape& shape, AdamWSettings settings);
  // One update of `params` from `grads` (grads may be scaled in place by the clipping).
  // Returns the global gradient norm before clipping.
  double step(Parameters<float>& params, Parameters<float>& grads);
  int64_t steps_taken() const { return step_; }

 private:
  AdamWSettings settings_;
  Parameters<float> m_, v_;
  int64_t step_ = 0;
};

}  // namespace attnlab::training
