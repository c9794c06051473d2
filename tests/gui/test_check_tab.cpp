// The Check tab in headless frames, on an exercise written for seed003 (T = 11, causal) in a temp
// folder: a right answer turns every given stage green; a forget-transpose answer (the simulator's
// buggy run) is red from its first wrong stage and named, and the card's button opens the Mistakes
// tab on that mistake; a bug no mistake explains is named as nothing; editing the answer file is
// picked up, its watcher waking the sleeping loop; key K opens the tab and a missing folder (or a
// bad exercise.json) is said in one line.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "app/gui/check/check_panels.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/gui/state/redraw.hpp"
#include "core/exercise/exercise.hpp"
#include "core/model/preset.hpp"
#include "core/tensor/npy.hpp"
#include "core/tensor/zip_store.hpp"
#include "core/trace/mha.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

namespace fs = std::filesystem;

// A tensor's values in storage of their own, row-major.
Tensor copy_of(const Tensor& t) {
  Tensor copy = Tensor::zeros("answer", t.shape());
  t.copy_to(copy.data());
  return copy;
}

class CheckTabTest : public HeadlessImGui {
 protected:
  void SetUp() override {
    HeadlessImGui::SetUp();
    dir = fs::temp_directory_path() /
          ("attnlab-check-tab-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    const Preset preset = find_preset("seed003");
    exercise = make_exercise(preset.config, preset.inputs);
    write_exercise(exercise, dir.string());
    start_on("seed002");  // another config on screen: the tab grades the exercise's own
  }
  void TearDown() override {
    fs::remove_all(dir);
    HeadlessImGui::TearDown();
  }

  // answer.npz holding the records of `trace` the exercise knows, as np.savez writes them, dated
  // `age_seconds` from now (the reload test dates a new one later than the last).
  void write_answer(const Trace& trace, int age_seconds = 0,
                    const std::vector<std::string>& only = {}) {
    std::vector<std::pair<std::string, std::string>> files;
    for (const std::string& name : stage_names(exercise.answer)) {
      if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
      if (const TensorRecord* record = trace.find(name); record && record->tensor.has_values())
        files.push_back({name + ".npy", npy_bytes(copy_of(record->tensor))});
    }
    const fs::path path = dir / "answer.npz";
    std::ofstream(path, std::ios::binary) << zip_store(files);
    fs::last_write_time(path, fs::file_time_type::clock::now() + std::chrono::seconds(age_seconds));
  }
  void open() {
    state.requests.later([path = dir.string()](AppState& s) { open_check(s, path); });
    settle();
  }
  // Frames until the grading is taken.
  void settle() {
    frame();
    wait_for_measurements(state);
    frame();
    frame();  // the requested tab is selected
  }
  const Grade& grade() {
    EXPECT_TRUE(state.check.shown) << state.check.error;
    return state.check.shown->grade;
  }
  std::vector<StageMark> marks() {
    std::vector<StageMark> all;
    for (const StageGrade& stage : grade().stages) all.push_back(stage_mark(stage));
    return all;
  }
  int index_of(const std::string& name) {
    const std::vector<StageGrade>& stages = grade().stages;
    for (size_t i = 0; i < stages.size(); ++i)
      if (stages[i].name == name) return int(i);
    ADD_FAILURE() << "no stage " << name;
    return -1;
  }
  Trace buggy(Mistake mistake) {
    Config config = exercise.config;
    config.mistake = mistake;
    return run(config, exercise.inputs);
  }
  void click(const PlacedItem& item) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(std::floor((item.min.x + item.max.x) * 0.5f),
                         std::floor((item.min.y + item.max.y) * 0.5f));
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }

  fs::path dir;
  Exercise exercise;
};

TEST_F(CheckTabTest, RightAnswerTurnsEveryGivenStageGreen) {
  write_answer(run(exercise.config, exercise.inputs), 0,
               {"q", "k", "v", "scores", "weights", "out"});
  open();
  EXPECT_EQ(state.tabs.tool, ToolTab::Check);
  EXPECT_TRUE(state.check.error.empty()) << state.check.error;
  EXPECT_TRUE(grade().all_right());
  EXPECT_EQ(grade().given_count, 6);
  for (const char* name : {"q", "k", "v", "scores", "weights", "out"})
    EXPECT_EQ(marks()[size_t(index_of(name))], StageMark::Right) << name;
  EXPECT_EQ(marks()[size_t(index_of("q_heads"))], StageMark::NotGiven);
  EXPECT_EQ(grade().first_wrong, -1);
  // The maps shown: the weights, yours equal to the right one (difference 0).
  EXPECT_EQ(shown_check_stage(state.check), index_of("weights"));
  const std::array<HeatmapSet, 3>& maps = state.check.maps;
  ASSERT_FALSE(maps[2].empty());
  for (float d : maps[2].shown) EXPECT_LT(d, 1e-4f);
}

