// Config <-> JSON, shared by presets, GUI settings and trace.json.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {

nlohmann::json config_to_json(const Config& config);

// Parses JSON text, refusing nesting deeper than 64 levels before the (recursive) parser could
// exhaust the stack. Throws UserError naming `source` and the line of a syntax error.
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

// Reads the config keys of `object` over the defaults. `source` names the file in messages;
// keys that are not config fields (core/model/config_fields.hpp) or `extra_keys` are reported in
// `warnings` and ignored.
// Throws UserError naming the key for a wrong type or an impossible value.
Config config_from_json(const nlohmann::json& object, const std::string& source,
                        const std::vector<std::string>& extra_keys,
                        std::vector<std::string>& warnings);

// A nested list of numbers as a tensor (ragged lists, non-numbers, NaN are errors).
Tensor tensor_from_json(const nlohmann::json& value, const std::string& name,
                        const std::string& source);

}  // namespace attnlab
