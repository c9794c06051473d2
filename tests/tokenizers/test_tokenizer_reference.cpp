// core/tokenizers on real vocabularies against independent tokenizers: reference.json, written by
// make_reference.mjs (run_reference_tests.sh), lists the cases (a model folder, the model_type
// to open it with, the npm package that encoded the sentences) and the ids of every sentence.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/tokenizers/hf_tokenizer.hpp"

namespace attnlab {
namespace {

nlohmann::json load_reference() {
  const char* path = std::getenv("ATTNLAB_TOKENIZER_REFERENCE");
  if (path == nullptr) return nlohmann::json();
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string joined(const std::vector<std::string>& pieces) {
  std::string out;
  for (const auto& p : pieces) out += (out.empty() ? "" : " | ") + p;
  return out;
}

TEST(TokenizerReference, EveryCaseEncodesEverySentenceAsItsReference) {
  const nlohmann::json reference = load_reference();
  if (reference.is_null()) GTEST_SKIP() << "ATTNLAB_TOKENIZER_REFERENCE is not set";
  const auto& sentences = reference["sentences"];
  ASSERT_GE(reference["cases"].size(), 8u);
  for (const auto& c : reference["cases"]) {
    const std::string name =
        c["name"].get<std::string>() + " vs " + c["reference"].get<std::string>();
    SCOPED_TRACE(name);
    const auto tokenizer =
        HfTokenizer::open(c["folder"].get<std::string>(), c["model_type"].get<std::string>());
    int compared = 0;
    for (std::size_t i = 0; i < sentences.size(); ++i) {
      if (c["ids"][i].is_null()) continue;  // the reference does not define this one
      const auto expected = c["ids"][i].get<std::vector<int64_t>>();
      const TokenizedText got = tokenizer->encode(sentences[i].get<std::string>());
      EXPECT_EQ(got.ids, expected) << "sentence " << i << ": " << sentences[i].dump()
                                   << "\n  pieces: " << joined(got.pieces);
      EXPECT_EQ(got.pieces.size(), got.ids.size());
      ++compared;
    }
    EXPECT_GE(compared, static_cast<int>(sentences.size()) - 1);
    std::printf("%s: %d sentences compared (%s)\n", name.c_str(), compared,
                tokenizer->description().c_str());
  }
}

}  // namespace
}  // namespace attnlab
