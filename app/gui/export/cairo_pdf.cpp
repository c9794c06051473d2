#include "app/gui/export/cairo_pdf.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include <memory>
#include <new>

#include "core/model/errors.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab::gui {

namespace {

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// cairo's write callback: appends to the string; no exception may cross into cairo's C code.
cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  try {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  } catch (const std::bad_alloc&) {
    return CAIRO_STATUS_NO_MEMORY;
  }
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string cairo_text(std::string_view text) {
  std::u32string characters = unicode::decode_utf8(text);
  for (char32_t& c : characters)
    if ((c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE) c = U'\uFFFD';
  return unicode::encode_utf8(characters);
}

std::string cairo_pdf_bytes(double width, double height, const std::string& title,
                            const std::function<void(cairo_t*)>& draw, const std::string& what) {
  std::string bytes;
  Surface surface(cairo_pdf_surface_create_for_stream(append, &bytes, width, height),
                  cairo_surface_destroy);
  if (!title.empty())
    cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_TITLE, title.c_str());
  cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATOR, "Attention Lab");
  cairo_status_t status = CAIRO_STATUS_SUCCESS;
  {
    Context cr(cairo_create(surface.get()), cairo_destroy);
    if (cairo_status(cr.get()) == CAIRO_STATUS_SUCCESS) draw(cr.get());
    status = cairo_status(cr.get());
  }
  cairo_surface_finish(surface.get());
  if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface.get());
  if (status != CAIRO_STATUS_SUCCESS) throw UserError(what + ": " + cairo_status_to_string(status));
  return bytes;
}

}  // namespace attnlab::gui
