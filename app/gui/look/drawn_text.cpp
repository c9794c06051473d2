#include "app/gui/look/drawn_text.hpp"

#include <imgui_internal.h>  // the windows and their draw lists, scroll limits

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "app/gui/look/token_text.hpp"

namespace attnlab::gui {

namespace {

struct AtlasGlyph {
  const ImFontGlyph* glyph;
  const ImFont* font;
};

// The atlas's glyphs by where they sit in the texture: 16-pixel cells, each listing the glyphs
// that touch it.
class GlyphIndex {
 public:
  explicit GlyphIndex(const ImFontAtlas& atlas)
      : width_(std::max(1, atlas.TexWidth)), height_(std::max(1, atlas.TexHeight)) {
    cols_ = width_ / kCell + 1;
    cells_.resize(size_t(cols_) * size_t(height_ / kCell + 1));
    for (const ImFont* font : atlas.Fonts)
      for (const ImFontGlyph& g : font->Glyphs) {
        if (!g.Visible || g.U1 <= g.U0 || g.V1 <= g.V0) continue;
        const int x0 = int(g.U0 * width_) / kCell, x1 = int(g.U1 * width_) / kCell;
        const int y0 = int(g.V0 * height_) / kCell, y1 = int(g.V1 * height_) / kCell;
        for (int y = y0; y <= y1; ++y)
          for (int x = x0; x <= x1; ++x) cell(x, y).push_back({&g, font});
      }
  }
  // The glyph whose texture rectangle holds the point (u, v), if any.
  const AtlasGlyph* at(float u, float v) const {
    const int x = int(u * width_) / kCell, y = int(v * height_) / kCell;
    if (x < 0 || y < 0 || x >= cols_ || size_t(y * cols_ + x) >= cells_.size()) return nullptr;
    for (const AtlasGlyph& a : cells_[size_t(y * cols_ + x)])
      if (u >= a.glyph->U0 && u <= a.glyph->U1 && v >= a.glyph->V0 && v <= a.glyph->V1) return &a;
    return nullptr;
  }

