// The tabs of the two tabbed panels: the large middle panel (tensors and the teaching toolkit) and
// the right-hand one (the code of the forward pass, and the run's checks). Keys 1-9, 0, W, F and K
// pick a middle tab, C switches between code and checks; `attnlab --tab NAME` starts on one.
#pragma once

#include <string>

namespace attnlab::gui {

enum class ToolTab {
  Tensors,
  Mistakes,
  Memory,
  HeadTools,
  Paths,
  Counters,
  Train,
  Decode,
  KVCache,
  Model,
  WordOrder,  // key W
  Flash,      // key F
  Check       // key K: a student's own implementation graded (app/gui/check/)
};
constexpr int kToolTabCount = 13;

enum class InfoTab { Code, Checks };
constexpr int kInfoTabCount = 2;

const char* tool_tab_name(ToolTab tab);     // "tensors", "mistakes", ... (for --tab)
const char* tool_tab_label(ToolTab tab);    // "Tensors", "Mistakes", ... (on screen)
const char* info_tab_name(InfoTab tab);     // "code", "checks"
const char* info_tab_label(InfoTab tab);    // "Code", "Checks"
std::string tab_names();                    // "tensors, mistakes, ..., code, checks"
bool is_tab_name(const std::string& name);  // one of tab_names()

}  // namespace attnlab::gui
