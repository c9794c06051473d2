#include "app/gui/lessons/answer_mask.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "app/gui/lessons/lesson_state.hpp"

namespace attnlab::gui {

namespace {

using Wide = __int128;

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// A letter, digit or underscore: a number touching one is part of a name (h1, W_2, 3rd).
bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void skip_spaces(std::string_view s, size_t& at) {
  while (at < s.size() && s[at] == ' ') ++at;
}

// Reads the digits at `at` (at most 18) into `value`; false if there are none.
bool read_int(std::string_view s, size_t& at, int64_t& value) {
  const size_t start = at;
  value = 0;
  while (at < s.size() && digit(s[at]) && at - start < 18) value = value * 10 + (s[at++] - '0');
  return at > start && !(at < s.size() && digit(s[at]));
}

enum class Separator { None, Comma, Times };

// The separator of a shape's dimensions at `at` (advanced past it): a comma, or ×, x, X, *.
Separator separator_at(std::string_view s, size_t& at) {
  if (at >= s.size()) return Separator::None;
  if (s[at] == ',') {
    ++at;
    return Separator::Comma;
  }
  if (s[at] == 'x' || s[at] == 'X' || s[at] == '*') {
    ++at;
    return Separator::Times;
  }
  if (s.substr(at, 2) == "\xC3\x97") {  // ×
    at += 2;
    return Separator::Times;
  }
  return Separator::None;
}

struct ShapeAt {
  size_t end = 0;
  std::vector<int64_t> dims;
  bool cut = false;  // shortened by an ellipsis: "(1, 11, 2,…" has the first dims of its shape
};

// A shape of two or more whole numbers starting at `at`: "(1, 10, 8)", "[1, 10, 8]", "(1×10×8)",
// "1×10×8", "1 x 10 x 8" (commas only in brackets: "3, 4" in a sentence is no shape).
std::optional<ShapeAt> shape_at(std::string_view s, size_t at) {
  const char open = s[at] == '(' || s[at] == '[' ? s[at] : 0;
  size_t p = at;
  if (open) {
    ++p;
    skip_spaces(s, p);
  } else if (at > 0 && (word_char(s[at - 1]) || s[at - 1] == '.')) {
    return std::nullopt;
  }
  ShapeAt shape;
  int64_t value = 0;
  if (!read_int(s, p, value)) return std::nullopt;
  shape.dims.push_back(value);
  Separator form = Separator::None;
  for (;;) {
    size_t q = p;
    skip_spaces(s, q);
    const Separator separator = separator_at(s, q);
    if (separator == Separator::None || (form != Separator::None && separator != form) ||
        (separator == Separator::Comma && !open))
      break;
    skip_spaces(s, q);
    if (q >= s.size() || !digit(s[q]) || !read_int(s, q, value)) break;
    form = separator;
    shape.dims.push_back(value);
    p = q;
  }
  if (shape.dims.size() < 2) return std::nullopt;
  if (open) {
    skip_spaces(s, p);
    if (p >= s.size() || s[p] != (open == '(' ? ')' : ']')) {
      // A shape a narrow column shortened with an ellipsis ("(1, 11, 2,…"): its first dims.
      separator_at(s, p);
      skip_spaces(s, p);
      if (s.substr(p, 3) != "\xE2\x80\xA6" && s.substr(p, 3) != "...") return std::nullopt;
      shape.end = p + 3;
      shape.cut = true;
      return shape;
    }
    shape.end = p + 1;
  } else {
    if (p < s.size() && (word_char(s[p]) || (s[p] == '.' && p + 1 < s.size() && digit(s[p + 1]))))
      return std::nullopt;
    shape.end = p;
  }
  return shape;
}

// Every shape of the text, as spans.
std::vector<std::pair<TextSpan, ShapeAt>> shapes_in(std::string_view s) {
  std::vector<std::pair<TextSpan, ShapeAt>> found;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '(' || s[i] == '[' || digit(s[i]))
      if (std::optional<ShapeAt> shape = shape_at(s, i)) {
        found.push_back({{i, shape->end}, *shape});
        i = shape->end;
        continue;
      }
    ++i;
  }
  return found;
}

