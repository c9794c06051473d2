// Issue 38, "nothing gives the answer away": until a question is revealed, a text in the picture
// that spells its answer (a shape in any of its spellings, a number standing alone, a label that
// is the answer's word) is drawn as a "?" box; the reveal shows it; a scene's --show-answer-text
// opts out. The matcher alone, then the built-in lessons' question scenes played headless, in the
// lecturer's window, the audience's and a slide.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/gui/lessons/answer_boxes.hpp"
#include "app/gui/lessons/answer_mask.hpp"
#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/lessons/lesson_files.hpp"
#include "headless_imgui.hpp"
#include "settle_scene.hpp"

namespace attnlab::gui {
namespace {

lessons::Question asked(const std::string& answer, std::vector<lessons::Choice> choices = {}) {
  lessons::Question question;
  question.text = "?";
  question.answer = answer;
  question.choices = std::move(choices);
  return question;
}

// The parts of `drawn` that spell `answer`, as text.
std::vector<std::string> spelled(const std::string& answer, const std::string& drawn) {
  std::vector<std::string> parts;
  for (const TextSpan& span : answer_spans(answer_mask(asked(answer)), drawn))
    parts.push_back(drawn.substr(span.begin, span.end - span.begin));
  return parts;
}

using Parts = std::vector<std::string>;

// [SECTION] the matcher

TEST(AnswerMask, AShapeMatchesEachOfItsSpellings) {
  EXPECT_EQ(spelled("(1, 10, 8)", "(1, 10, 8)"), Parts{"(1, 10, 8)"});
  EXPECT_EQ(spelled("(1, 10, 8)", "x (1,10,8)"), Parts{"(1,10,8)"});
  EXPECT_EQ(spelled("(1, 10, 8)", "[1, 10, 8]"), Parts{"[1, 10, 8]"});
  EXPECT_EQ(spelled("(1, 10, 8)", "1\u00D710\u00D78"), Parts{"1\u00D710\u00D78"});
  EXPECT_EQ(spelled("(1, 10, 8)", "1x10x8"), Parts{"1x10x8"});
  EXPECT_EQ(spelled("(1, 10, 8)", "q is 1 \u00D7 10 \u00D7 8 here"), Parts{"1 \u00D7 10 \u00D7 8"});
  EXPECT_EQ(spelled("(1, 10, 8)", "( 1 , 10 , 8 )"), Parts{"( 1 , 10 , 8 )"});
  // The answer written another way is the same answer.
  EXPECT_EQ(spelled("1\u00D710\u00D78", "x (1, 10, 8)"), Parts{"(1, 10, 8)"});
  EXPECT_EQ(spelled("[1, 10, 8]", "(1, 10, 8) then (1, 10, 8)"),
            (Parts{"(1, 10, 8)", "(1, 10, 8)"}));
}

// A narrow column shortens "= (1, 11, 2, 2)" to "= (1, 11, 2,…": its first dims give the answer's
// start away, so it is masked; a shortened shape that starts otherwise is another shape.
TEST(AnswerMask, AShapeShortenedByAnEllipsisIsMaskedWhereItCouldBeTheAnswer) {
  EXPECT_EQ(spelled("(1, 11, 2, 2)", "= (1, 11, 2,\u2026"), Parts{"(1, 11, 2,\u2026"});
  EXPECT_EQ(spelled("(1, 11, 2, 2)", "(1, 11\u2026 then"), Parts{"(1, 11\u2026"});
  EXPECT_EQ(spelled("(1, 11, 2, 2)", "(1, 11, 2, 2, 5,\u2026"), Parts{});
  EXPECT_EQ(spelled("(1, 11, 2, 2)", "(1, 12,\u2026"), Parts{});
  EXPECT_EQ(spelled("(1, 11, 2, 2)", "(1,\u2026"), Parts{}) << "one dim is no shape";
  EXPECT_EQ(spelled("(1, 11, 2, 2)", "(1, 11, 2,"), Parts{}) << "a line a shape wraps after";
  // A number answer does not match a shortened shape's dims either.
  EXPECT_EQ(spelled("11", "(1, 11, 2,\u2026"), Parts{});
}

TEST(AnswerMask, AShapeDoesNotMatchItsNearMisses) {
  for (const char* drawn :
       {"(1, 10, 80)", "(1, 10, 8, 2)", "(2, 1, 10, 8)", "(10, 8)", "1\u00D710\u00D780", "1x10x8x2",
        "(1, 10, 8.5)", "(B, 10, 8)", "1, 10, 8", "(1, 10, 8", "0x1x10x8", "(11, 10, 8)"})
    EXPECT_EQ(spelled("(1, 10, 8)", drawn), Parts{}) << drawn;
}

TEST(AnswerMask, ANumberMatchesTheNumberStandingAloneNotAnotherOrAName) {
  EXPECT_EQ(spelled("96", "96"), Parts{"96"});
  EXPECT_EQ(spelled("96", "total: 96 (without W_o and biases: 96)"), (Parts{"96", "96"}));
  EXPECT_EQ(spelled("96", "3\u00B78\u00B72\u00B72 = 96"), Parts{"96"});
  EXPECT_EQ(spelled("96", "96.0"), Parts{"96.0"});
  for (const char* drawn : {"960", "0.96", "9.6", "196", "-96", "h96", "96k", "W_96", "(1, 96)",
                            "8\u00D796", "96.5", "1.96", "96/2"})
    EXPECT_EQ(spelled("96", drawn), Parts{}) << drawn;
  EXPECT_EQ(spelled("242",
                    "attention memory B\u00B7h\u00B7T\u00B2 = 1\u00B72\u00B711\u00B2 = 242 "
                    "weights (968 B)"),
            Parts{"242"});
}

TEST(AnswerMask, AFractionOrADecimalMatchesItsRoundingToTwoPlacesOrMore) {
  EXPECT_EQ(spelled("1/3", "1/3"), Parts{"1/3"});
  EXPECT_EQ(spelled("1/3", "2/6"), Parts{"2/6"});
  EXPECT_EQ(spelled("1/3", "0.33"), Parts{"0.33"});
  EXPECT_EQ(spelled("1/3", "0.333"), Parts{"0.333"});
  for (const char* drawn : {"0.3", "0", "0.34", "1/4", "3", "0.33k"})
    EXPECT_EQ(spelled("1/3", drawn), Parts{}) << drawn;
  EXPECT_EQ(spelled("1", "1.00"), Parts{"1.00"});
  EXPECT_EQ(spelled("1", "1.0"), Parts{"1.0"});
  for (const char* drawn : {"0.99", "1.01", "10", "0.999", "h1", "(1, 11, 8)", "8 \u00D7 1"})
    EXPECT_EQ(spelled("1", drawn), Parts{}) << drawn;
  EXPECT_EQ(spelled("0.5", "0.50"), Parts{"0.50"});
  EXPECT_EQ(spelled("0.5", "1/2"), Parts{"1/2"});
}

// The parts of `drawn` that spell `answer` to the question `question`.
Parts spelled_for(const std::string& question, const std::string& answer,
                  const std::string& drawn) {
  lessons::Question asking = asked(answer);
  asking.text = question;
  Parts parts;
  for (const TextSpan& span : answer_spans(answer_mask(asking), drawn))
    parts.push_back(drawn.substr(span.begin, span.end - span.begin));
  return parts;
}

// A shape a narrow box wraps after a comma ("(1, 10," over "8)") is one shape: a number answer is
// not found among its dims, a shape answer is found whole.
TEST(AnswerMask, TheLinesOfAWrappedShapeAreOneShape) {
  EXPECT_EQ(spelled("1", "(1, 10,\n8)"), Parts{});
  EXPECT_EQ(spelled("1", "attend\n(1, 1,\n10, 8)"), Parts{});
  EXPECT_EQ(spelled("1", "from masked (1, 1, 10,\n10)"), Parts{});
  EXPECT_EQ(spelled("64", "split\n(32, 128,\n8, 64)"), Parts{});
  // A shape cut where its text ends ("(1, 1, 10," with its ellipsis drawn apart) is a shape's.
  EXPECT_EQ(spelled("1", "from masked (1, 1, 10,"), Parts{});
  EXPECT_EQ(spelled("1", "(1, 1"), (Parts{"1", "1"})) << "no comma at its end: no shape";
  EXPECT_EQ(spelled("(1, 10, 8)", "input\n(1, 10,\n8)"), Parts{"(1, 10,\n8)"});
  // A number standing alone on a line of a wrapped text is still the number.
  EXPECT_EQ(spelled("96", "W_q, W_k, W_v:\n3\u00B78\u00B74 = 96\ntotal: 96"), (Parts{"96", "96"}));
  // A label on a line of its own is matched whole, and one wrapped over two lines too.
  EXPECT_EQ(spelled("the (position 4)", "heads\nthe"), Parts{"the"});
  EXPECT_EQ(spelled("one colour (constant)", "one\ncolour"), Parts{"one\ncolour"});
}

// Where the question names an axis of the run whose size is the answer ("What is d_k?"), a dim
// that size may be that axis: masked inside shapes too (answer_mask sets it from the trace).
TEST(AnswerMask, AShapesDimIsMaskedWhereTheQuestionAsksForThatAxis) {
  AnswerMask mask = answer_mask(asked("128"));
  EXPECT_FALSE(mask.in_shapes) << "no run: no axis is known";
  mask.in_shapes = true;
  EXPECT_EQ(answer_spans(mask, "(1, 2048, 96, 128)").size(), 1u);
  EXPECT_EQ(answer_spans(mask, "(1, 96,\n2048,\n128)").size(), 1u);
  EXPECT_EQ(answer_spans(mask, "(1, 2048, 96, 1280)").size(), 0u);
}

// A number and the noun after it count that noun: asked "Which K/V head does query head 3 read?"
// (1), "1 copy" counts copies, which the question never mentions; "8 K/V heads" in "64 query heads
// and 8 K/V heads. How many query heads share each K/V head?" (8) is what the question states.
TEST(AnswerMask, ACountOfAnotherThingOrOfWhatTheQuestionStatesIsNotTheAnswer) {
  const std::string which = "g = 2. Which K/V head does query head 3 read?";
  EXPECT_EQ(spelled_for(which, "1", "stride 0 on g: 2 reads, 1 copy"), Parts{});
  EXPECT_EQ(spelled_for(which, "1", "query head 3 reads K/V head 1"), Parts{"1"});
  EXPECT_EQ(spelled_for(which, "1", "1 head"), Parts{"1"}) << "heads are what it asks about";
  EXPECT_EQ(spelled_for(which, "1", "= 1"), Parts{"1"});

  const std::string share =
      "64 query heads and 8 K/V heads. How many query heads share each K/V head?";
  EXPECT_EQ(spelled_for(share, "8", "8 K/V heads"), Parts{});
  EXPECT_EQ(spelled_for(share, "8", "8 K/V heads for 64 query heads, each shared by g = 8: the"),
            Parts{"8"});
  EXPECT_EQ(spelled_for(share, "8", "2048 numbers per token per layer (8.0 KiB as float32)"),
            Parts{});
  EXPECT_EQ(spelled_for(share, "8", "8 query heads per K/V head"), Parts{"8"});

  // A count of what the question asks about is its answer; a word that says nothing of what is
  // counted ("of", "per") leaves it a number standing alone.
  EXPECT_EQ(spelled_for("How many attention weights do the two heads hold in total?", "242",
                        "= 1\u00B72\u00B711\u00B2 = 242 weights (968 bytes)"),
            Parts{"242"});
  const std::string tiles = "16 tiles per head, causal mask. How many tiles per head are skipped?";
  EXPECT_EQ(spelled_for(tiles, "6", "6 of 16 tiles skipped"), Parts{"6"});
  EXPECT_EQ(spelled_for(tiles, "6", "6 tiles skipped per head"), Parts{"6"});
  EXPECT_EQ(spelled_for(tiles, "6", "6 copies"), Parts{});
  EXPECT_EQ(spelled_for(tiles, "6", "16 tiles"), Parts{});
  // A question of no words ("?") rules nothing out.
  EXPECT_EQ(spelled("1", "1 copy"), Parts{"1"});
}

// One end of a range ("keys 6-8") is a place, not a count.
TEST(AnswerMask, ARangesEndIsAPlaceNotTheAnswer) {
  EXPECT_EQ(spelled("6", "Rows 3-5 \u00D7 keys 6-8: the mask hides"), Parts{});
  EXPECT_EQ(spelled("5", "Rows 3-5 \u00D7 keys 6-8"), Parts{});
  EXPECT_EQ(spelled("6", "keys 3\u20136"), Parts{});
  EXPECT_EQ(spelled("6", "keys 6\u20138"), Parts{});
  EXPECT_EQ(spelled("6", "6 - 8 = -2"), Parts{"6"}) << "a difference, spaced, is no range";
}

TEST(AnswerMask, WordsMatchALabelThatIsTheAnswerWhole) {
  // A last "(...)" says where the answer is, not what it is.
  EXPECT_EQ(spelled("the (position 4)", "the"), Parts{"the"});
  EXPECT_EQ(spelled("the (position 4)", "The"), Parts{"The"});
  EXPECT_EQ(spelled("the (position 4)", " \"the\" "), Parts{"the"});
  for (const char* drawn : {"then", "the cat", "other", "th e"})
    EXPECT_EQ(spelled("the (position 4)", drawn), Parts{}) << drawn;
}

TEST(AnswerMask, AChoiceIsMaskedByItsTextNotByItsLetter) {
  const lessons::Question question =
      asked("B", {{'A', "(1, 11, 8)"}, {'B', "(1, 11, 4)"}, {'C', "positional"}});
  const AnswerMask mask = answer_mask(question);
  EXPECT_EQ(mask.kind, AnswerMask::Kind::Shape);
  EXPECT_EQ(answer_spans(mask, "q (1, 11, 4)").size(), 1u);
  EXPECT_TRUE(answer_spans(mask, "B").empty());
  EXPECT_TRUE(answer_spans(mask, "x (1, 11, 8)").empty());
  EXPECT_EQ(answer_mask(asked("C", question.choices)).kind, AnswerMask::Kind::Words);
}

// The band is never masked, so a question scene's own title and caption, shown above the question,
// must not spell its answer (notebook's "96 = 96" title and its caption "… = 96" did).
TEST(AnswerMask, NoBuiltInQuestionsTitleOrCaptionSpellsItsAnswer) {
  int questions = 0;
  for (const lessons::BuiltinLesson& builtin : lessons::builtin_lessons()) {
    const lessons::LoadedLesson loaded = lessons::load_lesson(builtin.name);
    ASSERT_EQ(loaded.error, "") << builtin.name;
    for (const lessons::Scene& scene : loaded.lesson.scenes) {
      if (!scene.question) continue;
      ++questions;
      const AnswerMask mask = answer_mask(*scene.question);
      for (const std::string& text : {scene.title, scene.caption})
        EXPECT_TRUE(answer_spans(mask, text).empty())
            << builtin.name << " \"" << scene.title << "\" shows its answer ("
            << scene.question->answer << ") in \"" << text << "\"";
    }
  }
  EXPECT_GT(questions, 40);
}

TEST(AnswerMask, InForceOnlyWhileTheSceneAsksAndHasNotOptedOut) {
  LessonPlayer player;
  player.lesson = lessons::parse_lesson(
      "# L\n\n## Asks\n```attnlab\n--stage input\n```\nQuestion: Shape?\nAnswer: (1, 11, 8)\n\n"
      "## Shows\n```attnlab\n--stage input --show-answer-text\n```\nQuestion: Shape?\n"
      "Answer: (1, 11, 8)\n\n## Tells\nNo question.\n",
      "test.md");
  ASSERT_TRUE(player.lesson.problems.empty());
  // The option is the scene's, not the app's: taken out before the app reads its options.
  EXPECT_TRUE(player.lesson.scenes[1].show_answer_text);
  EXPECT_EQ(*player.lesson.scenes[1].options, (std::vector<std::string>{"--stage", "input"}));
  EXPECT_FALSE(player.lesson.scenes[0].show_answer_text);
  player.scene = 0;
  player.playing = true;
  EXPECT_EQ(mask_in_force(player).kind, AnswerMask::Kind::Shape);
  player.revealed = true;
  EXPECT_FALSE(mask_in_force(player).active()) << "revealed";
  player.revealed = false;
  player.playing = false;
  EXPECT_FALSE(mask_in_force(player).active()) << "free play";
  player.playing = true;
  player.scene = 1;
  EXPECT_FALSE(mask_in_force(player).active()) << "--show-answer-text";
  player.scene = 2;
  EXPECT_FALSE(mask_in_force(player).active()) << "no question";
}

// [SECTION] the lessons played

class AnswerBoxes : public HeadlessImGui {
 protected:
  void SetUp() override {
    HeadlessImGui::SetUp();
    use_font_scale(1.5f);
    load_presets(state);
    state.ui.presenter = true;
    ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
  }
  void settle() {
    for (int i = 0; i < 30; ++i) {
      state.session.worker->wait_idle();
      poll_trace(state);
      frame();
      if (i >= 3 && !band_fitting(state) && !state.session.computing) return;
    }
  }
  // The texts drawn outside the lesson's band (which asks the question): the picture's.
  static std::vector<std::string> picture_texts() {
    std::vector<std::string> texts;
    for (const DrawnText& t : drawn_texts())
      if (t.window.rfind("Lesson###lesson", 0) != 0) texts.push_back(t.text);
    return texts;
  }
  // Where `text` holds `answer` as written, not inside a longer number ("4096" holds no 96).
  static std::vector<TextSpan> written_at(const std::string& text, const std::string& answer) {
    const auto numeral = [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
    };
    std::vector<TextSpan> found;
    if (answer.empty()) return found;
    for (size_t at = text.find(answer); at != std::string::npos; at = text.find(answer, at + 1)) {
      const size_t end = at + answer.size();
      if ((at == 0 || !numeral(text[at - 1])) && (end >= text.size() || !numeral(text[end])))
        found.push_back({at, end});
    }
    return found;
  }
  // Whether a glyph of `span` of `run` is drawn where the picture shows the asked run (not in a
  // place marked as another model's row or a map's name, answer_boxes.hpp).
  bool in_the_run(const GlyphRun& run, const TextSpan& span) const {
    for (size_t g = 0; g < run.at.size(); ++g) {
      const size_t end = g + 1 < run.at.size() ? run.at[g + 1].byte : run.text.text.size();
      const ImVec2 middle(0.5f * (run.at[g].pen_x + run.at[g].pen_end), run.pen_y + 0.5f * run.em);
      if (run.at[g].byte < span.end && end > span.begin && !not_the_run_at(state, middle))
        return true;
    }
    return false;
  }
  // The picture's texts that spell the answer where it shows the asked run: as the matcher reads
  // them (the lines of a text wrapped over several read as one), or as written on one line.
  std::vector<std::string> giving_away(const AnswerMask& mask, const std::string& answer) const {
    std::vector<std::string> found;
    const std::vector<GlyphRun> runs = glyph_runs();
    const auto picture = [&](size_t r) {
      return runs[r].text.window.rfind("Lesson###lesson", 0) != 0;
    };
    for (size_t first = 0; first < runs.size();) {
      if (!picture(first)) {
        ++first;
        continue;
      }
      std::string text = runs[first].text.text;
      std::vector<size_t> starts{0};
      size_t end = first + 1;
      for (; end < runs.size() && picture(end) && goes_on(runs[end - 1], runs[end]); ++end) {
        text += '\n';
        starts.push_back(text.size());
        text += runs[end].text.text;
      }
      const std::vector<TextSpan> read = answer_spans(mask, text);
      for (size_t r = first; r < end; ++r) {
        const GlyphRun& run = runs[r];
        const size_t begin = starts[r - first], stop = begin + run.text.text.size();
        std::vector<TextSpan> spans = written_at(run.text.text, answer);
        for (const TextSpan& span : read)  // the part of the span on this line
          if (span.begin < stop && span.end > begin)
            spans.push_back(
                {std::max(span.begin, begin) - begin, std::min(span.end, stop) - begin});
        if (std::any_of(spans.begin(), spans.end(),
                        [&](const TextSpan& span) { return in_the_run(run, span); }))
          found.push_back(run.text.text);
      }
      first = end;
    }
    return found;
  }
  // The picture's texts that hold `answer` as written, wherever they are drawn.
  static std::vector<std::string> drawn_with(const std::string& answer) {
    std::vector<std::string> found;
    for (const std::string& text : picture_texts())
      if (!written_at(text, answer).empty()) found.push_back(text);
    return found;
  }
  static int question_marks() {
    int marks = 0;
    for (const std::string& text : picture_texts())
      for (const char c : text) marks += c == '?';
    return marks;
  }

