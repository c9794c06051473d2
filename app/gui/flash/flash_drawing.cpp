#include "app/gui/flash/flash_drawing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/look/colormap.hpp"
#include "app/gui/look/wrap.hpp"
#include "core/model/config.hpp"

namespace attnlab::gui {

namespace {

// The diverging colour of `value` on a scale of +-`magnitude`.
ImU32 signed_colour(float value, float magnitude) {
  const float t = magnitude > 0 ? 0.5f + 0.5f * std::clamp(value / magnitude, -1.0f, 1.0f) : 0.5f;
  return colour_at_packed(ColormapKind::Diverging, t);
}

// Diagonal hatching over [a, b]: what the masks hide.
void hatch(ImDrawList* list, ImVec2 a, ImVec2 b, const Palette& colours) {
  list->AddRectFilled(a, b, colours.masked_a);
  list->PushClipRect(a, b, true);
  const float gap = std::max(4.0f, ImGui::GetFontSize() * 0.45f);
  for (float x = a.x - (b.y - a.y); x < b.x; x += gap)
    list->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), colours.masked_b, 1.0f);
  list->PopClipRect();
}

float largest_magnitude(const std::vector<float>& values) {
  float m = 0;
  for (float v : values)
    if (std::isfinite(v)) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace

void draw_tile_grid(const SweepView& view, ImVec2 at, float cell) {
  const FlashSweep& sweep = view.sweep;
  const Palette& colours = view.colours;
  ImDrawList* list = ImGui::GetWindowDrawList();
  float magnitude = 0;
  for (const SweepStep& step : sweep.steps)
    magnitude = std::max(magnitude, largest_magnitude(step.scores));
  for (int s = 0; s < int(sweep.steps.size()); ++s) {
    const SweepStep& step = sweep.steps[size_t(s)];
    const ImVec2 a(at.x + float(step.col0) * cell, at.y + float(step.row0) * cell);
    const ImVec2 b(a.x + float(step.cols) * cell, a.y + float(step.rows) * cell);
    if (step.kind == TileKind::Skipped) {
      hatch(list, a, b, colours);
    } else if (s <= view.step) {
      for (int64_t r = 0; r < step.rows; ++r)
        for (int64_t c = 0; c < step.cols; ++c) {
          const float score = step.scores[size_t(r * step.cols + c)];
          const ImVec2 p(a.x + float(c) * cell, a.y + float(r) * cell);
          list->AddRectFilled(
              p, ImVec2(p.x + cell, p.y + cell),
              std::isfinite(score) ? signed_colour(score, magnitude) : colours.masked_a);
        }
    } else {
      list->AddRectFilled(a, b, colours.block_fill);
    }
    list->AddRect(a, b, colours.grid);
  }
  if (view.step >= 0 && view.step < int(sweep.steps.size())) {
    const SweepStep& now = sweep.steps[size_t(view.step)];
    const ImVec2 a(at.x + float(now.col0) * cell, at.y + float(now.row0) * cell);
    list->AddRect(ImVec2(a.x - 2, a.y - 2),
                  ImVec2(a.x + float(now.cols) * cell + 2, a.y + float(now.rows) * cell + 2),
                  colours.accent, 0, 0, 3.0f);
  }
}

void draw_row_bars(const SweepView& view, ImVec2 at, float cell, float width) {
  const FlashSweep& sweep = view.sweep;
  const Palette& colours = view.colours;
  const SweepStep& now = sweep.steps[size_t(view.step)];
  ImDrawList* list = ImGui::GetWindowDrawList();
  const int64_t T = sweep.T, last = int64_t(sweep.steps.size()) - 1;
  // One scale for the whole sweep, so a bar's growth from step to step is visible.
  float m_scale = 0, l_scale = 0;
  for (int64_t i = 0; i < T; ++i) {
    const float m = view.row_max.at({last, i}), l = view.row_sum.at({last, i});
    if (std::isfinite(m)) m_scale = std::max(m_scale, std::abs(m));
    l_scale = std::max(l_scale, l);
  }
  const float gap = std::round(ImGui::GetFontSize() * 0.5f);
  const float column = (width - gap) * 0.5f;
  const float m_axis = at.x + column * 0.5f, l_left = at.x + column + gap;
  const float bar_h = std::max(1.0f, cell - (cell >= 6 ? 2.0f : 0.0f));
  const auto m_bar = [&](float m, float y, bool filled) {
    if (!std::isfinite(m)) return;
    const float half = column * 0.5f * (m_scale > 0 ? std::abs(m) / m_scale : 0);
    const ImVec2 a(m >= 0 ? m_axis : m_axis - half, y),
        b(m >= 0 ? m_axis + half : m_axis, y + bar_h);
    filled ? list->AddRectFilled(a, b, colours.accent) : list->AddRect(a, b, colours.text_dim);
  };
  const auto l_bar = [&](float l, float y, bool filled) {
    if (l <= 0) return;
    const ImVec2 a(l_left, y), b(l_left + column * (l_scale > 0 ? l / l_scale : 0), y + bar_h);
    filled ? list->AddRectFilled(a, b, head_colour(int(sweep.head)))
           : list->AddRect(a, b, colours.text_dim);
  };
  list->AddRect(at, ImVec2(at.x + column, at.y + float(T) * cell), colours.grid);
  list->AddRect(ImVec2(l_left, at.y), ImVec2(l_left + column, at.y + float(T) * cell),
                colours.grid);
  list->AddLine(ImVec2(m_axis, at.y), ImVec2(m_axis, at.y + float(T) * cell), colours.grid);
  for (int64_t i = 0; i < T; ++i) {
    const float y = at.y + float(i) * cell;
    const bool current = i >= now.row0 && i < now.row0 + now.rows;
    if (current) {
      list->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + column, y + cell), colours.block_fill);
      list->AddRectFilled(ImVec2(l_left, y), ImVec2(l_left + column, y + cell), colours.block_fill);
    }
    m_bar(view.row_max.at({view.step, i}), y, true);
    l_bar(view.row_sum.at({view.step, i}), y, true);
    if (current) {
      m_bar(now.m_before[size_t(i - now.row0)], y, false);
      l_bar(now.l_before[size_t(i - now.row0)], y, false);
    }
  }
}

