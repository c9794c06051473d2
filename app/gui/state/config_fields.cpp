#include "app/gui/state/config_fields.hpp"

#include <functional>

#include "core/model/masks.hpp"
#include "core/teaching/mistakes.hpp"

namespace attnlab::gui {

namespace {

std::string ablated_text(const std::vector<bool>& off) {
  std::string text;
  for (size_t h = 0; h < off.size(); ++h)
    if (off[h]) text += (text.empty() ? "" : ",") + std::to_string(h);
  return text.empty() ? "none" : text;
}

struct Field {
  const char* field;
  const char* label;
  std::function<std::string(const Config&)> text;
  std::function<void(Config&, const Config&)> reset;  // take this setting from the fallback
};

#define ATTNLAB_FIELD(name, label, text_expr)                                                      \
  Field {                                                                                          \
#name, label, [](const Config& c) { return text_expr; },                                       \
                                                          [](Config & c,                           \
                                                             const Config& f) { c.name = f.name; } \
  }

const std::vector<Field>& fields() {
  static const std::vector<Field> table = {
      ATTNLAB_FIELD(sentence, "sentence", "\"" + c.sentence + "\""),
      ATTNLAB_FIELD(seq_len, "T",
                    c.seq_len == 0 ? std::string("sentence length") : std::to_string(c.seq_len)),
      ATTNLAB_FIELD(batch, "B", std::to_string(c.batch)),
      ATTNLAB_FIELD(d_in, "d_in", c.d_in == 0 ? std::string("d_model") : std::to_string(c.d_in)),
      ATTNLAB_FIELD(d_model, "d_model", std::to_string(c.d_model)),
      ATTNLAB_FIELD(n_heads, "n_heads", std::to_string(c.n_heads)),
      ATTNLAB_FIELD(d_k, "d_k",
                    c.d_k == 0 ? std::string("d_model / n_heads") : std::to_string(c.d_k)),
      ATTNLAB_FIELD(d_v, "d_v", c.d_v == 0 ? std::string("d_k") : std::to_string(c.d_v)),
      ATTNLAB_FIELD(mask, "mask", describe(c.mask)),
      ATTNLAB_FIELD(bias, "biases", c.bias ? std::string("on") : std::string("off")),
      ATTNLAB_FIELD(output_proj, "output projection",
                    c.output_proj ? std::string("on") : std::string("off")),
      ATTNLAB_FIELD(dropout, "dropout", format_number(c.dropout)),
      ATTNLAB_FIELD(seed, "seed", std::to_string(c.seed)),
      ATTNLAB_FIELD(shape_only, "shape-only",
                    c.shape_only ? std::string("on") : std::string("off")),
      ATTNLAB_FIELD(memory_cap_bytes, "memory cap", format_bytes(double(c.memory_cap_bytes))),
      ATTNLAB_FIELD(mistake, "mistake",
                    c.mistake == Mistake::None ? std::string("none")
                                               : std::string(mistake_info(c.mistake).name)),
      ATTNLAB_FIELD(ablated_heads, "heads off", ablated_text(c.ablated_heads)),
  };
  return table;
}

#undef ATTNLAB_FIELD

const Field* find_field(const std::string& name) {
  for (const Field& f : fields())
    if (name == f.field) return &f;
  return nullptr;
}

FieldValue value_of(const Field& f, const Config& c) {
  return {f.field, std::string(f.label) + " = " + f.text(c)};
}

// validate() names "memory" for a trace above the cap and "memory_cap" for the cap itself: which
// settings to take back, largest first, until it fits.
std::vector<const char*> fields_for_issue(const std::string& issue_field) {
  if (issue_field == "memory") return {"batch", "seq_len", "n_heads", "d_model", "d_k", "d_v"};
  if (issue_field == "memory_cap") return {"memory_cap_bytes"};
  return {issue_field.c_str()};
}

}  // namespace

std::vector<FieldValue> differing_fields(const Config& config, const Config& other) {
  std::vector<FieldValue> out;
  for (const Field& f : fields())
    if (f.text(config) != f.text(other)) out.push_back(value_of(f, config));
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
      for (const char* name : fields_for_issue(issue.field)) {
        const Field* f = find_field(name);
        if (!f || f->text(out.config) == f->text(fallback)) continue;
        out.dropped.push_back(value_of(*f, out.config).text + " (" + issue.message + ")");
        f->reset(out.config, fallback);
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
