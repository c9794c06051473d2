// The Word order tab (key W): how a transformer is told where each token sits. Four views, picked
// in a row at the top (until one is picked, the one for the config's position encoding):
// shuffling the tokens, the sinusoidal table, RoPE's turning pairs, ALiBi's biases.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/positions/positions_panels.hpp"

namespace attnlab::gui {

namespace {

constexpr const char* kViewTips[kWordOrderViewCount] = {
    "Shuffle the sentence: without positions every map is the old one permuted.",
    "The sinusoidal table added to x, and how alike two positions' encodings are.",
    "RoPE turns each pair of q and k dimensions by the position: the angle grows with distance.",
    "ALiBi lowers each score by the distance, a different slope per head.",
};

}  // namespace

float room_below(float reserve_lines) {
  // At least a readable size: the view's child window scrolls when the panel is shorter.
  return std::max(
      ImGui::GetFontSize() * 7,
      ImGui::GetContentRegionAvail().y - reserve_lines * ImGui::GetTextLineHeightWithSpacing());
}

void offer_encoding(AppState& state, PositionEncoding pos, const char* what) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
  text_wrapped_format("This run uses --pos %s, so %s is computed from the formula here.",
                      std::string(position_encoding_name(state.session.config.pos)).c_str(), what);
  ImGui::PopStyleColor();
  const std::string label = "Use " + std::string(position_encoding_name(pos));
  if (ImGui::Button(label.c_str())) {
    state.requests.later([pos](AppState& s) {
      Config config = s.session.config;
      config.pos = pos;
      s.session.preset_name.clear();
      set_config(s, config);
    });
  }
  tooltip("Switch the run's position encoding (Controls \u2192 Next lessons \u2192 positions).");
}

void draw_word_order_tab(AppState& state) {
  const WordOrderView shown = shown_view(state);
  for (int i = 0; i < kWordOrderViewCount; ++i) {
    const WordOrderView view = WordOrderView(i);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                        ImGui::CalcTextSize(word_order_view_label(view)).x;
    if (i > 0) same_line_if_fits(width, style.ItemSpacing.x);
    if (ImGui::RadioButton(word_order_view_label(view), shown == view))
      state.word_order.chosen = view;
    tooltip(kViewTips[i]);
  }
  ImGui::Separator();
  // The view scrolls on its own when the panel is short (1280 x 720 with a large font).
  begin_padded_child("word_order_view", ImVec2(0, 0));
  switch (shown) {
    case WordOrderView::Shuffle:
      draw_shuffle_view(state);
      break;
    case WordOrderView::Sinusoidal:
      draw_sinusoidal_view(state);
      break;
    case WordOrderView::Rope:
      draw_rope_view(state);
      break;
    case WordOrderView::Alibi:
      draw_alibi_view(state);
      break;
  }
  ImGui::EndChild();
}

}  // namespace attnlab::gui
