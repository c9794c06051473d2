#include "app/gui/lessons/band_text.hpp"

#include "app/gui/look/wrap.hpp"

namespace attnlab::gui {

const std::vector<std::string>& wrapped_paragraphs(
    WrappedText& cache, const std::string& prefix, const std::string& text, float width,
    float font_size, const std::function<float(const std::string&)>& measure) {
  if (cache.width == width && cache.font_size == font_size && cache.text == text &&
      cache.prefix == prefix)
    return cache.lines;
  cache.prefix = prefix;
  cache.text = text;
  cache.width = width;
  cache.font_size = font_size;
  cache.lines.clear();
  ++cache.layouts;
  const std::string whole = prefix + text;
  for (size_t start = 0; start < whole.size();) {
    size_t end = whole.find("\n\n", start);
    if (end == std::string::npos) end = whole.size();
    for (std::string& line : wrap_at_spaces(whole.substr(start, end - start), width, measure))
      cache.lines.push_back(std::move(line));
    start = end + 2;
  }
  return cache.lines;
}

}  // namespace attnlab::gui