  // Scene `number` (from 1) of `lesson` shown asked, its answer `answer`.
  void ask(const std::string& lesson, int number, const std::string& answer) {
    ASSERT_EQ(open_lesson(state, lesson, ""), "");
    ASSERT_TRUE(show_scene(state, number - 1)) << state.lesson.scene_error;
    ASSERT_EQ(state.lesson.lesson.scenes[size_t(number - 1)].question->answer, answer);
    state.lesson.revealed = false;
    settle();
  }
  // As ask(), drawn until its tabs' measurements and fitted regions have settled too.
  void ask_settled(const std::string& lesson, int number, const std::string& answer) {
    ask(lesson, number, answer);
    ASSERT_TRUE(settle_scene(
        state, [&] { frame(); }, 30))
        << lesson << " " << number;
  }

  // Scene `number` (from 1) of `lesson`: asked, nothing in the picture spells the answer and a
  // "?" box is drawn; answered, the answer is there and no box.
  void expect_hidden_then_shown(const std::string& lesson, int number) {
    ASSERT_EQ(open_lesson(state, lesson, ""), "");
    ASSERT_TRUE(show_scene(state, number - 1)) << state.lesson.scene_error;
    const lessons::Scene& scene = state.lesson.lesson.scenes[size_t(number - 1)];
    ASSERT_TRUE(scene.question);
    const std::string answer = scene.question->answer;
    const AnswerMask mask = answer_mask(*scene.question);
    const std::string where = lesson + " scene " + std::to_string(number) + " (" + answer + ")";
    state.lesson.revealed = false;
    settle();
    EXPECT_EQ(giving_away(mask, answer), std::vector<std::string>{}) << where << " asked";
    EXPECT_FALSE(state.frame.answer_boxes.empty()) << where << ": no \"?\" box";
    EXPECT_GE(question_marks(), int(state.frame.answer_boxes.size())) << where;
    for (const AnswerBox& box : state.frame.answer_boxes)
      EXPECT_GT(box.rect.z - box.rect.x, 0) << where << ": boxed \"" << box.text << "\"";

    // The audience's window draws the same state: the same rule.
    MeasuredLayout measured;
    for (int i = 0; i < 3; ++i) {
      ImGui::NewFrame();
      draw_audience_frame(state, nullptr, measured);
      ImGui::Render();
    }
    EXPECT_EQ(giving_away(mask, answer), std::vector<std::string>{}) << where << " audience";
    EXPECT_FALSE(state.frame.answer_boxes.empty()) << where << ": no \"?\" box for the audience";

    // A slide of the question (--export-slides, --export-png) draws the audience's view.
    state.lesson.slide = true;
    settle();
    EXPECT_EQ(giving_away(mask, answer), std::vector<std::string>{}) << where << " slide";
    EXPECT_FALSE(state.frame.answer_boxes.empty()) << where << ": no \"?\" box on the slide";
    state.lesson.slide = false;

    lesson_click(state, +1);  // the reveal
    ASSERT_TRUE(state.lesson.revealed) << where;
    settle();
    EXPECT_TRUE(state.frame.answer_boxes.empty()) << where << " answered";
    EXPECT_FALSE(giving_away(mask, answer).empty()) << where << ": the answer is not drawn";
  }
};

TEST_F(AnswerBoxes, TenMinutesShapesArePrintedOnlyAfterTheReveal) {
  expect_hidden_then_shown("ten-minutes", 2);   // (1, 10, 8) over "What is x's shape?"
  expect_hidden_then_shown("ten-minutes", 16);  // (1, 11, 44)
}

TEST_F(AnswerBoxes, NotebookShapesAndCountersArePrintedOnlyAfterTheReveal) {
  expect_hidden_then_shown("notebook", 1);   // (1, 11, 8)
  expect_hidden_then_shown("notebook", 3);   // 96 beside the Counters' total
  expect_hidden_then_shown("notebook", 6);   // (1, 11, 2, 2)
  expect_hidden_then_shown("notebook", 17);  // 242 weights
}

// [SECTION] masked by place: what the picture shows of something else is not the answer

// The texts of windows whose name holds `window` that hold `answer` as written.
std::vector<std::string> drawn_in(const std::string& window, const std::string& answer) {
  std::vector<std::string> found;
  for (const DrawnText& t : drawn_texts())
    if (t.window.find(window) != std::string::npos && t.text.find(answer) != std::string::npos)
      found.push_back(t.text);
  return found;
}

int boxes_in(const AppState& state, const std::string& window) {
  int boxes = 0;
  for (const AnswerBox& box : state.frame.answer_boxes)
    boxes += box.window.find(window) != std::string::npos;
  return boxes;
}

// Notebook 3 asks for this config's 96 parameters: the Counters' "total: 96" is boxed, GPT-3's
// 96 heads (and 96 K/V heads) in the Real models table are another model's and shown.
TEST_F(AnswerBoxes, NotebookThreeHidesThisConfigsTotalNotGptThreesHeads) {
  ASSERT_NO_FATAL_FAILURE(ask("notebook", 3, "96"));
  EXPECT_EQ(drawn_in("this_config", "96"), std::vector<std::string>{}) << "the total shown";
  EXPECT_GE(boxes_in(state, "this_config"), 2) << "the formula's = 96 and the total";
  EXPECT_EQ(boxes_in(state, "model_table"), 0) << "a reference row boxed";
  EXPECT_GE(drawn_in("model_table", "96").size(), 2u) << "GPT-3's h and n_kv, 96 each";
  EXPECT_FALSE(drawn_in("model_table", "GPT-3").empty()) << "the Real models table is not drawn";
}

// Ten-minutes 17 plays GPT-3 itself: its row of the Real models table is this run's, and its
// d_k (128, the answer) is boxed there; the other models' 128s are theirs and shown.
TEST_F(AnswerBoxes, AReferenceRowOfTheRunAskedAboutIsMaskedLikeItsCounters) {
  ASSERT_NO_FATAL_FAILURE(ask("ten-minutes", 17, "128"));
  EXPECT_GE(boxes_in(state, "model_table"), 1) << "GPT-3's d_k shown";
  EXPECT_GE(boxes_in(state, "this_config"), 1);
  EXPECT_FALSE(drawn_in("model_table", "128").empty()) << "no other model's 128 shown";
  const AnswerMask mask = answer_mask(*state.lesson.lesson.scenes[16].question);
  EXPECT_EQ(giving_away(mask, "128"), std::vector<std::string>{});
}

// Notebook 11's answer is 1 (row "The"'s weight): the Heads panel's "head 1" names a map, and
// masking one name of the numbered heads would point at the answer: it is drawn whole.
TEST_F(AnswerBoxes, NotebookElevenShowsTheHeadsNamesNumbers) {
  ASSERT_NO_FATAL_FAILURE(ask("notebook", 11, "1"));
  EXPECT_EQ(boxes_in(state, "Heads"), 0);
  bool named = false;
  for (const DrawnText& t : drawn_texts())
    named |= t.window.rfind("Heads", 0) == 0 && t.text.rfind("head 1", 0) == 0;
  EXPECT_TRUE(named) << "no \"head 1\" title drawn whole";
}

// [SECTION] not the answer: what the picture shows of another quantity is shown

// Beyond-one-head 4 asks which K/V head query head 3 reads (1): "2 reads, 1 copy" counts copies.
TEST_F(AnswerBoxes, BeyondOneHeadFourShowsItsOneCopy) {
  ASSERT_NO_FATAL_FAILURE(ask_settled("beyond-one-head", 4, "1"));
  EXPECT_FALSE(drawn_in("Tensors", "2 reads, 1 copy").empty());
  EXPECT_TRUE(state.frame.answer_boxes.empty()) << state.frame.answer_boxes.front().text;
}

// Ten-minutes 12 asks where row "was" of a head looks (B: cat) beside its focused map: the map's
// row and column labels name the tokens, "cat" among them, and are drawn; its cells answer.
TEST_F(AnswerBoxes, AMapsTokenLabelsAreNamesNotTheAnswer) {
  ASSERT_NO_FATAL_FAILURE(ask_settled("ten-minutes", 12, "B"));
  ASSERT_EQ(state.heads.focus.head, 0);
  EXPECT_GE(drawn_in("Heads", "cat").size(), 2u) << "the rows of both \"cat\"s";
  EXPECT_EQ(boxes_in(state, "Heads"), 0);
}

// Beyond-one-head 7: "64 query heads and 8 K/V heads. How many query heads share each K/V head?"
// (8, g). The 8 K/V heads the question states are shown, and the cache's 8.0 KiB; g = 8 is not.
TEST_F(AnswerBoxes, BeyondOneHeadSevenShowsItsEightKVHeadsNotItsG) {
  ASSERT_NO_FATAL_FAILURE(ask_settled("beyond-one-head", 7, "8"));
  EXPECT_GE(drawn_in("Tensors", "8 K/V heads").size(), 3u) << "the sentence and both tables' GQA-8";
  EXPECT_FALSE(drawn_in("Tensors", "(8.0 KiB as float32)").empty());
  EXPECT_TRUE(drawn_in("Tensors", "g = 8").empty()) << "g shown";
  EXPECT_GE(boxes_in(state, "Tensors"), 1);
  const AnswerMask mask = answer_mask(*state.lesson.lesson.scenes[6].question);
  EXPECT_EQ(giving_away(mask, ""), std::vector<std::string>{});
}

// Beyond-one-head 19 asks how many tiles per head are skipped (6): the tile shown ("keys 6-8")
// is a place, and "12 skipped" counts both heads' tiles: the hatched tiles are there to be
// counted, 12 is not 6 written.
TEST_F(AnswerBoxes, BeyondOneHeadNineteenShowsItsKeysAndItsSkippedTiles) {
  ASSERT_NO_FATAL_FAILURE(ask_settled("beyond-one-head", 19, "6"));
  EXPECT_FALSE(drawn_in("Tensors", "keys 6-8").empty());
  EXPECT_FALSE(drawn_in("Tensors", "12 skipped").empty());
  EXPECT_TRUE(state.frame.answer_boxes.empty()) << state.frame.answer_boxes.front().text;
}

// At 1024x768 the pipeline's boxes wrap their shapes after a comma ("(1, 10," over "8)"). A
// number answer (a row's weight, 1) does not box the 1s of those shapes; a shape answer boxes
// both lines; a question naming the axis (d_k, 128) boxes its dims.
TEST_F(AnswerBoxes, AWrappedShapesDimsAreBoxedOnlyWhereTheShapeOrItsAxisIsAsked) {
  ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
  ASSERT_NO_FATAL_FAILURE(ask_settled("ten-minutes", 4, "1"));
  EXPECT_FALSE(drawn_in("Pipeline", "(1, 10,").empty()) << "the shapes do not wrap here";
  EXPECT_TRUE(state.frame.answer_boxes.empty()) << state.frame.answer_boxes.front().text;
  ASSERT_NO_FATAL_FAILURE(ask_settled("notebook", 11, "1"));
  EXPECT_FALSE(drawn_in("Pipeline", "(1, 11,").empty());
  EXPECT_EQ(boxes_in(state, "Pipeline"), 0);
  ASSERT_NO_FATAL_FAILURE(ask_settled("beyond-one-head", 4, "1"));
  EXPECT_FALSE(drawn_in("Pipeline", "(1, 6,").empty());
  EXPECT_EQ(boxes_in(state, "Pipeline"), 0);

  ASSERT_NO_FATAL_FAILURE(ask_settled("notebook", 1, "(1, 11, 8)"));
  EXPECT_GE(boxes_in(state, "Pipeline"), 2) << "\"(1, 11,\" and \"8)\"";
  ASSERT_NO_FATAL_FAILURE(ask_settled("ten-minutes", 17, "128"));
  EXPECT_TRUE(
      answer_mask(*state.lesson.lesson.scenes[16].question, state.session.trace.get()).in_shapes);
  EXPECT_GE(boxes_in(state, "Pipeline"), 3) << "split's, transpose's and attend's d_k";
  EXPECT_TRUE(drawn_in("Pipeline", "128").empty());
}

// A near miss of the name: what follows a head's name in its title is the run's value. A lesson
// asking for head 1's entropy boxes the "2.20" of "head 1 · 2.20 bits", not "head 1".
TEST_F(AnswerBoxes, AHeadsEntropyAfterItsNameIsStillMasked) {
  ASSERT_EQ(open_lesson(state, "notebook", ""), "");
  ASSERT_TRUE(show_scene(state, 10)) << state.lesson.scene_error;
  settle();
  ASSERT_GE(state.session.trace->diagnostics.head_entropy_bits.size(), 2u);
  char entropy[32];
  std::snprintf(entropy, sizeof entropy, "%.2f",
                state.session.trace->diagnostics.head_entropy_bits[1]);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "attnlab_answer_entropy_test";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "lesson.md").string();
  std::ofstream(file) << "# Entropy\n\n## Spread\n```attnlab\n--preset seed003 --stage "
                         "attend:softmax --tab tensors\n```\nThe maps.\n\nQuestion: How many "
                         "bits does head 1 spread over?\nAnswer: "
                      << entropy << "\n";
  ASSERT_EQ(open_lesson(state, file, ""), "");
  settle();
  std::string boxed;
  for (const AnswerBox& box : state.frame.answer_boxes)
    if (box.window.rfind("Heads", 0) == 0)  // the box's glyphs, without the room after them
      boxed += box.text.substr(0, box.text.find_last_not_of(' ') + 1) + "|";
  EXPECT_EQ(boxed, std::string(entropy) + "|") << "head 1's entropy, and nothing else, boxed";
  bool named = false;
  for (const DrawnText& t : drawn_texts())
    named |= t.window.rfind("Heads", 0) == 0 && t.text.rfind("head 1", 0) == 0;
  EXPECT_TRUE(named) << "the name boxed with its entropy";
  std::filesystem::remove_all(dir);
}

// Every question of every built-in lesson whose scene builds without a model: asked, no text of
// the picture spells its answer; what each hides is printed (a "?" among labels points at the
// answer: such scenes show answer text, and must say so).
TEST_F(AnswerBoxes, NoBuiltInQuestionIsAnsweredByThePictureBeforeTheReveal) {
  int asked_scenes = 0;
  for (const lessons::BuiltinLesson& lesson : lessons::builtin_lessons()) {
    testing::internal::CaptureStderr();  // the real-model lesson's scenes name their missing model
    ASSERT_EQ(open_lesson(state, lesson.name, ""), "") << lesson.name;
    for (int index = 0; index < int(state.lesson.lesson.scenes.size()); ++index) {
      const lessons::Scene& scene = state.lesson.lesson.scenes[size_t(index)];
      if (!scene.question || !show_scene(state, index) || !state.lesson.playing) continue;
      settle();
      const std::string where = lesson.name + " scene " + std::to_string(index + 1);
      const AnswerMask mask = answer_mask(*scene.question);
      if (!scene.show_answer_text) {
        // As written too, where the answer is a shape (a number is found in shapes and longer
        // numbers as written; words are labels).
        const bool written =
            mask.kind == AnswerMask::Kind::Shape && scene.question->choices.empty();
        EXPECT_EQ(giving_away(mask, written ? scene.question->answer : ""),
                  std::vector<std::string>{})
            << where;
        ++asked_scenes;
      }
      std::string boxed;
      for (const AnswerBox& box : state.frame.answer_boxes)
        boxed += " \"" + box.text + "\" (" + box.window.substr(0, box.window.find('#')) + ")";
      std::printf("%s (%s)%s:%s\n", where.c_str(), scene.question->answer.c_str(),
                  scene.show_answer_text ? " shows answer text" : "", boxed.c_str());
    }
    testing::internal::GetCapturedStderr();
  }
  EXPECT_GE(asked_scenes, 30);
}

TEST_F(AnswerBoxes, ASceneWithShowAnswerTextDrawsItsAnswerBeforeTheReveal) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "attnlab_answer_mask_test";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "lesson.md").string();
  std::ofstream(file)
      << "# Shapes\n\n"
         "## Hidden\n```attnlab\n--preset seed003 --stage input --tab tensors\n```\n"
         "The input.\n\nQuestion: What shape is x?\nAnswer: (1, 11, 8)\n\n"
         "## Shown\n```attnlab\n--preset seed003 --stage input --tab tensors "
         "--show-answer-text\n```\nThe input.\n\n"
         "Question: What shape is x?\nAnswer: (1, 11, 8)\n";
  ASSERT_EQ(open_lesson(state, file, ""), "");
  EXPECT_TRUE(state.lesson.errors.empty()) << state.lesson.errors.front();
  const AnswerMask mask = answer_mask(*state.lesson.lesson.scenes[0].question);
  settle();
  EXPECT_FALSE(state.frame.answer_boxes.empty());
  EXPECT_EQ(giving_away(mask, "(1, 11, 8)"), std::vector<std::string>{});
  ASSERT_TRUE(show_scene(state, 1)) << state.lesson.scene_error;
  settle();
  EXPECT_FALSE(state.lesson.revealed);
  EXPECT_TRUE(state.frame.answer_boxes.empty());
  EXPECT_FALSE(giving_away(mask, "(1, 11, 8)").empty());
  std::filesystem::remove_all(dir);
}

