// Lessons as Markdown (issue 31): the format's parts, each problem named by its line, the rest of
// a lesson kept around a problem, and the built-in lessons parsed whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/lessons/lesson.hpp"
#include "app/lessons/lesson_files.hpp"

namespace attnlab::lessons {
namespace {

constexpr const char* kComplete = R"md(# Shapes in a minute

Two scenes on seed 003.

## The input
```attnlab
--preset seed003 --stage input
--sentence "the cat sat"
```
Eleven tokens of width **eight**: `x` is (1, 11, 8).

Caption: A second paragraph.

Note: Say where the numbers come from,
and that they are random.

Note: a second note.

## After split
```attnlab
--preset seed003 --stage split --animate
```
Question: Which axis does split add?
A) batch
B) heads
C) tokens
Answer: b

## A typed answer
Question: What is d_k?
Answer: 2
)md";

TEST(Lessons, ReadsTitleScenesOptionsCaptionsNotesAndQuestions) {
  const Lesson lesson = parse_lesson(kComplete, "shapes.md");
  EXPECT_TRUE(lesson.problems.empty()) << describe(lesson, lesson.problems.front());
  EXPECT_EQ(lesson.title, "Shapes in a minute");
  EXPECT_EQ(lesson.description, "Two scenes on seed 003.");
  ASSERT_EQ(lesson.scenes.size(), 3u);
  const Scene& input = lesson.scenes[0];
  EXPECT_EQ(input.title, "The input");
  EXPECT_EQ(input.line, 5);
  ASSERT_TRUE(input.options);
  EXPECT_EQ(*input.options, (std::vector<std::string>{"--preset", "seed003", "--stage", "input",
                                                      "--sentence", "the cat sat"}));
  EXPECT_EQ(input.options_line, 7);
  EXPECT_FALSE(input.animate);
  EXPECT_EQ(input.caption, "Eleven tokens of width eight: x is (1, 11, 8).\n\nA second paragraph.");
  EXPECT_EQ(input.notes,
            (std::vector<std::string>{"Say where the numbers come from, and that they are random.",
                                      "a second note."}));
  EXPECT_FALSE(input.question);

  const Scene& split = lesson.scenes[1];
  EXPECT_TRUE(split.animate);
  EXPECT_EQ(*split.options, (std::vector<std::string>{"--preset", "seed003", "--stage", "split"}));
  ASSERT_TRUE(split.question);
  EXPECT_EQ(split.question->text, "Which axis does split add?");
  ASSERT_EQ(split.question->choices.size(), 3u);
  EXPECT_EQ(split.question->choices[1].letter, 'B');
  EXPECT_EQ(split.question->choices[1].text, "heads");
  EXPECT_EQ(split.question->answer, "B");  // the letter, in capitals
  EXPECT_TRUE(split.caption.empty());

  const Scene& typed = lesson.scenes[2];
  EXPECT_FALSE(typed.options);  // keeps the previous scene's state
  ASSERT_TRUE(typed.question);
  EXPECT_TRUE(typed.question->choices.empty());
  EXPECT_EQ(typed.question->answer, "2");
}

TEST(Lessons, EachProblemNamesItsLineAndTheRestOfTheLessonStays) {
  const Lesson lesson = parse_lesson(R"md(# Broken on purpose
## First
```attnlab
--preset "seed003
```
Question: no answer follows
## Second
Answer: without a question
Question: choose
A) one
B) two
Answer: C
## Third
```python
print("shown as it is")
```
```attnlab
--stage split
)md",
                                     "broken.md");
  std::vector<std::string> said;
  for (const Problem& problem : lesson.problems) said.push_back(describe(lesson, problem));
  const auto has = [&](const std::string& start) {
    return std::any_of(said.begin(), said.end(),
                       [&](const std::string& s) { return s.rfind(start, 0) == 0; });
  };
  EXPECT_TRUE(has("broken.md:4: a \" quote that is not closed"));
  EXPECT_TRUE(has("broken.md:6: a Question: without its Answer: line"));
  EXPECT_TRUE(has("broken.md:8: an Answer: without a Question:"));
  EXPECT_TRUE(has("broken.md:12: the Answer: of a question with choices is one of their letters"));
  EXPECT_TRUE(has("broken.md:17: the ```attnlab block opened here is not closed"));
  EXPECT_EQ(said.size(), 5u) << testing::PrintToString(said);
  ASSERT_EQ(lesson.scenes.size(), 3u);  // every scene still plays
  // The block never closed: its lines read as the lesson's text.
  EXPECT_EQ(lesson.scenes[2].caption, "print(\"shown as it is\")\n\n--stage split");
}

TEST(Lessons, AFileWithoutTitleOrScenesSaysSo) {
  const Lesson empty = parse_lesson("just words\n", "notes.md");
  ASSERT_EQ(empty.problems.size(), 2u);
  EXPECT_EQ(describe(empty, empty.problems[0]),
            "notes.md:1: no # title: the first heading names the lesson");
  EXPECT_EQ(describe(empty, empty.problems[1]),
            "notes.md:1: no scenes: each ## heading starts one");
}

