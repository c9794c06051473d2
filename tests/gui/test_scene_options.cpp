// Issue 37 "Lessons are data, never code" (and issues 38, 43): a scene's options are read with the
// app's own parser, but an option that writes a file or makes the run is a problem naming the
// file and line, in any spelling, and the rest of the scene applies; an unknown option names the
// nearest; relative paths are the lesson folder's; a problem is in the band and once on stderr;
// the band's texts are wrapped once per text, width and font size, not every frame.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "app/gui/lessons/band_text.hpp"
#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/panels/layout_dump.hpp"
#include "app/gui/state/options.hpp"
#include "core/model/preset.hpp"
#include "core/tokenizers/unicode.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

namespace fs = std::filesystem;

SceneOptions scene(const std::vector<std::string>& words, StartOptions& options,
                   const std::string& folder = "", const std::string& run_model = "") {
  return parse_scene_options(words, folder, run_model, options);
}

bool writes_nothing(const StartOptions& o) {
  return o.screenshot.empty() && o.dump_layout.empty() && o.export_slides.empty() &&
         o.export_png.empty() && o.export_animation.empty() && o.export_svg.empty() &&
         o.export_pdf.empty() && o.export_page.empty();
}

// The options --help lists that write a file: every --export-*, --screenshot and --dump-layout.
// Read from the help so that a new --export-* is covered without this list growing by hand.
std::set<std::string> writing_options() {
  StartOptions o;
  const char* argv[] = {"attnlab", "--help"};
  const std::string help = parse_options(2, argv, o).message;
  std::set<std::string> found = {"--screenshot", "--dump-layout"};
  const std::regex exports("--export-[a-z]+");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), exports);
       it != std::sregex_iterator(); ++it)
    found.insert(it->str());
  return found;
}

TEST(SceneOptions, EachWritingOptionInEachSpellingIsAProblemAndWritesNothing) {
  const std::set<std::string> writers = writing_options();
  EXPECT_GE(writers.size(), 8u);  // screenshot, dump-layout, slides, png, animation, svg, pdf, page
  for (const std::string& option : writers) {
    const std::vector<std::vector<std::string>> spellings = {{"--heads", "2", option, "out.file"},
                                                             {"--heads", "2", option + "=out.file"},
                                                             {"--heads", "2", option},
                                                             {option, "out.file", "--heads", "2"}};
    for (const std::vector<std::string>& words : spellings) {
      StartOptions o;
      const SceneOptions read = scene(words, o);
      const std::string said = words.size() > 2 ? words[2] : words[0];
      ASSERT_EQ(read.problems.size(), 1u) << option << " as " << said;
      EXPECT_EQ(read.problems[0].rfind(option + " writes a file", 0), 0u) << read.problems[0];
      EXPECT_TRUE(writes_nothing(o)) << option;
      // The rest of the scene still applies.
      EXPECT_TRUE(read.usable) << option;
      EXPECT_EQ(o.config.value("n_heads").count.value_or(-1), 2) << option;
    }
  }
}

TEST(SceneOptions, HelpAndListLessonsInASceneAreAShortProblem) {
  for (const std::string& word : {"--help", "--help=1", "-h", "--list-lessons=true"}) {
    StartOptions o;
    const SceneOptions read = scene({word, "--stage", "split"}, o);
    ASSERT_EQ(read.problems.size(), 1u) << word;
    EXPECT_NE(read.problems[0].find("is for the command line, not a scene"), std::string::npos)
        << read.problems[0];
    EXPECT_LT(read.problems[0].size(), 200u) << "the whole help again: " << read.problems[0];
    EXPECT_TRUE(read.usable);
    EXPECT_EQ(o.stage, "split");
  }
}

// Issue 38: a scene's --heds 4 said only that it was not expected.
TEST(SceneOptions, AnUnknownOptionSuggestsTheNearestAndTheRestApplies) {
  StartOptions o;
  const SceneOptions read = scene({"--heds", "4", "--stage", "split"}, o);
  ASSERT_EQ(read.problems.size(), 1u);
  EXPECT_EQ(read.problems[0].rfind("unknown option --heds: did you mean --heads?", 0), 0u)
      << read.problems[0];
  EXPECT_TRUE(read.usable);
  EXPECT_EQ(o.stage, "split");
  StartOptions far;
  EXPECT_EQ(scene({"--zzzzzzzzzzzz"}, far).problems.at(0).find("did you mean"), std::string::npos);
  // The command line says the same.
  StartOptions cli;
  const char* argv[] = {"attnlab", "--heds=4"};
  const ParseOutcome outcome = parse_options(2, argv, cli);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.message.find("unknown option --heds: did you mean --heads?"), std::string::npos)
      << outcome.message;
}