 private:
  static constexpr int kCell = 16;
  std::vector<AtlasGlyph>& cell(int x, int y) { return cells_[size_t(y * cols_ + x)]; }
  int width_, height_, cols_ = 0;
  std::vector<std::vector<AtlasGlyph>> cells_;
};

// A glyph as drawn: its whole ink box (before any clipping), what of it was drawn, and the pen.
struct Quad {
  ImVec4 whole, drawn;
  float pen_x, pen_y, advance_end, em;
  unsigned codepoint;
  const ImFont* font;
};

// The glyph drawn by the axis-aligned quad at vertices v[0..3], or false.
bool read_quad(const GlyphIndex& index, const ImDrawVert* v, Quad& q) {
  if (v[1].pos.y != v[0].pos.y || v[3].pos.x != v[0].pos.x || v[2].pos.x != v[1].pos.x)
    return false;
  const float x1 = v[0].pos.x, y1 = v[0].pos.y, x2 = v[2].pos.x, y2 = v[2].pos.y;
  const float u1 = v[0].uv.x, v1 = v[0].uv.y, u2 = v[2].uv.x, v2 = v[2].uv.y;
  if (x2 <= x1 || y2 <= y1 || u2 <= u1 || v2 <= v1) return false;
  const AtlasGlyph* a = index.at((u1 + u2) / 2, (v1 + v2) / 2);
  if (!a) return false;
  const ImFontGlyph& g = *a->glyph;
  if (g.X1 <= g.X0 || g.Y1 <= g.Y0) return false;
  // A clipped glyph's quad shows part of its texture: scale it back to the whole.
  const float w = (x2 - x1) * (g.U1 - g.U0) / (u2 - u1);
  const float h = (y2 - y1) * (g.V1 - g.V0) / (v2 - v1);
  const float wx1 = x1 - (u1 - g.U0) / (g.U1 - g.U0) * w;
  const float wy1 = y1 - (v1 - g.V0) / (g.V1 - g.V0) * h;
  const float scale = h / (g.Y1 - g.Y0);
  q.whole = ImVec4(wx1, wy1, wx1 + w, wy1 + h);
  q.drawn = ImVec4(x1, y1, x2, y2);
  q.pen_x = wx1 - g.X0 * scale;
  q.pen_y = wy1 - g.Y0 * scale;
  q.advance_end = q.pen_x + g.AdvanceX * scale;
  q.em = a->font->FontSize * scale;
  q.codepoint = g.Codepoint;
  q.font = a->font;
  return true;
}

// The part of `r` inside `clip`.
ImVec4 clipped(const ImVec4& r, const ImVec4& clip) {
  return ImVec4(std::max(r.x, clip.x), std::max(r.y, clip.y), std::min(r.z, clip.z),
                std::min(r.w, clip.w));
}

struct Run {
  GlyphRun glyphs;  // its text, and where its glyphs sit
  bool scrolls_x = false;
  float end = 0, pen_y = 0, em = 0;
};

// A glyph of a label in `bar`: within its height, and at least partly within its width.
bool in_bar(const ImVec4& glyph, const ImVec4& bar) {
  return glyph.y >= bar.y - 1 && glyph.w <= bar.w + 1 && glyph.z > bar.x && glyph.x < bar.z;
}

void read_window(const GlyphIndex& index, ImTextureID atlas, ImGuiWindow& window, int root,
                 const std::vector<ImVec4>& tab_bars, std::vector<Run>& runs) {
  ImDrawList& list = *window.DrawList;
  bool follows = false;  // the glyph stream of the list goes on from the last run's
  // A text past the room of a window that shows a scrollbar (or of one inside it) can be
  // scrolled to; one whose window merely holds more than it shows cannot.
  bool scrolls_x = false, scrolls_y = false;
  for (const ImGuiWindow* w = &window; w; w = w->ParentWindow) {
    scrolls_x |= w->ScrollbarX;
    scrolls_y |= w->ScrollbarY;
  }
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback || cmd.TextureId != atlas) continue;
    const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
    const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
    Run* run = nullptr;
    for (unsigned k = 0; k + 3 <= cmd.ElemCount;) {
      const ImDrawIdx i0 = idx[k];
      const bool quad = k + 6 <= cmd.ElemCount && idx[k + 1] == i0 + 1 && idx[k + 2] == i0 + 2 &&
                        idx[k + 3] == i0 && idx[k + 4] == i0 + 2 && idx[k + 5] == i0 + 3;
      Quad q;
      if (!quad || !read_quad(index, vtx + i0, q)) {
        k += 3;
        run = nullptr;  // something else drawn between: the next glyph starts a new text
        follows = false;
        continue;
      }
      k += 6;
      const bool continues = run && std::fabs(q.pen_y - run->pen_y) < 0.5f &&
                             q.pen_x > run->end - 0.5f && q.pen_x < run->end + 0.6f * q.em;
      if (!continues) {
        runs.push_back(Run{});
        run = &runs.back();
        run->glyphs.list = &list;
        run->glyphs.follows = follows;
        run->glyphs.pen_y = q.pen_y;
        run->glyphs.em = q.em;
        run->glyphs.font = q.font;
        run->glyphs.ink = vtx[i0].col;
        run->glyphs.text.window = window.Name;
        run->glyphs.text.room = cmd.ClipRect;
        run->glyphs.text.rect = q.whole;
        run->glyphs.text.root = root;
        run->scrolls_x =
            scrolls_x || std::any_of(tab_bars.begin(), tab_bars.end(),
                                     [&](const ImVec4& b) { return in_bar(q.whole, b); });
        run->pen_y = q.pen_y;
        run->em = q.em;
      } else if (q.pen_x > run->end + 0.15f * q.em) {
        run->glyphs.text.text += ' ';
      }
      run->glyphs.at.push_back(
          {cmd.VtxOffset + i0, run->glyphs.text.text.size(), q.pen_x, q.advance_end});
      append_utf8(run->glyphs.text.text, char32_t(q.codepoint));
      run->end = q.advance_end;
      follows = true;
      DrawnText& t = run->glyphs.text;
      t.rect = ImVec4(std::min(t.rect.x, q.whole.x), std::min(t.rect.y, q.whole.y),
                      std::max(t.rect.z, q.whole.z), std::max(t.rect.w, q.whole.w));
      const ImVec4 shown = clipped(q.drawn, cmd.ClipRect);
      if (shown.z > shown.x && shown.w > shown.y) t.glyphs.push_back(shown);
      // Cut: a pixel or more of the glyph not drawn, on an axis its window cannot scroll.
      const float lost_x = (q.whole.z - q.whole.x) - std::max(0.f, shown.z - shown.x);
      const float lost_y = (q.whole.w - q.whole.y) - std::max(0.f, shown.w - shown.y);
      if ((lost_x > 1 && !run->scrolls_x) || (lost_y > 1 && !scrolls_y)) t.cut = true;
    }
  }
}