// The lecturer's smaller screen too (1024x768, where the pipeline wraps its shapes): asked, no
// text of the picture spells the answer, and a number answer boxes no dim of the pipeline's shapes
// unless its question names that axis of the run ("What is d_k?"). Each box is printed with the
// text it sits in, to read what the mask hides.
TEST_F(AnswerBoxes, AtTenTwentyFourNoQuestionIsAnsweredAndNoNumberBoxesAShapesDim) {
  ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
  int number_scenes = 0;
  for (const lessons::BuiltinLesson& lesson : lessons::builtin_lessons()) {
    testing::internal::CaptureStderr();
    ASSERT_EQ(open_lesson(state, lesson.name, ""), "") << lesson.name;
    for (int index = 0; index < int(state.lesson.lesson.scenes.size()); ++index) {
      lessons::Scene& scene = state.lesson.lesson.scenes[size_t(index)];
      if (!scene.question || scene.show_answer_text || !show_scene(state, index) ||
          !state.lesson.playing)
        continue;
      settle();
      const std::string where = lesson.name + " scene " + std::to_string(index + 1);
      const AnswerMask mask = answer_mask(*scene.question, state.session.trace.get());
      const bool written = mask.kind == AnswerMask::Kind::Shape && scene.question->choices.empty();
      EXPECT_EQ(giving_away(mask, written ? scene.question->answer : ""),
                std::vector<std::string>{})
          << where;
      if (mask.kind == AnswerMask::Kind::Number && !mask.in_shapes) {
        EXPECT_EQ(boxes_in(state, "Pipeline"), 0) << where << ": a dim of a shape boxed";
        ++number_scenes;
      }
      // Each box in the text it sits in: the frame drawn again, unmasked.
      const std::vector<AnswerBox> boxes = state.frame.answer_boxes;
      scene.show_answer_text = true;
      frame();
      scene.show_answer_text = false;
      std::printf("%s (%s):", where.c_str(), scene.question->answer.c_str());
      for (const AnswerBox& box : boxes)
        for (const DrawnText& text : drawn_texts()) {
          const float x = 0.5f * (box.rect.x + box.rect.z), y = 0.5f * (box.rect.y + box.rect.w);
          if (text.window == box.window && x >= text.rect.x && x <= text.rect.z &&
              y >= text.rect.y && y <= text.rect.w) {
            std::printf(" \"%s\" in \"%s\";", box.text.c_str(), text.text.c_str());
            break;
          }
        }
      std::printf("\n");
    }
    testing::internal::GetCapturedStderr();
  }
  EXPECT_GE(number_scenes, 8);
}

}  // namespace
}  // namespace attnlab::gui
