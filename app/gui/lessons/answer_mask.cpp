#include "app/gui/lessons/answer_mask.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "app/gui/lessons/lesson_state.hpp"
#include "core/trace/trace.hpp"

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

// A space, or the break between two lines of one wrapped text.
bool space(char c) {
  return c == ' ' || c == '\n';
}

void skip_spaces(std::string_view s, size_t& at) {
  while (at < s.size() && space(s[at])) ++at;
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
  // Ends the text after a comma ("(1, 1, 10," where a clipped cell draws its ellipsis apart):
  // its dims are a shape's, though what it is goes on unseen.
  bool unfinished = false;
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
      const bool separated = separator_at(s, p) != Separator::None;
      skip_spaces(s, p);
      if (separated && p >= s.size()) {
        shape.end = p;
        shape.unfinished = true;
        return shape;
      }
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

// Whether a drawn number is num/den: equal, or (`rounded`) num/den rounded to its two or more
// places.
bool same_number(const Written& drawn, int64_t numerator, int64_t denominator, bool rounded) {
  const Wide num = numerator, den = denominator;
  const Wide sign = drawn.negative ? -1 : 1;
  if (drawn.over > 0) return sign * drawn.mantissa * den == num * drawn.over;
  const Wide scaled = sign * Wide(drawn.mantissa) * den, target = num * power_of_ten(drawn.places);
  if (scaled == target) return true;
  const Wide gap = scaled > target ? scaled - target : target - scaled;
  return rounded && drawn.places >= 2 && 2 * gap <= den;
}

std::string lower_words(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
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

// A noun as the question's and the picture's are compared: lower case and singular ("copies" is
// "copy", "heads" "head", "KiB" "kib").
std::string singular(std::string_view word) {
  std::string noun = lower_words(word);
  const auto ends = [&](std::string_view tail) {
    return noun.size() > tail.size() + 1 &&
           noun.compare(noun.size() - tail.size(), tail.size(), tail.data(), tail.size()) == 0;
  };
  if (ends("ies"))
    noun.replace(noun.size() - 3, 3, "y");
  else if (ends("sses") || ends("xes") || ends("ches") || ends("shes"))
    noun.resize(noun.size() - 2);
  else if (ends("s") && !ends("ss"))
    noun.pop_back();
  return noun;
}

// Words that follow a number without saying what it counts ("6 of 16", "6 per token").
bool function_word(std::string_view word) {
  static const std::string_view words[] = {"a",     "an",   "and", "are",  "as",   "at",   "be",
                                           "by",    "each", "for", "from", "in",   "into", "is",
                                           "of",    "on",   "or",  "out",  "over", "per",  "than",
                                           "times", "the",  "to",  "was",  "were", "with", "x"};
  const std::string lower = lower_words(word);
  return std::find(std::begin(words), std::end(words), lower) != std::end(words);
}

// The word at `at` (a letter, then letters, digits, '_' or '/': "copy", "K/V", "d_k"), advancing
// past it; empty if none starts there.
std::string_view word_at(std::string_view s, size_t& at) {
  const size_t start = at;
  if (at >= s.size() || !std::isalpha(static_cast<unsigned char>(s[at]))) return {};
  while (at < s.size() && (word_char(s[at]) || s[at] == '/')) ++at;
  return s.substr(start, at - start);
}

// What the number ending at `at` counts: the noun after it on its line ("1 copy": "copy"); empty
// when a function word, a sign or nothing follows (a next line is another text's, maybe).
std::string counted_noun(std::string_view s, size_t at) {
  while (at < s.size() && s[at] == ' ') ++at;
  const std::string_view word = word_at(s, at);
  return function_word(word) ? std::string() : singular(word);
}

// Whether the number drawn at [begin, end) is one end of a range ("6-8", "3–5"): a place.
bool range_end(std::string_view s, size_t begin, size_t end) {
  const auto dash_at = [&](size_t at) {
    return at < s.size() ? (s[at] == '-' ? 1 : s.substr(at, 3) == "\xE2\x80\x93" ? 3 : 0) : 0;
  };
  if (const int dash = dash_at(end); dash && end + dash < s.size() && digit(s[end + dash]))
    return true;
  for (const size_t width : {size_t(1), size_t(3)})
    if (begin > width && size_t(dash_at(begin - width)) == width && digit(s[begin - width - 1]))
      return true;
  return false;
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

// A written number as a fraction.
void as_fraction(const Written& number, int64_t& numerator, int64_t& denominator) {
  numerator = (number.negative ? -1 : 1) * number.mantissa;
  denominator = 1;
  if (number.over > 0)
    denominator = number.over;
  else
    for (int i = 0; i < number.places; ++i) denominator *= 10;
}

// The whole answer as a number: "96", "-2", "0.5", "1/3".
bool whole_number(std::string_view text, AnswerMask& mask) {
  size_t at = 0;
  Written number;
  if (!text.empty() && text[0] == '-') number.negative = true, ++at;
  if (at >= text.size() || !digit(text[at])) return false;
  if (!read_number(text, at, number) || at != text.size()) return false;
  as_fraction(number, mask.numerator, mask.denominator);
  return mask.denominator > 0;
}

// The question's nouns, and the counts it states ("8 K/V heads"), into `mask`.
void read_question(std::string_view text, AnswerMask& mask) {
  for (size_t at = 0; at < text.size();) {
    const bool after_word = at > 0 && (word_char(text[at - 1]) || text[at - 1] == '.');
    if (digit(text[at]) && !after_word) {
      Written number;
      if (read_number(text, at, number) && !(at < text.size() && word_char(text[at]))) {
        AnswerMask::Count count;
        as_fraction(number, count.numerator, count.denominator);
        count.noun = counted_noun(text, at);
        if (!count.noun.empty()) mask.stated.push_back(std::move(count));
      }
      continue;
    }
    if (!after_word) {
      if (const std::string_view word = word_at(text, at); !word.empty()) {
        mask.question_nouns.push_back(singular(word));
        continue;
      }
    }
    ++at;
  }
}

// Whether a drawn number counting `noun` (empty: none) could be what the question asks for: not
// a count of a thing the question never mentions, nor one the question states.
bool could_be_asked(const AnswerMask& mask, const Written& number, const std::string& noun) {
  if (noun.empty()) return true;
  for (const AnswerMask::Count& count : mask.stated)
    if (count.noun == noun && same_number(number, count.numerator, count.denominator, false))
      return false;
  const std::vector<std::string>& nouns = mask.question_nouns;
  return nouns.empty() || std::find(nouns.begin(), nouns.end(), noun) != nouns.end();
}

// Whether the question names an axis of `run` ("What is d_k?") whose size is the answer.
bool names_an_axis_of_size(const AnswerMask& mask, const Trace& run) {
  for (const TensorRecord& record : run.records)
    for (const Axis& axis : record.axes)
      if (Wide(axis.size) * mask.denominator == mask.numerator &&
          std::find(mask.question_nouns.begin(), mask.question_nouns.end(),
                    singular(axis.symbol)) != mask.question_nouns.end())
        return true;
  return false;
}

}  // namespace

AnswerMask answer_mask(const lessons::Question& question, const Trace* run) {
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
    read_question(question.text, mask);
    mask.in_shapes = run && names_an_axis_of_size(mask, *run);
  } else {
    mask.words = answer_words(core);
    if (!mask.words.empty()) mask.kind = AnswerMask::Kind::Words;
  }
  return mask;
}

AnswerMask mask_in_force(const LessonPlayer& player, const Trace* run) {
  if (!player.playing || player.revealed || player.scene < 0 ||
      player.scene >= int(player.lesson.scenes.size()))
    return {};
  const lessons::Scene& scene = player.lesson.scenes[size_t(player.scene)];
  if (!scene.question || scene.show_answer_text) return {};
  return answer_mask(*scene.question, run);
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
        if (!shape.unfinished && (shape.dims == mask.dims || prefix)) spans.push_back(span);
      }
      break;
    case AnswerMask::Kind::Number: {
      // A shape's dimensions are the shape's, not numbers standing alone (unless the answer is
      // the size of an axis the question names: a dim that size may be that axis).
      const auto shapes = mask.in_shapes ? decltype(shapes_in(drawn))() : shapes_in(drawn);
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
        const size_t digits = i;
        const bool fits = read_number(drawn, i, number);
        if (fits && !named && !(i < drawn.size() && word_char(drawn[i])) &&
            same_number(number, mask.numerator, mask.denominator, true) &&
            !range_end(drawn, digits, i) && could_be_asked(mask, number, counted_noun(drawn, i)))
          spans.push_back({begin, i});
      }
      break;
    }
    case AnswerMask::Kind::Words: {
      const auto label_at = [&](size_t begin, std::string_view text) {
        size_t offset = 0;
        const std::string_view core = label_core(text, offset);
        if (core.empty() || lower_words(core) != mask.words) return false;
        spans.push_back({begin + offset, begin + offset + core.size()});
        return true;
      };
      if (label_at(0, drawn)) break;  // the lines together, or the one line
      for (size_t begin = 0; begin <= drawn.size();) {
        const size_t end = std::min(drawn.find('\n', begin), drawn.size());
        if (end < drawn.size() || begin > 0) label_at(begin, drawn.substr(begin, end - begin));
        begin = end + 1;
      }
      break;
    }
  }
  return spans;
}

}  // namespace attnlab::gui
