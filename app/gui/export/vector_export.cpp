#include "app/gui/export/vector_export.hpp"

#include <cstdio>
#include <sstream>
#include <variant>

#include "app/gui/export/save_command.hpp"
#include "core/tensor/npy.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab::gui {

namespace {

// `text` as XML 1.0 character data or an attribute's value: valid UTF-8 (unicode::valid_utf8),
// the markup characters as references, tab, new line and carriage return as character references
// (kept as they are, not turned into spaces), and each character XML does not allow (the other
// control characters, U+FFFE, U+FFFF) as U+FFFD.
std::string escaped(const std::string& text) {
  const std::string valid = unicode::valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    const char c = valid[i];
    const auto byte = static_cast<unsigned char>(c);
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else if (c == '\t' || c == '\n' || c == '\r')
      out += "&#" + std::to_string(byte) + ";";
    else if (byte < 0x20)
      out += "\uFFFD";
    else if (byte == 0xEF && valid.compare(i + 1, 1, "\xBF") == 0 && i + 2 < valid.size() &&
             (valid[i + 2] == '\xBE' || valid[i + 2] == '\xBF')) {
      out += "\uFFFD";  // U+FFFE or U+FFFF
      i += 2;
    } else
      out += c;
  }
  return out;
}

std::string hex(uint32_t colour) {
  char text[8];
  std::snprintf(text, sizeof text, "#%06x", unsigned(colour & 0xffffff));
  return text;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

const char* anchor_name(TextAnchor anchor) {
  switch (anchor) {
    case TextAnchor::Middle:
      return "middle";
    case TextAnchor::End:
      return "end";
    case TextAnchor::Start:
      break;
  }
  return "start";
}

void write(std::ostream& out, const VectorRect& r) {
  out << "<rect x=\"" << number(r.x) << "\" y=\"" << number(r.y) << "\" width=\"" << number(r.w)
      << "\" height=\"" << number(r.h) << "\" fill=\"" << (r.filled ? hex(r.fill) : "none") << "\"";
  if (r.outlined) out << " stroke=\"" << hex(r.stroke) << "\"";
  if (r.corner > 0) out << " rx=\"" << number(r.corner) << "\"";
  if (r.cell)
    out << " class=\"cell\" data-query=\"" << r.query << "\" data-key=\"" << r.key
        << "\" data-value=\"" << (r.masked ? std::string("masked") : number(r.value))
        << "\" data-position=\"" << number(r.position) << "\"";
  out << "/>\n";
}

void write(std::ostream& out, const VectorText& t) {
  out << "<text x=\"" << number(t.x) << "\" y=\"" << number(t.y) << "\" font-size=\""
      << number(t.size) << "\" text-anchor=\"" << anchor_name(t.anchor) << "\"";
  if (!t.kind.empty()) out << " class=\"" << escaped(t.kind) << "\"";
  if (t.rotation != 0)
    out << " transform=\"rotate(" << number(t.rotation) << " " << number(t.x) << " " << number(t.y)
        << ")\"";
  out << ">" << escaped(t.words) << "</text>\n";
}

void write(std::ostream& out, const VectorGroup& g) {
  if (!g.opens) {
    out << "</g>\n";
    return;
  }
  out << "<g id=\"" << escaped(g.id) << "\"";
  for (const auto& [name, value] : g.data) out << " " << name << "=\"" << escaped(value) << "\"";
  out << ">\n";
}

}  // namespace

std::string picture_svg(const VectorPicture& picture) {
  std::ostringstream out;
  const double w = picture.width, h = picture.height;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(w) << "\" height=\""
      << number(h) << "\" viewBox=\"0 0 " << number(w) << " " << number(h)
      << "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (const VectorItem& item : picture.items)
    std::visit([&](const auto& primitive) { write(out, primitive); }, item);
  out << "</svg>\n";
  return out.str();
}

std::string heads_svg(AppState& state) {
  const VectorPicture picture = heads_picture(state);
  return picture.empty() ? "" : picture_svg(picture);
}

std::string export_svg(AppState& state, const std::string& path) {
  const std::string svg = heads_svg(state);
  if (svg.empty()) return "there is no trace to draw yet: wait for it to be computed";
  try {
    write_file_atomically(path, svg);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

std::string maps_file_name(const std::string& extension) {
  return "attnlab-heads-" + file_time_stamp() + "." + extension;
}

}  // namespace attnlab::gui