std::string rect_text(const ImVec4& r) {
  char s[80];
  std::snprintf(s, sizeof s, "[%.0f,%.0f %.0f,%.0f]", r.x, r.y, r.z, r.w);
  return s;
}

bool overlap(const ImVec4& a, const ImVec4& b) {
  return std::min(a.z, b.z) - std::max(a.x, b.x) > 1 && std::min(a.w, b.w) - std::max(a.y, b.y) > 1;
}

std::vector<Run> drawn_runs() {
  std::vector<Run> runs;
  ImGuiContext* g = ImGui::GetCurrentContext();
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  if (!g || !atlas || atlas->TexWidth == 0) return runs;
  const GlyphIndex index(*atlas);
  const std::vector<ImVec4> tab_bars = scrolling_tab_bars();
  std::unordered_map<const ImGuiWindow*, int> roots;
  for (ImGuiWindow* w : g->Windows) {
    if (!w->Active || w->Hidden || !w->DrawList) continue;
    const int root = int(roots.emplace(w->RootWindow, int(roots.size())).first->second);
    read_window(index, atlas->TexID, *w, root, tab_bars, runs);
  }
  // ImGui draws no glyph that starts past the room's right edge: a text whose pen reached that
  // edge went on past it (text that fits ends half a padding or more before it).
  for (Run& run : runs)
    if (!run.scrolls_x && run.end > run.glyphs.text.room.z - 1.5f) run.glyphs.text.cut = true;
  return runs;
}

}  // namespace

std::vector<ImVec4> scrolling_tab_bars() {
  std::vector<ImVec4> bars;
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (!g) return bars;
  for (int i = 0; i < g->TabBars.GetMapSize(); ++i) {
    const ImGuiTabBar* bar = g->TabBars.TryGetMapData(i);
    if (!bar || bar->CurrFrameVisible != g->FrameCount ||
        !(bar->Flags & ImGuiTabBarFlags_FittingPolicyScroll) ||
        bar->WidthAllTabsIdeal <= bar->BarRect.GetWidth())
      continue;
    bars.push_back(
        ImVec4(bar->BarRect.Min.x, bar->BarRect.Min.y, bar->BarRect.Max.x, bar->BarRect.Max.y));
  }
  return bars;
}

std::vector<DrawnText> drawn_texts() {
  std::vector<DrawnText> out;
  for (Run& run : drawn_runs()) out.push_back(std::move(run.glyphs.text));
  return out;
}

std::vector<GlyphRun> glyph_runs() {
  std::vector<GlyphRun> out;
  for (Run& run : drawn_runs()) out.push_back(std::move(run.glyphs));
  return out;
}

std::vector<std::string> text_findings(const std::vector<DrawnText>& texts,
                                       const std::vector<ImVec4>& fields) {
  std::vector<std::string> found;
  const auto in_field = [&](const DrawnText& t) {
    return std::any_of(fields.begin(), fields.end(), [&](const ImVec4& f) {
      return t.rect.x >= f.x - 1 && t.rect.x <= f.z && t.rect.y >= f.y - 2 && t.rect.y <= f.w;
    });
  };
  for (const DrawnText& t : texts)
    if (t.cut && !in_field(t))
      found.push_back("cut \"" + t.text + "\" " + rect_text(t.rect) + " in room " +
                      rect_text(t.room) + " (" + t.window + ")");
  for (size_t i = 0; i < texts.size(); ++i) {
    const DrawnText& a = texts[i];
    const ImVec4 va = clipped(a.rect, a.room);
    for (size_t j = i + 1; j < texts.size(); ++j) {
      const DrawnText& b = texts[j];
      if (a.root != b.root || !overlap(va, clipped(b.rect, b.room))) continue;
      const bool glyphs_meet = std::any_of(a.glyphs.begin(), a.glyphs.end(), [&](const ImVec4& ga) {
        return std::any_of(b.glyphs.begin(), b.glyphs.end(),
                           [&](const ImVec4& gb) { return overlap(ga, gb); });
      });
      if (!glyphs_meet) continue;
      // A text drawn twice a pixel or two apart is a shadow or an outline, not two texts.
      if (a.text == b.text && std::fabs(a.rect.x - b.rect.x) <= 2.5f &&
          std::fabs(a.rect.y - b.rect.y) <= 2.5f)
        continue;
      found.push_back("overlap \"" + a.text + "\" " + rect_text(a.rect) + " and \"" + b.text +
                      "\" " + rect_text(b.rect) + " (" + a.window + ")");
    }
  }
  return found;
}

}  // namespace attnlab::gui
