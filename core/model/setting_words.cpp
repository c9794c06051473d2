#include "core/model/setting_words.hpp"

#include "core/model/config_fields.hpp"

namespace attnlab {

namespace {

// One {{…}} taken apart: "(seq_len)" is a hint, "drop decode" turns a setting off, "mask causal"
// names it with a value.
struct Mention {
  bool hint = false, drop = false;
  std::string name, value;
};

Mention parse(std::string inner) {
  Mention m;
  if (inner.size() >= 2 && inner.front() == '(' && inner.back() == ')') {
    m.hint = true;
    inner = inner.substr(1, inner.size() - 2);
  }
  if (inner.rfind("drop ", 0) == 0) {
    m.drop = true;
    inner = inner.substr(5);
  }
  const size_t space = inner.find(' ');
  m.name = inner.substr(0, space);
  if (space != std::string::npos) m.value = inner.substr(space + 1);
  return m;
}

// The flag and the label of a name; null when it is not known.
const SettingWords* find_words(const std::string& name) {
  static const std::vector<SettingWords> fields = [] {
    std::vector<SettingWords> out;
    for (const ConfigField& field : config_fields())
      out.push_back({field.name, field.flag, field.label});
    return out;
  }();
  for (const auto* table : {&fields, &setting_words()})
    for (const SettingWords& words : *table)
      if (name == words.name) return &words;
  return nullptr;
}

std::string word(const Mention& m, const SettingWords* words, Wording wording) {
  const std::string setting = wording == Wording::command_line ? words->flag : words->label;
  const std::string named = setting + (m.value.empty() ? "" : " " + m.value);
  if (m.hint) return wording == Wording::command_line ? "(" + named + ")" : "";
  if (m.drop) return (wording == Wording::command_line ? "drop " : "turn off ") + named;
  return named;
}

}  // namespace

const std::vector<SettingWords>& setting_words() {
  static const std::vector<SettingWords> words = {
      {"mla", "--mla", "MLA"},
      {"cross", "--sentence-kv / --x-kv", "cross-attention"},
      {"x_kv", "--x-kv", "the K/V inputs"},
      {"shuffle", "--shuffle", "shuffle"},
      {"tokens", "--tokens", "the token ids"},
      {"export", "--export", "the export folder"},
      {"json", "--json", "JSON"},
      {"answer", "--answer", "the answer"},
      {"task", "--task", "task"},
      {"vocab", "--vocab", "vocabulary"},
      {"layers", "--layers", "layers"},
      {"steps", "--steps", "steps"},
      {"batch_size", "--batch-size", "batch size"},
      {"log_every", "--log-every", "log every"},
      {"eval_seq_len", "--eval-seq-len", "evaluation length"},
      {"lr", "--lr", "learning rate"},
      {"weight_decay", "--weight-decay", "weight decay"},
  };
  return words;
}

std::string worded(const std::string& message, Wording wording) {
  std::string out;
  size_t at = 0;
  for (size_t open; (open = message.find("{{", at)) != std::string::npos;) {
    const size_t close = message.find("}}", open + 2);
    if (close == std::string::npos) break;
    std::string before = message.substr(at, open - at);
    const Mention m = parse(message.substr(open + 2, close - open - 2));
    const SettingWords* setting = find_words(m.name);
    if (!setting) {  // not a mention: a user's text (a path, a sentence) kept as it is
      out += before + message.substr(open, close + 2 - open);
      at = close + 2;
      continue;
    }
    const std::string words = word(m, setting, wording);
    // A hint stands after its text, a space apart; where it says nothing, so does the space.
    if (m.hint && !before.empty() && before.back() == ' ') before.pop_back();
    if (m.hint && !words.empty()) before += ' ';
    out += before + words;
    at = close + 2;
  }
  return out + message.substr(at);
}

std::vector<std::string> unknown_setting_names(const std::string& message) {
  std::vector<std::string> unknown;
  for (size_t open = message.find("{{"); open != std::string::npos;
       open = message.find("{{", open + 2)) {
    const size_t close = message.find("}}", open + 2);
    if (close == std::string::npos) break;
    const Mention m = parse(message.substr(open + 2, close - open - 2));
    if (!find_words(m.name)) unknown.push_back(m.name);
  }
  return unknown;
}

}  // namespace attnlab
