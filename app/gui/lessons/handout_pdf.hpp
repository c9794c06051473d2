// A lesson's handout: one PDF page per scene (its slide's picture, the scene's title, caption,
// question and answer, and the presenter's notes), drawn with cairo; a question scene's page
// holds both its slides side by side, asked and answered.
#pragma once

#include <string>
#include <vector>

#include "app/lessons/lesson.hpp"

namespace attnlab::gui {

struct HandoutPage {
  std::string picture;                  // the slide's PNG (a question scene's: as asked)
  std::string title;                    // "3. The dimension breakdown"
  std::vector<std::string> paragraphs;  // caption, question, answer
  std::vector<std::string> notes;
  std::string answer_picture = {};  // a question scene's answered slide, beside `picture`
};

// The handout's page of the lesson's scene number `scene` (from 0) with its slide `picture`: its
// title numbered from 1, its caption, its question with the choices, the answer when `answered`
// (a question's second slide: `answer_picture`, shown beside the asked one when given), and its
// notes.
HandoutPage handout_page(const lessons::Lesson& lesson, int scene, bool answered,
                         const std::string& picture, const std::string& answer_picture = "");

// Writes `path` whole or not at all (a temporary file, then renamed); throws UserError naming the
// file when there is no page, it cannot be written, a picture cannot be read or cairo fails to
// draw (cairo_pdf.hpp). Every text is drawn as valid UTF-8 (unicode::valid_utf8: a byte that is
// not shows as U+FFFD).
void write_handout_pdf(const std::string& path, const std::string& lesson_title,
                       const std::vector<HandoutPage>& pages);

}  // namespace attnlab::gui
