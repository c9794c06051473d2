#include "app/gui/look/stand_in_glyphs.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "app/gui/look/fallback_fonts.hpp"
#include "app/gui/state/typed_input.hpp"

// A private copy of stb_truetype (ImGui keeps its own static): reads the fallback fonts' outlines.
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb_truetype.h>

namespace attnlab::gui {

namespace {

std::vector<unsigned char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

bool open_face(const std::vector<unsigned char>& file, int index, stbtt_fontinfo& face) {
  const int offset = stbtt_GetFontOffsetForIndex(file.data(), index);
  return offset >= 0 && stbtt_InitFont(&face, file.data(), offset) != 0;
}

}  // namespace

StandInGlyphs reserve_stand_in_glyphs(ImFont* font, float pixels,
                                      const std::vector<char32_t>& stand_ins) {
  StandInGlyphs reserved;
  if (!font) return reserved;
  std::map<std::string, int> opened;  // "file#index" -> into reserved.files
  std::vector<stbtt_fontinfo> faces;
  for (size_t i = 0; i < stand_ins.size() && i <= kLastStandIn - kFirstStandIn; ++i) {
    const char32_t c = stand_ins[i];
    const std::vector<FallbackFont> found = fallback_fonts_for({c}, "");
    if (found.empty()) continue;
    const std::string key = found.front().file + "#" + std::to_string(found.front().index);
    auto at = opened.find(key);
    if (at == opened.end()) {
      std::vector<unsigned char> file = read_file(found.front().file);
      stbtt_fontinfo face;
      if (file.empty() || !open_face(file, found.front().index, face)) continue;
      reserved.files.push_back(std::move(file));
      // The face points into the file's bytes: opened again from the stored copy.
      open_face(reserved.files.back(), found.front().index, face);
      faces.push_back(face);
      at = opened.emplace(key, int(faces.size()) - 1).first;
    }
    const stbtt_fontinfo& face = faces[size_t(at->second)];
    const float scale = stbtt_ScaleForPixelHeight(&face, pixels);
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0, advance = 0, bearing = 0;
    stbtt_GetCodepointBitmapBox(&face, int(c), scale, scale, &x0, &y0, &x1, &y1);
    stbtt_GetCodepointHMetrics(&face, int(c), &advance, &bearing);
    if (x1 <= x0 || y1 <= y0) continue;
    StandInGlyph glyph;
    glyph.c = c;
    glyph.stand_in = ImWchar(kFirstStandIn + i);
    glyph.font_file = at->second;
    glyph.face = found.front().index;
    glyph.y0 = float(y0);
    glyph.rect = ImGui::GetIO().Fonts->AddCustomRectFontGlyph(
        font, glyph.stand_in, x1 - x0, y1 - y0, std::round(float(advance) * scale),
        ImVec2(float(x0), 0.0f));
    reserved.glyphs.push_back(glyph);
  }
  return reserved;
}

void draw_stand_in_glyphs(ImFont* font, float pixels, const StandInGlyphs& reserved) {
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  if (!font || !atlas.TexPixelsAlpha8) return;
  for (const StandInGlyph& glyph : reserved.glyphs) {
    stbtt_fontinfo face;
    if (!open_face(reserved.files[size_t(glyph.font_file)], glyph.face, face)) continue;
    const ImFontAtlasCustomRect* rect = atlas.GetCustomRectByIndex(glyph.rect);
    const float scale = stbtt_ScaleForPixelHeight(&face, pixels);
    unsigned char* at = atlas.TexPixelsAlpha8 + rect->Y * atlas.TexWidth + rect->X;
    stbtt_MakeCodepointBitmap(&face, at, rect->Width, rect->Height, atlas.TexWidth, scale, scale,
                              int(glyph.c));
    // On the line as ImGui's own glyphs: the top at the font's ascent plus the bitmap's top.
    if (auto* drawn = const_cast<ImFontGlyph*>(font->FindGlyphNoFallback(glyph.stand_in))) {
      const float top = std::round(font->Ascent) + glyph.y0;
      drawn->Y1 = top + (drawn->Y1 - drawn->Y0);
      drawn->Y0 = top;
    }
  }
}

}  // namespace attnlab::gui