TEST_F(CheckTabTest, ForgetTransposeIsRedFromItsFirstWrongStageAndNamed) {
  write_answer(buggy(Mistake::ForgetTranspose));
  open();
  const Grade& g = grade();
  ASSERT_GE(g.first_wrong, 0);
  const std::string first = g.stages[size_t(g.first_wrong)].name;
  EXPECT_EQ(marks()[size_t(g.first_wrong)], StageMark::Wrong) << first;
  for (int i = 0; i < g.first_wrong; ++i)
    EXPECT_NE(marks()[size_t(i)], StageMark::Wrong) << g.stages[size_t(i)].name;
  EXPECT_EQ(marks()[size_t(index_of("q"))], StageMark::Right);
  EXPECT_EQ(marks()[size_t(index_of("scores"))], StageMark::Wrong);
  EXPECT_FALSE(g.stages[size_t(index_of("scores"))].shape_ok) << "(B, T, h, h), not (B, h, T, T)";
  ASSERT_FALSE(g.diagnosis.mistakes.empty()) << g.diagnosis.unexplained;
  EXPECT_EQ(g.diagnosis.mistakes[0].name, "forget-transpose");
  EXPECT_EQ(shown_check_stage(state.check), g.first_wrong);

  // The card's button: the Mistakes tab on forget-transpose, run on the exercise's config. (A tall
  // window: the card scrolls in a short one.)
  ImGui::GetIO().DisplaySize = ImVec2(1600, 1600);
  frame();
  frame();
  const PlacedItem button = item("The Mistakes tab on this mistake");
  click(button);
  frame();
  frame();  // the tab bar selects the requested tab
  EXPECT_EQ(state.tabs.tool, ToolTab::Mistakes);
  EXPECT_EQ(state.session.config.mistake, Mistake::ForgetTranspose);
  EXPECT_EQ(state.session.config.seq_len, exercise.config.seq_len);
  EXPECT_EQ(state.session.config.n_heads, exercise.config.n_heads);
}

TEST_F(CheckTabTest, UnknownBugGetsNoNameAndItsDifferingEntriesAreFound) {
  Trace answer = run(exercise.config, exercise.inputs);
  // A bug no mistake makes: one score of head 1 off by 0.5.
  for (TensorRecord& record : answer.records)
    if (record.name == "scores") {
      record.tensor = copy_of(record.tensor);
      record.tensor.data()[1 * 11 * 11 + 4 * 11 + 2] += 0.5f;  // (0, 1, 4, 2)
    }
  write_answer(answer, 0, {"q", "k", "v", "scores"});
  open();
  const Grade& g = grade();
  ASSERT_EQ(g.first_wrong, index_of("scores"));
  EXPECT_TRUE(g.diagnosis.mistakes.empty()) << g.diagnosis.mistakes[0].name;
  EXPECT_FALSE(g.diagnosis.unexplained.empty());
  const StageGrade& scores = g.stages[size_t(g.first_wrong)];
  EXPECT_EQ(scores.wrong_entries, 1);
  EXPECT_EQ(scores.differing_heads, std::vector<int64_t>{1});
  // The maps show head 1, the one differing, with that entry outlined.
  EXPECT_EQ(state.check.maps_for[2], 1);
  EXPECT_FALSE(state.check.maps[2].empty());
  EXPECT_NEAR(state.check.maps[2].shown[4 * 11 + 2], 0.5f, 1e-4f);
}

// Issue 38: the normal layout at the lecture hall's sizes (font 1) gives the Check tab the heads'
// room, and its maps (yours, right) are readable, not ~50 px, with the first wrong stage, the
// mistake's name and its fix in view above them, not below the fold.
TEST_F(CheckTabTest, TheMapsAreReadableAndTheMistakeAndFixInViewAtLectureSizes) {
  write_answer(buggy(Mistake::ForgetTranspose));
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(1024, 768)}) {
    const std::string where = std::to_string(int(size.x)) + "x" + std::to_string(int(size.y));
    ImGui::GetIO().DisplaySize = size;
    open();
    for (int i = 0; i < kMostFittingFrames && layout_fitting(state); ++i) frame();
    frame();
    ASSERT_EQ(state.tabs.tool, ToolTab::Check) << where;
    EXPECT_FALSE(shown(PanelLayout{state.frame.panel_rects}, PanelId::Heads)) << where;
    const ImVec4 panel = state.frame.panel_rects[size_t(PanelId::Tensors)];
    // Yours and right (the difference: "shapes differ", no map).
    ASSERT_EQ(state.frame.mistake_placements.size(), 2u) << where;
    for (const HeatmapPlacement& map : state.frame.mistake_placements) {
      EXPECT_GE(std::max(map.max.x - map.min.x, map.max.y - map.min.y), 150) << where;
      EXPECT_LE(map.max.y, panel.w) << where << ": map " << map.head << " below the panel";
    }
    // The card's first wrong stage, mistake and fix: drawn, whole inside what their region shows.
    for (const std::string start :
         {"First wrong: scores", "forget-transpose:", "- q = q.view", "+ q = q.view"}) {
      const std::vector<DrawnText> texts = drawn_texts();
      const auto text = std::find_if(texts.begin(), texts.end(), [&](const DrawnText& t) {
        return t.text.rfind(start, 0) == 0;
      });
      ASSERT_NE(text, texts.end()) << where << ": no \"" << start << "\"";
      EXPECT_GE(text->rect.y, std::max(text->room.y, panel.y) - 0.5f) << where << " " << start;
      EXPECT_LE(text->rect.w, std::min(text->room.w, panel.w) + 0.5f)
          << where << ": \"" << start << "\" below the fold";
    }
  }
}

