// Every text the last frame drew, read back from ImGui's draw lists after ImGui::Render(): each
// glyph quad is matched to its glyph in the font atlas, consecutive glyphs on one baseline make a
// run. Whatever drew it (ImGui::Text, a button, a tab label, a table cell, a draw-list AddText),
// the run knows its rectangle and the room it had (its clip rectangle), so one check finds text
// drawn cut or drawn over another text, in every view.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace attnlab::gui {

struct DrawnText {
  std::string text;            // UTF-8, a space where the pen skipped blank room
  std::string window;          // the ImGui window that drew it
  ImVec4 rect;                 // x0, y0, x1, y1: the glyphs' ink, as if unclipped
  ImVec4 room;                 // the clip rectangle it was drawn in
  std::vector<ImVec4> glyphs;  // each glyph's ink as shown (inside the room)
  bool cut = false;  // part of a glyph fell outside the room where the window cannot scroll
  int root = 0;      // texts of one root window share the screen; other roots float over them
};

// A drawn text as its glyphs sit in their window's draw list, to be drawn otherwise (the answer's
// "?" boxes, app/gui/look/answer_boxes.hpp).
struct GlyphRun {
  struct Glyph {
    unsigned vertex;       // its quad's first of four vertices in list->VtxBuffer
    size_t byte;           // where its character starts in text.text
    float pen_x, pen_end;  // the pen before it and after its advance
  };
  DrawnText text;
  ImDrawList* list = nullptr;
  std::vector<Glyph> at;    // the glyphs in order
  float pen_y = 0, em = 0;  // the line's top and the font's size, as drawn
  const ImFont* font = nullptr;
  ImU32 ink = 0;         // its first glyph's colour
  bool follows = false;  // its list drew nothing between the last run's glyphs and its own
};

// The texts of every window drawn this frame with their glyphs' places (call after every window
// has ended, before ImGui::Render(), to change them; or after it, to read them).
std::vector<GlyphRun> glyph_runs();

// The rectangles (x0, y0, x1, y1) of this frame's tab bars whose tabs are wider than the bar, so
// scroll: a tab label past such a bar's edge can be scrolled to, as text past a scrolling
// window's edge can.
std::vector<ImVec4> scrolling_tab_bars();

// The texts of every window drawn last frame (call after ImGui::Render()).
std::vector<DrawnText> drawn_texts();

// One line per text drawn cut or overlapping another text of its root window:
// `cut "text" [x0,y0 x1,y1] in room [..] (window)` / `overlap "a" [..] and "b" [..] (window)`.
// A text starting inside one of `fields` (text fields: x0, y0, x1, y1) scrolls there: not cut.
std::vector<std::string> text_findings(const std::vector<DrawnText>& texts,
                                       const std::vector<ImVec4>& fields = {});

}  // namespace attnlab::gui
