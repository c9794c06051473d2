// The config's settings as the controls name them, field by field from the core's one table
// (core/model/config_fields.hpp): the "out of date" banner (what the picture shows against what
// the controls ask for) and restoring saved settings (which fields had to be dropped, and why).
#pragma once

#include <string>
#include <vector>

#include "core/model/config.hpp"

namespace attnlab::gui {

struct FieldValue {
  const char* field;  // validate()'s field name: "n_heads", "mask", ...
  std::string text;   // "n_heads = 3", "mask = causal + window:2"
};

// Every setting of `config` that differs from `other`, in the controls' order.
std::vector<FieldValue> differing_fields(const Config& config, const Config& other);

// "n_heads = 3, B = 8": the texts joined.
std::string join_fields(const std::vector<FieldValue>& fields);

struct RestoredConfig {
  Config config;                     // valid
  std::vector<std::string> dropped;  // "B = 8 (computing this configuration needs ...)"
};

// The saved config with each setting that makes it invalid replaced by the fallback's; the
// other settings are kept. The memory cap's issue drops the largest sizes first (B, then T).
RestoredConfig restore_valid(const Config& saved, const Config& fallback);

}  // namespace attnlab::gui
