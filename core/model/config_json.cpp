#include "core/model/config_json.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/model/config_fields.hpp"
#include "core/model/errors.hpp"
#include "core/model/overloaded.hpp"
#include "core/teaching/mistakes.hpp"

namespace attnlab {

using nlohmann::json;

namespace {

constexpr int kMaxJsonDepth = 64;

// Deepest [ / { nesting outside strings.
int nesting_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (ch == '\\')
        escaped = true;
      else if (ch == '"')
        in_string = false;
      continue;
    }
    if (ch == '"')
      in_string = true;
    else if (ch == '[' || ch == '{')
      deepest = std::max(deepest, ++depth);
    else if (ch == ']' || ch == '}')
      --depth;
  }
  return deepest;
}

}  // namespace

json parse_json_text(const std::string& text, const std::string& source) {
  if (nesting_depth(text) > kMaxJsonDepth) {
    throw UserError(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                    " levels; presets and settings need only a few");
  }
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // syntax errors, and numbers too large for a double
    std::string reason = e.what();
    constexpr size_t kMaxReason = 200;  // the parser quotes the offending token, however long
    if (reason.size() > kMaxReason) reason = reason.substr(0, kMaxReason) + "...";
    throw UserError(source + ": not valid JSON (" + reason + ")");
  }
}

