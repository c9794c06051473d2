// Checked reads of one field of a JSON object (exercise.json, settings.json): a value of the wrong
// type is one line naming the file, the field and the type it must have (`settings.json: key
// "font_scale" must be a number, not "big"`), never the JSON library's type_error.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace attnlab {

// Each returns std::nullopt (or nullptr) when `object` has no field `key`, and throws UserError
// naming `source` and `key` when the field holds another type. `object` must be an object.
std::optional<int64_t> int_field(const nlohmann::json& object, const std::string& key,
                                 const std::string& source);
std::optional<double> number_field(const nlohmann::json& object, const std::string& key,
                                   const std::string& source);  // finite
std::optional<bool> bool_field(const nlohmann::json& object, const std::string& key,
                               const std::string& source);
std::optional<std::string> string_field(const nlohmann::json& object, const std::string& key,
                                        const std::string& source);
const nlohmann::json* object_field(const nlohmann::json& object, const std::string& key,
                                   const std::string& source);
const nlohmann::json* array_field(const nlohmann::json& object, const std::string& key,
                                  const std::string& source);

}  // namespace attnlab
