#include "app/lessons/lesson.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "core/tokenizers/unicode.hpp"

namespace attnlab::lessons {

namespace {

std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The inline marks a caption does not draw: **strong**, __strong__ and `code` read as plain text.
std::string plain(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((text[i] == '*' || text[i] == '_') && i + 1 < text.size() && text[i + 1] == text[i]) {
      ++i;
      continue;
    }
    if (text[i] == '`') continue;
    out += text[i];
  }
  return out;
}

// "A) text" (or "A." / "a)"): a choice of a question.
std::optional<Choice> choice_line(std::string_view line) {
  if (line.size() < 3 || !std::isalpha(static_cast<unsigned char>(line[0])) ||
      (line[1] != ')' && line[1] != '.') || line[2] != ' ')
    return std::nullopt;
  return Choice{char(std::toupper(static_cast<unsigned char>(line[0]))),
                plain(trim(line.substr(3)))};
}

// `text` as quoted in a problem: at most 60 bytes, cut at a character's start, "..." after a cut.
std::string excerpt(const std::string& text) {
  if (text.size() <= 60) return text;
  size_t end = 57;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "...";
}

// Whether `key` (an answer without spaces and brackets, in lower case) is "head" and digits.
bool names_a_head(const std::string& key) {
  return key.size() >= 5 && key.compare(0, 4, "head") == 0 &&
         key.find_first_not_of("0123456789", 4) == std::string::npos;
}

std::string answer_key(const std::string& text);

// Reads the lesson line by line; `paragraph` gathers the lines of the paragraph in progress.
class Reader {
 public:
  Reader(Lesson& lesson) : lesson_(lesson) {}

  void line(std::string_view text, int number) {
    if (fence_) return fenced(text, number);
    const std::string_view bare = trim(text);
    if (starts_with(bare, "```") || starts_with(bare, "~~~")) return open_fence(bare, number);
    if (bare.empty()) return end_paragraph();
    if (starts_with(bare, "<!--")) return;  // a comment line
    if (starts_with(bare, "## ") || bare == "##") {
      end_paragraph();
      return start_scene(trim(bare.substr(2)), number);
    }
    if (starts_with(bare, "# ") || bare == "#") {
      end_paragraph();
      if (!lesson_.title.empty())
        return problem(number, "a second # title: the lesson has one; use ## for a scene");
      lesson_.title = plain(trim(bare.substr(1)));
      return;
    }
    if (!paragraph_.empty() && kind_ == Kind::Question) return question_line(bare, number);
    if (starts_with(bare, "Answer:")) {
      end_paragraph();
      return answer(trim(bare.substr(7)), number);
    }
    if (paragraph_.empty()) {
      kind_ = starts_with(bare, "Note:")       ? Kind::Note
              : starts_with(bare, "Question:") ? Kind::Question
                                               : Kind::Caption;
      paragraph_line_ = number;
      if (kind_ == Kind::Note) return add(trim(bare.substr(5)));
      if (kind_ == Kind::Question) return add(trim(bare.substr(9)));
      if (starts_with(bare, "Caption:")) return add(trim(bare.substr(8)));  // the label is optional
    }
    add(bare);
  }

  void finish(int last_line) {
    if (fence_) {
      problem(fence_line_, "the " + excerpt(*fence_ + fence_info_) +
                               " block opened here is not closed: end it with a line of " +
                               excerpt(*fence_) +
                               " (the lines after it are read as the lesson's text)");
      // Once: the block's lines read again as the lesson's (a block they open and leave unclosed
      // in turn runs to the end, as Markdown reads it).
      std::vector<std::pair<std::string, int>> lines = std::move(block_lines_);
      replayed_ = true;
      fence_.reset();
      block_lines_.clear();
      for (const auto& [text, number] : lines) line(text, number);
      if (fence_)
        problem(fence_line_, "the " + excerpt(*fence_ + fence_info_) +
                                 " block opened here is not closed: end it with a line of " +
                                 excerpt(*fence_));
    }
    end_paragraph();
    end_scene();
    if (lesson_.title.empty()) problem(1, "no # title: the first heading names the lesson");
    if (lesson_.scenes.empty())
      problem(std::max(last_line, 1), "no scenes: each ## heading starts one");
  }

 private:
  enum class Kind { Caption, Note, Question };

  void problem(int line, std::string reason) { lesson_.problems.push_back({line, reason}); }

