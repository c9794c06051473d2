// The heads panel: one heatmap per head (weights, or the scores before softmax) with token labels
// on both axes, a colour legend with its range, hatched masked cells, and hover that names the
// query and key and highlights the same query row in every head.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/look/axis_labels.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/stale_banner.hpp"

namespace attnlab::gui {

namespace {

// [SECTION] layout of the grid of maps

struct Grid {
  int columns = 1, rows = 1;
  float map = 0;               // side of one map in pixels
  float left = 0, top = 0;     // room for query labels (first column) and key labels (first row)
  float title_h = 0, gap = 0;  // head title line above each map; space between maps
};

Grid fit_grid(int heads, ImVec2 room, float label_w, float title_h, float gap) {
  Grid best;
  room.x -= title_h * 0.5f;  // the last key label is centred on the last column: half sticks out
  for (int columns = 1; columns <= heads; ++columns) {
    const int rows = (heads + columns - 1) / columns;
    const float by_width = (room.x - label_w - gap * float(columns - 1)) / float(columns);
    const float by_height =
        (room.y - label_w - float(rows) * title_h - gap * float(rows - 1)) / float(rows);
    const float map = std::floor(std::min(by_width, by_height));
    if (map > best.map) best = {columns, rows, map, label_w, label_w, title_h, gap};
  }
  return best;
}

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

void legend(const HeatmapSet& set, const Palette& colours) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const LegendText text = legend_text(set);
  const float bar_w = font * 8, bar_h = font * 0.8f;

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
  if (set.masked_cells > 0) {
    ImGui::SameLine(0, font);
    const ImVec2 swatch = ImGui::GetCursorScreenPos();
    const ImVec2 a(swatch.x, y), b(swatch.x + bar_h * 1.6f, y + bar_h);
    list->AddRectFilled(a, b, colours.masked_a);
    list->PushClipRect(a, b, true);
    for (float x = a.x - bar_h; x < b.x; x += bar_h * 0.5f)
      list->AddLine(ImVec2(x, b.y), ImVec2(x + bar_h, a.y), colours.masked_b, 1.5f);
    list->PopClipRect();
    ImGui::Dummy(ImVec2(b.x - a.x, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextUnformatted("masked");
  }
  if (!text.note.empty()) ImGui::TextDisabled("%s", text.note.c_str());  // the scale in use
}

// The token as the font draws it (characters it lacks as "U+732B").
std::string token_at(const Trace& trace, int64_t index) {
  if (index >= int64_t(trace.tokens.size())) return "?";
  return display_text(trace.tokens[size_t(index)], *ImGui::GetFont());
}

// Rows and columns are tokens, or heads for the forget-transpose mistake's (h, h) maps.
std::string axis_label(const Trace& trace, const HeatmapSet& set, int64_t index) {
  if (!set.maps_are_tokens) return token_at(trace, index);
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
  ImGui::Text("key %lld \"%s\"", (long long)hover.key, axis_label(trace, set, hover.key).c_str());
  if (masked) {
    ImGui::Text("masked: this key is hidden from this query (%s %g)", heatmap_view_name(set.view),
                double(shown));
  } else {
    ImGui::Text("%s = %.4f", heatmap_view_name(set.view), double(shown));
  }
  ImGui::EndTooltip();
}

void draw_axis_labels(ImDrawList* list, const Trace& trace, const HeatmapSet& set, const Grid& grid,
                      ImVec2 origin, bool left, bool top, float size, ImU32 colour) {
  const float cell = grid.map / float(set.rows);
  ImFont* font = ImGui::GetFont();
  const auto name = [&](int64_t i) { return axis_label(trace, set, i); };
  for (const AxisLabel& label : axis_labels(set.rows, cell, size, name)) {
    const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0, label.text.c_str());
    const float middle = (float(label.index) + 0.5f) * cell;
    if (left)
      list->AddText(font, size,
                    ImVec2(origin.x - text.x - size * 0.3f, origin.y + middle - text.y * 0.5f),
                    colour, label.text.c_str());
    if (top)
      add_vertical_text(list, font, size,
                        ImVec2(origin.x + middle - text.y * 0.5f, origin.y - size * 0.3f), colour,
                        label.text.c_str());
  }
}

// Numbers inside the cells, for maps small enough to read them (seed 002's 3 x 3).
void cell_values(ImDrawList* list, const HeatmapSet& set, int head, ImVec2 origin, float cell,
                 float size) {
  ImFont* font = ImGui::GetFont();
  const float needed = font->CalcTextSizeA(size, FLT_MAX, 0, "-0.00").x + 4;
  if (cell < needed || cell < size * 1.2f) return;
  const float span = std::max(set.value_max - set.value_min, 1e-12f);
  for (int64_t i = 0; i < set.rows; ++i) {
    for (int64_t j = 0; j < set.cols; ++j) {
      if (set.masked(head, i, j)) continue;
      const float v = set.at(head, i, j);  // the colour position; the cell prints the real value
      char text[16];
      std::snprintf(text, sizeof text, "%.2f",
                    double(set.shown[size_t((head * set.rows + i) * set.cols + j)]));
      const ImVec2 t = font->CalcTextSizeA(size, FLT_MAX, 0, text);
      const ImU32 ink = text_colour_on(colour_at_packed(set.colormap, (v - set.value_min) / span));
      list->AddText(font, size,
                    ImVec2(origin.x + (float(j) + 0.5f) * cell - t.x * 0.5f,
                           origin.y + (float(i) + 0.5f) * cell - t.y * 0.5f),
                    ink, text);
    }
  }
}

// [SECTION] the maps

void draw_maps(AppState& state, const HeatmapSet& set, HeatmapDrawer* drawer) {
  const Trace& trace = *state.session.trace;
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  const float label_size = std::round(font * 0.75f);
  ImFont* label_font = ImGui::GetFont();
  float label_w = 0;
  for (int64_t i = 0; i < set.rows; ++i) {
    const std::string label = axis_label(trace, set, i);
    label_w = std::max(label_w, label_font->CalcTextSizeA(label_size, FLT_MAX, 0, label.c_str()).x);
  }
  label_w += label_size * 0.6f;
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  const float gap = font * 0.8f;
  Grid grid = fit_grid(int(set.heads), ImGui::GetContentRegionAvail(), label_w, title_h, gap);
  if (label_stride(grid.map / float(set.rows), label_size, set.rows) > 1) {
    // Thinned labels carry their position: make room for the widest one ("1023:").
    const std::string position = std::to_string(set.rows - 1) + ":";
    label_w += label_font->CalcTextSizeA(label_size, FLT_MAX, 0, position.c_str()).x;
    grid = fit_grid(int(set.heads), ImGui::GetContentRegionAvail(), label_w, title_h, gap);
  }
  if (grid.map < 4) {
    ImGui::TextWrapped("The panel is too small for %lld maps: enlarge the window.",
                       (long long)set.heads);
    return;
  }

  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  for (int head = 0; head < int(set.heads); ++head) {
    const int column = head % grid.columns, row = head / grid.columns;
    const ImVec2 cell_origin(
        start.x + grid.left + float(column) * (grid.map + grid.gap),
        start.y + grid.top + float(row) * (grid.map + grid.title_h + grid.gap) + grid.title_h);
    state.frame.heatmap_placements.push_back(
        {head, cell_origin, ImVec2(cell_origin.x + grid.map, cell_origin.y + grid.map)});
  }

  // Titles and labels first, then the maps through the colour-map shader in one batch.
  for (const HeatmapPlacement& p : state.frame.heatmap_placements) {
    const int column = p.head % grid.columns, row = p.head / grid.columns;
    // The longest title that fits above the map.
    char title[96];
    const std::vector<double>& entropy = trace.diagnostics.head_entropy_bits;
    const std::vector<bool>& off = trace.config.ablated_heads;
    const bool ablated = size_t(p.head) < off.size() && off[size_t(p.head)];
    std::snprintf(title, sizeof title, ablated ? "head %d (off)" : "head %d", p.head);
    if (set.maps_are_tokens) {
      std::snprintf(title, sizeof title, "%s", token_at(trace, p.head).c_str());
    } else if (size_t(p.head) < entropy.size()) {
      char longer[96];
      std::snprintf(longer, sizeof longer, "head %d%s \u00B7 %.2f bits", p.head,
                    ablated ? " (off)" : "", entropy[size_t(p.head)]);
      if (ImGui::CalcTextSize(longer).x + font * 0.7f <= grid.map + grid.gap * 0.5f)
        std::snprintf(title, sizeof title, "%s", longer);
    }
    if (ImGui::CalcTextSize(title).x + font * 0.7f > grid.map + grid.gap * 0.5f)
      std::snprintf(title, sizeof title, set.maps_are_tokens ? "t%d" : "h%d", p.head);
    const float title_y = p.min.y - grid.title_h - (row == 0 ? grid.top : 0);
    list->AddRectFilled(ImVec2(p.min.x, title_y + font * 0.25f),
                        ImVec2(p.min.x + font * 0.5f, title_y + font * 0.95f), head_colour(p.head));
    list->AddText(ImVec2(p.min.x + font * 0.7f, title_y), colours.text, title);
    draw_axis_labels(list, trace, set, grid, p.min, column == 0, row == 0, label_size,
                     colours.text_dim);
  }
  if (drawer && drawer->error().empty()) {
    drawer->draw(list, set, state.frame.heatmap_placements);
  } else {
    for (const HeatmapPlacement& p : state.frame.heatmap_placements)
      list->AddRect(p.min, p.max, colours.block_border);
  }
  for (const HeatmapPlacement& p : state.frame.heatmap_placements) {
    list->AddRect(p.min, p.max, colours.block_border);
    cell_values(list, set, p.head, p.min, grid.map / float(set.rows), label_size);
  }

  // Hover: find the cell under the mouse; highlight that query's row in every head.
  const float cell = grid.map / float(set.rows);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  HoverCell& hover = state.frame.hover;
  if (ImGui::IsWindowHovered()) {
    for (const HeatmapPlacement& p : state.frame.heatmap_placements) {
      if (mouse.x < p.min.x || mouse.y < p.min.y || mouse.x >= p.max.x || mouse.y >= p.max.y)
        continue;
      hover = {p.head, std::min<int64_t>(int64_t((mouse.y - p.min.y) / cell), set.rows - 1),
               std::min<int64_t>(int64_t((mouse.x - p.min.x) / cell), set.cols - 1)};
    }
  }
  if (hover.head >= 0) {
    const float thickness = std::max(2.0f, font * 0.12f);
    for (const HeatmapPlacement& p : state.frame.heatmap_placements) {
      const float y = p.min.y + float(hover.query) * cell;
      list->AddRect(ImVec2(p.min.x - 1, y - 1), ImVec2(p.max.x + 1, y + cell + 1), colours.accent,
                    0, 0, thickness);
    }
    const HeatmapPlacement& p = state.frame.heatmap_placements[size_t(hover.head)];
    const ImVec2 a(p.min.x + float(hover.key) * cell, p.min.y + float(hover.query) * cell);
    list->AddRect(a, ImVec2(a.x + cell, a.y + cell), colours.error, 0, 0, thickness);
    hover_tooltip(state, set, hover);
  }
}

}  // namespace

void draw_heads_panel(AppState& state, HeatmapDrawer* drawer) {
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNavInputs;
  std::string title = "Heads";
  if (state.session.trace && state.session.trace->config.batch > 1)
    title += " \u2014 sequence b = " + std::to_string(state.walk.batch_shown);
  title += "###heads";
  if (begin_panel(state, PanelId::Heads, title.c_str(), flags) && state.session.trace) {
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
      ImGui::TextUnformatted(heatmap_view_title(set.view));
      // The legend beside the title when it fits, else under it.
      const float legend_w = ImGui::GetFontSize() * (set.masked_cells > 0 ? 16 : 11);
      if (ImGui::GetContentRegionAvail().x - ImGui::GetItemRectSize().x > legend_w)
        ImGui::SameLine(0, ImGui::GetFontSize());
      legend(set, colours);
      draw_maps(state, set, drawer);
    }
  }
  ImGui::End();
}

}  // namespace attnlab::gui
