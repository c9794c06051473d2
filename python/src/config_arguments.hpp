// attnlab.exercise("seed003", d_model=8, n_heads=2, mask="causal"): a preset's name and keyword
// arguments named as the config's fields (config_fields(): the JSON keys), turned into the command
// line's flags (--d-model 8 --heads 2 --mask causal) and read by the command line's own code
// (app/common/config_flags: the same checks, the same messages).
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"

namespace attnlab::python {

struct Settings {
  Config config;
  Inputs inputs;  // the preset's own X and weights, when it has them
};

// Throws UserError for an unknown keyword, a value of the wrong kind, and whatever the flags'
// checks refuse (their words: "--mask \"diag\" is not a mask: use none, causal, ...").
Settings settings_from_arguments(const std::optional<std::string>& preset,
                                 const pybind11::dict& keywords);

}  // namespace attnlab::python