void draw_output_rows(const SweepView& view, ImVec2 at, float cell, float width) {
  const FlashSweep& sweep = view.sweep;
  const SweepStep& now = sweep.steps[size_t(view.step)];
  ImDrawList* list = ImGui::GetWindowDrawList();
  const int64_t dv = sweep.d_v;
  const float magnitude = largest_magnitude(sweep.context);
  const float cell_w = width / float(std::max<int64_t>(dv, 1));
  for (int64_t i = 0; i < sweep.T; ++i) {
    const float y = at.y + float(i) * cell;
    const float* row = nullptr;
    if (i < now.row0) row = sweep.context.data() + i * dv;  // a finished block: final
    if (i >= now.row0 && i < now.row0 + now.rows)
      row = now.partial_out.data() + (i - now.row0) * dv;
    if (!row) continue;  // a block not reached yet
    for (int64_t d = 0; d < dv; ++d)
      list->AddRectFilled(ImVec2(at.x + float(d) * cell_w, y),
                          ImVec2(at.x + float(d + 1) * cell_w, y + cell),
                          signed_colour(row[d], magnitude));
  }
  list->AddRect(at, ImVec2(at.x + width, at.y + float(sweep.T) * cell), view.colours.grid);
  list->AddRect(ImVec2(at.x - 2, at.y + float(now.row0) * cell - 2),
                ImVec2(at.x + width + 2, at.y + float(now.row0 + now.rows) * cell + 2),
                view.colours.accent, 0, 0, 3.0f);
}

void draw_memory_gauge(const char* title, const FlashCounters& counters, float width,
                       const Palette& colours) {
  const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  for (const std::string& line : wrap_at_spaces(title, width, measure))
    ImGui::TextUnformatted(line.c_str());  // wrapped to the gauge, not to the region
  const double ordinary = double(counters.ordinary_bytes), tiled = double(counters.bytes_held);
  // "2.0 GiB (2.1 GB)": the seeds write decimal gigabytes.
  const auto label = [](double bytes) {
    char decimal[32] = "";
    if (bytes >= 1e9) std::snprintf(decimal, sizeof decimal, " (%.1f GB)", bytes / 1e9);
    return format_bytes(bytes) + decimal;
  };
  const std::string ordinary_text = label(ordinary), tiled_text = label(tiled);
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float label_w = ImGui::CalcTextSize("ordinary").x + spacing;
  const float text_w = std::max(ImGui::CalcTextSize(ordinary_text.c_str()).x,
                                ImGui::CalcTextSize(tiled_text.c_str()).x);
  const float bar_w = std::max(width - label_w - text_w - spacing, ImGui::GetFontSize() * 2);
  const double most = std::max({ordinary, tiled, 1.0});
  const auto bar = [&](const char* name, double bytes, const std::string& text, ImU32 colour) {
    ImGui::TextUnformatted(name);
    ImGui::SameLine(label_w);
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->AddRectFilled(a, ImVec2(a.x + bar_w, a.y + h), colours.block_fill);
    list->AddRectFilled(a, ImVec2(a.x + std::max(2.0f, bar_w * float(bytes / most)), a.y + h),
                        colour);
    ImGui::Dummy(ImVec2(bar_w, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(text.c_str());
  };
  bar("ordinary", ordinary, ordinary_text, colours.error);
  bar("tiled", tiled, tiled_text, colours.accent);
}

}  // namespace attnlab::gui