// A number as written: its sign, digits, and either decimal places or a denominator.
struct Written {
  bool negative = false;
  int64_t mantissa = 0;  // the digits without the point
  int places = 0;        // after the point
  int64_t over = 0;      // a fraction's denominator (0: none)
};

// The number at `at` (digits, then ".digits" or "/digits"), advancing past it; false when the
// digits run past what it reads (19 or more) or the fraction is over 0: it then matches nothing.
bool read_number(std::string_view s, size_t& at, Written& number) {
  bool fits = read_int(s, at, number.mantissa);
  while (at < s.size() && digit(s[at])) ++at, fits = false;
  if (at + 1 < s.size() && s[at] == '.' && digit(s[at + 1])) {
    ++at;
    while (at < s.size() && digit(s[at])) {
      if (number.places < 12 && number.mantissa < int64_t(1e17))
        number.mantissa = number.mantissa * 10 + (s[at] - '0'), ++number.places;
      else
        fits = false;
      ++at;
    }
  } else if (at + 1 < s.size() && s[at] == '/' && digit(s[at + 1])) {
    ++at;
    fits = read_int(s, at, number.over) && number.over > 0 && fits;
    while (at < s.size() && digit(s[at])) ++at, fits = false;
  }
  return fits;
}

Wide power_of_ten(int places) {
  Wide p = 1;
  while (places-- > 0) p *= 10;
  return p;
}

// Whether a drawn number is the answer: equal, or the answer rounded to its two or more places.
bool same_number(const Written& drawn, const AnswerMask& answer) {
  const Wide num = answer.numerator, den = answer.denominator;
  const Wide sign = drawn.negative ? -1 : 1;
  if (drawn.over > 0) return sign * drawn.mantissa * den == num * drawn.over;
  const Wide scaled = sign * Wide(drawn.mantissa) * den, target = num * power_of_ten(drawn.places);
  if (scaled == target) return true;
  const Wide gap = scaled > target ? scaled - target : target - scaled;
  return drawn.places >= 2 && 2 * gap <= den;
}

std::string lower_words(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += char(std::tolower(static_cast<unsigned char>(c)));
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A label as its words: without the quotes around it (straight or curly) and outer spaces.
std::string_view label_core(std::string_view text, size_t& offset) {
  offset = 0;
  const auto strip_front = [&](std::string_view mark) {
    if (text.substr(0, mark.size()) != mark) return false;
    text.remove_prefix(mark.size());
    offset += mark.size();
    return true;
  };
  const auto strip_back = [&](std::string_view mark) {
    if (text.size() < mark.size() || text.substr(text.size() - mark.size()) != mark) return false;
    text.remove_suffix(mark.size());
    return true;
  };
  for (bool again = true; again;)
    again = strip_front(" ") || strip_front("\"") || strip_front("'") ||
            strip_front("\xE2\x80\x9C") || strip_front("\xE2\x80\x98");
  for (bool again = true; again;)
    again = strip_back(" ") || strip_back("\"") || strip_back("'") || strip_back("\xE2\x80\x9D") ||
            strip_back("\xE2\x80\x99");
  return text;
}

// The answer's words: a last "(...)" says where, not what ("the (position 4)" is "the").
std::string answer_words(std::string_view text) {
  size_t offset = 0;
  text = label_core(text, offset);
  if (!text.empty() && text.back() == ')') {
    const size_t open = text.rfind('(');
    if (open != std::string_view::npos && open > 0) text = text.substr(0, open);
  }
  return lower_words(label_core(text, offset));
}

// The whole answer as a number: "96", "-2", "0.5", "1/3".
bool whole_number(std::string_view text, AnswerMask& mask) {
  size_t at = 0;
  Written number;
  if (!text.empty() && text[0] == '-') number.negative = true, ++at;
  if (at >= text.size() || !digit(text[at])) return false;
  if (!read_number(text, at, number) || at != text.size()) return false;
  const int64_t sign = number.negative ? -1 : 1;
  if (number.over > 0) {
    mask.numerator = sign * number.mantissa;
    mask.denominator = number.over;
  } else {
    int64_t den = 1;
    for (int i = 0; i < number.places; ++i) den *= 10;
    mask.numerator = sign * number.mantissa;
    mask.denominator = den;
  }
  return mask.denominator > 0;
}

}  // namespace

