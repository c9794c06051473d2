// The heads panel: one heatmap per head (weights, or the scores before softmax) with token labels
// on both axes, a colour legend with its range, hatched masked cells, and hover that names the
// query and key and highlights the same query row in every head.
#include <imgui.h>
#include <imgui_internal.h>  // the window's font scale

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>

#include "app/gui/lessons/answer_boxes.hpp"
#include "app/gui/look/axis_labels.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/fitted_type.hpp"
#include "app/gui/panels/heads_grid.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/stale_banner.hpp"
#include "app/gui/state/map_view.hpp"

namespace attnlab::gui {

namespace {

// Text turned 90 degrees counter-clockwise (reading upwards), for the key labels on top: AddText
// lays it down at the clip rectangle's corner, where its glyphs are all inside (ImGui drops those
// past the rectangle: lying at its place, a label near the panel's right edge would lose its last
// letters), and its vertices turn up about `bottom_left`; the rectangle then clips them as drawn.
void add_vertical_text(ImDrawList* list, ImFont* font, float size, ImVec2 bottom_left, ImU32 colour,
                       const char* text) {
  const int first = list->VtxBuffer.Size;
  const ImVec2 laid = list->GetClipRectMin();
  list->AddText(font, size, laid, colour, text);
  for (int i = first; i < list->VtxBuffer.Size; ++i) {
    ImVec2& p = list->VtxBuffer[i].pos;
    const ImVec2 d(p.x - laid.x, p.y - laid.y);
    p = ImVec2(bottom_left.x + d.y, bottom_left.y - d.x);
  }
}

// [SECTION] pieces

// Where the header (the view's name, the colour legend, the focus bar) goes: above the maps,
// above them on one line (presenter mode on a screen short for its font), or in a column beside
// them (a wide panel whose maps are bound by its height).
enum class Header { Full, Compact, Column };

// The header's column: room for the colour bar between its two ends and the focus bar's combo.
float header_column_width() {
  return ImGui::GetFontSize() * 10;
}

// The colour bar with its range, the masked swatch and the one-line note on the scale, each
// beside what came before when it fits (the bar shrinks to 5 em for that), else on a new line.
// Compact: the bar alone beside the title (down to 3 em). Compact, or `note_hidden` (presenter
// mode, where the bar's ends say the scale: "0", "row max"): the note and the swatch's meaning in
// the bar's tooltip. Column: the bar fills the column's line, the note wraps under it.
void legend(const HeatmapSet& set, const Palette& colours, Header header, bool note_hidden) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const bool compact = header == Header::Compact;
  const LegendText text = legend_text(set);
  const float bar_h = font * 0.8f;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float texts = ImGui::CalcTextSize(text.low.c_str()).x +
                      ImGui::CalcTextSize(text.high.c_str()).x + 2 * spacing;
  float bar_w = font * 8;
  // The masked swatch right after the bar's high end (nothing between: the note hidden or none):
  // the bar leaves it room on its line where it stays 5 em long.
  const bool swatch_next = header == Header::Full && set.masked_cells > 0 && text.warning.empty() &&
                           (note_hidden || text.note.empty());
  const float swatch_w = bar_h * 1.6f;
  const float swatch_item = swatch_w + spacing + ImGui::CalcTextSize("masked").x;
  const float then = swatch_next ? font * 0.8f + swatch_item : 0;
  const auto bar_in = [&](float room) {  // the bar's width on a line with `room` for it
    return room - then >= font * 5 ? std::min(bar_w, room - then) : std::min(bar_w, room);
  };
  if (header == Header::Column) {
    bar_w = std::clamp(ImGui::GetContentRegionAvail().x - texts, font * 2, font * 8);
  } else {
    const float room_beside = room_beside_last_item(font * 0.8f) - texts;
    if (room_beside >= font * (compact ? 3 : 5)) {
      bar_w = bar_in(room_beside);
      ImGui::SameLine(0, font * 0.8f);
    } else {  // a line of its own: the bar and both ends within the panel
      bar_w = std::max(font * 2, bar_in(ImGui::GetContentRegionAvail().x - texts));
    }
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
  if (set.colormap == ColormapKind::Diverging) {  // the white middle is 0
    const float size = bar_h * 0.9f;
    const ImVec2 zero = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, "0");
    list->AddText(ImGui::GetFont(), size,
                  ImVec2(at.x + (bar_w - zero.x) * 0.5f, y + (bar_h - zero.y) * 0.5f),
                  text_colour_on(colour_at_packed(set.colormap, 0.5f)), "0");
  }
  ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
  ImGui::SameLine();
  ImGui::TextUnformatted(text.high.c_str());
  if (!text.warning.empty()) {  // the scale draws one flat colour: said whatever the room
    ImGui::PushStyleColor(ImGuiCol_Text, colours.error);
    if (header != Header::Column &&
        same_line_if_fits(ImGui::CalcTextSize(text.warning.c_str()).x, font * 0.8f))
      ImGui::TextUnformatted(text.warning.c_str());
    else
      text_wrapped(text.warning);
    ImGui::PopStyleColor();
  }
  // Even rows (colormap.hpp) are drawn grey, not the top colour: the legend says what grey means,
  // in the compact header too (it is what a class misreads as "full weight everywhere").
  // Compact: only beside the bar, where the line has room (else in the bar's tooltip).
  const auto even_swatch = [&](bool own_line_allowed) {
    if (text.even.empty()) return true;
    const float swatch_w = bar_h * 1.6f;
    const float width = swatch_w + spacing + ImGui::CalcTextSize(text.even.c_str()).x;
    if (!same_line_if_fits(width, font * 0.8f) && !own_line_allowed) return false;
    const ImVec2 swatch = ImGui::GetCursorScreenPos();
    const float swatch_y = swatch.y + (ImGui::GetTextLineHeight() - bar_h) * 0.5f;
    const ImVec2 a(swatch.x, swatch_y), b(swatch.x + swatch_w, swatch_y + bar_h);
    list->AddRectFilled(a, b, colour_at_packed(set.colormap, kEvenPosition));
    list->AddRect(a, b, colours.block_border);
    ImGui::Dummy(ImVec2(swatch_w, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    text_wrapped(text.even);  // a narrow header column: wrapped, never cut
    return true;
  };
  if (compact) {
    const bool even_shown = even_swatch(false);
    std::string hidden = text.note;
    if (!even_shown) hidden += (hidden.empty() ? "" : "\n") + text.even;
    if (set.masked_cells > 0)
      hidden += (hidden.empty() ? "" : "\n") + std::string("hatched: masked");
    if (!hidden.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", hidden.c_str());
    return;
  }
  if (note_hidden && !text.note.empty() && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", text.note.c_str());
  if (!text.note.empty() && !note_hidden && text.warning.empty()) {  // the scale in use
    // Beside the bar where it fits, else wrapped on the lines under it.
    const bool beside = header != Header::Column &&
                        same_line_if_fits(ImGui::CalcTextSize(text.note.c_str()).x, font * 0.8f);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    if (beside)
      ImGui::TextUnformatted(text.note.c_str());
    else
      text_wrapped(text.note);
    ImGui::PopStyleColor();
  }
  if (set.masked_cells > 0) {
    same_line_if_fits(swatch_item, font * 0.8f);
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
  even_swatch(true);
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

// The labels of the first `count` queries (rows) at `cell` pixels a cell.
std::vector<AxisLabel> query_labels(const Trace& trace, const HeatmapSet& set, int64_t count,
                                    float cell, float size) {
  return axis_labels(count, cell, size, [&](int64_t i) { return axis_label(trace, set, i); });
}

// The same for the keys (columns). Thinned key labels that would repeat the query labels' tokens
// show their positions only ("50"); another sentence's keys keep their tokens.
std::vector<AxisLabel> key_labels(const Trace& trace, const HeatmapSet& set, int64_t count,
                                  float cell, float size) {
  std::vector<AxisLabel> labels =
      axis_labels(count, cell, size, [&](int64_t i) { return axis_label(trace, set, i, true); });
  if (trace.tokens_kv.empty() && label_stride(cell, size, count) > 1)
    for (AxisLabel& label : labels) label.text = std::to_string(label.index);
  return labels;
}

// The text cut with an ellipsis to `width` pixels at `size` (a zoomed-in map's whole tokens in
// the room its thinned labels took).
std::string cut_to(const std::string& text, float width, float size) {
  ImFont* font = ImGui::GetFont();
  const auto fits = [&](const std::string& t) {
    return font->CalcTextSizeA(size, FLT_MAX, 0, t.c_str()).x <= width;
  };
  if (fits(text)) return text;
  std::string cut = text;
  while (!cut.empty()) {
    do {
      cut.pop_back();  // whole UTF-8 characters: drop continuation bytes with their lead byte
    } while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80);
    if (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0xC0) cut.pop_back();
    if (fits(cut + "\u2026")) return cut + "\u2026";
  }
  return "";
}

// The query labels left of the map (when `left`) and the key labels above it (when `top`), each
// cut to the room the grid left them (`room`: x on the left, y on top). The hovered cell's row and
// column in focus mode (`tagged`) are left out: highlight_hover names them on a tag in their place.
void draw_axis_labels(ImDrawList* list, const Trace& trace, const HeatmapSet& set,
                      const Window& window, ImVec2 origin, bool left, bool top, ImVec2 room,
                      float size, ImU32 colour, const HoverCell& tagged) {
  ImFont* font = ImGui::GetFont();
  const MapView& v = window.view;
  const float margin = size * 0.3f;
  const auto last = int64_t(std::ceil(std::max(v.first_row, v.first_col) + v.span));
  if (left) {
    for (const AxisLabel& label :
         query_labels(trace, set, std::min(last, set.rows), window.cell(), size)) {
      const double i = double(label.index) + 0.5;
      if (i <= v.first_row || i >= v.first_row + v.span || label.index == tagged.query) continue;
      const std::string text = cut_to(label.text, room.x - margin, size);
      const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
      list->AddText(font, size,
                    ImVec2(origin.x - extent.x - margin,
                           origin.y + window.offset(i, v.first_row) - extent.y * 0.5f),
                    colour, text.c_str());
    }
  }
  if (top) {
    for (const AxisLabel& label :
         key_labels(trace, set, std::min(last, set.cols), window.cell(), size)) {
      const double i = double(label.index) + 0.5;
      if (i <= v.first_col || i >= v.first_col + v.span || label.index == tagged.key) continue;
      const std::string text = cut_to(label.text, room.y - margin, size);
      const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
      add_vertical_text(
          list, font, size,
          ImVec2(origin.x + window.offset(i, v.first_col) - extent.y * 0.5f, origin.y - margin),
          colour, text.c_str());
    }
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

// The longest title that fits in `width` pixels at `size` (above a map, after its swatch).
std::string head_title(const Trace& trace, const HeatmapSet& set, int head, float width,
                       float size) {
  const auto width_of = [&](const char* text) {
    return ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, text).x;
  };
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
    if (width_of(longer) <= width) std::snprintf(title, sizeof title, "%s", longer);
  }
  if (width_of(title) > width)
    std::snprintf(title, sizeof title, set.maps_are_tokens ? "t%d" : "h%d", head);
  return title;
}

// A head's title drawn at `at` in `size` names its head by number ("head 1", "h1"): a name, never
// an answer's "?" box (answer_boxes.hpp); what follows it (" · 2.20 bits") is the run's value.
void mark_head_name(AppState& state, const HeatmapSet& set, const std::string& title, ImVec2 at,
                    float size) {
  if (set.maps_are_tokens) return;  // a token's name: the words the answer may be
  const std::string name = title.substr(0, title.find(" \u00B7"));
  const float width = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, name.c_str()).x;
  mark_not_the_run(state, at, ImVec2(at.x + width, at.y + size));
}

// A map's axis labels name its rows and columns (the sentence's tokens): names, never an answer's
// "?" box (answer_boxes.hpp). A question about a map is answered by its cells; a masked "cat" on a
// row would only leave the class unable to find the row the question names.
void mark_axis_labels(AppState& state, const HeatmapPlacement& p, bool left, bool top,
                      ImVec2 room) {
  if (left) mark_not_the_run(state, ImVec2(p.min.x - room.x, p.min.y), ImVec2(p.min.x, p.max.y));
  if (top) mark_not_the_run(state, ImVec2(p.min.x, p.min.y - room.y), ImVec2(p.max.x, p.min.y));
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

// Presenter mode gives the maps the room: its large font makes labels readable at 0.6 of it.
float map_label_size(const AppState& state) {
  return std::round(ImGui::GetFontSize() * (state.ui.presenter ? 0.6f : 0.75f));
}

// Between a head's name and its map: presenter mode's maps take all but a fifth of the name's
// size (the name's own line separates the rows).
float title_gap(const AppState& state) {
  return state.ui.presenter ? std::round(map_label_size(state) * 0.2f)
                            : ImGui::GetStyle().ItemSpacing.y;
}

// How the maps of one frame are laid out: which heads, the visible window, the labels' size,
// whether key labels go on top and whether each map has a title line.
struct MapsPlan {
  std::vector<int> heads;
  MapView view;
  float label_size = 0;
  float title_size = 0;  // the heads' names over the maps
  float title_gap = 0;   // between a name and its map
  bool focused = false;
  bool top_labels = true;
  bool titles = true;
};

// One focused head is named in the focus bar: no title line over its map. Presenter mode's
// compact header drops the key labels on top, which name the same tokens as the query labels,
// unless the keys are another sentence's (cross-attention).
// `focus`: the heads panel's, checked against the set (plan_maps keeps it so).
MapsPlan maps_plan(const AppState& state, const HeatmapSet& set, Header header, HeadFocus focus) {
  if (focus.head >= set.heads) focus = {};
  MapsPlan plan;
  plan.focused = focus.head >= 0;
  if (plan.focused) focus.view = clamp_view(focus.view, set.side());
  plan.view = plan.focused ? focus.view : clamp_view({}, set.side());
  plan.heads = shown_heads(focus, set.heads);
  plan.label_size = map_label_size(state);
  // Presenter mode's names take the labels' size: a line worth more to the maps.
  plan.title_size = state.ui.presenter ? plan.label_size : ImGui::GetFontSize();
  plan.title_gap = title_gap(state);
  plan.top_labels = header != Header::Compact || !state.session.trace->tokens_kv.empty();
  plan.titles = !(plan.focused && plan.heads.size() == 1);
  return plan;
}

// The plan, the panel's focus kept within the set.
MapsPlan plan_maps(AppState& state, const HeatmapSet& set, Header header) {
  HeadFocus& focus = state.heads.focus;
  if (focus.head >= set.heads) focus = {};
  if (focus.head >= 0) focus.view = clamp_view(focus.view, set.side());
  return maps_plan(state, set, header, focus);
}

// The labels' size beside maps of side `map`: in focus mode (one map, or two compared side by
// side) as small as every row and column needs to have its label, down to 0.6 of the size (a
// smaller map's labels are thinned); in the grid, the size.
float labels_size(const MapsPlan& plan, const HeatmapSet& set, float map) {
  if (!plan.focused) return plan.label_size;
  const float every = std::floor(map / float(set.side()) / 1.05f - 0.01f);  // label_stride's 1
  return std::clamp(every, std::round(plan.label_size * 0.6f), plan.label_size);
}

// The widest of `labels` at `size`, with the margin to the map.
float widest(const std::vector<AxisLabel>& labels, float size) {
  ImFont* font = ImGui::GetFont();
  float widest = 0;
  for (const AxisLabel& label : labels)
    widest = std::max(widest, font->CalcTextSizeA(size, FLT_MAX, 0, label.text.c_str()).x);
  return widest + size * 0.6f;
}

// The room the labels need beside maps of each size: the labels drawn at that size over the
// whole map (thinned ones, "0:The", "50:on", are shorter than the longest token; a zoomed-in
// map's labels are cut to that room, so zooming does not resize the maps). Thinned key labels
// repeat the query labels' positions: the grid leaves them out (hover names the key), unless the
// keys are another sentence's. Right of the maps: what the last key label, a line of `size` turned
// upright and centred on its column, reaches past the map's edge (nothing where cells are wider
// than the labels are tall, as unthinned labels' are).
LabelRoom label_room(const AppState& state, const HeatmapSet& set, const MapsPlan& plan) {
  const Trace& trace = *state.session.trace;
  return [&trace, &set, plan, top = plan.top_labels, grid = !plan.focused](float map) {
    const float cell = map / float(set.side());
    const float size = labels_size(plan, set, map);
    const bool thinned = label_stride(cell, size, set.cols) > 1;
    const bool drop_keys = !top || (grid && thinned && trace.tokens_kv.empty());
    LabelMargins room;
    room.left = widest(query_labels(trace, set, set.rows, cell, size), size);
    if (drop_keys) return room;
    const std::vector<AxisLabel> keys = key_labels(trace, set, set.cols, cell, size);
    room.top = widest(keys, size);
    if (!keys.empty())
      room.right = std::max(0.0f, (float(keys.back().index) + 0.5f) * cell + size * 0.5f - map);
    return room;
  };
}

// The labels' room that fits any map size (a key label's half line past the right edge).
LabelMargins widest_label_room(const AppState& state, const HeatmapSet& set, const MapsPlan& plan) {
  const float w = label_width(*state.session.trace, set, plan.label_size, true);
  if (!plan.top_labels) return {w, 0, 0};
  return {w, w, plan.label_size * 0.5f};
}

float title_height(const MapsPlan& plan) {
  return plan.titles ? plan.title_size + plan.title_gap : 0;
}

// Presenter mode: the title line above each map separates the rows already.
float map_gap(const AppState& state) {
  return ImGui::GetFontSize() * (state.ui.presenter ? 0.3f : 0.8f);
}

// The grid that makes the planned maps largest in `room`.
Grid grid_for(const AppState& state, const HeatmapSet& set, const MapsPlan& plan, ImVec2 room) {
  return fit_grid_labelled(int(plan.heads.size()), room, label_room(state, set, plan),
                           widest_label_room(state, set, plan), title_height(plan), map_gap(state));
}

// Places the planned maps in the grid that makes them largest in `room`, from the cursor.
Grid place_maps(AppState& state, const HeatmapSet& set, const MapsPlan& plan, ImVec2 room) {
  const Grid grid = grid_for(state, set, plan, room);
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const MapView& view = plan.view;
  // Square cells: a T_q x T_k map fills its square slot along its longer side only.
  const float cell = grid.map / float(view.span);
  const double shown_cols = std::min(view.span, double(set.cols) - view.first_col);
  const double shown_rows = std::min(view.span, double(set.rows) - view.first_row);
  for (size_t k = 0; k < plan.heads.size(); ++k) {
    const int column = int(k) % grid.columns, row = int(k) / grid.columns;
    const ImVec2 at(
        start.x + grid.left + float(column) * (grid.map + grid.gap),
        start.y + grid.top + float(row) * (grid.map + grid.title_h + grid.gap) + grid.title_h);
    state.frame.heatmap_placements.push_back(
        {plan.heads[k], at,
         ImVec2(at.x + float(shown_cols) * cell, at.y + float(shown_rows) * cell),
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
  ImDrawList* list = ImGui::GetWindowDrawList();
  const std::vector<HeatmapPlacement>& placements = state.frame.heatmap_placements;
  // In focus mode the hovered row and column are named on tags (highlight_hover), not labels.
  const HoverCell tagged = state.heads.focus.head >= 0 ? state.frame.hover : HoverCell{};
  for (size_t k = 0; k < placements.size(); ++k) {
    const HeatmapPlacement& p = placements[k];
    const int column = int(k) % grid.columns, row = int(k) / grid.columns;
    if (grid.title_h > 0) {  // else the focus bar names the head
      const float title_y = p.min.y - grid.title_h - (row == 0 ? grid.top : 0);
      const float size = grid.title_h - title_gap(state);  // MapsPlan::title_size
      // After the swatch, up to the next map (the last: its own edge); a map narrower than even
      // "h7" keeps the swatch alone (its colour, and the name on hover, tell the head).
      const float after = column + 1 < grid.columns ? grid.gap * 0.5f : 0;
      const float room = grid.map + after - size * 0.7f;
      const std::string title = head_title(trace, set, p.head, room, size);
      list->AddRectFilled(ImVec2(p.min.x, title_y + size * 0.25f),
                          ImVec2(p.min.x + size * 0.5f, title_y + size * 0.95f),
                          head_colour(p.head));
      if (ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, title.c_str()).x <= room) {
        const ImVec2 at(p.min.x + size * 0.7f, title_y);
        list->AddText(ImGui::GetFont(), size, at, colours.text, title.c_str());
        mark_head_name(state, set, title, at, size);
      }
    }
    draw_axis_labels(list, trace, set, window, p.min, column == 0, row == 0 && grid.top > 0,
                     ImVec2(grid.left, grid.top), label_size, colours.text_dim, tagged);
    mark_axis_labels(state, p, column == 0, row == 0 && grid.top > 0, ImVec2(grid.left, grid.top));
  }
  if (drawer && drawer->error().empty()) drawer->draw(list, set, placements);
  // Before attend the maps are not computed yet: faded under the background.
  const PipelineStep* step = current_step(state);
  const bool ahead = step && maps_ahead_of(step->stage);
  for (const HeatmapPlacement& p : placements) {
    if (ahead) list->AddRectFilled(p.min, p.max, (colours.background & 0x00FFFFFFu) | 0xB0000000u);
    list->AddRect(p.min, p.max, colours.block_border);
    if (!ahead) cell_values(list, set, p.head, p.min, window, label_size);
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
      // Left of the map, but never past the panel's own left edge (a long token at a large font).
      const float left = ImGui::GetWindowPos().x + ImGui::GetStyle().WindowPadding.x;
      tag(list,
          ImVec2(std::max(left, p.min.x - ImGui::CalcTextSize(query.c_str()).x - line * 0.3f),
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

// The header that gives the maps the most room in `room` (the panel under the stale banner), and
// the maps' layout under it: the full one above the maps, or in a column beside them. When the
// maps would still be hard to read (a short sequence's cells under 24 px, or any map under 3 em),
// the compact one, if it makes them larger. `focus`: the panel's (maps_plan keeps it within the
// set).
struct HeaderFit {
  Header header = Header::Full;
  HeadsLayout layout;
};
HeaderFit best_header(const AppState& state, const HeatmapSet& set, HeadFocus focus, ImVec2 room) {
  const int maps = int(shown_heads(focus, set.heads).size());
  const auto fit = [&](Header header, float header_h, float column_w) {
    const MapsPlan plan = maps_plan(state, set, header, focus);
    return fit_heads_layout(maps, room, header_h, column_w, label_room(state, set, plan),
                            widest_label_room(state, set, plan), title_height(plan),
                            map_gap(state));
  };
  // The full header's height as last drawn there.
  const HeadsLayout full = fit(Header::Full, state.heads.full_header_h, header_column_width());
  const Header best = full.header_beside ? Header::Column : Header::Full;
  constexpr float kReadableCell = 24;
  constexpr double kShortSequence = 16;  // a longer map's cells are small at any header
  const double span = maps_plan(state, set, best, focus).view.span;
  const bool readable = span <= kShortSequence ? full.grid.map / float(span) >= kReadableCell
                                               : full.grid.map >= ImGui::GetFontSize() * 3;
  if (readable) return {best, full};
  // The compact header is one line (its room beside nothing: never a column).
  const HeadsLayout compact = fit(Header::Compact, ImGui::GetFrameHeightWithSpacing(), FLT_MAX);
  if (compact.grid.map > full.grid.map) return {Header::Compact, compact};
  return {best, full};
}

Header choose_header(AppState& state, const HeatmapSet& set, ImVec2 room) {
  if (state.heads.full_header_h <= 0) return Header::Full;  // not measured yet: the next frame
  return best_header(state, set, state.heads.focus, room).header;
}

// Said where no map fits `room`: wrapped where its lines fit there, else on the one line that
// does, cut with an ellipsis (its tooltip whole), else not at all (the header above is cut short
// by the panel already).
void too_small_note(const HeatmapSet& set, ImVec2 room) {
  char note[96];
  std::snprintf(note, sizeof note, "The panel is too small for %lld maps: enlarge the window.",
                (long long)set.heads);
  const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const size_t lines = wrap_at_spaces(note, room.x, measure).size();
  if (float(lines) * line_h <= room.y) {
    text_wrapped(note);
  } else if (ImGui::GetTextLineHeight() <= room.y) {
    draw_cut_text(ImGui::GetCursorScreenPos(), room.x, ImGui::GetFontSize(),
                  ImGui::GetColorU32(ImGuiCol_Text), note);
    ImGui::Dummy(ImVec2(room.x, ImGui::GetTextLineHeight()));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", note);
  }
}

// The grid of all heads, or in focus mode one head (or two) as large as `room` allows.
void draw_maps(AppState& state, const HeatmapSet& set, HeatmapDrawer* drawer, Header header,
               ImVec2 room) {
  HeadFocus& focus = state.heads.focus;
  const MapsPlan plan = plan_maps(state, set, header);
  const Grid grid = place_maps(state, set, plan, room);
  if (grid.map < 4) {
    state.frame.heatmap_placements.clear();
    too_small_note(set, room);
    return;
  }
  const Window window{plan.view, grid.map};
  // The cell under the mouse first: its row and column labels give way to highlight_hover's tags.
  if (ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem))
    state.frame.hover = cell_under_mouse(state.frame.heatmap_placements, window, set);
  paint_maps(state, set, drawer, grid, window, labels_size(plan, set, grid.map));
  if (plan.focused) zoom_and_pan(state, set, window);
  // A click on a map in the grid opens that head in focus mode.
  if (!plan.focused && state.frame.hover.head >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
    focus = {state.frame.hover.head, -1, {}};
  highlight_hover(state, set, window);
}

// Focus mode's bar: the focused head's name, back to the grid, and the head to compare with.
// Beside the legend when it fits, else on lines of its own; stacked in the header's column.
void focus_bar(AppState& state, const HeatmapSet& set, Header header) {
  HeadFocus& focus = state.heads.focus;
  if (focus.head < 0 || focus.head >= set.heads) return;
  const float font = ImGui::GetFontSize();
  const bool column = header == Header::Column;
  if (!column) {
    ImGui::SameLine(0, font);
    if (ImGui::GetContentRegionAvail().x < font * 16) ImGui::NewLine();
  }
  // The head's colour and name (its title, as the grid draws it above its map).
  const std::string name =
      head_title(*state.session.trace, set, focus.head,
                 column ? ImGui::GetContentRegionAvail().x - font * 0.7f : font * 12, font);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + font * 0.25f),
                                            ImVec2(at.x + font * 0.5f, at.y + font * 0.95f),
                                            head_colour(focus.head));
  ImGui::Dummy(ImVec2(font * 0.5f, ImGui::GetTextLineHeight()));
  ImGui::SameLine(0, font * 0.2f);
  mark_head_name(state, set, name, ImGui::GetCursorScreenPos(), font);
  ImGui::TextUnformatted(name.c_str());
  if (!column) ImGui::SameLine(0, font * 0.8f);
  if (!column && ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize("\u2190 all heads (Esc)").x)
    ImGui::NewLine();
  if (ImGui::SmallButton("\u2190 all heads (Esc)")) {
    focus = {};
    return;
  }
  tooltip("Back to the grid. On the map: the wheel zooms, a drag pans.");
  char preview[32];
  std::snprintf(preview, sizeof preview, focus.compare >= 0 ? "head %d" : "none", focus.compare);
  const float combo_label =
      ImGui::CalcTextSize("beside (V)").x + ImGui::GetStyle().ItemInnerSpacing.x;
  // Beside the button where the combo and its label fit, else on the next line.
  if (!column) same_line_if_fits(font * 6 + combo_label, ImGui::GetStyle().ItemSpacing.x);
  ImGui::SetNextItemWidth(
      column ? std::max(font * 3, ImGui::GetContentRegionAvail().x - combo_label) : font * 6);
  if (ImGui::BeginCombo("beside (V)", preview)) {
    if (ImGui::Selectable("none", focus.compare < 0)) focus.compare = -1;
    for (int head = 0; head < int(set.heads); ++head) {
      if (head == focus.head) continue;
      char label[24];
      std::snprintf(label, sizeof label, "head %d", head);
      if (ImGui::Selectable(label, focus.compare == head)) focus.compare = head;
    }
    ImGui::EndCombo();
  }
  tooltip("The head drawn beside this one, sharing its zoom (V picks the next).");
  // The hint beside the combo when it fits; else it is the back button's tooltip.
  const char* hint = "wheel zooms, drag pans";
  if (column) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    text_wrapped(hint);
    ImGui::PopStyleColor();
  } else if (same_line_if_fits(ImGui::CalcTextSize(hint).x, ImGui::GetStyle().ItemSpacing.x)) {
    ImGui::TextDisabled("%s", hint);
  }
}

// The view's name (the sequence shown beside it when the panel has no title bar), the legend and
// the focus bar.
void draw_header(AppState& state, const HeatmapSet& set, Header header, bool batch_in_title) {
  std::string title =
      header == Header::Compact ? heatmap_view_name(set.view) : heatmap_view_title(set.view);
  if (batch_in_title) title += " \u00B7 b = " + std::to_string(set.batch_index);
  if (header == Header::Column)
    text_wrapped(title);
  else
    ImGui::TextUnformatted(title.c_str());
  const PipelineStep* step = current_step(state);
  if (step && maps_ahead_of(step->stage)) {  // before attend: the maps are not computed yet
    const float font = ImGui::GetFontSize(), spacing = font * 0.8f;
    // Presenter mode's note is a remark on the maps, at their labels' size: on one line beside
    // the title (on its baseline) or under it, the line the maps would lose to a wrapped note at
    // the font's size.
    const float scale = ImGui::GetCurrentWindow()->FontWindowScale;
    if (state.ui.presenter && header != Header::Column)
      ImGui::SetWindowFontScale(scale * map_label_size(state) / font);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    if (header != Header::Column &&
        same_line_if_fits(ImGui::CalcTextSize(kMapsAheadNote).x, spacing)) {
      const ImFont* face = ImGui::GetFont();
      ImGui::SetCursorPosY(ImGui::GetCursorPosY() +
                           (font - ImGui::GetFontSize()) * face->Ascent / face->FontSize);
      ImGui::TextUnformatted(kMapsAheadNote);
    } else {  // under the title (a column's), wrapped where the panel is narrow (font scale 2)
      text_wrapped(kMapsAheadNote);
    }
    ImGui::PopStyleColor();
    ImGui::SetWindowFontScale(scale);
  }
  legend(set, palette(state.ui.theme), header, state.ui.presenter && header == Header::Full);
  focus_bar(state, set, header);
}

}  // namespace

void draw_heads_panel(AppState& state, HeatmapDrawer* drawer) {
  const bool batched = state.session.trace && state.session.trace->config.batch > 1;
  // In presenter mode the title bar goes (its line is worth more to the maps); the sequence shown
  // is named in the header instead.
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                 ImGuiWindowFlags_NoNavInputs |
                                 (state.ui.presenter ? ImGuiWindowFlags_NoTitleBar : 0);
  std::string title = "Heads";
  if (batched) title += " \u2014 sequence b = " + std::to_string(state.walk.batch_shown);
  title += "###heads";
  const bool open = begin_panel(state, PanelId::Heads, title.c_str(), flags);
  if (open && state.session.trace) {
    draw_stale_banner(state);
    const HeatmapSet& set = current_heatmaps(state);
    const Palette& colours = palette(state.ui.theme);
    if (set.empty()) {  // wrapped at spaces; a short panel scrolls to the rest
      if (begin_scroll_region("##shape_only")) {
        text_wrapped(
            "No values to draw: this trace is shape-only. Lower the sizes to compute the "
            "attention maps.");
      }
      end_scroll_region();
    } else if (drawer && !drawer->error().empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colours.error);
      ImGui::TextWrapped("The heatmap shader failed, so the maps cannot be drawn:\n%s",
                         drawer->error().c_str());
      ImGui::PopStyleColor();
    } else {
      if (drawer) drawer->prepare(set, state.heads.heatmaps.builds());
      const ImVec2 start = ImGui::GetCursorScreenPos();
      ImVec2 room = ImGui::GetContentRegionAvail();
      const Header header = choose_header(state, set, room);
      const bool batch_in_title = batched && state.ui.presenter;
      if (header == Header::Column) {
        const float column_w = header_column_width();
        room.x -= column_w;
        ImGui::SetCursorScreenPos(ImVec2(start.x + room.x, start.y));
        // With the window's padding, as any panel: its texts keep clear of its edges. Its type
        // shrinks until the legend and the focus bar fit the column's height (no scrolling).
        begin_fitted_region(state, "##heads_header", ImVec2(column_w, room.y));
        draw_header(state, set, header, batch_in_title);
        end_fitted_region(state);
        ImGui::SetCursorScreenPos(start);
      } else {
        draw_header(state, set, header, batch_in_title);
        if (header == Header::Full)
          state.heads.full_header_h = ImGui::GetCursorScreenPos().y - start.y;
        room = ImGui::GetContentRegionAvail();
      }
      draw_maps(state, set, drawer, header, room);
    }
  }
  ImGui::End();
}

float heads_width_for_least_maps(AppState& state, ImVec2 panel) {
  if (!state.session.trace) return 0;
  const HeatmapSet& set = current_heatmaps(state);
  if (set.empty() || state.heads.full_header_h <= 0) return 0;  // no maps, or not measured yet
  const int maps = int(maps_plan(state, set, Header::Full, state.heads.focus).heads.size());
  const float side = least_map_side(maps);
  const ImVec2 padding = ImGui::GetStyle().WindowPadding;
  // The maps' side in a panel `width` wide, under the header choose_header would pick there.
  const auto map_at = [&](float width) {
    const ImVec2 room(width - 2 * padding.x, panel.y - 2 * padding.y);
    return best_header(state, set, state.heads.focus, room).layout.grid.map;
  };
  if (map_at(panel.x) < side) return 0;  // not even the whole width: the layout as it was
  float low = 0, high = panel.x;
  for (int i = 0; i < 14; ++i) {
    const float mid = 0.5f * (low + high);
    (map_at(mid) >= side ? high : low) = mid;
  }
  return std::ceil(high);
}

}  // namespace attnlab::gui
