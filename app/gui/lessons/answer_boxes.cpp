#include "app/gui/lessons/answer_boxes.hpp"

#include <imgui_internal.h>  // a window's root window

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/lessons/answer_mask.hpp"
#include "app/gui/look/theme.hpp"

namespace attnlab::gui {

namespace {

// Whether the window that drew `text` is part of the picture: its root window starts inside the
// pipeline's, the stage view's, the heads' or the info panel's rectangle (a tooltip over them
// too), not in the band or the controls.
bool in_picture(const AppState& state, const DrawnText& text) {
  const ImGuiWindow* window = ImGui::FindWindowByName(text.window.c_str());
  if (!window || !window->RootWindow) return false;
  const ImVec2 at = window->RootWindow->Pos;
  const ImVec4& band = state.frame.band_rect;
  if (band.z > band.x && at.y >= band.y - 0.5f) return false;
  for (const PanelId panel : {PanelId::Pipeline, PanelId::Tensors, PanelId::Heads, PanelId::Info}) {
    const ImVec4& r = state.frame.panel_rects[size_t(panel)];
    if (r.z > r.x && at.x >= r.x - 0.5f && at.x < r.z && at.y >= r.y - 0.5f && at.y < r.w)
      return true;
  }
  return false;
}

// Marks the glyphs of runs[first..last) that a span of `text` covers; `starts` holds each run's
// first byte in `text`.
void mark(const std::vector<TextSpan>& spans, const std::vector<GlyphRun>& runs, size_t first,
          const std::vector<size_t>& starts, std::vector<std::vector<bool>>& masked) {
  for (const TextSpan& span : spans)
    for (size_t r = first; r < first + starts.size(); ++r) {
      const GlyphRun& run = runs[r];
      for (size_t g = 0; g < run.at.size(); ++g) {
        const size_t begin = starts[r - first] + run.at[g].byte;
        const size_t end =
            starts[r - first] + (g + 1 < run.at.size() ? run.at[g + 1].byte : run.text.text.size());
        if (begin < span.end && end > span.begin) masked[r][g] = true;
      }
    }
}

// The glyphs [first, last] of `run` drawn as one "?" box: their quads emptied, the box drawn in
// their colour at the end of the same list, clipped as they were.
AnswerBox box_over(const GlyphRun& run, size_t first, size_t last) {
  ImDrawList& list = *run.list;
  for (size_t g = first; g <= last; ++g) {
    ImDrawVert* quad = list.VtxBuffer.Data + run.at[g].vertex;
    for (int v = 1; v < 4; ++v) quad[v].pos = quad[0].pos;  // no area: nothing drawn, no glyph
  }
  const char* mark = "?";
  const float em = run.em;
  const float question_w = run.font->CalcTextSizeA(em, FLT_MAX, 0, mark).x;
  float x0 = run.at[first].pen_x, x1 = run.at[last].pen_end;
  const float missing = question_w + 0.2f * em - (x1 - x0);
  if (missing > 0) x0 -= missing / 2, x1 += missing / 2;
  const float y0 = run.pen_y, y1 = run.pen_y + em;
  const ImVec4& room = run.text.room;
  list.PushClipRect(ImVec2(room.x, room.y), ImVec2(room.z, room.w));
  list.PushTextureID(run.font->ContainerAtlas->TexID);
  list.AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), run.ink, 0.25f * em);
  list.AddText(run.font, em, ImVec2(std::round((x0 + x1 - question_w) / 2), y0),
               text_colour_on(run.ink | IM_COL32_A_MASK), mark);
  list.PopTextureID();
  list.PopClipRect();
  const size_t byte_end = last + 1 < run.at.size() ? run.at[last + 1].byte : run.text.text.size();
  return {run.text.text.substr(run.at[first].byte, byte_end - run.at[first].byte),
          ImVec4(x0, y0, x1, y1), run.text.window};
}

}  // namespace

void draw_answer_boxes(AppState& state) {
  const AnswerMask mask = mask_in_force(state.lesson, state.session.trace.get());
  if (!mask.active()) return;
  std::vector<GlyphRun> runs = glyph_runs();
  std::vector<bool> picture(runs.size());
  std::vector<std::vector<bool>> masked(runs.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    picture[r] = in_picture(state, runs[r].text);
    masked[r].assign(runs[r].at.size(), false);
  }
  for (size_t r = 0; r < runs.size();) {
    if (!picture[r]) {
      ++r;
      continue;
    }
    // The line and the lines that go on from it, as one text (answer_spans reads them).
    std::string text = runs[r].text.text;
    std::vector<size_t> starts{0};
    size_t end = r + 1;
    for (; end < runs.size() && picture[end] && goes_on(runs[end - 1], runs[end]); ++end) {
      text += '\n';
      starts.push_back(text.size());
      text += runs[end].text.text;
    }
    mark(answer_spans(mask, text), runs, r, starts, masked);
    r = end;
  }
  // A glyph drawn where the picture shows something other than the asked run is never boxed.
  for (size_t r = 0; r < runs.size(); ++r)
    for (size_t g = 0; g < masked[r].size(); ++g) {
      const GlyphRun::Glyph& glyph = runs[r].at[g];
      const ImVec2 middle(0.5f * (glyph.pen_x + glyph.pen_end), runs[r].pen_y + 0.5f * runs[r].em);
      if (masked[r][g] && not_the_run_at(state, middle)) masked[r][g] = false;
    }
  for (size_t r = 0; r < runs.size(); ++r)
    for (size_t g = 0; g < masked[r].size();) {
      if (!masked[r][g]) {
        ++g;
        continue;
      }
      size_t last = g;
      while (last + 1 < masked[r].size() && masked[r][last + 1]) ++last;
      state.frame.answer_boxes.push_back(box_over(runs[r], g, last));
      g = last + 1;
    }
}

bool goes_on(const GlyphRun& before, const GlyphRun& line) {
  const float down = line.pen_y - before.pen_y;
  return line.follows && line.list == before.list && std::fabs(line.em - before.em) < 0.5f &&
         down > 0.5f * line.em && down < 2.0f * line.em;
}

void mark_not_the_run(AppState& state, ImVec2 min, ImVec2 max) {
  state.frame.not_the_run.push_back(ImVec4(min.x, min.y, max.x, max.y));
}

bool not_the_run_at(const AppState& state, ImVec2 point) {
  return std::any_of(state.frame.not_the_run.begin(), state.frame.not_the_run.end(),
                     [&](const ImVec4& r) {
                       return point.x >= r.x && point.x <= r.z && point.y >= r.y && point.y <= r.w;
                     });
}

}  // namespace attnlab::gui
