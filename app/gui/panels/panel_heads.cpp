// The heads panel: one heatmap per head (weights, or the scores before softmax) with token labels
// on both axes, a colour legend with its range, hatched masked cells, and hover that names the
// query and key and highlights the same query row in every head.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

#include "app/gui/look/axis_labels.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/heads_grid.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/stale_banner.hpp"
#include "app/gui/state/map_view.hpp"

namespace attnlab::gui {

namespace {

// Text turned 90 degrees counter-clockwise (reading upwards), for the key labels on top:
// rotates the vertices AddText just wrote around the text's start.
void add_vertical_text(ImDrawList* list, ImFont* font, float size, ImVec2 bottom_left, ImU32 colour,
                       const char* text) {
  const int first = list->VtxBuffer.Size;
  list->AddText(font, size, bottom_left, colour, text);
  for (int i = first; i < list->VtxBuffer.Size; ++i) {
    ImVec2& p = list->VtxBuffer[i].pos;
    const ImVec2 d(p.x - bottom_left.x, p.y - bottom_left.y);
    p = ImVec2(bottom_left.x + d.y, bottom_left.y - d.x);
  }
}

// [SECTION] pieces

// The colour bar with its range, the masked swatch and the one-line note on the scale, each
// beside what came before when it fits (the bar shrinks to 5 em for that), else on a new line.
// Compact: the bar alone beside the title (down to 3 em), the note and the swatch's meaning in
// its tooltip.
void legend(const HeatmapSet& set, const Palette& colours, bool compact) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const LegendText text = legend_text(set);
  const float bar_h = font * 0.8f;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float texts = ImGui::CalcTextSize(text.low.c_str()).x +
                      ImGui::CalcTextSize(text.high.c_str()).x + 2 * spacing;
  const float room_beside = room_beside_last_item(font * 0.8f) - texts;
  float bar_w = font * 8;
  if (room_beside >= font * (compact ? 3 : 5)) {
    bar_w = std::min(bar_w, room_beside);
    ImGui::SameLine(0, font * 0.8f);
  }
  ImGui::TextUnformatted(text.low.c_str());
  ImGui::SameLine();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float y = at.y + (ImGui::GetTextLineHeight() - bar_h) * 0.5f;
  constexpr int kSegments = 64;
  for (int i = 0; i < kSegments; ++i) {
    const float t0 = float(i) / kSegments, t1 = float(i + 1) / kSegments;
    list->AddRectFilled(ImVec2(at.x + bar_w * t0, y), ImVec2(at.x + bar_w * t1 + 0.5f, y + bar_h),
                        colour_at_packed(set.colormap, 0.5f * (t0 + t1)));
  }
  list->AddRect(ImVec2(at.x, y), ImVec2(at.x + bar_w, y + bar_h), colours.block_border);
  ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
  ImGui::SameLine();
  ImGui::TextUnformatted(text.high.c_str());
  if (compact) {
    std::string hidden = text.note;
    if (set.masked_cells > 0)
      hidden += (hidden.empty() ? "" : "\n") + std::string("hatched: masked");
    if (!hidden.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", hidden.c_str());
    return;
  }
  if (!text.note.empty()) {  // the scale in use
    same_line_if_fits(ImGui::CalcTextSize(text.note.c_str()).x, font * 0.8f);
    ImGui::TextDisabled("%s", text.note.c_str());
  }
  if (set.masked_cells > 0) {
    const float swatch_w = bar_h * 1.6f;
    same_line_if_fits(swatch_w + spacing + ImGui::CalcTextSize("masked").x, font * 0.8f);
    const ImVec2 swatch = ImGui::GetCursorScreenPos();
    const float swatch_y = swatch.y + (ImGui::GetTextLineHeight() - bar_h) * 0.5f;
    const ImVec2 a(swatch.x, swatch_y), b(swatch.x + swatch_w, swatch_y + bar_h);
    list->AddRectFilled(a, b, colours.masked_a);
    list->PushClipRect(a, b, true);
    for (float x = a.x - bar_h; x < b.x; x += bar_h * 0.5f)
      list->AddLine(ImVec2(x, b.y), ImVec2(x + bar_h, a.y), colours.masked_b, 1.5f);
    list->PopClipRect();
    ImGui::Dummy(ImVec2(swatch_w, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextUnformatted("masked");
  }
}

// The token as the font draws it (characters it lacks as "U+732B"); with cross-attention the
// keys are the key/value sentence's tokens.
std::string token_at(const Trace& trace, int64_t index, bool key_side = false) {
  const std::vector<std::string>& tokens =
      key_side && !trace.tokens_kv.empty() ? trace.tokens_kv : trace.tokens;
  if (index >= int64_t(tokens.size())) return "?";
  return display_text(tokens[size_t(index)], *ImGui::GetFont());
}

// Rows and columns are tokens (columns the keys'), or heads for the forget-transpose mistake's
// (h, h) maps.
std::string axis_label(const Trace& trace, const HeatmapSet& set, int64_t index,
                       bool column = false) {
  if (!set.maps_are_tokens) return token_at(trace, index, column);
  char label[24];
  std::snprintf(label, sizeof label, "h%lld", (long long)index);
  return label;
}

void hover_tooltip(const AppState& state, const HeatmapSet& set, const HoverCell& hover) {
  const Trace& trace = *state.session.trace;
  const bool masked = set.masked(hover.head, hover.query, hover.key);
  const float shown =
      set.shown[size_t((hover.head * set.rows + hover.query) * set.cols + hover.key)];
  ImGui::BeginTooltip();
  if (set.maps_are_tokens) {
    ImGui::Text("token %d \"%s\" (the transpose was forgotten: heads attend to heads)", hover.head,
                token_at(trace, hover.head).c_str());
  } else {
    ImGui::Text("head %d", hover.head);
  }
  ImGui::Text("query %lld \"%s\"", (long long)hover.query,
              axis_label(trace, set, hover.query).c_str());
  ImGui::Text("key %lld \"%s\"", (long long)hover.key,
              axis_label(trace, set, hover.key, true).c_str());
  if (masked) {
    ImGui::Text("masked: this key is hidden from this query (%s %g)", heatmap_view_name(set.view),
                double(shown));
  } else {
    ImGui::Text("%s = %.4f", heatmap_view_name(set.view), double(shown));
  }
  ImGui::EndTooltip();
}

// The cells a placement shows (rows = columns = `span` from `first`), and its side in pixels.
struct Window {
  MapView view;
  float side = 0;
  float cell() const { return side / float(view.span); }
  // Pixel offset of a cell's near edge from the placement's corner.
  float offset(double index, double first) const { return float((index - first)) * cell(); }
};

void draw_axis_labels(ImDrawList* list, const Trace& trace, const HeatmapSet& set,
                      const Window& window, ImVec2 origin, bool left, bool top, float size,
                      ImU32 colour) {
  ImFont* font = ImGui::GetFont();
  const MapView& v = window.view;
  const auto last = int64_t(std::ceil(std::max(v.first_row, v.first_col) + v.span));
  const auto row_name = [&](int64_t i) { return axis_label(trace, set, i); };
  for (const AxisLabel& label :
       axis_labels(std::min(last, set.rows), window.cell(), size, row_name)) {
    const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0, label.text.c_str());
    const double i = double(label.index) + 0.5;
    if (left && i > v.first_row && i < v.first_row + v.span)
      list->AddText(font, size,
                    ImVec2(origin.x - text.x - size * 0.3f,
                           origin.y + window.offset(i, v.first_row) - text.y * 0.5f),
                    colour, label.text.c_str());
  }
  const auto column_name = [&](int64_t i) { return axis_label(trace, set, i, true); };
  for (const AxisLabel& label :
       axis_labels(std::min(last, set.cols), window.cell(), size, column_name)) {
    const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0, label.text.c_str());
    const double i = double(label.index) + 0.5;
    if (top && i > v.first_col && i < v.first_col + v.span)
      add_vertical_text(
          list, font, size,
          ImVec2(origin.x + window.offset(i, v.first_col) - text.y * 0.5f, origin.y - size * 0.3f),
          colour, label.text.c_str());
  }
}

// Numbers inside the visible cells, when they are large enough to read them (seed 002's 3 x 3,
// or any map zoomed in far enough).
void cell_values(ImDrawList* list, const HeatmapSet& set, int head, ImVec2 origin,
                 const Window& window, float size) {
  ImFont* font = ImGui::GetFont();
  const float cell = window.cell();
  const float needed = font->CalcTextSizeA(size, FLT_MAX, 0, "-0.00").x + 4;
  if (cell < needed || cell < size * 1.2f) return;
  const MapView& v = window.view;
  const float span = std::max(set.value_max - set.value_min, 1e-12f);
  list->PushClipRect(origin, ImVec2(origin.x + window.side, origin.y + window.side), true);
  for (auto i = int64_t(v.first_row); i < std::min<int64_t>(set.rows, v.first_row + v.span + 1);
       ++i) {
    for (auto j = int64_t(v.first_col); j < std::min<int64_t>(set.cols, v.first_col + v.span + 1);
         ++j) {
      if (set.masked(head, i, j)) continue;
      const float value = set.at(head, i, j);  // a weight's colour position, or the score
      char text[16];                           // the real value, whatever the colour scale
      std::snprintf(text, sizeof text, "%.2f", double(set.real_at(head, i, j)));
      const ImVec2 t = font->CalcTextSizeA(size, FLT_MAX, 0, text);
      const ImU32 ink =
          text_colour_on(colour_at_packed(set.colormap, (value - set.value_min) / span));
      list->AddText(font, size,
                    ImVec2(origin.x + window.offset(double(j) + 0.5, v.first_col) - t.x * 0.5f,
                           origin.y + window.offset(double(i) + 0.5, v.first_row) - t.y * 0.5f),
                    ink, text);
    }
  }
  list->PopClipRect();
}

// [SECTION] the maps

// The longest title that fits above a map `width` pixels wide.
std::string head_title(const Trace& trace, const HeatmapSet& set, int head, float width) {
  const float font = ImGui::GetFontSize();
  char title[96];
  const std::vector<double>& entropy = trace.diagnostics.head_entropy_bits;
  const std::vector<bool>& off = trace.config.ablated_heads;
  const bool ablated = size_t(head) < off.size() && off[size_t(head)];
  std::snprintf(title, sizeof title, ablated ? "head %d (off)" : "head %d", head);
  if (set.maps_are_tokens) {
    std::snprintf(title, sizeof title, "%s", token_at(trace, head).c_str());
  } else if (size_t(head) < entropy.size()) {
    char longer[96];
    std::snprintf(longer, sizeof longer, "head %d%s \u00B7 %.2f bits", head,
                  ablated ? " (off)" : "", entropy[size_t(head)]);
    if (ImGui::CalcTextSize(longer).x + font * 0.7f <= width)
      std::snprintf(title, sizeof title, "%s", longer);
  }
  if (ImGui::CalcTextSize(title).x + font * 0.7f > width)
    std::snprintf(title, sizeof title, set.maps_are_tokens ? "t%d" : "h%d", head);
  return title;
}

// Room for the query labels: the widest token, and the widest position when thinned ("1023:").
float label_width(const Trace& trace, const HeatmapSet& set, float label_size, bool thinned) {
  ImFont* font = ImGui::GetFont();
  float width = 0;
  for (int64_t i = 0; i < set.rows; ++i) {
    const std::string label = axis_label(trace, set, i);
    width = std::max(width, font->CalcTextSizeA(label_size, FLT_MAX, 0, label.c_str()).x);
  }
  if (thinned) {
    const std::string position = std::to_string(set.rows - 1) + ":";
    width += font->CalcTextSizeA(label_size, FLT_MAX, 0, position.c_str()).x;
  }
  return width + label_size * 0.6f;
}

// The heads shown: all of them in the grid; the focused one (and the compared one) in focus.
std::vector<int> shown_heads(const HeadFocus& focus, int64_t heads) {
  if (focus.head < 0 || focus.head >= heads) {
    std::vector<int> all(static_cast<size_t>(heads));
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  if (focus.compare >= 0 && focus.compare < heads && focus.compare != focus.head)
    return {focus.head, focus.compare};
  return {focus.head};
}

// The grid that makes the maps of `heads` largest in `room`, each showing `view`; key labels on
// top unless `top_labels` is false. In focus mode the labels always have room for positions, so
// zooming does not resize the maps.
Grid grid_for(const AppState& state, const HeatmapSet& set, size_t heads, const MapView& view,
              float label_size, bool focused, ImVec2 room, bool top_labels) {
  const Trace& trace = *state.session.trace;
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  const float gap = ImGui::GetFontSize() * (state.ui.presenter ? 0.5f : 0.8f);
  const auto fit = [&](float label_w) {
    return fit_grid(int(heads), room, label_w, top_labels ? label_w : 0, title_h, gap);
  };
  Grid grid = fit(label_width(trace, set, label_size, focused));
  if (label_stride(grid.map / float(view.span), label_size, set.side()) > 1)
    grid = fit(label_width(trace, set, label_size, true));
  return grid;
}

// Places the maps of `heads` in the grid that makes them largest in the room left in the panel.
Grid place_maps(AppState& state, const HeatmapSet& set, const std::vector<int>& heads,
                const MapView& view, float label_size, bool focused, bool top_labels) {
  const Grid grid = grid_for(state, set, heads.size(), view, label_size, focused,
                             ImGui::GetContentRegionAvail(), top_labels);
  const ImVec2 start = ImGui::GetCursorScreenPos();
  // Square cells: a T_q x T_k map fills its square slot along its longer side only.
  const float cell = grid.map / float(view.span);
  const double shown_cols = std::min(view.span, double(set.cols) - view.first_col);
  const double shown_rows = std::min(view.span, double(set.rows) - view.first_row);
  for (size_t k = 0; k < heads.size(); ++k) {
    const int column = int(k) % grid.columns, row = int(k) / grid.columns;
    const ImVec2 at(
        start.x + grid.left + float(column) * (grid.map + grid.gap),
        start.y + grid.top + float(row) * (grid.map + grid.title_h + grid.gap) + grid.title_h);
    state.frame.heatmap_placements.push_back(
        {heads[k], at, ImVec2(at.x + float(shown_cols) * cell, at.y + float(shown_rows) * cell),
         ImVec2(float(view.first_col / double(set.cols)), float(view.first_row / double(set.rows))),
         ImVec2(float((view.first_col + shown_cols) / double(set.cols)),
                float((view.first_row + shown_rows) / double(set.rows)))});
  }
  return grid;
}

// Titles and labels, then the maps through the colour-map shader in one batch, then borders
// and the numbers in cells large enough.
void paint_maps(AppState& state, const HeatmapSet& set, HeatmapDrawer* drawer, const Grid& grid,
                const Window& window, float label_size) {
  const Trace& trace = *state.session.trace;
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  ImDrawList* list = ImGui::GetWindowDrawList();
  const std::vector<HeatmapPlacement>& placements = state.frame.heatmap_placements;
  for (size_t k = 0; k < placements.size(); ++k) {
    const HeatmapPlacement& p = placements[k];
    const int column = int(k) % grid.columns, row = int(k) / grid.columns;
    const std::string title = head_title(trace, set, p.head, grid.map + grid.gap * 0.5f);
    const float title_y = p.min.y - grid.title_h - (row == 0 ? grid.top : 0);
    list->AddRectFilled(ImVec2(p.min.x, title_y + font * 0.25f),
                        ImVec2(p.min.x + font * 0.5f, title_y + font * 0.95f), head_colour(p.head));
    list->AddText(ImVec2(p.min.x + font * 0.7f, title_y), colours.text, title.c_str());
    draw_axis_labels(list, trace, set, window, p.min, column == 0, row == 0 && grid.top > 0,
                     label_size, colours.text_dim);
  }
  if (drawer && drawer->error().empty()) drawer->draw(list, set, placements);
  for (const HeatmapPlacement& p : placements) {
    list->AddRect(p.min, p.max, colours.block_border);
    cell_values(list, set, p.head, p.min, window, label_size);
  }
}

// The cell under the mouse, if it is over one of the maps.
HoverCell cell_under_mouse(const std::vector<HeatmapPlacement>& placements, const Window& window,
                           const HeatmapSet& set) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (const HeatmapPlacement& p : placements) {
    if (mouse.x < p.min.x || mouse.y < p.min.y || mouse.x >= p.max.x || mouse.y >= p.max.y)
      continue;
    const auto index = [&](float pixels, double first, int64_t count) {
      return std::clamp<int64_t>(int64_t(first + double(pixels / window.cell())), 0, count - 1);
    };
    return {p.head, index(mouse.y - p.min.y, window.view.first_row, set.rows),
            index(mouse.x - p.min.x, window.view.first_col, set.cols)};
  }
  return {};
}

// A token label on a highlighted background, for the hovered row and column in focus mode.
void tag(ImDrawList* list, ImVec2 at, const std::string& text, ImU32 back, ImU32 ink) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float pad = ImGui::GetFontSize() * 0.15f;
  list->AddRectFilled(ImVec2(at.x - pad, at.y - pad),
                      ImVec2(at.x + size.x + pad, at.y + size.y + pad), back);
  list->AddText(at, ink, text.c_str());
}

// The hovered query's row in every map (and in focus mode its key's column, both named by their
// tokens), the hovered cell, and its tooltip.
void highlight_hover(AppState& state, const HeatmapSet& set, const Window& window) {
  const HoverCell& hover = state.frame.hover;
  if (hover.head < 0) return;
  const Palette& colours = palette(state.ui.theme);
  const bool focused = state.heads.focus.head >= 0;
  const float thickness = std::max(2.0f, ImGui::GetFontSize() * 0.12f);
  const float cell = window.cell();
  const MapView& v = window.view;
  ImDrawList* list = ImGui::GetWindowDrawList();
  for (const HeatmapPlacement& p : state.frame.heatmap_placements) {
    list->PushClipRect(ImVec2(p.min.x - thickness, p.min.y - thickness),
                       ImVec2(p.max.x + thickness, p.max.y + thickness), true);
    const float y = p.min.y + window.offset(double(hover.query), v.first_row);
    const float x = p.min.x + window.offset(double(hover.key), v.first_col);
    list->AddRect(ImVec2(p.min.x - 1, y - 1), ImVec2(p.max.x + 1, y + cell + 1), colours.accent, 0,
                  0, thickness);
    if (focused)
      list->AddRect(ImVec2(x - 1, p.min.y - 1), ImVec2(x + cell + 1, p.max.y + 1), colours.accent,
                    0, 0, thickness);
    if (p.head == hover.head)
      list->AddRect(ImVec2(x, y), ImVec2(x + cell, y + cell), colours.error, 0, 0, thickness);
    list->PopClipRect();
    if (focused) {
      const Trace& trace = *state.session.trace;
      const float line = ImGui::GetTextLineHeight();
      const std::string query = axis_label(trace, set, hover.query);
      tag(list,
          ImVec2(p.min.x - ImGui::CalcTextSize(query.c_str()).x - line * 0.3f,
                 y + cell * 0.5f - line * 0.5f),
          query, colours.accent, text_colour_on(colours.accent));
      const std::string key = axis_label(trace, set, hover.key, true);
      tag(list,
          ImVec2(x + cell * 0.5f - ImGui::CalcTextSize(key.c_str()).x * 0.5f,
                 p.min.y - line * 1.3f),
          key, colours.accent, text_colour_on(colours.accent));
    }
  }
  hover_tooltip(state, set, hover);
}

// Focus-mode mouse: the wheel zooms about the cursor, a drag pans; both maps share the view.
void zoom_and_pan(AppState& state, const HeatmapSet& set, const Window& window) {
  const std::vector<HeatmapPlacement>& placements = state.frame.heatmap_placements;
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(placements.front().min);
  ImGui::InvisibleButton("##maps", ImVec2(placements.back().max.x - placements.front().min.x,
                                          placements.back().max.y - placements.front().min.y));
  ImGui::SetCursorScreenPos(cursor);
  const ImGuiIO& io = ImGui::GetIO();
  MapView& view = state.heads.focus.view;
  const float cell = window.cell();
  if (ImGui::IsItemActive() && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0))
    view = pan_view(window.view, set.side(), -io.MouseDelta.y / cell, -io.MouseDelta.x / cell);
  if (!ImGui::IsItemHovered() || io.MouseWheel == 0) return;
  for (const HeatmapPlacement& p : placements) {
    if (io.MousePos.x < p.min.x || io.MousePos.x >= p.max.x) continue;
    const double at_row = window.view.first_row + double((io.MousePos.y - p.min.y) / cell);
    const double at_col = window.view.first_col + double((io.MousePos.x - p.min.x) / cell);
    view =
        zoom_about(window.view, set.side(), std::pow(1.25, double(io.MouseWheel)), at_row, at_col);
  }
}

