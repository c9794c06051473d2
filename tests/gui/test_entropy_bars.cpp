// The head-tools tab's entropy bars, read back from what ImGui was asked to draw: each head's
// filled share of its bar is its entropy over uniform attention on each query's visible keys
// (seed 003 is causal: 2.30 bits, not log2 11 = 3.46).
#include <cmath>
#include <cstring>

#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class EntropyBars : public HeadlessImGui {};

// The draw list of the child window the entropy chart is drawn in ("<tab>/entropy_<id>").
const ImDrawList* entropy_draw_list() {
  const ImDrawData* data = ImGui::GetDrawData();
  for (int n = 0; n < data->CmdListsCount; ++n) {
    const char* owner = data->CmdLists[n]->_OwnerName;
    if (owner && std::strstr(owner, "/entropy_")) return data->CmdLists[n];
  }
  return nullptr;
}

bool same_colour_quad(const ImDrawList& list, int first, ImU32 colour) {
  if (first < 0 || first + 4 > list.VtxBuffer.Size) return false;
  for (int k = first; k < first + 4; ++k)
    if (list.VtxBuffer[k].col != colour) return false;
  return true;
}

// Filled width over full width of the bar drawn in `colour`: a filled rectangle in that colour
// laid over the FrameBg rectangle drawn just before it, from the same corner. -1 if none.
double bar_fraction(const ImDrawList& list, ImU32 colour) {
  const ImU32 background = ImGui::GetColorU32(ImGuiCol_FrameBg);
  for (int v = 4; v + 4 <= list.VtxBuffer.Size; ++v) {
    if (!same_colour_quad(list, v, colour) || !same_colour_quad(list, v - 4, background)) continue;
    const ImVec2 corner = list.VtxBuffer[v].pos, back_corner = list.VtxBuffer[v - 4].pos;
    if (corner.x != back_corner.x || corner.y != back_corner.y) continue;
    const double filled = list.VtxBuffer[v + 2].pos.x - corner.x;
    const double full = list.VtxBuffer[v - 2].pos.x - back_corner.x;
    return filled / full;
  }
  return -1;
}

TEST_F(EntropyBars, Seed003BarsAreEntropyOverUniformOnTheVisibleKeys) {
  start_on("seed003");
  ASSERT_TRUE(open_tab(state, "head-tools"));
  frame();
  frame();
  ASSERT_EQ(state.tabs.tool, ToolTab::HeadTools);
  const ImDrawList* list = entropy_draw_list();
  ASSERT_NE(list, nullptr) << "no entropy child window was drawn";
  // Causal, T = 11: query i sees i + 1 keys, so uniform attention averages mean log2(1..11).
  double uniform = 0;
  for (int i = 1; i <= 11; ++i) uniform += std::log2(double(i)) / 11;
  const std::vector<double>& bits = state.session.trace->diagnostics.head_entropy_bits;
  ASSERT_EQ(bits.size(), 2u);
  for (size_t h = 0; h < bits.size(); ++h) {
    const double drawn = bar_fraction(*list, head_colour(int(h)));
    ASSERT_GE(drawn, 0) << "no bar drawn for head " << h;
    // The filled width is rounded to a pixel of a bar a few hundred pixels wide.
    EXPECT_NEAR(drawn, bits[h] / uniform, 0.01) << "head " << h;
    EXPECT_GT(drawn, 0.9) << "head " << h << " is close to uniform over its visible keys";
  }
}

}  // namespace
}  // namespace attnlab::gui
