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

#include "core/model/errors.hpp"
#include "core/model/preset.hpp"
#include "tests/fuzz/fuzz_inputs.hpp"
#ifdef ATTNLAB_FUZZ_LESSON
#include "tests/fuzz/fuzz_lesson_input.hpp"
#endif
#ifdef ATTNLAB_FUZZ_WRITERS
#include "tests/fuzz/fuzz_writers_input.hpp"
#endif

namespace {

namespace fs = std::filesystem;

struct FuzzFile {
  // "npy", "npz", "preset", "safetensors", "model_config", "lesson" or "writers": its exerciser
  std::string target;
  fs::path path;
};

std::vector<FuzzFile> files_of(const std::string& target) {
  std::vector<FuzzFile> files;
  // The lesson fuzzer also starts from the built-in lessons (lessons/*.md, as they are).
  const std::string builtin = target == "lesson" ? "../../lessons" : "";  // from tests/fuzz
  for (const std::string& kind :
       {std::string("corpus/") + target, std::string("regressions/") + target, builtin}) {
    if (kind.empty()) continue;
    const fs::path dir = fs::path(ATTNLAB_FUZZ_DIR) / kind;
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
// A built-in lesson: "builtin_notebook_md".
std::string test_name(const FuzzFile& file) {
  const bool builtin = file.path.parent_path().filename() == "lessons";
  std::string name = (builtin ? std::string("builtin")
                              : file.path.parent_path().parent_path().filename().string()) +
                     "_" + file.path.filename().string();
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
  } else if (file.target == "npz") {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_npz(bytes)) << file.path;
  } else if (file.target == "safetensors") {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_safetensors(bytes)) << file.path;
  } else if (file.target == "model_config") {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_model_config(bytes)) << file.path;
#ifdef ATTNLAB_FUZZ_LESSON
  } else if (file.target == "lesson") {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_lesson(bytes)) << file.path;
#endif
#ifdef ATTNLAB_FUZZ_WRITERS
  } else if (file.target == "writers") {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_writers(bytes)) << file.path;
#endif
  } else {
    EXPECT_NO_THROW(attnlab::fuzz::exercise_preset(bytes)) << file.path;
  }
}

auto name_of = [](const testing::TestParamInfo<FuzzFile>& info) { return test_name(info.param); };

INSTANTIATE_TEST_SUITE_P(Npy, FuzzReplay, testing::ValuesIn(files_of("npy")), name_of);
INSTANTIATE_TEST_SUITE_P(Npz, FuzzReplay, testing::ValuesIn(files_of("npz")), name_of);
INSTANTIATE_TEST_SUITE_P(Preset, FuzzReplay, testing::ValuesIn(files_of("preset")), name_of);
INSTANTIATE_TEST_SUITE_P(Safetensors, FuzzReplay, testing::ValuesIn(files_of("safetensors")),
                         name_of);
INSTANTIATE_TEST_SUITE_P(ModelConfig, FuzzReplay, testing::ValuesIn(files_of("model_config")),
                         name_of);
#ifdef ATTNLAB_FUZZ_LESSON
INSTANTIATE_TEST_SUITE_P(Lesson, FuzzReplay, testing::ValuesIn(files_of("lesson")), name_of);
#endif
#ifdef ATTNLAB_FUZZ_WRITERS
INSTANTIATE_TEST_SUITE_P(Writers, FuzzReplay, testing::ValuesIn(files_of("writers")), name_of);
#endif

// The fuzzer starts next to every variant: the seed presets include valid grouped-query,
// multi-query, cross-attention (from a sentence and from X_kv), decoding and MLA configs, and a
// mistake with switched-off heads, and its dictionary names their keys.
TEST(FuzzCorpus, CoversEveryVariant) {
  int grouped = 0, multi_query = 0, cross = 0, cross_from_x_kv = 0, decoding = 0, latent = 0,
      mistake_and_ablation = 0;
  for (const FuzzFile& file : files_of("preset")) {
    attnlab::Preset preset;
    try {
      preset = attnlab::parse_preset(read_bytes(file.path), file.path.string());
    } catch (const attnlab::UserError&) {
      continue;  // a broken seed: its rule is exercised by the replay
    }
    const attnlab::Config& c = preset.config;
    grouped += c.grouped() && c.kv_heads() > 1;
    multi_query += c.kv_heads() == 1 && c.n_heads > 1;
    cross += c.cross() && !c.sentence_kv.empty();
    cross_from_x_kv += c.cross() && preset.inputs.x_kv.has_values();
    decoding += c.decode_steps > 0;
    latent += c.latent() && c.rope_dim > 0 && c.q_latent > 0;
    mistake_and_ablation += c.mistake != attnlab::Mistake::None && !c.ablated_heads.empty();
  }
  for (const auto& [name, count] :
       std::vector<std::pair<const char*, int>>{{"grouped-query", grouped},
                                                {"multi-query", multi_query},
                                                {"cross-attention", cross},
                                                {"cross-attention from X_kv", cross_from_x_kv},
                                                {"decoding", decoding},
                                                {"MLA with rope and a query latent", latent},
                                                {"a mistake with ablation", mistake_and_ablation}})
    EXPECT_GT(count, 0) << "no valid seed preset with " << name;
  const std::string dict = read_bytes(fs::path(ATTNLAB_FUZZ_DIR) / "preset.dict");
  for (const char* key :
       {"n_kv_heads", "sentence_kv", "kv_len", "d_in_kv", "decode_steps", "kv_latent", "rope_dim",
        "q_latent", "mistake", "ablated_heads", "x_kv", "w_dkv", "w_dq", "w_qr", "w_kr"})
    EXPECT_NE(dict.find(std::string("\\\"") + key + "\\\":"), std::string::npos) << key;
}

#ifdef ATTNLAB_FUZZ_WRITERS
// The writers' fuzzer starts next to every text that ends or escapes markup in HTML, XML or JSON,
// and every kind of byte UTF-8 refuses, and its dictionary names them.
TEST(FuzzCorpus, TheWritersSeedsHoldEveryHostileText) {
  const std::vector<std::pair<const char*, std::string>> hostile = {{"</script", "</script"},
                                                                    {"<!--", "<!--"},
                                                                    {"<\\/", "<\\/"},
                                                                    {"]]>", "]]>"},
                                                                    {"&", "&"},
                                                                    {"NUL", std::string(1, '\0')},
                                                                    {"CR", "\r"},
                                                                    {"U+FFFE", "\xEF\xBF\xBE"},
                                                                    {"a surrogate", "\xED\xA0\x80"},
                                                                    {"0xff", "\xFF"}};
  std::string seeds;
  int lessons_with_questions = 0;
  for (const FuzzFile& file : files_of("writers")) {
    const std::string bytes = read_bytes(file.path);
    seeds += bytes + '\n';
    lessons_with_questions +=
        bytes.find("\n## ") != std::string::npos && bytes.find("\nQuestion: ") != std::string::npos;
  }
  for (const auto& [name, text] : hostile)
    EXPECT_NE(seeds.find(text), std::string::npos) << "no seed holds " << name;
  EXPECT_GT(lessons_with_questions, 0) << "no seed is a lesson with a question";
  const std::string dict = read_bytes(fs::path(ATTNLAB_FUZZ_DIR) / "writers.dict");
  for (const char* entry : {"\"</script\"", "\"<!--\"", "\"<\\\\/\"", "\"]]>\"", "\"&\"",
                            "\"\\x00\"", "\"\\xff\"", "\"\\xed\\xa0\\x80\""})
    EXPECT_NE(dict.find(entry), std::string::npos) << entry;
}
#endif

}  // namespace
