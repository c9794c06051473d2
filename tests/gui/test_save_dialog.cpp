// The Save dialog (issue 32): its choices are remembered, its export is the app's own command line
// (checked by the app's own option parser, named beside the field at fault), its keys, and Record's
// frames and their times.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/gui/export/animation_sink.hpp"
#include "app/gui/export/gif_writer.hpp"
#include "app/gui/export/recording.hpp"
#include "app/gui/export/save_command.hpp"
#include "app/gui/export/save_dialog.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/state/options.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/startup.hpp"
#include "core/model/errors.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class SaveDialogTest : public HeadlessImGui {
 protected:
  void chord(int key) {  // Ctrl+Shift+key, as the window queues it
    state.typed.window_queues_keys = true;
    note_key_press(state.typed, {key, true, true, false});
    frame();
    state.typed.window_queues_keys = false;  // then press() holds keys as ImGui sees them
  }
  StartOptions parsed(const std::vector<std::string>& words) {
    std::vector<const char*> argv = {"attnlab"};
    for (const std::string& word : words) argv.push_back(word.c_str());
    StartOptions options;
    const ParseOutcome outcome = parse_options(int(argv.size()), argv.data(), options);
    EXPECT_EQ(outcome.exit_code, -1) << outcome.message;
    return options;
  }
};

TEST_F(SaveDialogTest, ChoicesSurviveTheSettingsFileAndABadFieldCostsOnlyItself) {
  Settings settings;
  settings.save.kind = SaveKind::Animation;
  settings.save.width = 1024;
  settings.save.height = 768;
  settings.save.theme = Theme::Dark;
  settings.save.font_scale = 2.0f;
  settings.save.mp4 = true;
  settings.save.fps = 24;
  settings.save.seconds_per_stage = 0.5f;
  settings.save.transparent = true;
  settings.save.folder = "/tmp/slides";
  const Settings back = settings_from_json(settings_to_json(settings), "test");
  EXPECT_TRUE(back.save == settings.save);

  nlohmann::json object = save_choices_to_json(settings.save);
  object["fps"] = "fast";  // wrong type: the default, the others kept
  object["width"] = -5;
  const SaveChoices forgiving = save_choices_from_json(object);
  EXPECT_EQ(forgiving.fps, SaveChoices{}.fps);
  EXPECT_EQ(forgiving.width, 1);
  EXPECT_EQ(forgiving.height, 768);
  EXPECT_EQ(forgiving.folder, "/tmp/slides");
  EXPECT_TRUE(forgiving.mp4);
}

TEST_F(SaveDialogTest, TheExportsOptionsRebuildTheStateShownWithTheChoices) {
  start_on("base");
  Config changed = state.session.config;
  changed.n_heads = 4;
  set_config(state, changed);
  state.session.worker->wait_idle();
  poll_trace(state);
  go_to_step(state, 5);
  state.walk.transition_start = -1;
  state.save.choices.kind = SaveKind::Still;
  state.save.choices.width = 1024;
  state.save.choices.height = 768;
  state.save.choices.theme = Theme::Dark;
  state.save.choices.font_scale = 2.0f;
  state.save.choices.transparent = true;
  const std::string path = save_file_name(state, state.save.choices, "STAMP");
  // No folder: the working folder's, named in full.
  EXPECT_EQ(path,
            (std::filesystem::current_path() /
             ("attnlab-base-" + std::string(stage_name(current_step(state)->stage)) + "-STAMP.png"))
                .string());
  const StartOptions still = parsed(save_arguments(state, state.save.choices, path));
  EXPECT_EQ(still.export_png, path);
  EXPECT_TRUE(still.transparent);
  EXPECT_EQ(still.width, 1024);
  EXPECT_EQ(still.height, 768);
  EXPECT_EQ(still.theme, "dark");
  ASSERT_TRUE(still.font_scale.has_value());
  EXPECT_FLOAT_EQ(*still.font_scale, 2.0f);
  // The state the copy of the app starts from is the one shown: the config and the step.
  AppState copy;
  ASSERT_EQ(start_state(copy, still, nullptr), "");
  EXPECT_EQ(copy.session.config.n_heads, 4);
  EXPECT_EQ(copy.session.config.d_model, state.session.config.d_model);
  EXPECT_EQ(copy.walk.step_index, state.walk.step_index);
  cancel_all_jobs(copy);

  state.save.choices.kind = SaveKind::Animation;
  state.save.choices.mp4 = true;
  state.save.choices.fps = 12;
  state.save.choices.seconds_per_stage = 0.5f;
  state.save.choices.folder = "/tmp";
  const std::string movie = save_file_name(state, state.save.choices, "STAMP");
  EXPECT_EQ(movie, "/tmp/attnlab-base-pipeline-STAMP.mp4");
  const StartOptions animation = parsed(save_arguments(state, state.save.choices, movie));
  EXPECT_EQ(animation.export_animation, movie);
  EXPECT_EQ(animation.fps, 12);
  EXPECT_DOUBLE_EQ(animation.seconds_per_stage, 0.5);
  EXPECT_TRUE(animation.export_png.empty());
}