// Presenter mode gives the maps the room: its large font makes labels readable at 0.6 of it.
float map_label_size(const AppState& state) {
  return std::round(ImGui::GetFontSize() * (state.ui.presenter ? 0.6f : 0.75f));
}

// Presenter mode on a screen short for its font (1280 x 720 at font scale 2) gives a short
// sequence's maps cells of at least 24 px by a compact header: one line for the view and its
// colour bar (the note on the scale in its tooltip), and no key labels on top (the query labels
// name the same tokens; hover names both). `room` is what is left under the header.
bool wants_compact_header(const AppState& state, const HeatmapSet& set, ImVec2 room) {
  constexpr float kReadableCell = 24;
  if (!state.ui.presenter || state.heads.full_header_h <= 0) return false;
  const HeadFocus& focus = state.heads.focus;
  const MapView view =
      focus.head >= 0 ? clamp_view(focus.view, set.side()) : clamp_view({}, set.side());
  constexpr double kShortSequence = 16;  // a longer map's cells are small at any header
  if (view.span > kShortSequence) return false;
  room.y -= state.heads.full_header_h;
  const Grid full = grid_for(state, set, shown_heads(focus, set.heads).size(), view,
                             map_label_size(state), focus.head >= 0, room, true);
  return full.map / float(view.span) < kReadableCell;
}

