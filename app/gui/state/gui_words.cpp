#include "app/gui/state/gui_words.hpp"

#include <regex>

#include "core/model/config_fields.hpp"

namespace attnlab::gui {

namespace {

// The control a flag stands for, as the controls panel labels it.
std::string control_of(const std::string& flag) {
  if (flag == "--mla") return "MLA";
  if (flag == "--x-kv") return "the K/V inputs";
  if (flag == "--mask") return "the mask";
  for (const ConfigField& field : config_fields())
    if (flag == field.flag) return field.label;
  return flag.substr(2);  // not a control: at least no dashes
}

}  // namespace

std::string in_gui_words(const std::string& message) {
  // " (--seq-len)", " (--mask causal)", " (--sentence-kv / --x-kv)", " (--mla D_C[:D_ROPE])"
  static const std::regex parenthesis(R"( ?\([^()]*--[a-z][^()]*\))");
  static const std::regex drop(R"(drop (--[a-z-]+)(?: / (--[a-z-]+))?)");
  static const std::regex flag(R"(--[a-z][a-z-]*)");
  std::string text = std::regex_replace(message, parenthesis, "");
  std::string out;
  std::smatch m;
  while (std::regex_search(text, m, drop)) {
    out += m.prefix().str() + "turn off " + control_of(m[1].str());
    if (m[2].matched) out += " / " + control_of(m[2].str());
    text = m.suffix().str();
  }
  text = out + text;
  out.clear();
  while (std::regex_search(text, m, flag)) {
    out += m.prefix().str() + control_of(m.str());
    text = m.suffix().str();
  }
  return out + text;
}

}  // namespace attnlab::gui
