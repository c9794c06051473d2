// The middle panel: a tab bar over the tensors of the current step and the teaching toolkit
// (mistakes, memory layout, head tools, loop vs batched, counters, train, decode, KV cache, model,
// word order, flash). Keys 1-9, 0, W and F pick a tab.
#include <imgui.h>

#include <string>

#include "app/gui/check/check_panels.hpp"
#include "app/gui/flash/flash_panels.hpp"
#include "app/gui/model/model_panels.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/positions/positions_panels.hpp"
#include "app/gui/variants/variant_panels.hpp"

namespace attnlab::gui {

namespace {

constexpr const char* kTabTips[kToolTabCount] = {
    "The tensors of the current step, drawn with their shapes and strides (key 1).",
    "Inject a classic bug and compare it with the correct run (key 2; M picks the next bug).",
    "How split, transpose and concat lay the numbers out in memory (key 3).",
    "One head against many, switching heads off, and each head's entropy (key 4).",
    "The per-head loop of the seeds against the batched computation: same output, timed (key 5).",
    "Parameters, FLOPs and bytes of this config, and the seeds' table of real models (key 6).",
    "Train a tiny attention model on a task and watch its heads specialise (key 7).",
    "KV-cache decoding: one token at a time over a growing cache; arrow keys step (key 8).",
    "What sharing K and V saves: GQA, MQA and DeepSeek-V2's latent attention (key 9).",
    "A real model's heads: every layer's maps, the head finder, the next token (key 0).",
    "Word order: shuffling, sinusoidal PE, RoPE's turn and ALiBi's bias (key W).",
    "Long context: FlashAttention's tiled softmax, tile by tile, and its memory (key F).",
    "Check my implementation: a student's own tensors graded stage by stage (key K).",
};

void draw_tab_body(AppState& state, ToolTab tab, HeatmapDrawer* drawer) {
  switch (tab) {
    case ToolTab::Tensors:
      draw_tensors_tab(state);
      break;
    case ToolTab::Mistakes:
      draw_mistakes_tab(state, drawer);
      break;
    case ToolTab::Memory:
      draw_memory_tab(state);
      break;
    case ToolTab::HeadTools:
      draw_head_tools_tab(state);
      break;
    case ToolTab::Paths:
      draw_paths_tab(state);
      break;
    case ToolTab::Counters:
      draw_counters_tab(state);
      break;
    case ToolTab::Train:
      draw_train_tab(state);
      break;
    case ToolTab::Decode:
      draw_decode_tab(state);
      break;
    case ToolTab::KVCache:
      draw_kv_cache_tab(state);
      break;
    case ToolTab::Model:
      draw_model_tab(state, drawer);
      break;
    case ToolTab::WordOrder:
      draw_word_order_tab(state);
      break;
    case ToolTab::Flash:
      draw_flash_tab(state);
      break;
    case ToolTab::Check:
      draw_check_tab(state, drawer);
      break;
  }
}

// A tab's content scrolls where it is taller or wider than the panel (a large font on a small
// screen) rather than run past its edge; the stage view's scene scrolls on its own, under the
// text above it.
void draw_tab(AppState& state, ToolTab tab, HeatmapDrawer* drawer) {
  if (tab == ToolTab::Tensors) {
    draw_tab_body(state, tab, drawer);
    return;
  }
  begin_scroll_region("##tab_body");
  draw_tab_body(state, tab, drawer);
  end_scroll_region();
}

}  // namespace

// Every tab but the stage view's own: the heads' maps beside it are the Tensors tab's lesson.
bool presenter_tab_full_width(ToolTab tab) {
  return tab != ToolTab::Tensors;
}

void draw_toolkit_panel(AppState& state, HeatmapDrawer* drawer) {
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNavInputs;
  const bool open_panel = begin_panel(state, PanelId::Tensors, "Tensors###tensors", flags);
  if (open_panel && state.session.trace && state.ui.presenter) {
    // Presenter mode: the stage view alone, no tabs; keys 2 to 9, 0, W and F show their tab
    // across the width in its place (3: Memory layout, 4: Heads tools, 5: Loop vs batched), 1
    // the stage view again.
    if (presenter_tab_full_width(state.tabs.tool))
      draw_tab(state, state.tabs.tool, drawer);
    else
      draw_tensors_tab(state);
  } else if (open_panel && state.session.trace && begin_tab_bar("toolkit_tabs")) {
    StateTabs tabs(int(state.tabs.tool));
    for (int i = 0; i < kToolTabCount; ++i) {
      const ToolTab tab = ToolTab(i);
      const bool open = ImGui::BeginTabItem(tool_tab_label(tab), nullptr, tabs.flags(i));
      // The tooltip says what the tab teaches and its key.
      const std::string tip = std::string(tool_tab_label(tab)) + ": " + kTabTips[i];
      tooltip(tip.c_str());
      if (!open) continue;
      if (tabs.opened(i)) state.tabs.tool = tab;
      draw_tab(state, tab, drawer);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace attnlab::gui
