// ALiBi (Press et al.): each head's scores lowered by m_h |t - s|, slopes m_h = 2^(-8(h+1)/H). The
// bias matrix of every head (dark: a large penalty), and how far each head looks: the mean
// distance |t - s| its weights put on the keys in this run (core/position's measurement).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/positions/positions_panels.hpp"
#include "app/gui/positions/value_grid.hpp"
#include "core/position/encoding_views.hpp"
#include "core/position/position_encoding.hpp"

namespace attnlab::gui {

namespace {

constexpr int64_t kMostHeadsDrawn = 16;

// "1/2", "1/16", or "0.0039" when the slope is not a power of two's inverse.
std::string slope_text(double slope) {
  const double inverse = 1.0 / slope;
  char text[24];
  if (std::abs(inverse - std::round(inverse)) < 1e-9)
    std::snprintf(text, sizeof text, "1/%.0f", inverse);
  else
    std::snprintf(text, sizeof text, "%.3g", slope);
  return text;
}

}  // namespace

void draw_alibi_view(AppState& state) {
  const Palette& colours = palette(state.ui.theme);
  const Trace& trace = *state.session.trace;
  const Config& c = trace.config;
  const bool on = c.alibi() && !trace.shape_only;
  if (!c.alibi()) offer_encoding(state, PositionEncoding::Alibi, "each head's bias");
  const int64_t H = c.n_heads, T = std::min<int64_t>(c.tokens(), kMostPositionsDrawn);
  const std::vector<double> slopes = alibi_slopes(H);
  const std::vector<double> distance = on ? mean_attention_distance(trace) : std::vector<double>{};
  text_wrapped_format(
      "score \u2212 m_h |t \u2212 s| before the mask: steep heads (m = %s) look near, gentle ones "
      "(m = %s) far.%s",
      slope_text(slopes.front()).c_str(), slope_text(slopes.back()).c_str(),
      on ? " Under each map: its weights' mean distance in this run." : "");
  const int64_t shown = std::min(H, kMostHeadsDrawn);
  if (shown < H)
    text_wrapped_format("The first %lld of %lld heads are drawn.", (long long)shown, (long long)H);
  const float font = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x - font * 0.5f;
  const float caption_h = ImGui::GetTextLineHeightWithSpacing() * (on ? 2 : 1);
  const float height = room_below(0.3f);
  const float gap = font * 0.8f;
  // The columns giving the largest square maps that fit the room, with the captions under each
  // row (in a smaller font, down to 0.6 of it, when a map is narrower than its caption).
  const std::string widest_caption =
      "h" + std::to_string(shown - 1) + "  m = " + slope_text(slopes[size_t(shown - 1)]);
  const float caption_w = std::max(ImGui::CalcTextSize(widest_caption.c_str()).x,
                                   on ? ImGui::CalcTextSize("looks 00.0 away").x : 0.0f);
  float side = 0;
  int64_t columns = 1;
  for (int64_t cols = 1; cols <= shown; ++cols) {
    const int64_t rows = (shown + cols - 1) / cols;
    const float s = std::min((width - gap * float(cols - 1)) / float(cols),
                             (height - float(rows) * (caption_h + gap)) / float(rows));
    if (s > side) {
      side = s;
      columns = cols;
    }
  }
  if (side < font * 1.5f) {
    ImGui::TextWrapped("Too little room to draw the maps: enlarge the window.");
    return;
  }
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const double deepest = slopes.front() * double(T - 1);
  const float caption_size = std::clamp(font * (side + gap) / caption_w, font * 0.6f, font);
  for (int64_t hd = 0; hd < shown; ++hd) {
    const float x = at.x + float(hd % columns) * (side + gap);
    const float y = at.y + float(hd / columns) * (side + caption_h + gap);
    const double m = slopes[size_t(hd)];
    // The bias -m |t - s|, coloured from the deepest penalty (dark) to 0 (bright).
    ValueGrid bias{[m](int64_t t, int64_t s) { return alibi_bias(m, t, s); },
                   T,
                   T,
                   ColormapKind::Sequential,
                   -deepest,
                   0};
    draw_value_grid(list, ImVec2(x, y), side, side, bias, colours.grid);
    const std::string caption = "h" + std::to_string(hd) + "  m = " + slope_text(m);
    draw_cut_text(ImVec2(x, y + side + 2), side + gap, caption_size, head_colour(int(hd)),
                  caption.c_str());
    if (on && hd < int64_t(distance.size())) {
      char reach[48];
      std::snprintf(reach, sizeof reach, "looks %.1f away", distance[size_t(hd)]);
      draw_cut_text(ImVec2(x, y + side + 2 + ImGui::GetTextLineHeightWithSpacing()), side + gap,
                    caption_size, colours.text, reach);
    }
  }
  const int64_t rows = (shown + columns - 1) / columns;
  ImGui::Dummy(ImVec2(width, float(rows) * (side + caption_h + gap)));
}

}  // namespace attnlab::gui