TEST(SceneOptions, RelativePathsAreTheLessonFolders) {
  StartOptions o;
  EXPECT_TRUE(scene({"--model", "gpt2", "--check=exercise"}, o, "/talks/week3").usable);
  EXPECT_EQ(o.model, "/talks/week3/gpt2");
  EXPECT_EQ(o.check, "/talks/week3/exercise");
  StartOptions absolute;
  scene({"--model=/models/gpt2"}, absolute, "/talks/week3");
  EXPECT_EQ(absolute.model, "/models/gpt2");
  // Without --model, the run's (given on the command line: the working folder's, as given).
  StartOptions run;
  EXPECT_TRUE(scene({"--layer", "1"}, run, "/talks/week3", "models/gpt2").usable);
  EXPECT_EQ(run.model, "models/gpt2");
  // A built-in lesson has no folder: as given.
  StartOptions builtin;
  scene({"--check", "exercise"}, builtin, "");
  EXPECT_EQ(builtin.check, "exercise");
}

class LessonProblems : public HeadlessImGui {
 protected:
  void SetUp() override {
    HeadlessImGui::SetUp();
    load_presets(state);
    dir = fs::temp_directory_path() / ("attnlab_scene_options_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override {
    fs::remove_all(dir);
    HeadlessImGui::TearDown();
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::string file = (dir / name).string();
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
  void settle() {
    for (int i = 0; i < 3; ++i) {
      state.session.worker->wait_idle();
      poll_trace(state);
      frame();
    }
  }
  fs::path dir;
};

// The app stays up: the problem is in the band (scene_error) and once on stderr, nothing is
// written, and the scene's other options apply.
TEST_F(LessonProblems, AWritingOptionIsShownAndPrintedOnceAndTheSceneStillPlays) {
  const std::string file = write(
      "talk.md",
      "# Talk\n\n## One\n```attnlab\n--preset seed003 --heads 2 --export-svg=out.svg\n```\nA.\n\n"
      "## Two\n```attnlab\n--preset seed003 --heads 1\n```\nB.\n");
  testing::internal::CaptureStderr();
  ASSERT_EQ(open_lesson(state, file, ""), "");
  settle();
  show_scene(state, 1);
  show_scene(state, 0);
  settle();
  const std::string printed = testing::internal::GetCapturedStderr();
  const std::string line = file + ":5: --export-svg writes a file";
  EXPECT_EQ(state.lesson.scene_error.rfind(line, 0), 0u) << state.lesson.scene_error;
  const size_t first = printed.find("attnlab: " + line);
  EXPECT_NE(first, std::string::npos) << printed;
  EXPECT_EQ(printed.find(line, first + line.size()), std::string::npos) << "printed twice";
  EXPECT_EQ(state.session.config.n_heads, 2);
  EXPECT_FALSE(fs::exists(dir / "out.svg"));
  EXPECT_FALSE(fs::exists("out.svg"));
  frame();
  EXPECT_TRUE(lesson_playing(state));
}

// Issue 38: a scene with a problem (`--heds 4`) showed the previous scene's picture. Its problem
// is in the band and on stderr with the nearest option, and the rest of its options apply: its
// preset, stage and tab. A flag that makes the config one that cannot run (3 heads of d_model 4)
// is left out alone, and the scene's other flags apply.
TEST_F(LessonProblems, AProblemSceneShowsItsOwnPictureWithItsOtherOptions) {
  const std::string file =
      write("talk.md",
            "# Talk\n\n## One\n```attnlab\n--preset seed003 --heads 1 --stage input\n```\nA.\n\n"
            "## Two\n```attnlab\n--preset base --heds 4 --stage split --tab counters\n```\nB.\n\n"
            "## Three\n```attnlab\n--preset seed003 --seed 5 --heads 3 --stage attend\n```\nC.\n");
  testing::internal::CaptureStderr();
  ASSERT_EQ(open_lesson(state, file, ""), "");
  settle();
  ASSERT_EQ(state.session.config.n_heads, 1);
  EXPECT_FALSE(show_scene(state, 1));
  EXPECT_EQ(state.tabs.requested_tool, ToolTab::Counters);
  settle();
  const std::string line = file + ":11: unknown option --heds: did you mean --heads?";
  EXPECT_EQ(state.lesson.scene_error.rfind(line, 0), 0u) << state.lesson.scene_error;
  EXPECT_EQ(state.session.preset_name, "base");
  ASSERT_TRUE(state.session.trace);
  EXPECT_EQ(state.session.trace->config.n_heads, 8);
  EXPECT_EQ(state.session.trace->config.d_model, 512);
  EXPECT_EQ(stage_name(current_step(state)->stage), std::string("split"));
  EXPECT_EQ(tool_tab_name(state.tabs.tool), std::string("counters"));

  EXPECT_FALSE(show_scene(state, 2));
  settle();
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find("attnlab: " + line), std::string::npos) << printed;
  EXPECT_NE(state.lesson.scene_error.find("--heads is left out"), std::string::npos)
      << state.lesson.scene_error;
  EXPECT_NE(printed.find("--heads is left out"), std::string::npos) << printed;
  ASSERT_TRUE(state.session.trace);
  EXPECT_TRUE(state.session.issues.empty());
  EXPECT_EQ(state.session.trace->config.n_heads, find_preset("seed003").config.n_heads);
  EXPECT_EQ(state.session.trace->config.seed, 5u);
  EXPECT_EQ(stage_name(current_step(state)->stage), std::string("attend"));
}

// `Answer: head 99999999999` aborted the app at the scene; now a problem, and the band draws.
TEST_F(LessonProblems, AnAnswerHeadPastAnyIntPlays) {
  const std::string file = write(
      "heads.md",
      "# Heads\n\n## Which\n```attnlab\n--preset seed003\n```\nQuestion: Which head?\nAnswer: "
      "head 99999999999\n");
  testing::internal::CaptureStderr();
  ASSERT_EQ(open_lesson(state, file, ""), "");
  settle();
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find(file + ":8: Answer: head 99999999999: no model has that many heads"),
            std::string::npos)
      << printed;
  state.lesson.revealed = true;
  frame();
  EXPECT_TRUE(lesson_playing(state));
}

