// A PDF drawn by cairo into memory, for the writers that then write it whole
// (write_file_atomically): the maps (maps_pdf.hpp) and a lesson's handout
// (lessons/handout_pdf.hpp). cairo does not throw: a drawing call that fails (text that is not
// UTF-8, a size it cannot take, no memory) leaves the context in an error state and draws nothing
// after it, so the bytes are returned only when the context and the surface both report success;
// otherwise nothing, and one line naming the error.
#pragma once

#include <functional>
#include <string>
#include <string_view>

typedef struct _cairo cairo_t;

namespace attnlab::gui {

// The PDF's bytes: a document of `width` x `height` points titled `title` ("" for none), drawn by
// `draw` (which calls cairo_show_page after each page). Throws UserError "`what`: <cairo's
// error>" when cairo reports an error while drawing or finishing.
std::string cairo_pdf_bytes(double width, double height, const std::string& title,
                            const std::function<void(cairo_t*)>& draw, const std::string& what);

// `text` as cairo draws it: valid UTF-8 (unicode::valid_utf8) with each character cairo refuses
// (the noncharacters U+FDD0..U+FDEF and U+xFFFE, U+xFFFF of every plane) as U+FFFD.
std::string cairo_text(std::string_view text);

}  // namespace attnlab::gui
