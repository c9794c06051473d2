// The sinusoidal encoding of "Attention Is All You Need": the (T x d) table added to x, each column
// a sine or cosine of its own frequency, and PE PE^T (T x T): how alike two positions' encodings
// are, which depends only on how far apart they are (each diagonal is one colour).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/positions/positions_panels.hpp"
#include "app/gui/positions/value_grid.hpp"

namespace attnlab::gui {

void draw_sinusoidal_view(AppState& state) {
  const Palette& colours = palette(state.ui.theme);
  const Config& c = state.session.config;
  if (c.pos != PositionEncoding::Sinusoidal)
    offer_encoding(state, PositionEncoding::Sinusoidal, "the table");
  const int64_t d = c.input_dim(), T = c.tokens();
  // At least kFewestPositionsDrawn rows, so that the slow columns' waves show; the sentence's T
  // marked by a line.
  const SinusoidalPicture& p =
      sinusoidal_picture(state.word_order, std::max(T, kFewestPositionsDrawn), d);
  text_wrapped_format(
      "PE[t, 2i] = sin(t / 10000^(2i/d)), PE[t, 2i+1] = cos(\u2026), added to x (d = %lld). "
      "PE\u00B7PE\u1D40 = \u03A3 cos((t \u2212 s) w_i): one colour per diagonal, it depends only "
      "on t \u2212 s.",
      (long long)d);
  if (p.T < T) text_wrapped_format("The first %lld positions are drawn.", (long long)p.T);
  if (p.T > T)
    text_wrapped_format("%lld positions drawn; the sentence's %lld end at the white line.",
                        (long long)p.T, (long long)T);
  const float font = ImGui::GetFontSize();
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  const float width = ImGui::GetContentRegionAvail().x - font * 0.5f;
  const float gap = font * 1.5f;
  const float height = room_below(0.3f) - title_h;
  // The table keeps cells about square up to half the width; the similarity map is square.
  const float side = std::min(height, (width - gap) / 2);
  if (side < font * 2) {
    ImGui::TextWrapped("Too little room to draw the maps: enlarge the window.");
    return;
  }
  // Square cells when d is large, but never narrower than the similarity map (its title fits).
  const float table_w = std::clamp(side * float(p.d) / float(std::max<int64_t>(p.T, 1)), side,
                                   std::max(side, width - gap - side));
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const std::string table_title =
      "PE (" + std::to_string(p.T) + " \u00D7 " + std::to_string(p.d) + ")";
  list->AddText(at, colours.text, table_title.c_str());
  ValueGrid table{[&p](int64_t t, int64_t i) { return p.table[size_t(t * p.d + i)]; },
                  p.T,
                  p.d,
                  ColormapKind::Diverging,
                  -1,
                  1};
  draw_value_grid(list, ImVec2(at.x, at.y + title_h), std::max(table_w, font), side, table,
                  colours.grid);
  const float cell = side / float(p.T);
  if (p.T > T) {  // where the sentence's positions end
    const float y = at.y + title_h + float(T) * cell;
    list->AddLine(ImVec2(at.x, y), ImVec2(at.x + std::max(table_w, font), y), IM_COL32_WHITE,
                  std::max(2.0f, font / 10));
  }
  const float x_gram = at.x + std::max(table_w, font) + gap;
  const std::string gram_title =
      "PE\u00B7PE\u1D40 (" + std::to_string(p.T) + " \u00D7 " + std::to_string(p.T) + ")";
  list->AddText(ImVec2(x_gram, at.y), colours.text, gram_title.c_str());
  ValueGrid gram{[&p](int64_t t, int64_t s) { return p.similarity[size_t(t * p.T + s)]; },
                 p.T,
                 p.T,
                 ColormapKind::Diverging,
                 -double(p.d) / 2,
                 double(p.d) / 2};
  draw_value_grid(list, ImVec2(x_gram, at.y + title_h), side, side, gram, colours.grid);
  if (p.T > T) {  // the sentence's T x T corner
    const ImVec2 corner(x_gram, at.y + title_h);
    list->AddRect(corner, ImVec2(corner.x + float(T) * cell, corner.y + float(T) * cell),
                  IM_COL32_WHITE, 0, 0, std::max(2.0f, font / 10));
  }
  ImGui::Dummy(ImVec2(width, title_h + side));
}

}  // namespace attnlab::gui
