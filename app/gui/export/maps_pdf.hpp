// The maps' vector picture (vector_picture.hpp) as a PDF, drawn by cairo: one page of the
// picture's size in points, a rectangle per cell, the texts as text (DejaVu Sans). The desktop
// only: the page has no cairo and saves SVG.
#pragma once

#include <string>

#include "app/gui/export/vector_picture.hpp"

typedef struct _cairo cairo_t;

namespace attnlab::gui {

// Draws the picture on `cr` at (0, 0), 1 unit a px, its white background first: what the PDF
// holds, so a test can draw it on an image surface too.
void draw_picture(cairo_t* cr, const VectorPicture& picture);

// The PDF's bytes; throws UserError when cairo cannot draw it.
std::string picture_pdf(const VectorPicture& picture);

// Writes picture_pdf to `path` whole or not at all; "" or one line saying why not.
std::string write_picture_pdf(const VectorPicture& picture, const std::string& path);

}  // namespace attnlab::gui
