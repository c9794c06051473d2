#include "app/gui/state/config_fields.hpp"

#include "core/model/config_fields.hpp"

namespace attnlab::gui {

namespace {

FieldValue value_of(const ConfigField& f, const Config& c) {
  return {f.issue_name(), std::string(f.label) + " = " + field_text(f, c)};
}

// Which settings to take back, largest first, until the config is valid: validate() names
// "memory" for a trace above the cap, a lesson ("mla", "decode") for its fields together, and
// otherwise the field (config_fields()' issue_name).
std::vector<const ConfigField*> fields_for_issue(const std::string& issue_field) {
  std::vector<const ConfigField*> fields;
  if (issue_field == "memory") {
    for (const char* name : {"batch", "seq_len", "n_heads", "d_model", "d_k", "d_v"})
      fields.push_back(find_config_field(name));
    return fields;
  }
  for (const ConfigField& f : config_fields())
    if (issue_field == f.issue_name() || issue_field == f.group) fields.push_back(&f);
  return fields;
}

}  // namespace

std::vector<FieldValue> differing_fields(const Config& config, const Config& other) {
  std::vector<FieldValue> out;
  for (const ConfigField& f : config_fields())
    if (field_text(f, config) != field_text(f, other)) out.push_back(value_of(f, config));
  return out;
}

std::string join_fields(const std::vector<FieldValue>& fields) {
  std::string text;
  for (const FieldValue& f : fields) text += (text.empty() ? "" : ", ") + f.text;
  return text;
}

RestoredConfig restore_valid(const Config& saved, const Config& fallback) {
  RestoredConfig out{saved, {}};
  // Each round takes back one setting per issue; a few rounds settle any mix.
  for (int round = 0; round < 8; ++round) {
    const std::vector<ConfigIssue> issues = validate(out.config);
    if (issues.empty()) return out;
    for (const ConfigIssue& issue : issues) {
      for (const ConfigField* f : fields_for_issue(issue.field)) {
        if (field_text(*f, out.config) == field_text(*f, fallback)) continue;
        out.dropped.push_back(value_of(*f, out.config).text + " (" + issue.in_controls + ")");
        copy_field(*f, out.config, fallback);
        break;
      }
    }
  }
  if (!validate(out.config).empty()) {
    out.dropped = {"all of it (" + describe(validate(out.config)) + ")"};
    out.config = fallback;
  }
  return out;
}

}  // namespace attnlab::gui