AnswerMask answer_mask(const lessons::Question& question) {
  std::string text = question.answer;
  if (!question.choices.empty()) {  // the letter stands for its choice
    const auto right = std::find_if(
        question.choices.begin(), question.choices.end(),
        [&](const lessons::Choice& c) { return text.size() == 1 && c.letter == text[0]; });
    if (right == question.choices.end()) return {};
    text = right->text;
  }
  size_t offset = 0;
  const std::string_view core = label_core(text, offset);
  AnswerMask mask;
  if (core.empty()) return mask;
  if (std::optional<ShapeAt> shape = shape_at(core, 0); shape && shape->end == core.size()) {
    mask.kind = AnswerMask::Kind::Shape;
    mask.dims = std::move(shape->dims);
  } else if (whole_number(core, mask)) {
    mask.kind = AnswerMask::Kind::Number;
  } else {
    mask.words = answer_words(core);
    if (!mask.words.empty()) mask.kind = AnswerMask::Kind::Words;
  }
  return mask;
}

AnswerMask mask_in_force(const LessonPlayer& player) {
  if (!player.playing || player.revealed || player.scene < 0 ||
      player.scene >= int(player.lesson.scenes.size()))
    return {};
  const lessons::Scene& scene = player.lesson.scenes[size_t(player.scene)];
  if (!scene.question || scene.show_answer_text) return {};
  return answer_mask(*scene.question);
}

std::vector<TextSpan> answer_spans(const AnswerMask& mask, std::string_view drawn) {
  std::vector<TextSpan> spans;
  switch (mask.kind) {
    case AnswerMask::Kind::None:
      break;
    case AnswerMask::Kind::Shape:
      for (const auto& [span, shape] : shapes_in(drawn)) {
        const bool prefix =  // a shortened shape that may be the answer gives its start away
            shape.cut && shape.dims.size() <= mask.dims.size() &&
            std::equal(shape.dims.begin(), shape.dims.end(), mask.dims.begin());
        if (shape.dims == mask.dims || prefix) spans.push_back(span);
      }
      break;
    case AnswerMask::Kind::Number: {
      // A shape's dimensions are the shape's, not numbers standing alone.
      const auto shapes = shapes_in(drawn);
      size_t next_shape = 0;
      for (size_t i = 0; i < drawn.size();) {
        if (next_shape < shapes.size() && i >= shapes[next_shape].first.begin) {
          i = std::max(i, shapes[next_shape++].first.end);
          continue;
        }
        if (!digit(drawn[i])) {
          ++i;
          continue;
        }
        const bool named = i > 0 && (word_char(drawn[i - 1]) || drawn[i - 1] == '.');
        Written number;
        size_t begin = i;
        if (i > 0 && drawn[i - 1] == '-') number.negative = true, begin = i - 1;
        if (i >= 3 && drawn.substr(i - 3, 3) == "\xE2\x88\x92")
          number.negative = true, begin = i - 3;
        const bool fits = read_number(drawn, i, number);
        if (fits && !named && !(i < drawn.size() && word_char(drawn[i])) &&
            same_number(number, mask))
          spans.push_back({begin, i});
      }
      break;
    }
    case AnswerMask::Kind::Words: {
      size_t offset = 0;
      const std::string_view core = label_core(drawn, offset);
      if (!core.empty() && lower_words(core) == mask.words)
        spans.push_back({offset, offset + core.size()});
      break;
    }
  }
  return spans;
}

}  // namespace attnlab::gui