// The loop sleeps while nothing moves (next_frame: no frame when its wait ends); an answer written
// from a terminal wakes it through the watcher, whose change then asks for frames.
TEST_F(CheckTabTest, EditingTheAnswerWakesTheLoopAndGradesItAgain) {
  auto wakes = std::make_shared<std::atomic<int>>(0);  // outlives the watcher's thread
  state.window.wake_loop = [wakes] { ++*wakes; };
  write_answer(buggy(Mistake::ForgetTranspose));
  open();
  EXPECT_GE(grade().first_wrong, 0);
  // The card's type fits its room over a few frames (a real loop draws them: wants_frames).
  for (int i = 0; i < kMostFittingFrames && layout_fitting(state); ++i) frame();
  ASSERT_FALSE(layout_fitting(state));
  InputActivity idle;
  idle.frames_since_change = kSettleFrames;
  const NextFrame asleep = next_frame(state, idle);
  EXPECT_FALSE(asleep.draw_on_timeout) << "idle with the tab open, the loop draws nothing itself";
  EXPECT_EQ(*wakes, 0);
  const uint64_t version = state.check.shown_version;
  write_answer(run(exercise.config, exercise.inputs), 5);  // the student fixed it and ran again
  const auto start = std::chrono::steady_clock::now();
  while (*wakes == 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GE(*wakes, 1);
  std::printf("the watcher woke the loop %.2f s after the answer was written\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  EXPECT_TRUE(answer_changed(state.check));
  EXPECT_EQ(next_frame(state, idle).wait_seconds, 0) << "the woken loop draws at once";
  settle();
  EXPECT_GT(state.check.shown_version, version);
  EXPECT_TRUE(grade().all_right());
  EXPECT_EQ(marks()[size_t(index_of("scores"))], StageMark::Right);
}

TEST_F(CheckTabTest, KeyKOpensTheTabAndAMissingFolderIsOneRedLine) {
  press(kKeyK);
  EXPECT_EQ(state.tabs.tool, ToolTab::Check);
  EXPECT_TRUE(is_tab_name("check"));
  state.requests.later([](AppState& s) { open_check(s, "/nonexistent/attnlab-exercise"); });
  settle();
  EXPECT_FALSE(state.check.shown);
  EXPECT_NE(state.check.error.find("/nonexistent/attnlab-exercise"), std::string::npos)
      << state.check.error;
  EXPECT_EQ(state.check.error.find('\n'), std::string::npos);
}

// exercise.json's "format" as a string used to show the JSON library's raw type_error (issue 43):
// the tab says the same one line as attnlab-cli check.
TEST_F(CheckTabTest, ABadExerciseJsonIsOneClearRedLine) {
  const fs::path json_path = dir / "exercise.json";
  std::ifstream in(json_path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string format = "\"format\": 1";
  ASSERT_NE(text.find(format), std::string::npos);
  text.replace(text.find(format), format.size(), "\"format\": \"1\"");
  std::ofstream(json_path, std::ios::trunc) << text;
  open();
  EXPECT_FALSE(state.check.shown);
  EXPECT_NE(
      state.check.error.find(R"(exercise.json: key "format" must be a whole number, not "1")"),
      std::string::npos)
      << state.check.error;
  EXPECT_EQ(state.check.error.find("json.exception"), std::string::npos) << state.check.error;
  EXPECT_EQ(state.check.error.find('\n'), std::string::npos);
}

TEST_F(CheckTabTest, ADroppedAnswerFileOpensItsExercise) {
  write_answer(run(exercise.config, exercise.inputs), 0, {"out"});
  state.window.dropped_paths.push_back((dir / "answer.npz").string());
  settle();
  EXPECT_TRUE(state.window.dropped_paths.empty());
  EXPECT_EQ(state.tabs.tool, ToolTab::Check);
  EXPECT_EQ(fs::path(state.check.dir), dir);
  EXPECT_TRUE(grade().all_right());
  EXPECT_FALSE(state.model.loading.size()) << "not taken for a model";
}

}  // namespace
}  // namespace attnlab::gui
