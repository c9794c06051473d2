// Settings survive a restart; a corrupted file is moved aside and the defaults are used.
#include <gtest/gtest.h>

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
  try {
    settings_from_json(R"({"colour_scale": "rainbow"})", "f.json");
    ADD_FAILURE() << "an unknown scale must be refused";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("per-map, per-row, log, fixed"), std::string::npos)
        << error.what();
  }
}

TEST_F(SettingsFiles, AWrongValueCountsAsCorrupted) {
  fs::create_directories(dir);
  std::ofstream(dir / "settings.json") << R"({"version": 1, "config": {"d_model": "wide"}})";
  const LoadedSettings loaded = load_settings(settings_dir());
  EXPECT_FALSE(loaded.found);
  EXPECT_NE(loaded.notice.find("d_model"), std::string::npos) << loaded.notice;
}

}  // namespace
}  // namespace attnlab::gui
