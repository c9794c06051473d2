// The tiny random Hugging Face checkpoints tests/numpy/hf_checkpoints.py writes in the published
// layouts (one folder per family: gpt2-f32-tied, llama-gqa-bf16-untied-sharded, …), written once
// per test binary into a temporary folder that is removed when the tests end. A target that
// includes this defines ATTNLAB_HF_CHECKPOINTS, the script's path.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace attnlab::fixtures {

inline bool& tiny_checkpoints_written() {
  static bool written = false;
  return written;
}

// The folder that holds every family's checkpoint.
inline const std::filesystem::path& tiny_checkpoints() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path d = std::filesystem::temp_directory_path() /
                                    ("attnlab-checkpoints-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    tiny_checkpoints_written() = true;
    const std::string command = std::string("/usr/bin/python3 ") + ATTNLAB_HF_CHECKPOINTS + " " +
                                d.string() + " > /dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return d;
  }();
  return dir;
}

// One family's folder: "gpt2-f32-tied".
inline std::string tiny_checkpoint(const std::string& family) {
  return (tiny_checkpoints() / family).string();
}

class RemoveTinyCheckpoints : public ::testing::Environment {
 public:
  void TearDown() override {
    if (!tiny_checkpoints_written()) return;
    std::error_code ignored;
    std::filesystem::remove_all(tiny_checkpoints(), ignored);
  }
};
inline const auto* const kRemoveTinyCheckpoints =
    ::testing::AddGlobalTestEnvironment(new RemoveTinyCheckpoints);

}  // namespace attnlab::fixtures