// Issue 38: the dialog said "Wrote attnlab-seed003-....png" without the folder. The path it
// writes (and the copy of the app prints back as "Wrote PATH") is the full one, a relative folder
// made absolute, and the dialog shows it whole.
TEST_F(SaveDialogTest, TheDialogNamesTheFullPath) {
  start_on("seed003");
  state.save.choices.kind = SaveKind::Still;
  state.save.choices.folder = "talk/../slides";
  const std::filesystem::path want =
      std::filesystem::current_path() / "slides" / "attnlab-seed003-input-STAMP.png";
  EXPECT_EQ(save_file_name(state, state.save.choices, "STAMP"), want.string());
  state.save.choices.folder.clear();
  const std::string recording = recording_file_name(state.save.choices, "STAMP");
  EXPECT_EQ(recording, (std::filesystem::current_path() / "attnlab-recording-STAMP.gif").string());
  // The dialog's "Writes ..." line: the folder and the name (wrapped lines joined again).
  state.save.runs_app_copies = true;
  state.save.open = true;
  frame();
  frame();
  std::string shown;
  for (const DrawnText& text : drawn_texts())
    if (text.window.rfind("Save picture", 0) == 0) shown += text.text;
  shown.erase(std::remove(shown.begin(), shown.end(), ' '), shown.end());
  const std::string folder = std::filesystem::current_path().string();
  const size_t writes = shown.find("Writes" + folder + "/attnlab-seed003-input-");
  EXPECT_NE(writes, std::string::npos) << shown;
}

TEST_F(SaveDialogTest, WhatTheOptionParserRefusesIsNamedBesideItsField) {
  start_on("seed003");
  const auto problem = [&] { return save_problem(state, "x.png"); };
  EXPECT_EQ(problem().text, "");
  state.save.choices.width = 100000;
  EXPECT_EQ(problem().field, "size");
  EXPECT_NE(problem().text.find("100000"), std::string::npos) << problem().text;
  state.save.choices.width = 1920;
  state.save.choices.kind = SaveKind::Animation;
  state.save.choices.fps = 0;
  EXPECT_EQ(problem().field, "fps");
  state.save.choices.fps = 10;
  state.save.choices.seconds_per_stage = 100;
  EXPECT_EQ(problem().field, "seconds");
  state.save.choices.seconds_per_stage = 1;
  state.save.choices.folder = "/no/such/folder";
  EXPECT_EQ(problem().field, "folder");
  EXPECT_NE(problem().text.find("/no/such/folder"), std::string::npos);
  state.save.choices.folder = std::filesystem::temp_directory_path().string();
  EXPECT_EQ(problem().text, "");
}

// The dialog checks its choices (a stat of the folder, the option parser) when they change, not
// every frame; what it shows is the check's finding.
TEST_F(SaveDialogTest, TheChoicesAreCheckedWhenTheyChangeNotEveryFrame) {
  start_on("seed003");
  state.save.runs_app_copies = true;
  state.save.open = true;
  for (int i = 0; i < 10; ++i) frame();
  EXPECT_EQ(state.save.check.count, 1) << "ten frames of the same choices: one check";
  EXPECT_EQ(state.save.check.problem.text, "");
  state.save.choices.folder = "/no/such/folder";
  for (int i = 0; i < 5; ++i) frame();
  EXPECT_EQ(state.save.check.count, 2);
  EXPECT_EQ(state.save.check.problem.field, "folder");
  state.save.choices.folder.clear();
  state.save.choices.width = 100000;
  frame();
  EXPECT_EQ(state.save.check.count, 3);
  EXPECT_EQ(state.save.check.problem.field, "size");
  // Closed and opened again: checked again (a folder made meanwhile is seen).
  state.save.open = false;
  frame();
  state.save.open = true;
  frame();
  EXPECT_EQ(state.save.check.count, 4);
}

