#include "app/gui/lessons/handout_pdf.hpp"

#include <cairo.h>

#include <algorithm>
#include <memory>

#include "app/gui/export/cairo_pdf.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

// A4 landscape, in points; a margin of half an inch.
constexpr double kPageW = 842, kPageH = 595, kMargin = 36;
constexpr const char* kFont = "DejaVu Sans";

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

// `text` wrapped at spaces to `width` in the current font, drawn from `y`; returns the y below it.
// The text is made valid UTF-8 first: after a byte that is not, cairo would draw nothing more.
double wrapped(cairo_t* cr, const std::string& any_text, double x, double y, double width,
               double size) {
  const std::string text = cairo_text(any_text);
  cairo_set_font_size(cr, size);
  const double line_h = size * 1.3;
  std::string line;
  size_t start = 0;
  const auto flush = [&] {
    cairo_move_to(cr, x, y + size);
    cairo_show_text(cr, line.c_str());
    y += line_h;
    line.clear();
  };
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::string longer = line.empty() ? word : line + " " + word;
    cairo_text_extents_t extents;
    cairo_text_extents(cr, longer.c_str(), &extents);
    if (!line.empty() && extents.x_advance > width) {
      flush();
      line = word;
    } else {
      line = longer;
    }
    start = end + 1;
  }
  if (!line.empty()) flush();
  return y;
}

void page(cairo_t* cr, const std::string& lesson_title, const HandoutPage& slide, int number) {
  const double width = kPageW - 2 * kMargin;
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  double y = wrapped(cr, lesson_title + "  \u00B7  " + std::to_string(number), kMargin,
                     kMargin - 14, width, 9);
  // The picture, as large as fits the top 60 % of the page; a question's two slides (asked,
  // answered) side by side in that room, so a question and its answer share one page.
  std::vector<std::string> files = {slide.picture};
  if (!slide.answer_picture.empty()) files.push_back(slide.answer_picture);
  const double gap = 12, each = (width - gap * double(files.size() - 1)) / double(files.size());
  double tallest = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    Surface picture(cairo_image_surface_create_from_png(files[i].c_str()), cairo_surface_destroy);
    if (cairo_surface_status(picture.get()) != CAIRO_STATUS_SUCCESS)
      throw UserError("cannot read the slide " + files[i] + " for the handout");
    const double pw = cairo_image_surface_get_width(picture.get());
    const double ph = cairo_image_surface_get_height(picture.get());
    const double scale = std::min(each / pw, (kPageH * 0.6) / ph);
    const double x = kMargin + double(i) * (each + gap);
    cairo_save(cr);
    cairo_translate(cr, x, y + 4);
    cairo_scale(cr, scale, scale);
    cairo_set_source_surface(cr, picture.get(), 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_rectangle(cr, x, y + 4, pw * scale, ph * scale);
    cairo_set_line_width(cr, 0.5);
    cairo_stroke(cr);
    tallest = std::max(tallest, ph * scale);
  }
  y += 4 + tallest + 10;
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_source_rgb(cr, 0.0, 0.3, 0.6);
  y = wrapped(cr, slide.title, kMargin, y, width, 13);
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  for (const std::string& paragraph : slide.paragraphs)
    y = wrapped(cr, paragraph, kMargin, y + 2, width, 10.5);
  cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_ITALIC, CAIRO_FONT_WEIGHT_NORMAL);
  for (const std::string& note : slide.notes)
    y = wrapped(cr, "Note: " + note, kMargin, y + 2, width, 9);
  cairo_show_page(cr);
}

}  // namespace

HandoutPage handout_page(const lessons::Lesson& lesson, int scene, bool answered,
                         const std::string& picture, const std::string& answer_picture) {
  const lessons::Scene& shown = lesson.scenes[size_t(scene)];
  HandoutPage page{picture,
                   std::to_string(scene + 1) + ". " + shown.title,
                   {},
                   shown.notes,
                   answered ? answer_picture : ""};
  if (!shown.caption.empty()) page.paragraphs.push_back(shown.caption);
  if (shown.question) {
    std::string asked = "Question: " + shown.question->text;
    for (const lessons::Choice& choice : shown.question->choices)
      asked += "  " + std::string(1, choice.letter) + ") " + choice.text;
    page.paragraphs.push_back(asked);
    if (answered) page.paragraphs.push_back("Answer: " + shown.question->answer);
  }
  return page;
}

void write_handout_pdf(const std::string& path, const std::string& lesson_title,
                       const std::vector<HandoutPage>& pages) {
  if (pages.empty())
    throw UserError("the lesson has no slide to put in the handout " + path +
                    ": give it a scene (## Title, then an ```attnlab block)");
  // Drawn into memory, then written whole by the one atomic writer the exports share.
  const std::string bytes = cairo_pdf_bytes(
      kPageW, kPageH, cairo_text(lesson_title),
      [&](cairo_t* cr) {
        for (size_t i = 0; i < pages.size(); ++i) page(cr, lesson_title, pages[i], int(i) + 1);
      },
      "cannot draw the handout " + path);
  write_file_atomically(path, bytes);
}

}  // namespace attnlab::gui