  void add(std::string_view text) {
    if (!paragraph_.empty()) paragraph_ += ' ';
    paragraph_ += plain(text);
  }

  // A fence is three or more backticks (or tildes); the block it opens ends at a line of the same
  // character, at least as many, and nothing else (CommonMark), so ```` can hold a ``` block.
  void open_fence(std::string_view bare, int number) {
    end_paragraph();
    const size_t length = std::min(bare.find_first_not_of(bare[0]), bare.size());
    fence_ = std::string(bare.substr(0, length));
    fence_info_ = std::string(trim(bare.substr(length)));
    fence_line_ = number;
    block_.clear();
    block_lines_.clear();
  }

  bool closes_fence(std::string_view text) const {
    const std::string_view bare = trim(text);
    return bare.size() >= fence_->size() &&
           bare.find_first_not_of((*fence_)[0]) == std::string_view::npos;
  }

  void fenced(std::string_view text, int number) {
    if (!closes_fence(text)) {
      block_ += std::string(text) + "\n";
      if (!replayed_) block_lines_.emplace_back(std::string(text), number);
      return;
    }
    fence_.reset();
    block_lines_.clear();
    if (fence_info_ != "attnlab") {  // another block: shown as it is, in the caption
      if (scene_) add_paragraph(scene_->caption, block_.substr(0, block_.size() - 1));
      return;
    }
    if (!scene_) return problem(fence_line_, "an attnlab block before the first ## scene");
    if (scene_->options)
      return problem(fence_line_, "a second attnlab block in scene \"" + excerpt(scene_->title) +
                                      "\": a scene has one");
    std::string error;
    std::vector<std::string> words = split_words(block_, error);
    if (!error.empty()) return problem(fence_line_ + 1, error);
    // The options only a scene has, taken out before the app's own are read.
    const auto take = [&words](const char* option) {
      const auto found = std::find(words.begin(), words.end(), option);
      if (found == words.end()) return false;
      words.erase(found);
      return true;
    };
    scene_->animate = take("--animate");
    scene_->show_answer_text = take("--show-answer-text");
    scene_->options = std::move(words);
    scene_->options_line = fence_line_ + 1;
  }

  void question_line(std::string_view bare, int number) {
    if (starts_with(bare, "Answer:")) {
      end_paragraph();
      return answer(trim(bare.substr(7)), number);
    }
    if (std::optional<Choice> choice = choice_line(bare)) {
      choices_.push_back(*choice);
      return;
    }
    if (!choices_.empty()) {  // a choice's text goes on
      choices_.back().text += " " + plain(bare);
      return;
    }
    add(bare);
  }

  static void add_paragraph(std::string& to, const std::string& paragraph) {
    if (paragraph.empty()) return;
    if (!to.empty()) to += "\n\n";
    to += paragraph;
  }

  void end_paragraph() {
    if (paragraph_.empty()) return;
    const std::string text = std::move(paragraph_);
    paragraph_.clear();
    if (!scene_) {
      if (kind_ == Kind::Caption)
        add_paragraph(lesson_.description, text);
      else
        problem(paragraph_line_, "a Note: or Question: before the first ## scene");
      return;
    }
    if (kind_ == Kind::Caption) add_paragraph(scene_->caption, text);
    if (kind_ == Kind::Note) scene_->notes.push_back(text);
    if (kind_ == Kind::Question) {
      if (scene_->question || pending_question_)
        return problem(paragraph_line_, "a second Question: in scene \"" + excerpt(scene_->title) +
                                            "\": a scene asks one");
      pending_question_ = Question{text, std::move(choices_), "", paragraph_line_};
      choices_.clear();
    }
  }

  void answer(std::string_view text, int number) {
    if (!pending_question_)
      return problem(number, "an Answer: without a Question: before it in its scene");
    Question question = std::move(*pending_question_);
    pending_question_.reset();
    question.answer = plain(text);
    if (question.answer.empty()) return problem(number, "an empty Answer:");
    if (names_a_head(answer_key(question.answer)) && answer_head(question.answer) < 0)
      problem(number,
              "Answer: " + excerpt(question.answer) +
                  ": no model has that many heads (heads are numbered from 0, e.g. head 3); "
                  "the class's words are compared with it as written");
    if (!question.choices.empty()) {
      const char letter = char(std::toupper(static_cast<unsigned char>(question.answer[0])));
      const bool known = question.answer.size() == 1 &&
                         std::any_of(question.choices.begin(), question.choices.end(),
                                     [letter](const Choice& c) { return c.letter == letter; });
      if (!known)
        return problem(number, "the Answer: of a question with choices is one of their letters (" +
                                   std::string(1, question.choices.front().letter) + " ... " +
                                   std::string(1, question.choices.back().letter) + ")");
      question.answer = std::string(1, letter);
    }
    scene_->question = std::move(question);
  }