TEST_F(SaveDialogTest, KeysOpenSaveCancelAndClose) {
  start_on("seed003");
  state.save.runs_app_copies = true;
  state.save.choices.folder = std::filesystem::temp_directory_path().string();
  chord(kKeyE);
  EXPECT_TRUE(state.save.open);
  EXPECT_FALSE(state.window.export_request) << "Ctrl+Shift+E is not Ctrl+E's tensor export";
  frame();  // the dialog appears and takes the keyboard
  press(kGlfwEnter);
  ASSERT_EQ(state.save.requests.size(), 1u) << "Enter saves";
  const SaveRequest request = state.save.requests.front();
  EXPECT_EQ(parsed(request.arguments).export_png, request.path);
  EXPECT_EQ(std::filesystem::path(request.path).parent_path(), state.save.choices.folder);
  state.save.requests.clear();
  press(kGlfwEscape);
  EXPECT_FALSE(state.save.open) << "Esc closes the dialog when nothing is being written";
  // While an export is written Esc cancels it and the dialog stays.
  state.save.open = true;
  std::atomic<bool> started{false};
  state.save.writing.start({}, [&started](const RunControl& control) -> std::string {
    started = true;
    while (!control.cancel_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    throw Cancelled();
  });
  while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  press(kGlfwEscape);
  state.save.writing.wait();
  EXPECT_TRUE(state.save.writing.cancelled());
  EXPECT_TRUE(state.save.open);
  chord(kKeyR);
  EXPECT_TRUE(state.save.toggle_recording) << "Ctrl+Shift+R asks the window to record";
}

TEST_F(SaveDialogTest, ThePagesDialogSavesThePictureItShows) {
  start_on("seed003");
  state.save.runs_app_copies = false;
  state.save.open = true;
  frame();
  frame();
  press(kGlfwEnter);
  EXPECT_TRUE(state.save.requests.empty()) << "a page runs no copy of the app";
  const PlacedItem button = item("The picture alone at the page");
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2((button.min.x + button.max.x) / 2, (button.min.y + button.max.y) / 2);
  frame();
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  ASSERT_TRUE(state.window.export_request.has_value());
  EXPECT_TRUE(state.window.export_request->picture);
}

TEST_F(SaveDialogTest, NothingInTheDialogIsCutAtAProjectorsSizeAndFont) {
  int findings = 0;
  for (const float scale : {1.0f, 1.5f, 2.0f}) {
    use_font_scale(scale);
    start_on("seed003");
    state.lesson.file.clear();
    for (const ImVec2 size : {ImVec2(1024, 768), ImVec2(1280, 720), ImVec2(1920, 1080)}) {
      ImGui::GetIO().DisplaySize = size;
      for (const bool page : {false, true}) {
        for (const SaveKind kind : {SaveKind::Still, SaveKind::Animation}) {
          state.save.runs_app_copies = !page;
          state.save.choices.kind = kind;
          state.save.choices.mp4 = true;  // with the "needs ffmpeg" line
          state.save.open = true;
          for (int i = 0; i < 4; ++i) frame();
          for (const std::string& found : text_findings(drawn_texts(), state.frame.text_fields)) {
            if (++findings <= 10)
              ADD_FAILURE() << size.x << "x" << size.y << " font " << scale
                            << (page ? " page " : " desktop ")
                            << (kind == SaveKind::Still ? "still: " : "animation: ") << found;
          }
        }
      }
    }
  }
  EXPECT_EQ(findings, 0);
}

std::vector<unsigned char> picture(unsigned char value) {
  return std::vector<unsigned char>(4 * 3 * 2, value);  // 4 x 2 pixels
}

// What an encoder is handed, kept to be looked at; `finished` once the file would be whole.
struct KeptFrames final : AnimationSink {
  std::vector<AnimationFrame>* frames;
  bool* finished;
  KeptFrames(std::vector<AnimationFrame>* f, bool* done) : frames(f), finished(done) {}
  void add(const AnimationFrame& frame) override { frames->push_back(frame); }
  void finish() override { *finished = true; }
};

TEST(Recording, SendsFramesAtItsRateWithTheirTimesAndMergesAPictureThatHolds) {
  std::vector<AnimationFrame> frames;
  bool finished = false;
  Recording r;
  start_recording(r, 10, 4, 2, 100.0, std::make_unique<KeptFrames>(&frames, &finished));
  EXPECT_TRUE(recording_wants_frame(r, 100.0));
  ASSERT_TRUE(keep_frame(r, picture(1), 4, 2, 100.0));
  EXPECT_FALSE(recording_wants_frame(r, 100.05)) << "sooner than 1 / fps";
  EXPECT_TRUE(recording_wants_frame(r, 100.1));
  ASSERT_TRUE(keep_frame(r, picture(1), 4, 2, 100.1));  // the same picture: the first lasts
  EXPECT_TRUE(frames.empty()) << "a frame goes to the encoder once its time is known";
  ASSERT_TRUE(keep_frame(r, picture(2), 4, 2, 100.3));
  ASSERT_EQ(frames.size(), 1u) << "the first, as soon as a different picture arrives";
  ASSERT_TRUE(keep_frame(r, picture(3), 4, 2, 101.0));
  EXPECT_EQ(frames.size(), 2u);
  EXPECT_EQ(stop_recording(r, 101.5), 3u);
  EXPECT_TRUE(finished);
  EXPECT_FALSE(r.on);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].centiseconds, 30);
  EXPECT_EQ(frames[1].centiseconds, 70);
  EXPECT_EQ(frames[2].centiseconds, 50);
  EXPECT_EQ(frames[1].rgb, picture(2));
}

