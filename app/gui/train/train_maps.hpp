// The Train tab's head maps as colour positions: each row in per-row colours by the one rule of
// colormap.hpp (row_colours: an even row, attention spread evenly, is grey, not the top colour).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace attnlab::gui {

// One head's (T, T) weights as (T, T) colour positions (colour_at() takes them); `causal`: query q
// sees keys 0..q, the keys it cannot see (weight 0) get the first colour.
std::vector<float> train_map_positions(std::span<const float> map, int64_t T, bool causal);

}  // namespace attnlab::gui