TEST(Lessons, SplitsWordsAsAShellDoes) {
  std::string error;
  EXPECT_EQ(split_words(R"(--sentence "a b" --x 'c d' e\ f  g)", error),
            (std::vector<std::string>{"--sentence", "a b", "--x", "c d", "e f", "g"}));
  EXPECT_TRUE(error.empty());
  split_words("--sentence 'open", error);
  EXPECT_EQ(error, "a ' quote that is not closed");
}

TEST(Lessons, TheClassesAnswerIsComparedWithoutSpacesBracketsOrCase) {
  EXPECT_TRUE(answers_match("1,11,2,2", "(1, 11, 2, 2)"));
  EXPECT_TRUE(answers_match(" [1, 11, 2, 2] ", "(1, 11, 2, 2)"));
  EXPECT_FALSE(answers_match("(1, 11, 2)", "(1, 11, 2, 2)"));
  EXPECT_TRUE(answers_match("Head 1", "head 1"));
  EXPECT_FALSE(answers_match("", "4"));
  EXPECT_EQ(answer_head("head 3"), 3);
  EXPECT_EQ(answer_head("Head 12"), 12);
  EXPECT_EQ(answer_head("heads"), -1);
  EXPECT_EQ(answer_head("(1, 2)"), -1);
}

TEST(Lessons, SlideNamesAreNumberedAndPlain) {
  EXPECT_EQ(slide_name(3, "The dimension breakdown"), "03-the-dimension-breakdown");
  EXPECT_EQ(slide_name(12, "Q, K & V: (B, h, T, d_k)!"), "12-q-k-v-b-h-t-d-k");
}

TEST(Lessons, FilesAreReadOrRefusedInOneLine) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attnlab_lessons";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "mine.md") << kComplete;
  const LoadedLesson mine = load_lesson((dir / "mine.md").string());
  EXPECT_TRUE(mine.error.empty()) << mine.error;
  EXPECT_EQ(mine.lesson.scenes.size(), 3u);
  EXPECT_EQ(mine.lesson.source, (dir / "mine.md").string());
  std::ofstream(dir / "binary.md", std::ios::binary) << std::string("# x\0\1", 5);
  EXPECT_NE(load_lesson((dir / "binary.md").string()).error.find("is not a text file"),
            std::string::npos);
  EXPECT_NE(load_lesson(dir.string()).error.find("is a folder"), std::string::npos);
  const LoadedLesson missing = load_lesson("no-such-lesson");
  EXPECT_NE(missing.error.find("no lesson file or built-in lesson \"no-such-lesson\""),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

// docs/lessons.md's complete example is a lesson that parses whole.
TEST(Lessons, TheDocumentsExampleParsesWhole) {
  std::ifstream in(std::string(ATTNLAB_DOCS_DIR) + "/lessons.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const size_t start = doc.find("````markdown\n");
  ASSERT_NE(start, std::string::npos);
  const size_t end = doc.find("\n````", start + 12);
  ASSERT_NE(end, std::string::npos);
  const Lesson lesson = parse_lesson(doc.substr(start + 12, end - start - 12), "lessons.md");
  for (const Problem& p : lesson.problems) ADD_FAILURE() << describe(lesson, p);
  ASSERT_EQ(lesson.scenes.size(), 3u);
  EXPECT_TRUE(lesson.scenes[1].animate);
  ASSERT_TRUE(lesson.scenes[1].question);
  EXPECT_EQ(lesson.scenes[1].question->answer, "B");
  EXPECT_EQ(lesson.scenes[2].question->answer, "4");
}

// The four built-in lessons of the course: each parses without a problem, asks at least three
// questions, and the ten-minute one has a scene for each of the video script's 17 visual cues.
TEST(Lessons, TheBuiltInLessonsParseWholeAndAskAtLeastThreeQuestions) {
  const std::vector<BuiltinLesson> all = builtin_lessons();
  std::vector<std::string> names;
  for (const BuiltinLesson& b : all) names.push_back(b.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"beyond-one-head", "notebook", "real-model", "ten-minutes"}));
  for (const BuiltinLesson& b : all) {
    const LoadedLesson loaded = load_lesson(b.name);
    ASSERT_TRUE(loaded.error.empty()) << loaded.error;
    for (const Problem& p : loaded.lesson.problems) ADD_FAILURE() << describe(loaded.lesson, p);
    EXPECT_GE(b.questions, 3) << b.name;
    EXPECT_FALSE(b.title.empty()) << b.name;
    for (const Scene& scene : loaded.lesson.scenes)
      EXPECT_TRUE(scene.options || &scene != &loaded.lesson.scenes.front())
          << b.name << ": the first scene sets its state";
    if (b.name == "ten-minutes") {
      EXPECT_GE(b.scenes, 17);
    }
  }
}

