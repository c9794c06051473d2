// Every Config field once: its name (the member's, and its JSON key), how the controls name it,
// its command-line flag and help, and the range validate() accepts. The JSON reader and writer
// (config_json.cpp), validate()'s size checks, the command-line flags (app/common/config_flags)
// and the GUI's field list (app/gui/state/config_fields) all iterate this table: a new field is
// added to Config and here, nowhere else.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/model/config.hpp"

namespace attnlab {

// Where a field lives in Config; its type says how it is read, written and shown.
using FieldMember =
    std::variant<int64_t Config::*, uint64_t Config::*, bool Config::*, double Config::*,
                 std::string Config::*, MaskSpec Config::*, Mistake Config::*,
                 std::vector<bool> Config::*, PositionEncoding Config::*>;

struct ConfigField {
  const char* name;   // the member and its JSON key: "d_model"
  const char* label;  // as the controls name it: "T" for seq_len
  FieldMember member;
  const char* flag;  // "--d-model"; a bool also gets the "--no-" form ("--bias", "--no-bias")
  const char* help;  // the flag's help (a bool's: of the flag that turns it on)
  const char* help_off = "";  // a bool's "--no-" flag
  // [SECTION] whole numbers (int64_t)
  const char* meaning = "";    // in validate()'s message: "the batch size B (number of sequences)"
  int64_t low = 0, high = 0;   // validate() accepts low..high (high 0: a rule of its own checks it)
  const char* zero = nullptr;  // what 0 means when it is allowed ("sentence length"); else null
  double flag_unit = 0;        // the flag takes a number of these (--memory-cap-mb: 1 MiB)
  // [SECTION] real numbers (double): the JSON reader accepts real_low <= value < real_high (and 0
  // when `zero`); validate() checks the same range for a field with a `meaning` (a rule of its
  // own checks dropout)
  double real_low = 0, real_high = 1;
  // [SECTION] issues
  const char* issue = nullptr;  // validate()'s name for it when not `name` ("decode")
  const char* group = "";       // issues that name a lesson ("mla") answered by these fields

  const char* issue_name() const { return issue ? issue : name; }
};

// The table, in the order of Config's members.
const std::vector<ConfigField>& config_fields();

// The field of that name (member or JSON key), or null.
const ConfigField* find_config_field(const std::string& name);

// The field's value as the controls show it: "8", "sentence length", "causal + padding:3", "on".
std::string field_text(const ConfigField& field, const Config& config);

// Sets `config`'s field to `from`'s.
void copy_field(const ConfigField& field, Config& config, const Config& from);

}  // namespace attnlab
