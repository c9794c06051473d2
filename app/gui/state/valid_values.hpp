// The values a control over one whole-number setting offers: those validate() (the core's rules,
// core/model/config.cpp and core/variants/variant_rules.cpp) accepts with the rest of the config
// as it is. The controls panel's n_heads, d_k and d_c sliders, the K/V heads slider and the
// presenter bar's − h + all step through these and nothing else.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/config.hpp"

namespace attnlab::gui {

// The values v in low..high (ascending) for which `config` with `member` = v raises no issue that
// is not raised for every v (an issue about another setting, such as a bad mask, does not hide a
// value). Empty when no value is clean. Remembered for the last config asked about per member, so
// a control may ask every frame.
std::vector<int64_t> valid_values(const Config& config, int64_t Config::*member, int64_t low,
                                  int64_t high);

// The head counts up to `most` the rest of `config` allows (n_heads' valid_values from 1).
std::vector<int64_t> valid_head_counts(const Config& config, int64_t most = 128);

// Where `value` stands among `values` (ascending): its index, or the nearest value below's (0 when
// it is below them all).
int position_among(const std::vector<int64_t>& values, int64_t value);

}  // namespace attnlab::gui
