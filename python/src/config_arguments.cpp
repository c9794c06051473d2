#include "python/src/config_arguments.hpp"

#include <CLI/CLI.hpp>
#include <vector>

#include "app/common/config_flags.hpp"
#include "core/model/config_fields.hpp"
#include "core/model/errors.hpp"
#include "core/model/preset.hpp"

namespace py = pybind11;

namespace attnlab::python {

namespace {

constexpr const char* kMla = "mla";  // --mla D_C[:D_ROPE], the one flag without a field

std::string setting_names() {
  std::string names;
  for (const ConfigField& field : config_fields()) names += std::string(field.name) + ", ";
  return names + kMla;
}

// The flags one keyword argument stands for: n_heads=2 -> --heads=2; bias=False -> --no-bias;
// mask=["causal", "padding:3"] -> --mask=causal --mask=padding:3.
void add_flags(const std::string& key, py::handle value, std::vector<std::string>& args) {
  const ConfigField* field = key == kMla ? nullptr : find_config_field(key);
  if (!field && key != kMla)
    throw UserError(key + "=: unknown setting; the settings are " + setting_names());
  const std::string flag = field ? field->flag : "--mla";
  const bool is_switch = field && std::holds_alternative<bool Config::*>(field->member);
  const std::string shown = py::str(py::repr(value));
  if (value.is_none()) return;
  if (is_switch != py::isinstance<py::bool_>(value))
    throw UserError(key + "=" + shown + ": " +
                    (is_switch ? "give True or False" : "give a value, not True or False"));
  if (is_switch) {
    args.push_back(value.cast<bool>() ? flag : "--no-" + flag.substr(2));
    return;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    for (py::handle item : value) args.push_back(flag + "=" + std::string(py::str(item)));
    return;
  }
  args.push_back(flag + "=" + std::string(py::str(value)));
}

}  // namespace

Settings settings_from_arguments(const std::optional<std::string>& preset,
                                 const py::dict& keywords) {
  std::vector<std::string> args{"attnlab"};
  for (const auto& [key, value] : keywords) add_flags(py::str(key), value, args);
  ConfigFlags flags;
  CLI::App app;
  add_config_flags(app, flags);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  try {
    app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    throw UserError(e.what());
  }
  Settings s;
  if (preset) {
    Preset found = find_preset(*preset);
    s.config = found.config;
    s.inputs = found.inputs;
  }
  apply_config_flags(flags, s.config, s.inputs);
  return s;
}

}  // namespace attnlab::python
