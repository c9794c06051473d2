// A lesson: a lecture prepared as scenes, written as Markdown (docs/lessons.md).
//   # Title                      the lesson's title; paragraphs under it describe it
//   ## Scene                     each second-level heading starts a scene
//   ```attnlab                   the scene's state: the app's own command-line options
//   --preset seed003 --stage split
//   ```
//   Paragraphs                   the caption the audience sees ("Caption:" before it optional)
//   Note: ...                    for the presenter only (with the lines right after it)
//   Question: ... / A) ... / Answer: B    asked first, revealed on the next click
// A problem (an unknown line kind, a block that is not closed, a question without its answer)
// names its line; the rest of the lesson still plays.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::lessons {

struct Choice {
  char letter = 'A';
  std::string text;
};

struct Question {
  std::string text;
  std::vector<Choice> choices;  // empty: the class answers in words (a shape, a number)
  std::string answer;           // a choice's letter, or the words
  int line = 0;
};

struct Scene {
  std::string title;
  int line = 0;  // the heading's line, from 1
  // The attnlab block's options, split as a shell would (quotes removed); none: the previous
  // scene's state.
  std::optional<std::vector<std::string>> options;
  int options_line = 0;  // the block's first line of options (after its ```attnlab)
  std::string caption;   // paragraphs, separated by a blank line
  std::vector<std::string> notes;
  std::optional<Question> question;
  bool animate = false;  // --animate among the options: the clicker walks the stages after this one
  // --show-answer-text among the options: the picture's texts that spell the question's answer are
  // drawn before the reveal (by default each is a "?" box until then: app/gui/lessons/answer_mask)
  bool show_answer_text = false;
};

struct Problem {
  int line = 0;
  std::string reason;
};

struct Lesson {
  std::string source;  // the file (or built-in name) it came from
  std::string title;
  std::string description;
  std::vector<Scene> scenes;
  std::vector<Problem> problems;
};

Lesson parse_lesson(std::string_view markdown, const std::string& source);

// "FILE:LINE: reason", the one line a problem is reported as.
std::string describe(const Lesson& lesson, const Problem& problem);

// `text` split into words as a shell splits a command line: spaces separate, "double" and
// 'single' quotes keep spaces, a backslash escapes the next character. Sets `error` on an
// unclosed quote.
std::vector<std::string> split_words(std::string_view text, std::string& error);

// Whether the class's answer `given` is the question's `answer` in words: letters compared without
// case, and spaces and brackets ignored, so "1,11,2,2" is "(1, 11, 2, 2)" and "Head 1" is "head 1".
bool answers_match(const std::string& given, const std::string& answer);

// The head a "head N" answer names (-1: the answer is not a head): a question answered by a click
// on that head's map.
int answer_head(const std::string& answer);

// A scene's name in a file name: its number from 1, two digits, and its title in lower case with
// anything but letters and digits as single hyphens ("03-the-dimension-breakdown").
std::string slide_name(int index, const std::string& title);

}  // namespace attnlab::lessons
