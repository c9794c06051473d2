#include "app/gui/state/toolkit_tabs.hpp"

namespace attnlab::gui {

namespace {

struct TabText {
  const char* name;
  const char* label;
};
constexpr TabText kToolTabs[kToolTabCount] = {
    {"tensors", "Tensors"},       {"mistakes", "Mistakes"},
    {"memory", "Memory layout"},  {"head-tools", "Heads: 1 vs h, ablation, entropy"},
    {"paths", "Loop vs batched"}, {"counters", "Counters"},
    {"train", "Train"},           {"decode", "Decode"},
    {"kv-cache", "KV cache"},     {"model", "Model"},
    {"word-order", "Word order"}, {"flash", "Flash"},
    {"check", "Check"},
};
constexpr TabText kInfoTabs[kInfoTabCount] = {{"code", "Code"}, {"checks", "Checks"}};

}  // namespace

const char* tool_tab_name(ToolTab tab) {
  return kToolTabs[int(tab)].name;
}

const char* tool_tab_label(ToolTab tab) {
  return kToolTabs[int(tab)].label;
}

const char* info_tab_name(InfoTab tab) {
  return kInfoTabs[int(tab)].name;
}

const char* info_tab_label(InfoTab tab) {
  return kInfoTabs[int(tab)].label;
}

std::string tab_names() {
  std::string names;
  for (const TabText& tab : kToolTabs) names += std::string(names.empty() ? "" : ", ") + tab.name;
  for (const TabText& tab : kInfoTabs) names += std::string(", ") + tab.name;
  return names;
}

bool is_tab_name(const std::string& name) {
  for (const TabText& tab : kToolTabs)
    if (name == tab.name) return true;
  for (const TabText& tab : kInfoTabs)
    if (name == tab.name) return true;
  return false;
}

}  // namespace attnlab::gui
