#include "app/gui/state/valid_values.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <utility>

namespace attnlab::gui {

namespace {

using FieldSet = std::set<std::string>;

FieldSet issue_fields(const Config& config) {
  FieldSet fields;
  for (const ConfigIssue& issue : validate(config)) fields.insert(issue.field);
  return fields;
}

std::vector<int64_t> compute_valid_values(const Config& config, int64_t Config::*member,
                                          int64_t low, int64_t high) {
  std::vector<FieldSet> issues;  // per value in low..high
  for (int64_t v = low; v <= high; ++v) {
    Config candidate = config;
    candidate.*member = v;
    issues.push_back(issue_fields(candidate));
  }
  // The issues every value has are about other settings.
  FieldSet everywhere = issues.empty() ? FieldSet{} : issues.front();
  for (const FieldSet& fields : issues) {
    FieldSet kept;
    std::set_intersection(everywhere.begin(), everywhere.end(), fields.begin(), fields.end(),
                          std::inserter(kept, kept.end()));
    everywhere = std::move(kept);
  }
  std::vector<int64_t> values;
  for (int64_t v = low; v <= high; ++v)
    if (issues[size_t(v - low)] == everywhere) values.push_back(v);
  return values;
}

// The last answer per member: the controls ask every frame, the config changes rarely.
struct Asked {
  Config config;
  int64_t low = 0, high = -1;
  std::vector<int64_t> values;
};

}  // namespace

std::vector<int64_t> valid_values(const Config& config, int64_t Config::*member, int64_t low,
                                  int64_t high) {
  static std::vector<std::pair<int64_t Config::*, Asked>> last;
  Config key = config;
  key.*member = 0;  // the answer does not depend on the value the control holds now
  auto found =
      std::find_if(last.begin(), last.end(), [&](const auto& m) { return m.first == member; });
  if (found == last.end()) found = last.insert(last.end(), {member, Asked{}});
  Asked& asked = found->second;
  if (asked.low != low || asked.high != high || !(asked.config == key))
    asked = Asked{key, low, high, compute_valid_values(config, member, low, high)};
  return asked.values;
}

std::vector<int64_t> valid_head_counts(const Config& config, int64_t most) {
  return valid_values(config, &Config::n_heads, 1, most);
}

int position_among(const std::vector<int64_t>& values, int64_t value) {
  int at = 0;
  for (int i = 0; i < int(values.size()); ++i)
    if (values[size_t(i)] <= value) at = i;
  return at;
}

}  // namespace attnlab::gui