// The grid of all heads, or in focus mode one head (or two) as large as the panel allows.
void draw_maps(AppState& state, const HeatmapSet& set, HeatmapDrawer* drawer, bool compact) {
  HeadFocus& focus = state.heads.focus;
  if (focus.head >= set.heads) focus = {};
  const bool focused = focus.head >= 0;
  if (focused) focus.view = clamp_view(focus.view, set.side());
  const MapView view = focused ? focus.view : clamp_view({}, set.side());
  // Presenter mode gives the maps the room: its large font makes labels readable at 0.6 of it.
  // The compact header drops the key labels on top, which name the same tokens as the query
  // labels, unless the keys are another sentence's (cross-attention).
  const bool key_labels = !compact || !state.session.trace->tokens_kv.empty();
  const Grid grid = place_maps(state, set, shown_heads(focus, set.heads), view,
                               map_label_size(state), focused, key_labels);
  const float label_size = map_label_size(state);
  if (grid.map < 4) {
    state.frame.heatmap_placements.clear();
    ImGui::TextWrapped("The panel is too small for %lld maps: enlarge the window.",
                       (long long)set.heads);
    return;
  }
  const Window window{view, grid.map};
  paint_maps(state, set, drawer, grid, window, label_size);
  if (focused) zoom_and_pan(state, set, window);
  if (ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem))
    state.frame.hover = cell_under_mouse(state.frame.heatmap_placements, window, set);
  // A click on a map in the grid opens that head in focus mode.
  if (!focused && state.frame.hover.head >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
    focus = {state.frame.hover.head, -1, {}};
  highlight_hover(state, set, window);
}

