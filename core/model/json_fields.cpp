#include "core/model/json_fields.hpp"

#include <cmath>

#include "core/model/errors.hpp"

namespace attnlab {

using nlohmann::json;

namespace {

// A value quoted in a message: invalid UTF-8 replaced, at most 60 characters.
std::string brief(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

// The field, or nullptr; a field that fails `is_kind` is refused naming what it must be.
const json* field(const json& object, const std::string& key, const std::string& source,
                  bool (json::*is_kind)() const noexcept, const char* must_be) {
  const auto found = object.find(key);
  if (found == object.end()) return nullptr;
  if (!((*found).*is_kind)())
    throw UserError(source + ": key \"" + key + "\" must be " + must_be + ", not " + brief(*found));
  return &*found;
}

}  // namespace

std::optional<int64_t> int_field(const json& object, const std::string& key,
                                 const std::string& source) {
  const json* value = field(object, key, source, &json::is_number_integer, "a whole number");
  if (!value) return std::nullopt;
  if (value->is_number_unsigned() && value->get<uint64_t>() > uint64_t(INT64_MAX))
    throw UserError(source + ": key \"" + key + "\" is too large (" + brief(*value) + ")");
  return value->get<int64_t>();
}

std::optional<double> number_field(const json& object, const std::string& key,
                                   const std::string& source) {
  const json* value = field(object, key, source, &json::is_number, "a number");
  if (!value) return std::nullopt;
  const auto number = value->get<double>();
  if (!std::isfinite(number))
    throw UserError(source + ": key \"" + key + "\" must be a finite number, not " + brief(*value));
  return number;
}

std::optional<bool> bool_field(const json& object, const std::string& key,
                               const std::string& source) {
  const json* value = field(object, key, source, &json::is_boolean, "true or false");
  return value ? std::optional<bool>(value->get<bool>()) : std::nullopt;
}

std::optional<std::string> string_field(const json& object, const std::string& key,
                                        const std::string& source) {
  const json* value = field(object, key, source, &json::is_string, "a string in quotes");
  return value ? std::optional<std::string>(value->get<std::string>()) : std::nullopt;
}

const json* object_field(const json& object, const std::string& key, const std::string& source) {
  return field(object, key, source, &json::is_object, "an object ({...})");
}

const json* array_field(const json& object, const std::string& key, const std::string& source) {
  return field(object, key, source, &json::is_array, "a list ([...])");
}

}  // namespace attnlab