// Issue 37: `Answer: head 99999999999` aborted the app (std::stoi, called every frame). Past an
// int it is no head: a problem on its line, and the question still asks (compared as words).
TEST(Lessons, AnAnswerHeadPastAnyIntIsAProblemNotACrash) {
  const Lesson lesson = parse_lesson(
      "# Heads\n\n## Which\nQuestion: Which head looks back?\nAnswer: head 99999999999\n", "h.md");
  ASSERT_EQ(lesson.problems.size(), 1u);
  EXPECT_EQ(lesson.problems[0].line, 5);
  EXPECT_NE(lesson.problems[0].reason.find("no model has that many heads"), std::string::npos)
      << lesson.problems[0].reason;
  ASSERT_TRUE(lesson.scenes.at(0).question);
  EXPECT_EQ(answer_head(lesson.scenes[0].question->answer), -1);
  EXPECT_EQ(answer_head("Head 3"), 3);
  EXPECT_EQ(answer_head("head 2147483647"), 2147483647);
  EXPECT_EQ(answer_head("head 2147483648"), -1);
  EXPECT_EQ(answer_head("head x"), -1);
}

// Issue 43: invalid UTF-8 in any field becomes valid text when the lesson is read (each invalid
// byte a U+FFFD), so no writer and no screen sees an invalid byte.
TEST(Lessons, InvalidUtf8InEveryFieldBecomesValidText) {
  const std::string bad = "caf\xe9";  // Latin-1
  const std::string good = "caf\xEF\xBF\xBD";
  const Lesson lesson = parse_lesson(
      "# " + bad + "\n" + bad + " description\n\n## " + bad + "\n```attnlab\n--sentence \"" + bad +
          " au lait\"\n```\n" + bad + " caption\n\nNote: " + bad + "\n\nQuestion: " + bad +
          "?\nA) " + bad + "\nB) tea\nAnswer: A\n\n## Words\nQuestion: Say " + bad +
          "\nAnswer: " + bad + "\n",
      "bad\xff.md");
  EXPECT_TRUE(lesson.problems.empty()) << describe(lesson, lesson.problems.at(0));
  EXPECT_EQ(lesson.source, "bad\xEF\xBF\xBD.md");
  EXPECT_EQ(lesson.title, good);
  EXPECT_EQ(lesson.description, good + " description");
  ASSERT_EQ(lesson.scenes.size(), 2u);
  const Scene& scene = lesson.scenes[0];
  EXPECT_EQ(scene.title, good);
  ASSERT_TRUE(scene.options);
  EXPECT_EQ(*scene.options, (std::vector<std::string>{"--sentence", good + " au lait"}));
  EXPECT_EQ(scene.caption, good + " caption");
  EXPECT_EQ(scene.notes, std::vector<std::string>{good});
  ASSERT_TRUE(scene.question);
  EXPECT_EQ(scene.question->text, good + "?");
  EXPECT_EQ(scene.question->choices.at(0).text, good);
  ASSERT_TRUE(lesson.scenes[1].question);
  EXPECT_EQ(lesson.scenes[1].question->answer, good);
}

// A block never closed is a problem on its opening line, and the lines after it are still read
// as the lesson's (the next scene plays).
TEST(Lessons, ABlockNeverClosedIsAProblemAndTheRestIsRead) {
  const Lesson lesson =
      parse_lesson("# Open\n\n## A\n```attnlab\n--heads 2\n\n## B\nStill here.\n", "open.md");
  ASSERT_EQ(lesson.problems.size(), 1u);
  EXPECT_EQ(lesson.problems[0].line, 4);
  EXPECT_NE(lesson.problems[0].reason.find("is not closed"), std::string::npos);
  ASSERT_EQ(lesson.scenes.size(), 2u);
  EXPECT_FALSE(lesson.scenes[0].options);
  EXPECT_EQ(lesson.scenes[1].title, "B");
  EXPECT_EQ(lesson.scenes[1].caption, "Still here.");
}

// Issue 43: a byte-order mark (some editors write one first) lost the lesson's title.
TEST(Lessons, AByteOrderMarkIsNotPartOfTheTitle) {
  const Lesson lesson = parse_lesson("\xEF\xBB\xBF# Marked\n\n## One\nText.\n", "bom.md");
  EXPECT_TRUE(lesson.problems.empty());
  EXPECT_EQ(lesson.title, "Marked");
}

// CommonMark: a block ends at a fence of the same character, at least as long as the one that
// opened it, with nothing after it; so a four-backtick block shows a three-backtick one whole.
TEST(Lessons, AFourBacktickFenceIsClosedOnlyByFourOrMore) {
  const Lesson lesson = parse_lesson(
      "# Fences\n\n## Code\n````\n```attnlab\n--heads 2\n```\n````\nAfter.\n\n## Tildes\n~~~\n"
      "```\n~~~~~\nText.\n",
      "fences.md");
  EXPECT_TRUE(lesson.problems.empty()) << describe(lesson, lesson.problems.at(0));
  ASSERT_EQ(lesson.scenes.size(), 2u);
  EXPECT_FALSE(lesson.scenes[0].options);
  EXPECT_EQ(lesson.scenes[0].caption, "```attnlab\n--heads 2\n```\n\nAfter.");
  EXPECT_EQ(lesson.scenes[1].caption, "```\n\nText.");
}

}  // namespace
}  // namespace attnlab::lessons
