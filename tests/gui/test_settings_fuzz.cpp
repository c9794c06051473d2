// settings.json fuzzed the way tools/fuzz.sh fuzzes presets, with seeded mutations of a valid
// file: every text either loads into settings that survive a round trip, or is refused with a
// message and moved aside by load_settings(), never a crash or an unexpected exception.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "app/gui/state/settings.hpp"
#include "core/model/errors.hpp"

namespace attnlab::gui {
namespace {

namespace fs = std::filesystem;

constexpr int kMutations = 4000;

std::string valid_settings_text() {
  Settings s;
  s.config.sentence = "The artist painted the portrait";
  s.config.mask.causal = true;
  s.config.mask.padding_lengths = {3};
  s.preset = "seed003";
  s.imgui_ini = "[Window][Controls]\nPos=0,0\n";
  return settings_to_json(s);
}

// One seeded edit: flip, insert, delete or truncate bytes, or splice in a hostile JSON token.
std::string mutate(std::string text, std::mt19937_64& rng) {
  static const char* const kTokens[] = {
      "1e400",           "-1",       "[]",    "{}",
      "\"x\"",           "null",     "true",  "9223372036854775808",
      "\"\\ud800\"",     "[[[[[[[[", "0.5",   "\"\xff\xfe\"",
      "{\"config\": 3}", "-0",       "1e-400"};
  const int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const size_t at = rng() % text.size();
    switch (rng() % 5) {
      case 0:
        text[at] = char(rng() % 256);
        break;
      case 1:
        text.insert(at, 1, char(rng() % 256));
        break;
      case 2:
        text.erase(at, 1 + rng() % 8);
        break;
      case 3:
        text.resize(at);
        break;
      default:
        text.insert(at, kTokens[rng() % std::size(kTokens)]);
        break;
    }
  }
  return text;
}

TEST(SettingsFuzz, EveryMutationLoadsCleanlyOrIsMovedAside) {
  const fs::path dir =
      fs::temp_directory_path() / ("attnlab-settings-fuzz-" + std::to_string(::getpid()));
  const std::string valid = valid_settings_text();
  std::mt19937_64 rng(11);
  int loaded = 0, refused = 0;
  for (int i = 0; i < kMutations; ++i) {
    const std::string text = mutate(valid, rng);
    try {
      const Settings s = settings_from_json(text, "fuzz.json");
      // What loads must survive saving and loading again unchanged.
      const Settings again = settings_from_json(settings_to_json(s), "again.json");
      ASSERT_EQ(again.config, s.config) << text;
      ASSERT_EQ(again.preset, s.preset) << text;
      ++loaded;
    } catch (const UserError& e) {
      ASSERT_GT(std::string(e.what()).size(), 9u) << text;
      ++refused;
    } catch (const nlohmann::json::exception&) {  // documented: load_settings moves it aside
      ++refused;
    }
    if (i % 200 == 0) {  // now and then through the real file path, as at start-up
      fs::remove_all(dir);
      fs::create_directories(dir);
      std::ofstream(dir / "settings.json", std::ios::binary) << text;
      const LoadedSettings result = load_settings(dir.string());
      ASSERT_TRUE(result.found || fs::exists(dir / "settings.json.bad")) << text;
      ASSERT_TRUE(result.found || !result.notice.empty()) << text;
    }
  }
  fs::remove_all(dir);
  std::printf("settings fuzz: %d mutations, %d loaded, %d refused\n", kMutations, loaded, refused);
  EXPECT_GT(loaded, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace attnlab::gui
