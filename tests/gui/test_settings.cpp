// Settings survive a restart; a wrong field falls back alone, a file that is not JSON is moved
// aside and the defaults are used; a killed save's temporaries are removed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/gui/state/settings.hpp"

namespace attnlab::gui {
namespace {

namespace fs = std::filesystem;

class SettingsFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("attnlab-settings-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    setenv("ATTNLAB_CONFIG_DIR", dir.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("ATTNLAB_CONFIG_DIR");
    fs::remove_all(dir);
  }
  fs::path dir;
};

TEST_F(SettingsFiles, TheEnvironmentChoosesTheFolder) {
  EXPECT_EQ(settings_dir(), dir.string());
  unsetenv("ATTNLAB_CONFIG_DIR");
  setenv("XDG_CONFIG_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(settings_dir(), "/tmp/xdg-test/attention-lab");
}

TEST_F(SettingsFiles, RoundTripThroughAFolderThatDoesNotExistYet) {
  Settings saved;
  saved.config.d_model = 8;
  saved.config.n_heads = 4;
  saved.config.mask.causal = true;
  saved.config.mask.padding_lengths = {3};
  saved.preset = "seed003";
  saved.ui.theme = Theme::Dark;
  saved.ui.font_scale = 1.75f;
  saved.ui.heatmap_view = HeatmapView::Scaled;
  saved.ui.presenter = true;
  saved.ui.splits.controls = 0.31f;
  saved.ui.splits.presenter = 0.55f;
  saved.imgui_ini = "[Window][Controls]\nPos=0,0\n";
  save_settings(settings_dir(), saved);

  const LoadedSettings loaded = load_settings(settings_dir());
  ASSERT_TRUE(loaded.found);
  EXPECT_TRUE(loaded.notice.empty());
  EXPECT_EQ(loaded.settings.config, saved.config);
  EXPECT_EQ(loaded.settings.preset, "seed003");
  EXPECT_EQ(loaded.settings.ui.theme, Theme::Dark);
  EXPECT_FLOAT_EQ(loaded.settings.ui.font_scale, 1.75f);
  EXPECT_EQ(loaded.settings.ui.heatmap_view, HeatmapView::Scaled);
  EXPECT_TRUE(loaded.settings.ui.presenter);
  EXPECT_EQ(loaded.settings.ui.splits, saved.ui.splits) << "dragged borders come back";
  EXPECT_EQ(loaded.settings.imgui_ini, saved.imgui_ini);
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename(), "settings.json") << "no temp file left behind";
}

// Found by the GUI fuzz test: json's dump() throws on bytes that are not UTF-8, which lost every
// setting at exit when the sentence (e.g. from --sentence) held one.
TEST_F(SettingsFiles, ASentenceThatIsNotUtf8IsSavedWithAReplacementCharacter) {
  Settings saved;
  saved.config.sentence = "caf\xe9 latin-1";
  save_settings(settings_dir(), saved);
  const LoadedSettings loaded = load_settings(settings_dir());
  ASSERT_TRUE(loaded.found) << loaded.notice;
  EXPECT_EQ(loaded.settings.config.sentence, "caf\uFFFD latin-1");
}

TEST_F(SettingsFiles, FirstStartUsesTheDefaultsQuietly) {
  const LoadedSettings loaded = load_settings(settings_dir());
  EXPECT_FALSE(loaded.found);
  EXPECT_TRUE(loaded.notice.empty());
  EXPECT_EQ(loaded.settings.ui.theme, Theme::Light);
}

TEST_F(SettingsFiles, ACorruptedFileIsMovedAsideAndSaidOnce) {
  fs::create_directories(dir);
  std::ofstream(dir / "settings.json") << "{\"config\": {\"d_model\": ";  // cut short
  const LoadedSettings first = load_settings(settings_dir());
  EXPECT_FALSE(first.found);
  EXPECT_NE(first.notice.find("settings.json.bad"), std::string::npos) << first.notice;
  EXPECT_TRUE(fs::exists(dir / "settings.json.bad"));
  EXPECT_FALSE(fs::exists(dir / "settings.json"));
  const LoadedSettings second = load_settings(settings_dir());
  EXPECT_TRUE(second.notice.empty()) << "said once";
}

// Settings files from before the colour scales had the "stretch weights" checkbox.
TEST(SettingsColourScale, OldStretchSettingIsMigratedAndNewOnesRoundTrip) {
  EXPECT_EQ(settings_from_json(R"({"stretch_weights": true})", "old").ui.colour_scale,
            ColourScale::PerMap);
  EXPECT_EQ(settings_from_json(R"({"stretch_weights": false})", "old").ui.colour_scale,
            ColourScale::Fixed)
      << "who chose the fixed 0 .. 1 keeps it";
  EXPECT_EQ(settings_from_json("{}", "new").ui.colour_scale, ColourScale::PerRow);
  for (int i = 0; i < kColourScaleCount; ++i) {
    Settings saved;
    saved.ui.colour_scale = ColourScale(i);
    const std::string text = settings_to_json(saved);
    EXPECT_EQ(text.find("stretch_weights"), std::string::npos);
    EXPECT_EQ(settings_from_json(text, "saved").ui.colour_scale, ColourScale(i)) << text;
  }
  std::vector<std::string> ignored;
  const Settings unknown =
      settings_from_json(R"({"colour_scale": "rainbow", "theme": "dark"})", "f.json", &ignored);
  ASSERT_EQ(ignored.size(), 1u) << "an unknown scale is ignored alone, and said";
  EXPECT_NE(ignored[0].find("per-map, per-row, log, fixed"), std::string::npos) << ignored[0];
  EXPECT_EQ(unknown.ui.colour_scale, ColourScale::PerRow) << "its default";
  EXPECT_EQ(unknown.ui.theme, Theme::Dark);
}

// One wrong field costs only itself (issue 43): `"font_scale": "big"` used to move the whole file
// aside and show the first-start card.
TEST_F(SettingsFiles, OneWrongFieldFallsBackAloneAndEveryOtherFieldIsKept) {
  Settings saved;
  saved.config.d_model = 8;
  saved.config.n_heads = 4;
  saved.preset = "seed003";
  saved.ui.theme = Theme::Dark;
  saved.ui.font_scale = 1.75f;
  saved.ui.presenter = true;
  saved.ui.first_start_done = true;
  saved.ui.recent_models = {"/models/gpt2"};
  saved.lesson = {"intro.md", 3};
  saved.save.width = 1280;
  save_settings(settings_dir(), saved);
  std::string text = settings_to_json(saved);
  const std::string scale = "\"font_scale\": 1.75";
  ASSERT_NE(text.find(scale), std::string::npos) << text;
  text.replace(text.find(scale), scale.size(), "\"font_scale\": \"big\"");
  std::ofstream(dir / "settings.json", std::ios::trunc) << text;

  const LoadedSettings loaded = load_settings(settings_dir());
  ASSERT_TRUE(loaded.found) << "no first-start card: " << loaded.notice;
  EXPECT_FLOAT_EQ(loaded.settings.ui.font_scale, 1.0f) << "the wrong field's default";
  EXPECT_EQ(loaded.settings.config, saved.config);
  EXPECT_EQ(loaded.settings.preset, "seed003");
  EXPECT_EQ(loaded.settings.ui.theme, Theme::Dark);
  EXPECT_TRUE(loaded.settings.ui.presenter);
  EXPECT_TRUE(loaded.settings.ui.first_start_done);
  EXPECT_EQ(loaded.settings.ui.recent_models, saved.ui.recent_models);
  EXPECT_EQ(loaded.settings.lesson.file, "intro.md");
  EXPECT_EQ(loaded.settings.lesson.scene, 3);
  EXPECT_EQ(loaded.settings.save, saved.save);
  EXPECT_NE(loaded.notice.find(R"(key "font_scale" must be a number, not "big")"),
            std::string::npos)
      << loaded.notice;
  EXPECT_EQ(loaded.notice.find('\n'), std::string::npos) << "one line";
  EXPECT_FALSE(fs::exists(dir / "settings.json.bad")) << "the file is not moved aside";
}

TEST_F(SettingsFiles, AWrongConfigFallsBackToTheDefaultConfigAlone) {
  fs::create_directories(dir);
  std::ofstream(dir / "settings.json")
      << R"({"version": 1, "config": {"d_model": "wide"}, "theme": "dark"})";
  const LoadedSettings loaded = load_settings(settings_dir());
  EXPECT_TRUE(loaded.found);
  EXPECT_EQ(loaded.settings.config, Config{});
  EXPECT_EQ(loaded.settings.ui.theme, Theme::Dark);
  EXPECT_NE(loaded.notice.find("d_model"), std::string::npos) << loaded.notice;
}

// A killed save leaves settings.json.tmp-PID: removed at the next start when its process is gone
// or it is old; a save under way (a live process, just written) is left alone.
TEST_F(SettingsFiles, StaleTemporariesAreRemovedAtTheNextStart) {
  fs::create_directories(dir);
  const pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  waitpid(gone, nullptr, 0);  // reaped: no process has this number now
  const pid_t alive = getppid();
  const fs::path dead_writer = dir / ("settings.json.tmp-" + std::to_string(gone));
  const fs::path old_temp = dir / ("settings.json.tmp-" + std::to_string(alive) + "0");
  const fs::path under_way = dir / ("settings.json.tmp-" + std::to_string(alive));
  const fs::path not_ours = dir / "settings.json.tmp-notes";
  for (const fs::path& p : {dead_writer, old_temp, under_way, not_ours})
    std::ofstream(p) << "{\"partial\": ";
  // An old one whose number may belong to a live process now.
  fs::last_write_time(old_temp, fs::file_time_type::clock::now() - std::chrono::hours(1));
  std::ofstream(dir / "settings.json") << R"({"theme": "dark"})";
  const LoadedSettings loaded = load_settings(settings_dir());
  EXPECT_EQ(loaded.settings.ui.theme, Theme::Dark);
  EXPECT_FALSE(fs::exists(dead_writer));
  EXPECT_FALSE(fs::exists(old_temp));
  EXPECT_TRUE(fs::exists(under_way)) << "a save under way is not disturbed";
  EXPECT_TRUE(fs::exists(not_ours)) << "a name save_settings never writes";
}

}  // namespace
}  // namespace attnlab::gui
