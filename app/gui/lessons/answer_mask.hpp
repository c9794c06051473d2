// Nothing gives the answer away (issue 38): until a question is revealed, a text in the picture
// that spells its answer is drawn as a "?" box. This is the one place that decides what spells
// it; app/gui/look/answer_boxes.* draws the boxes over whatever text the frame drew.
//   a shape   (1, 10, 8): "(1, 10, 8)", "[1, 10, 8]", "1×10×8", "1 x 10 x 8", and shortened by an
//             ellipsis "(1, 10,…" (its first dims: it may be the answer) (not (1, 10, 80),
//             (1, 10, 8, 2) or 10×8)
//   a number  96: "96", the 96 of "total: 96", "96.0" (not 960, 0.96, -96, h96, nor a shape's 96);
//             1/3: "1/3", "0.33", "0.333" (a decimal of two or more places, rounded)
//   words     the (position 4): a label that reads "the" (words are matched as a whole label)
// A question with choices is answered by its letter: the right choice's text is what is masked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/lessons/lesson.hpp"

namespace attnlab::gui {

struct LessonPlayer;

struct AnswerMask {
  enum class Kind { None, Shape, Number, Words };
  Kind kind = Kind::None;
  std::vector<int64_t> dims;               // Shape: (1, 10, 8) is {1, 10, 8}
  int64_t numerator = 0, denominator = 1;  // Number: 96 is 96/1, 0.5 is 5/10, 1/3 is 1/3
  std::string words;                       // Words: lower case, spaces single
  bool active() const { return kind != Kind::None; }
};

// What a question's answer looks like drawn.
AnswerMask answer_mask(const lessons::Question& question);

// The mask while `player` draws its scene: the scene's question's until the reveal; none when no
// lesson plays, the scene asks nothing, or the scene shows answer text (--show-answer-text).
AnswerMask mask_in_force(const LessonPlayer& player);

struct TextSpan {
  size_t begin = 0, end = 0;  // bytes of the drawn text, end past the last
};

// The parts of the drawn text `drawn` that spell the answer, in order, not overlapping.
std::vector<TextSpan> answer_spans(const AnswerMask& mask, std::string_view drawn);

}  // namespace attnlab::gui