TEST(Recording, StopsWhenTheWindowChangesSizeAndKeepsOnlyTheFrameBefore) {
  std::vector<AnimationFrame> frames;
  bool finished = false;
  Recording r;
  start_recording(r, 10, 4, 2, 0.0, std::make_unique<KeptFrames>(&frames, &finished));
  ASSERT_TRUE(keep_frame(r, picture(1), 4, 2, 0.0));
  EXPECT_FALSE(keep_frame(r, std::vector<unsigned char>(5 * 3 * 2), 5, 2, 0.2));
  // However long it runs, the recording holds one picture: the one before, to merge with.
  for (int i = 0; i < 1000; ++i)
    ASSERT_TRUE(keep_frame(r, picture((unsigned char)(i % 7)), 4, 2, 0.4 + 0.1 * i));
  ASSERT_TRUE(r.frames.kept());
  EXPECT_EQ(r.frames.kept()->rgb, picture(999 % 7));
  EXPECT_EQ(frames.size(), 1000u);  // every picture before the last (each differs from its own)
  EXPECT_EQ(r.frames.distinct(), 1001u);
  // Nothing recorded: no file.
  Recording empty;
  start_recording(empty, 10, 4, 2, 0.0, std::make_unique<KeptFrames>(&frames, &finished));
  EXPECT_EQ(stop_recording(empty, 1.0), 0u);
  EXPECT_FALSE(finished);
}

// Record encodes on its own thread: every frame reaches the encoder, in order, before the file is
// finished; the encoder's failure is thrown to the window by the next frame; dropped unfinished,
// nothing is finished.
struct FailingEncoder final : AnimationSink {
  void add(const AnimationFrame&) override { throw UserError("cannot write x.gif: disk full"); }
  void finish() override {}
};

TEST(Recording, ItsEncoderThreadHandsOnEveryFrameInOrderAndItsFailure) {
  std::vector<AnimationFrame> frames;
  bool finished = false;
  {
    EncoderThread encoder(std::make_unique<KeptFrames>(&frames, &finished));
    for (int i = 0; i < 20; ++i) encoder.add({picture((unsigned char)i), i + 1});
    encoder.finish();
  }
  EXPECT_TRUE(finished);
  ASSERT_EQ(frames.size(), 20u);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(frames[size_t(i)].rgb, picture((unsigned char)i));
    EXPECT_EQ(frames[size_t(i)].centiseconds, i + 1);
  }
  finished = false;
  {
    EncoderThread dropped(std::make_unique<KeptFrames>(&frames, &finished));
    dropped.add({picture(1), 1});
  }
  EXPECT_FALSE(finished) << "dropped unfinished: the file is not finished";
  EncoderThread failing(std::make_unique<FailingEncoder>());
  failing.add({picture(1), 1});  // handed over: its failure comes with the next
  EXPECT_THROW(
      {
        failing.add({picture(2), 1});
        failing.finish();
      },
      UserError);
}

TEST(Recording, ItsEncodingReportsItsFramesAndACancelWritesNothing) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "attnlab_rec.gif";
  std::filesystem::remove(path);
  const std::vector<AnimationFrame> frames = {
      {picture(10), 10}, {picture(200), 20}, {picture(90), 5}};
  std::atomic<bool> cancel{true};
  RunControl stopped;
  stopped.cancel = &cancel;
  EXPECT_THROW(write_gif(path.string(), 4, 2, frames, stopped), Cancelled);
  EXPECT_FALSE(std::filesystem::exists(path)) << "a cancelled encoding leaves no file";
  std::vector<double> reported;
  RunControl followed;
  followed.progress = [&reported](double fraction) { reported.push_back(fraction); };
  write_gif(path.string(), 4, 2, frames, followed);
  ASSERT_EQ(reported.size(), frames.size());
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path()))
    EXPECT_EQ(entry.path().string().find("attnlab_rec.gif.partial"), std::string::npos)
        << "the temporary file is renamed: " << entry.path();
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_NEAR(reported.back(), 2.0 / 3.0, 1e-9);
  std::ifstream gif(path, std::ios::binary);
  char magic[6] = {};
  gif.read(magic, 6);
  EXPECT_EQ(std::string(magic, 6), "GIF89a");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace attnlab::gui
