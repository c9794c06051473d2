// Replays every fuzz seed and every regression file through the fuzz targets' checks in the normal
// build: one test per file, so a crash names its file. Under tools/sanitize.sh asan the same files
// also run with AddressSanitizer and UBSan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_inputs.hpp"

namespace {

namespace fs = std::filesystem;

struct FuzzFile {
  std::string target;  // "npy" or "preset": which exerciser reads it
  fs::path path;
};

std::vector<FuzzFile> files_of(const std::string& target) {
  std::vector<FuzzFile> files;
  for (const char* kind : {"corpus", "regressions"}) {
    const fs::path dir = fs::path(ATTNLAB_FUZZ_DIR) / kind / target;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_regular_file()) files.push_back({target, entry.path()});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const FuzzFile& a, const FuzzFile& b) { return a.path < b.path; });
  return files;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

// "regressions/npy/crash-1a2b.npy" -> "regressions_crash_1a2b_npy" (gtest names are identifiers).
std::string test_name(const FuzzFile& file) {
  std::string name = file.path.parent_path().parent_path().filename().string() + "_" +
                     file.path.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// What gtest prints for a failing file: its path, not its bytes.
void PrintTo(const FuzzFile& file, std::ostream* out) {
  *out << file.path;
}

class FuzzReplay : public testing::TestWithParam<FuzzFile> {};

TEST_P(FuzzReplay, OnlyUserErrorsAndKeptPromises) {
  const FuzzFile& file = GetParam();
  const std::string bytes = read_bytes(file.path);
  if (file.target == "npy") {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_npy(bytes)) << file.path;
  } else {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_preset(bytes)) << file.path;
  }
}

auto name_of = [](const testing::TestParamInfo<FuzzFile>& info) { return test_name(info.param); };

INSTANTIATE_TEST_SUITE_P(Npy, FuzzReplay, testing::ValuesIn(files_of("npy")), name_of);
INSTANTIATE_TEST_SUITE_P(Preset, FuzzReplay, testing::ValuesIn(files_of("preset")), name_of);

}  // namespace