// Focus mode's bar: back to the grid, and the head to compare with.
void focus_bar(AppState& state, const HeatmapSet& set) {
  HeadFocus& focus = state.heads.focus;
  if (focus.head < 0 || focus.head >= set.heads) return;
  // Beside the legend when it fits, else on a line of its own.
  ImGui::SameLine(0, ImGui::GetFontSize());
  if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 16) ImGui::NewLine();
  if (ImGui::SmallButton("\u2190 all heads (Esc)")) {
    focus = {};
    return;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Back to the grid. On the map: the wheel zooms, a drag pans.");
  ImGui::SameLine();
  char preview[32];
  std::snprintf(preview, sizeof preview, focus.compare >= 0 ? "head %d" : "none", focus.compare);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::BeginCombo("beside (V)", preview)) {
    if (ImGui::Selectable("none", focus.compare < 0)) focus.compare = -1;
    for (int head = 0; head < int(set.heads); ++head) {
      if (head == focus.head) continue;
      char name[24];
      std::snprintf(name, sizeof name, "head %d", head);
      if (ImGui::Selectable(name, focus.compare == head)) focus.compare = head;
    }
    ImGui::EndCombo();
  }
  // The hint beside the combo when it fits; else it is the back button's tooltip.
  const char* hint = "wheel zooms, drag pans";
  if (same_line_if_fits(ImGui::CalcTextSize(hint).x, ImGui::GetStyle().ItemSpacing.x))
    ImGui::TextDisabled("%s", hint);
}

}  // namespace

