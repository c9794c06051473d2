// A preset whose weights are built by hand so that each head shows one of the patterns the seeds
// describe — previous token, first token, same token, uniform — from real runs of the core.
#pragma once

#include "core/model/preset.hpp"

namespace attnlab {

// Name "crafted". X is [one-hot position | one-hot word | 1] per token, so a projection can pick
// out "where" or "what" a token is; each head's W_q, W_k read one of those (description says how).
Preset crafted_heads_preset();

}  // namespace attnlab