// A scene's relative --model is read in the lesson's folder, not the working folder.
TEST_F(LessonProblems, ASceneOpensItsModelInTheLessonsFolder) {
  const std::string file =
      write("real.md", "# Real\n\n## Layer\n```attnlab\n--model gpt2-folder --layer 0\n```\nA.\n");
  ASSERT_EQ(open_lesson(state, file, ""), "");
  EXPECT_EQ(state.model.folder_text, (dir / "gpt2-folder").string());
}

// Invalid bytes anywhere in a lesson (and its file name) reach --dump-layout's JSON as valid
// UTF-8 text.
TEST_F(LessonProblems, InvalidUtf8ReachesTheLayoutDumpAsValidJson) {
  const std::string file =
      write("caf\xe9.md",
            "# caf\xe9\n\n## sc\xe8ne\n```attnlab\n--preset seed003 --heds\xff "
            "4\n```\nCaption caf\xe9.\n\nNote: n\xf6te\n");
  ASSERT_EQ(open_lesson(state, file, ""), "");
  settle();
  const std::string dump = layout_json(state, ImVec2(1600, 1000), ImVec2(1, 1));
  EXPECT_EQ(unicode::valid_utf8(dump), dump);
  const nlohmann::json parsed = nlohmann::json::parse(dump);
  EXPECT_EQ(parsed["lesson"]["title"], "caf\xEF\xBF\xBD");
  ASSERT_FALSE(parsed["lesson"]["errors"].empty());
  EXPECT_NE(parsed["lesson"]["errors"][0].get<std::string>().find("unknown option --heds"),
            std::string::npos);
}

// A caption of 4 MiB in one paragraph took 628 ms a frame: wrapped every frame. Now once per
// (text, width, font size): frames after the first wrap nothing.
TEST_F(LessonProblems, ACaptionIsWrappedOncePerTextWidthAndFontSize) {
  std::string caption;
  // Just under the 4 MiB a lesson may hold.
  while (caption.size() < (size_t{4} << 20) - 4096) caption += "attention weights sum to one ";
  const std::string file =
      write("long.md", "# Long\n\n## One\n```attnlab\n--preset seed003\n```\n" + caption + "\n");
  ASSERT_EQ(open_lesson(state, file, ""), "");
  settle();
  const WrappedText& wrapped = band_layout(state, false).caption;
  EXPECT_GT(wrapped.lines.size(), 1000u);
  const int layouts = wrapped.layouts;
  for (int i = 0; i < 3; ++i) frame();
  EXPECT_EQ(band_layout(state, false).caption.layouts, layouts);
  // A narrower window wraps it again: once per type size the band tries while it fits the text
  // to a fifth of the window (a few frames), then not at all.
  ImGui::GetIO().DisplaySize = ImVec2(1000, 1000);
  for (int i = 0; i < 3 || (band_fitting(state) && i < 50); ++i) frame();
  ASSERT_FALSE(band_fitting(state));
  const int refitted = band_layout(state, false).caption.layouts;
  EXPECT_GT(refitted, layouts);
  EXPECT_LE(refitted, layouts + 8);
  for (int i = 0; i < 3; ++i) frame();
  EXPECT_EQ(band_layout(state, false).caption.layouts, refitted);
}

TEST(BandText, WrapsAgainOnlyWhenTheTextWidthOrFontSizeChanges) {
  int measured = 0;
  const auto measure = [&measured](const std::string& s) {
    ++measured;
    return float(s.size());
  };
  WrappedText cache;
  const std::string text = "one two three\n\nfour five";
  const std::vector<std::string> lines = wrapped_paragraphs(cache, "", text, 9, 20, measure);
  EXPECT_EQ(lines, (std::vector<std::string>{"one two", "three", "four five"}));
  const int first = measured;
  wrapped_paragraphs(cache, "", text, 9, 20, measure);
  EXPECT_EQ(measured, first);
  EXPECT_EQ(cache.layouts, 1);
  wrapped_paragraphs(cache, "", text, 20, 20, measure);
  EXPECT_EQ(cache.layouts, 2);
  wrapped_paragraphs(cache, "", text, 20, 30, measure);
  EXPECT_EQ(cache.layouts, 3);
  wrapped_paragraphs(cache, "Note: ", text, 20, 30, measure);
  EXPECT_EQ(cache.layouts, 4);
  EXPECT_EQ(cache.lines.front(), "Note: one two three");
}

}  // namespace
}  // namespace attnlab::gui
