#include "app/gui/export/maps_pdf.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <variant>

#include "app/gui/export/cairo_pdf.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

constexpr const char* kFont = "DejaVu Sans";  // the SVG's first choice

void source(cairo_t* cr, uint32_t rgb) {
  cairo_set_source_rgb(cr, double(rgb >> 16 & 255) / 255, double(rgb >> 8 & 255) / 255,
                       double(rgb & 255) / 255);
}

void path(cairo_t* cr, const VectorRect& r) {
  const double c = std::min({r.corner, r.w / 2, r.h / 2});
  if (c <= 0) {
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    return;
  }
  cairo_new_sub_path(cr);
  cairo_arc(cr, r.x + r.w - c, r.y + c, c, -M_PI / 2, 0);
  cairo_arc(cr, r.x + r.w - c, r.y + r.h - c, c, 0, M_PI / 2);
  cairo_arc(cr, r.x + c, r.y + r.h - c, c, M_PI / 2, M_PI);
  cairo_arc(cr, r.x + c, r.y + c, c, M_PI, 3 * M_PI / 2);
  cairo_close_path(cr);
}

void draw(cairo_t* cr, const VectorRect& r) {
  if (r.filled) {
    source(cr, r.fill);
    path(cr, r);
    cairo_fill(cr);
  }
  if (r.outlined) {
    source(cr, r.stroke);
    cairo_set_line_width(cr, 1);
    path(cr, r);
    cairo_stroke(cr);
  }
}

void draw(cairo_t* cr, const VectorText& t) {
  if (t.words.empty()) return;
  const std::string words = cairo_text(t.words);  // cairo draws nothing more after a bad byte
  cairo_save(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_font_size(cr, t.size);
  cairo_translate(cr, t.x, t.y);
  cairo_rotate(cr, t.rotation * M_PI / 180);
  double shift = 0;
  if (t.anchor != TextAnchor::Start) {
    cairo_text_extents_t extents;
    cairo_text_extents(cr, words.c_str(), &extents);
    shift = t.anchor == TextAnchor::End ? -extents.x_advance : -extents.x_advance / 2;
  }
  cairo_move_to(cr, shift, 0);
  cairo_show_text(cr, words.c_str());
  cairo_restore(cr);
}

void draw(cairo_t*, const VectorGroup&) {}  // the PDF has no groups

}  // namespace

void draw_picture(cairo_t* cr, const VectorPicture& picture) {
  cairo_save(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, 0, 0, picture.width, picture.height);
  cairo_fill(cr);
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  for (const VectorItem& item : picture.items)
    std::visit([&](const auto& primitive) { draw(cr, primitive); }, item);
  cairo_restore(cr);
}

std::string picture_pdf(const VectorPicture& picture) {
  return cairo_pdf_bytes(
      picture.width, picture.height, "Attention Lab: the heads' maps",
      [&](cairo_t* cr) {
        draw_picture(cr, picture);
        cairo_show_page(cr);
      },
      "cannot draw the maps as PDF");
}

std::string write_picture_pdf(const VectorPicture& picture, const std::string& path) {
  if (picture.empty()) return "there is no trace to draw yet: wait for it to be computed";
  try {
    write_file_atomically(path, picture_pdf(picture));
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace attnlab::gui
