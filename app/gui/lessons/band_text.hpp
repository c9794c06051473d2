// The lesson band's texts laid out once, not every frame: a text's lines are kept with what they
// were wrapped for (the text, the width, the font size) and wrapped again only when one of those
// changes, so a caption of megabytes costs its layout once, not once per frame.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace attnlab::gui {

struct WrappedText {
  // What `lines` were wrapped from (prefix + text), at `width` and `font_size`.
  std::string prefix, text;
  float width = -1, font_size = -1;
  std::vector<std::string> lines;
  int layouts = 0;  // how many times it was wrapped: once per (text, width, font size)
};

// `prefix` + `text`'s paragraphs (separated by a blank line) wrapped at spaces to `width`
// (wrap_at_spaces), one after the other; from `cache` when it holds these at this width and font
// size.
const std::vector<std::string>& wrapped_paragraphs(
    WrappedText& cache, const std::string& prefix, const std::string& text, float width,
    float font_size, const std::function<float(const std::string&)>& measure);

// The caches of the band: the scene's title, caption, question and notes.
struct BandText {
  WrappedText title, caption, question;
  std::vector<WrappedText> notes;
};

}  // namespace attnlab::gui
