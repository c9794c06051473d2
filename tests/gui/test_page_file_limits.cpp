// The limits the browser page applies to the files a person drops or picks
// (app/gui/platform/web_file_limits.cpp, which index.html asks before reading a byte): for each
// file name, the table's limit (core/limits/limits.hpp) and, for a file one byte past it, the very
// line the desktop's own reader of that file gives; a .safetensors has no limit of its own; files
// together past the page's memory are refused with both numbers.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "app/gui/platform/web_file_limits.hpp"
#include "core/checkpoints/checkpoint_weights.hpp"
#include "core/checkpoints/model_config.hpp"
#include "core/exercise/answer.hpp"
#include "core/exercise/exercise.hpp"
#include "core/limits/folder_files.hpp"
#include "core/limits/limits.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"
#include "core/tokenizers/tokenizer_files.hpp"
#include "core/training/model_io.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "attnlab-page-limits-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
  // A file of `size` bytes that takes no room on disk (a sparse file: its size is all the readers
  // look at before refusing it).
  std::string sparse(const std::string& name, uint64_t size) const {
    const fs::path at = path / name;
    std::ofstream{at};
    fs::resize_file(at, size);
    return at.string();
  }
};

std::string refusal(const std::function<void()>& read) {
  try {
    read();
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(PageFileLimits, EachFileNameHasTheTablesLimit) {
  const std::pair<const char*, uint64_t> table[] = {
      {"config.json", limits::kModelJson.bytes},
      {"model.json", limits::kModelJson.bytes},
      {"tokenizer.json", limits::kTokenizerFile.bytes},
      {"tokenizer_config.json", limits::kTokenizerFile.bytes},
      {"vocab.json", limits::kTokenizerFile.bytes},
      {"merges.txt", limits::kTokenizerFile.bytes},
      {"vocab.txt", limits::kTokenizerFile.bytes},
      {"model.safetensors.index.json", limits::kSafetensorsIndex.bytes},
      {"exercise.json", limits::kExerciseJson.bytes},
      {"q.npy", limits::kNpyFile.bytes},
      {"answer.npz", limits::kAnswerFile.bytes},
      {"my_answer.npz", limits::kAnswerFile.bytes},
      // Files the app does not read: the page skips them.
      {"pytorch_model.bin", 0},
      {"special_tokens_map.json", 0},
      {"generation_config.json", 0},
      {"README.md", 0},
      {"", 0},
  };
  for (const auto& [name, bytes] : table)
    EXPECT_EQ(attnlab_file_limit(name), double(bytes)) << name;
  EXPECT_EQ(attnlab_file_limit("config.json"), 1024.0 * 1024);
  EXPECT_EQ(attnlab_file_limit("answer.npz"), 1024.0 * 1024 * 1024);
  // A .safetensors is read by the ranges its header declares, as on the desktop: no limit of its
  // own, however large (only its folder's total counts, against the page's memory).
  for (const char* weights : {"model.safetensors", "model-00001-of-00002.safetensors"}) {
    EXPECT_TRUE(std::isinf(attnlab_file_limit(weights))) << weights;
    EXPECT_STREQ(attnlab_file_refusal((std::string("m/") + weights).c_str(), 64.0 * (1ull << 30)),
                 "");
  }
}

TEST(PageFileLimits, RefusalIsOneLineNamingFileSizeAndLimit) {
  EXPECT_STREQ(attnlab_file_refusal("tiny/config.json", 2.0 * (1 << 20)),
               "tiny/config.json: is 2 MiB, over the 1 MiB a model's settings file may hold; give "
               "the folder of a downloaded or trained model");
  EXPECT_STREQ(attnlab_file_refusal("tiny/config.json", 1 << 20), "");  // at the limit: read
  EXPECT_STREQ(attnlab_file_refusal("answer.npz", 1088.0 * (1 << 20)),
               "answer.npz: is 1.1 GiB, over the 1 GiB an answer may hold; save fewer or smaller "
               "stages");
  EXPECT_STREQ(attnlab_file_refusal("tiny/pytorch_model.bin", 1e12), "");  // not read: skipped
}

// Each file one byte past the page's limit, given to the desktop's own reader of it: the reader
// refuses it with the very line the page shows (so the two never disagree).
TEST(PageFileLimits, DesktopReadersRefuseOnePastTheLimitWithThePagesLine) {
  using tokenizer_files::read;
  const std::pair<const char*, std::function<void(const TempDir&, const std::string&)>> readers[] =
      {
          {"config.json", [](const TempDir& d, auto&) { read_model_config(d.path.string()); }},
          {"model.json", [](const TempDir& d, auto&) { training::load_model(d.path.string()); }},
          {"tokenizer.json", [](const TempDir&, auto& file) { read(file); }},
          {"tokenizer_config.json",
           [](const TempDir& d, auto&) { tokenizer_files::read_config(d.path); }},
          {"vocab.json", [](const TempDir&, auto& file) { read(file); }},
          {"merges.txt", [](const TempDir&, auto& file) { read(file); }},
          {"vocab.txt", [](const TempDir&, auto& file) { read(file); }},
          {"model.safetensors.index.json",
           [](const TempDir& d, auto&) { CheckpointWeights weights(d.path.string()); }},
          {"exercise.json", [](const TempDir& d, auto&) { load_exercise(d.path.string()); }},
          {"q.npy", [](const TempDir&, auto& file) { read_npy_file(file); }},
          {"answer.npz", [](const TempDir&, auto& file) { read_answer(file); }},
      };
  for (const auto& entry : readers) {
    const char* const name = entry.first;
    const auto& reader = entry.second;
    const TempDir dir;
    const uint64_t past = uint64_t(attnlab_file_limit(name)) + 1;
    const std::string file = dir.sparse(name, past);
    const std::string line = attnlab_file_refusal(file.c_str(), double(past));
    EXPECT_NE(line, "") << name;
    EXPECT_EQ(refusal([&] { reader(dir, file); }), line) << name;
  }
}

TEST(PageFileLimits, FilesPastThePagesMemoryNameBothNumbers) {
  const uint64_t gib = limits::kGiB;
  EXPECT_EQ(files_above_memory("llama", gib * 5 / 2, int64_t(2 * gib)),
            "llama: is 2.5 GiB to read, more than the 2 GiB this page's memory can hold; open a "
            "smaller model, or open it in the desktop app");
  EXPECT_EQ(files_above_memory("llama", 2 * gib, int64_t(2 * gib)), "");  // just fits
  EXPECT_EQ(files_above_memory("llama", 100 * gib, 0), "");  // memory unknown: nothing refused
  // The exported function holds the files to the memory the app may use (the page's heap).
  const int64_t memory = machine_memory_bytes();
  ASSERT_GT(memory, 0);
  EXPECT_EQ(std::string(attnlab_files_refusal("big", double(memory) + 4096)),
            files_above_memory("big", uint64_t(memory) + 4096, memory));
  EXPECT_STREQ(attnlab_files_refusal("small", 1e6), "");
}

}  // namespace
}  // namespace attnlab