void draw_heads_panel(AppState& state, HeatmapDrawer* drawer) {
  const bool batched = state.session.trace && state.session.trace->config.batch > 1;
  // In presenter mode the title bar goes (its line is worth more to the maps) unless it names
  // the sequence shown.
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                 ImGuiWindowFlags_NoNavInputs |
                                 (state.ui.presenter && !batched ? ImGuiWindowFlags_NoTitleBar : 0);
  std::string title = "Heads";
  if (batched) title += " \u2014 sequence b = " + std::to_string(state.walk.batch_shown);
  title += "###heads";
  const bool open = begin_panel(state, PanelId::Heads, title.c_str(), flags);
  state.heads.mouse_over = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows);
  if (open && state.session.trace) {
    draw_stale_banner(state);
    const HeatmapSet& set = current_heatmaps(state);
    const Palette& colours = palette(state.ui.theme);
    if (set.empty()) {
      ImGui::TextWrapped(
          "No values to draw: this trace is shape-only. Lower the sizes to compute "
          "the attention maps.");
    } else if (drawer && !drawer->error().empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colours.error);
      ImGui::TextWrapped("The heatmap shader failed, so the maps cannot be drawn:\n%s",
                         drawer->error().c_str());
      ImGui::PopStyleColor();
    } else {
      if (drawer) drawer->prepare(set, state.heads.heatmaps.builds());
      const float header_top = ImGui::GetCursorPosY();
      const bool compact = wants_compact_header(state, set, ImGui::GetContentRegionAvail());
      ImGui::TextUnformatted(compact ? heatmap_view_name(set.view) : heatmap_view_title(set.view));
      legend(set, colours, compact);
      focus_bar(state, set);
      if (!compact) state.heads.full_header_h = ImGui::GetCursorPosY() - header_top;
      draw_maps(state, set, drawer, compact);
    }
  }
  ImGui::End();
}

}  // namespace attnlab::gui