  void start_scene(std::string_view title, int number) {
    end_scene();
    if (title.empty()) problem(number, "a ## heading without a title");
    scene_ = Scene{};
    scene_->title = plain(title);
    scene_->line = number;
  }

  void end_scene() {
    if (!scene_) return;
    if (pending_question_)
      problem(pending_question_->line, "a Question: without its Answer: line; it is left out");
    pending_question_.reset();
    choices_.clear();
    lesson_.scenes.push_back(std::move(*scene_));
    scene_.reset();
  }

  Lesson& lesson_;
  std::optional<Scene> scene_;
  std::optional<std::string> fence_;
  std::string fence_info_, block_;
  int fence_line_ = 0;
  std::vector<std::pair<std::string, int>> block_lines_;  // the open block's, with their numbers
  bool replayed_ = false;  // an unclosed block's lines were read again (once only)
  std::string paragraph_;
  Kind kind_ = Kind::Caption;
  int paragraph_line_ = 0;
  std::vector<Choice> choices_;
  std::optional<Question> pending_question_;
};

}  // namespace

Lesson parse_lesson(std::string_view raw, const std::string& source) {
  Lesson lesson;
  lesson.source = unicode::valid_utf8(source);
  // A byte-order mark some editors write first is not the title's; every field is valid UTF-8
  // from here on (an invalid byte reads as U+FFFD), whatever later draws or writes it.
  const std::string_view bom = "\xEF\xBB\xBF";
  if (raw.substr(0, bom.size()) == bom) raw.remove_prefix(bom.size());
  const std::string text = unicode::valid_utf8(raw);
  const std::string_view markdown = text;
  Reader reader(lesson);
  int number = 0;
  size_t start = 0;
  while (start < markdown.size()) {  // a last line break ends the last line, not a new one
    size_t end = markdown.find('\n', start);
    if (end == std::string_view::npos) end = markdown.size();
    std::string_view text = markdown.substr(start, end - start);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    reader.line(text, ++number);
    start = end + 1;
  }
  reader.finish(number);
  return lesson;
}

std::string describe(const Lesson& lesson, const Problem& problem) {
  return lesson.source + ":" + std::to_string(problem.line) + ": " + problem.reason;
}

std::vector<std::string> split_words(std::string_view text, std::string& error) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < text.size())
        word += text[++i];
      else
        word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) {
    error = std::string("a ") + quote + " quote that is not closed";
    return {};
  }
  if (in_word) words.push_back(word);
  return words;
}

namespace {

std::string answer_key(const std::string& text) {
  std::string key;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || std::strchr("()[]{}", c)) continue;
    key += char(std::tolower(static_cast<unsigned char>(c)));
  }
  return key;
}

}  // namespace

bool answers_match(const std::string& given, const std::string& answer) {
  const std::string key = answer_key(given);
  return !key.empty() && key == answer_key(answer);
}

int answer_head(const std::string& answer) {
  const std::string key = answer_key(answer);
  if (!names_a_head(key)) return -1;
  // Checked: past an int it is no head (the parser names such an answer as a problem).
  int head = -1;
  const auto [end, error] = std::from_chars(key.data() + 4, key.data() + key.size(), head);
  return error == std::errc() && end == key.data() + key.size() ? head : -1;
}

std::string slide_name(int index, const std::string& title) {
  std::string name = (index < 10 ? "0" : "") + std::to_string(index) + "-";
  bool hyphen = false;
  for (const char c : title) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      if (hyphen && name.back() != '-') name += '-';
      name += char(std::tolower(static_cast<unsigned char>(c)));
      hyphen = false;
    } else {
      hyphen = true;
    }
    if (name.size() >= 48) break;
  }
  if (name.back() == '-') name.pop_back();
  return name;
}

}  // namespace attnlab::lessons
