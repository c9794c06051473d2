// Core messages never spell a command-line flag or a control's label: they name a setting by its
// field, in double braces, and each front end words it its own way.
//   "{{seq_len}}"         the setting         command line "--seq-len"        controls "T"
//   "{{mask causal}}"     with a value        "--mask causal"                  "mask causal"
//   "raise T{{(seq_len)}}" where to change it  "raise T (--seq-len)"           "raise T"
//   "{{drop decode_steps}}" turning it off    "drop --decode"                  "turn off decode"
// A name is a Config field (core/model/config_fields.hpp) or one of setting_words()'s settings
// that are not fields (the trainer's, the exercise's, MLA's shorthand); braces around anything
// else (a path a user gave) are kept as they are.
#pragma once

#include <string>
#include <vector>

namespace attnlab {

enum class Wording { command_line, controls };

// `message` with every {{…}} worded for the command line or for the controls.
std::string worded(const std::string& message, Wording wording);

// A setting a message may name that is not a Config field.
struct SettingWords {
  const char* name;   // as messages name it: "x_kv"
  const char* flag;   // "--x-kv"
  const char* label;  // as the controls name it: "the K/V inputs"
};
const std::vector<SettingWords>& setting_words();

// Every name inside {{…}} in `message` that is neither a field nor one of setting_words()'s.
std::vector<std::string> unknown_setting_names(const std::string& message);

}  // namespace attnlab