namespace {

// A value quoted in a message: invalid UTF-8 replaced, at most 60 characters.
std::string brief(const json& v) {
  std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

[[noreturn]] void fail(const std::string& source, const std::string& key, const std::string& what) {
  throw UserError(source + ": key \"" + key + "\" " + what);
}

int64_t read_int(const json& v, const std::string& source, const std::string& key, int64_t low) {
  if (!v.is_number_integer()) fail(source, key, "must be a whole number, not " + brief(v));
  if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
    fail(source, key, "is too large");
  const auto value = v.get<int64_t>();
  if (value < low)
    fail(source, key, "must be at least " + std::to_string(low) + ", not " + brief(v));
  return value;
}

uint64_t read_seed(const json& v, const std::string& source, const std::string& key) {
  if (!v.is_number_integer() ||
      (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0))
    fail(source, key, "must be a non-negative whole number, not " + brief(v));
  return v.get<uint64_t>();
}

bool read_bool(const json& v, const std::string& source, const std::string& key) {
  if (!v.is_boolean()) fail(source, key, "must be true or false, not " + brief(v));
  return v.get<bool>();
}

MaskSpec read_mask(const json& m, const std::string& source, std::vector<std::string>& warnings) {
  if (!m.is_object()) fail(source, "mask", "must be an object like {\"causal\": true}");
  MaskSpec mask;
  for (const auto& [key, value] : m.items()) {
    const std::string name = "mask." + key;
    if (key == "causal") {
      mask.causal = read_bool(value, source, name);
    } else if (key == "padding") {
      if (!value.is_array()) fail(source, name, "must be a list of valid lengths, e.g. [3, 5]");
      for (const json& length : value)
        mask.padding_lengths.push_back(read_int(length, source, name, 0));
    } else if (key == "window") {
      mask.window = read_int(value, source, name, 0);
    } else if (key == "global_tokens") {
      mask.global_tokens = read_int(value, source, name, 0);
    } else {
      warnings.push_back(source + ": unknown key \"" + name + "\" ignored");
    }
  }
  return mask;
}

}  // namespace

namespace {

json mask_json(const MaskSpec& m) {
  return {{"causal", m.causal},
          {"padding", m.padding_lengths},
          {"window", m.window},
          {"global_tokens", m.global_tokens}};
}

// The switched-off heads, one true or false per head (as many as the config lists).
json heads_json(const std::vector<bool>& off) {
  json list = json::array();
  for (bool head_off : off) list.push_back(head_off);
  return list;
}

Mistake read_mistake(const json& v, const std::string& source, const std::string& key) {
  Mistake mistake = Mistake::None;
  if (!v.is_string() || !parse_mistake(v.get<std::string>(), mistake))
    fail(source, key, "must be none or one of " + mistake_names() + ", not " + brief(v));
  return mistake;
}

PositionEncoding read_position(const json& v, const std::string& source, const std::string& key) {
  const std::optional<PositionEncoding> pos =
      v.is_string() ? parse_position_encoding(v.get<std::string>()) : std::nullopt;
  if (!pos)
    fail(source, key, "must be one of " + position_encoding_choices() + ", not " + brief(v));
  return *pos;
}

std::vector<bool> read_heads(const json& v, const std::string& source, const std::string& key) {
  if (!v.is_array()) fail(source, key, "must be a list of true/false, one per head");
  std::vector<bool> off;
  for (const json& head : v) off.push_back(read_bool(head, source, key));
  return off;
}

// One field of `c` from its JSON value, as the field's type reads it.
void read_field(const ConfigField& field, const json& v, const std::string& source, Config& c,
                std::vector<std::string>& warnings) {
  const std::string key = field.name;
  std::visit(
      Overloaded{
          [&](int64_t Config::*m) { c.*m = read_int(v, source, key, field.zero ? 0 : field.low); },
          [&](uint64_t Config::*m) { c.*m = read_seed(v, source, key); },
          [&](bool Config::*m) { c.*m = read_bool(v, source, key); },
          [&](double Config::*m) {
            // In the field's range [real_low, real_high), or 0 where 0 means "off".
            const bool zero = field.zero && v.is_number() && v.get<double>() == 0;
            if (!v.is_number() ||
                !(zero || (v.get<double>() >= field.real_low && v.get<double>() < field.real_high)))
              fail(source, key,
                   std::string("must be ") +
                       (field.zero ? "0 (" + std::string(field.zero) + ") or " : "") +
                       "a number in [" + format_number(field.real_low) + ", " +
                       format_number(field.real_high) + "), not " + brief(v));
            c.*m = v.get<double>();
          },
          [&](std::string Config::*m) {
            if (!v.is_string()) fail(source, key, "must be a string");
            c.*m = v.get<std::string>();
          },
          [&](MaskSpec Config::*m) { c.*m = read_mask(v, source, warnings); },
          [&](Mistake Config::*m) { c.*m = read_mistake(v, source, key); },
          [&](std::vector<bool> Config::*m) { c.*m = read_heads(v, source, key); },
          [&](PositionEncoding Config::*m) { c.*m = read_position(v, source, key); },
      },
      field.member);
}

}  // namespace

json config_to_json(const Config& c) {
  json object = json::object();
  for (const ConfigField& field : config_fields()) {
    std::visit(Overloaded{
                   [&](MaskSpec Config::*m) { object[field.name] = mask_json(c.*m); },
                   [&](Mistake Config::*m) {
                     object[field.name] = c.*m == Mistake::None ? "none" : mistake_info(c.*m).name;
                   },
                   [&](std::vector<bool> Config::*m) { object[field.name] = heads_json(c.*m); },
                   [&](PositionEncoding Config::*m) {
                     object[field.name] = std::string(position_encoding_name(c.*m));
                   },
                   [&](auto m) { object[field.name] = c.*m; },
               },
               field.member);
  }
  return object;
}

Config config_from_json(const json& o, const std::string& source,
                        const std::vector<std::string>& extra_keys,
                        std::vector<std::string>& warnings) {
  if (!o.is_object()) throw UserError(source + ": must be a JSON object ({...})");
  Config c;
  for (const auto& [key, v] : o.items()) {
    if (const ConfigField* field = find_config_field(key))
      read_field(*field, v, source, c, warnings);
    else if (std::find(extra_keys.begin(), extra_keys.end(), key) == extra_keys.end())
      warnings.push_back(source + ": unknown key \"" + key + "\" ignored");
  }
  return c;
}

namespace {

void infer_shape(const json& v, Shape& shape, size_t depth, const std::string& where) {
  if (!v.is_array()) return;
  if (depth > 8) throw UserError(where + " nests deeper than 8 levels");
  if (shape.size() == depth) shape.push_back(static_cast<int64_t>(v.size()));
  if (!v.empty()) infer_shape(v[0], shape, depth + 1, where);
}

void flatten(const json& v, const Shape& shape, size_t depth, std::vector<Scalar>& out,
             const std::string& where) {
  if (depth == shape.size()) {
    if (!v.is_number()) throw UserError(where + " holds " + brief(v) + " where a number belongs");
    const double value = v.get<double>();
    if (!std::isfinite(value)) throw UserError(where + " holds a non-finite number");
    out.push_back(static_cast<Scalar>(value));
    return;
  }
  if (!v.is_array() || static_cast<int64_t>(v.size()) != shape[depth]) {
    throw UserError(where + " is ragged: every row must have " + std::to_string(shape[depth]) +
                    " entries at depth " + std::to_string(depth));
  }
  for (const json& item : v) flatten(item, shape, depth + 1, out, where);
}

}  // namespace

Tensor tensor_from_json(const json& value, const std::string& name, const std::string& source) {
  const std::string where = source + ": \"" + name + "\"";
  if (!value.is_array() || value.empty())
    throw UserError(where + " must be a non-empty list of numbers");
  Shape shape;
  infer_shape(value, shape, 0, where);
  std::vector<Scalar> values;
  flatten(value, shape, 0, values, where);
  Tensor t = Tensor::zeros(name, shape);
  t.storage()->values.assign(values.begin(), values.end());
  return t;
}

}  // namespace attnlab
