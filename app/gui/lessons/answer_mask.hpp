// Nothing gives the answer away (issue 38): until a question is revealed, a text in the picture
// that spells its answer is drawn as a "?" box. This is the one place that decides what spells
// it; app/gui/look/answer_boxes.* draws the boxes over whatever text the frame drew.
//   a shape   (1, 10, 8): "(1, 10, 8)", "[1, 10, 8]", "1×10×8", "1 x 10 x 8", and shortened by an
//             ellipsis "(1, 10,…" (its first dims: it may be the answer) (not (1, 10, 80),
//             (1, 10, 8, 2) or 10×8)
//   a number  96: "96", the 96 of "total: 96", "96.0" (not 960, 0.96, -96, h96, nor a shape's 96:
//             a shape's dims are the shape's, unless the question names an axis of the run whose
//             size the answer is: "What is d_k?" with d_k = 128 masks the 128 of (1, 2048, 96,
//             128)); 1/3: "1/3", "0.33", "0.333" (a decimal of two or more places, rounded); a
//             count, the number and the noun after it ("6 numbers", "1 copy", "8.0 KiB"), only
//             where the question could ask for it: not a count of a thing the question never
//             mentions (asked "Which K/V head does query head 3 read?", "1 copy" counts copies),
//             nor a count the question states itself ("8 K/V heads" of "64 query heads and 8
//             K/V heads. How many query heads share each K/V head?"); a question with no words
//             rules nothing out. Nor one end of a range ("keys 6-8" places, it counts nothing)
//   words     the (position 4): a label that reads "the" (words are matched as a whole label)
// A question with choices is answered by its letter: the right choice's text is what is masked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/lessons/lesson.hpp"

namespace attnlab {
struct Trace;
}

namespace attnlab::gui {

struct LessonPlayer;

struct AnswerMask {
  enum class Kind { None, Shape, Number, Words };
  Kind kind = Kind::None;
  std::vector<int64_t> dims;               // Shape: (1, 10, 8) is {1, 10, 8}
  int64_t numerator = 0, denominator = 1;  // Number: 96 is 96/1, 0.5 is 5/10, 1/3 is 1/3
  std::string words;                       // Words: lower case, spaces single
  // Number: the question's nouns, singular and lower case ("how many tiles" holds "tile"), and
  // the counts it states itself ("8 K/V heads": 8/1 and "k/v").
  struct Count {
    int64_t numerator = 0, denominator = 1;
    std::string noun;
  };
  std::vector<std::string> question_nouns;
  std::vector<Count> stated;
  bool in_shapes = false;  // Number: the size of an axis the question names (d_k), in shapes too
  bool active() const { return kind != Kind::None; }
};

// What a question's answer looks like drawn, in the picture of `run` (the trace shown; none: no
// axis is known, a shape's dims are never the answer number).
AnswerMask answer_mask(const lessons::Question& question, const Trace* run = nullptr);

// The mask while `player` draws its scene of `run`: the scene's question's until the reveal; none
// when no lesson plays, the scene asks nothing, or the scene shows answer text
// (--show-answer-text).
AnswerMask mask_in_force(const LessonPlayer& player, const Trace* run = nullptr);

struct TextSpan {
  size_t begin = 0, end = 0;  // bytes of the drawn text, end past the last
};

// The parts of the drawn text `drawn` that spell the answer, in order, not overlapping. `drawn`
// may hold the lines of one text wrapped over several, each after a '\n': they are read as one
// (a shape broken after its comma is still a shape, and its dims still the shape's), and a label
// is matched whole on its own line as well as across them.
std::vector<TextSpan> answer_spans(const AnswerMask& mask, std::string_view drawn);

}  // namespace attnlab::gui
