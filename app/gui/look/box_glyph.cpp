#include "app/gui/look/box_glyph.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

struct BoxSize {
  int width, height, margin, stroke;
};

// Half an em wide, a capital letter high (DejaVu's is 0.73 em), a tenth of an em either side.
BoxSize box_size(float pixels) {
  return {std::max(3, int(std::round(pixels * 0.5f))), std::max(4, int(std::round(pixels * 0.7f))),
          std::max(1, int(std::round(pixels * 0.1f))), std::max(1, int(std::round(pixels / 16)))};
}

}  // namespace

int reserve_box_glyph(ImFont* font, float pixels, ImWchar box) {
  if (!font) return -1;
  const BoxSize size = box_size(pixels);
  font->FallbackChar = box;  // kept by ImFont::BuildLookupTable: the box is drawn for the missing
  return ImGui::GetIO().Fonts->AddCustomRectFontGlyph(font, box, size.width, size.height,
                                                      float(size.width + 2 * size.margin),
                                                      ImVec2(float(size.margin), 0.0f));
}

void draw_box_glyph(ImFont* font, float pixels, ImWchar box, int rect_index) {
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  if (!font || rect_index < 0 || !atlas.TexPixelsAlpha8) return;
  const ImFontAtlasCustomRect* rect = atlas.GetCustomRectByIndex(rect_index);
  const int stroke = box_size(pixels).stroke;
  for (int y = 0; y < rect->Height; ++y) {
    unsigned char* row = atlas.TexPixelsAlpha8 + (rect->Y + y) * atlas.TexWidth + rect->X;
    const bool edge_row = y < stroke || y >= rect->Height - stroke;
    for (int x = 0; x < rect->Width; ++x)
      row[x] = edge_row || x < stroke || x >= rect->Width - stroke ? 0xFF : 0x00;
  }
  // Standing on the baseline, as a capital letter does.
  if (auto* glyph = const_cast<ImFontGlyph*>(font->FindGlyphNoFallback(box))) {
    const float top = std::round(font->Ascent) - float(rect->Height);
    glyph->Y0 = top;
    glyph->Y1 = top + float(rect->Height);
  }
}

}  // namespace attnlab::gui
