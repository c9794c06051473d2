// How big the KV cache is under each way of sharing keys and values: the same layer as
// multi-head (one K/V head per query head), grouped-query, multi-query and latent attention,
// each counted from the config by the core (nothing is run).
#pragma once

#include <string>
#include <vector>

#include "core/model/config.hpp"

namespace attnlab {

struct CacheRow {
  std::string variant;             // "MHA", "GQA-8", "MQA", "MLA"
  std::string sharing;             // "128 K/V heads", "d_c 512 + d_rope 64"
  int64_t kv_cache_numbers = 0;    // per token per layer
  int64_t kv_parameters = 0;       // what makes K and V in one layer
  double share_of_multi_head = 1;  // kv_cache_numbers / the MHA row's
};

// `base` (its sizes, masks and T) as MHA, as GQA with `gqa_groups` K/V heads when that is a
// divisor strictly between 1 and n_heads, as MQA, and as MLA when `base` has a latent.
std::vector<CacheRow> cache_comparison(const Config& base, int64_t gqa_groups);

}  // namespace attnlab
