// How the next lessons' variants combine with each other and with the rest of a config: grouped
// K/V heads, cross-attention, KV-cache decoding and latent attention (MLA). Each rule explains
// itself and names the fix, as validate() does for the base settings.
#pragma once

#include <vector>

#include "core/model/config.hpp"

namespace attnlab {

// Appends an issue for each rule the config breaks (sizes already checked to be in range).
void check_variants(const Config& config, std::vector<ConfigIssue>& issues);

}  // namespace attnlab
