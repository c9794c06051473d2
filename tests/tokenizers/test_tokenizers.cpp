// core/tokenizers on tiny vocabularies these tests write, with every expected id derived by hand
// (the merges' ranks, the regexes' pieces, WordPiece's longest match); and the errors a person
// sees for a missing or malformed file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/model/errors.hpp"
#include "core/tokenizers/hf_tokenizer.hpp"
#include "core/tokenizers/pre_tokenizers.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;
using Ids = std::vector<int64_t>;
using Strings = std::vector<std::string>;

// A fresh folder per test, under the system's temporary folder.
class TokenizerFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("attnlab_tok_") + info->test_suite_name() + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::unique_ptr<HfTokenizer> open(const std::string& model_type) const {
    return HfTokenizer::open(dir_.string(), model_type);
  }
  // The UserError message open() gives.
  std::string open_error(const std::string& model_type) const {
    try {
      open(model_type);
    } catch (const UserError& e) {
      return e.what();
    }
    return "(no error)";
  }
  fs::path dir_;
};

std::vector<std::u32string> u32(const Strings& pieces) {
  std::vector<std::u32string> out;
  for (const auto& p : pieces) out.push_back(unicode::decode_utf8(p));
  return out;
}

TEST(PreTokenizers, Gpt2RegexContractionsSpacesAndNumbers) {
  // 's|'t|... first; " ?\p{L}+" takes one leading space; a run of spaces before a word leaves
  // its last space to the word (\s+(?!\S)).
  EXPECT_EQ(pre_tokenizers::split_gpt2(U"I'm  here\n\n x 42!!"),
            u32({"I", "'m", " ", " here", "\n\n", " x", " 42", "!!"}));
  EXPECT_EQ(pre_tokenizers::split_gpt2(U"end  "), u32({"end", "  "}));
  EXPECT_EQ(pre_tokenizers::split_gpt2(U"DON'T"), u32({"DON", "'", "T"}));  // case matters
  EXPECT_EQ(pre_tokenizers::split_gpt2(U"café½x"), u32({"café", "½", "x"}));
}

TEST(PreTokenizers, Llama3RegexDigitsInThreesAndNewLines) {
  EXPECT_EQ(pre_tokenizers::split_llama3(U"DON'T  go\n\n  42345 ¿Qué?\n", 3),
            u32({"DON", "'T", " ", " go", "\n\n", " ", " ", "423", "45", " ¿", "Qué", "?\n"}));
  // Qwen2's: one digit a piece; a letter run takes one non-letter before it.
  EXPECT_EQ(pre_tokenizers::split_llama3(U"x=2024,\"ok", 1),
            u32({"x", "=", "2", "0", "2", "4", ",\"", "ok"}));
  EXPECT_EQ(pre_tokenizers::split_llama3(U"a.b", 3), u32({"a", ".b"}));
}

TEST(PreTokenizers, KnownPatternsAndDigits) {
  EXPECT_TRUE(pre_tokenizers::known_pattern(
                  R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)")
                  ->gpt2);
  EXPECT_FALSE(pre_tokenizers::known_pattern(R"(\w+|\s+)"));
  EXPECT_EQ(pre_tokenizers::split_digits(U"ab12c3", true), u32({"ab", "1", "2", "c", "3"}));
  EXPECT_EQ(pre_tokenizers::split_digits(U"ab12c3", false), u32({"ab", "12", "c", "3"}));
}

TEST(Unicode, BytesToUnicodeAndVisiblePieces) {
  EXPECT_EQ(unicode::byte_to_char()[' '], U'\u0120');   // "Ġ"
  EXPECT_EQ(unicode::byte_to_char()['\n'], U'\u010A');  // "Ċ"
  EXPECT_EQ(unicode::byte_to_char()['a'], U'a');
  for (int b = 0; b < 256; ++b) EXPECT_EQ(unicode::char_to_byte(unicode::byte_to_char()[b]), b);
  EXPECT_EQ(unicode::char_to_byte(U'\u0100' + 68), -1);
  EXPECT_EQ(unicode::visible(" the\n\t"), "\u00B7the\u21B5\u21E5");
  EXPECT_EQ(unicode::visible("\xF0\x9F"), "<0xF0><0x9F>");  // half an emoji
  EXPECT_EQ(unicode::visible("\x01"), "<0x01>");
}

TEST_F(TokenizerFolder, Gpt2VocabJsonAndMergesTxt) {
  // "Ġ" is the space's byte character, "Ċ" the new line's.
  write("vocab.json",
        R"({"a": 0, "b": 1, "Ġ": 2, "ab": 3, "Ġab": 4, "<|endoftext|>": 5, "Ċ": 6, "c": 7})");
  write("merges.txt", "#version: 0.2\na b\nĠ ab\n");
  const auto tok = open("gpt2");
  // Pieces "ab", " ab", "\n", "c"; "a b" merges first (rank 0), then "Ġ ab" (rank 1).
  const TokenizedText t = tok->encode("ab ab\nc");
  EXPECT_EQ(t.ids, (Ids{3, 4, 6, 7}));
  EXPECT_EQ(t.pieces, (Strings{"ab", "\u00B7ab", "\u21B5", "c"}));
  EXPECT_EQ(tok->encode("<|endoftext|>ab").ids, (Ids{5, 3}));
  EXPECT_EQ(tok->vocab_size(), 8);
  EXPECT_EQ(tok->special_ids().eos, 5);
  EXPECT_EQ(tok->special_ids().bos, 5);
  EXPECT_FALSE(tok->special_ids().cls);
  EXPECT_EQ(tok->piece(4), "\u00B7ab");
  EXPECT_EQ(tok->piece(99), "");
}

TEST_F(TokenizerFolder, Gpt2PrefersTokenizerJsonWithoutMerges) {
  write("vocab.json", R"({"a": 0})");
  EXPECT_NE(open_error("gpt2").find("tokenizer.json: not found"), std::string::npos);
}

// Llama 2's layout: "▁" for spaces by the normalizer, byte fallback, <s> by TemplateProcessing.
constexpr const char* kLlama2Json = R"({
  "added_tokens": [{"id": 0, "content": "<unk>", "special": true},
                   {"id": 1, "content": "<s>", "special": true},
                   {"id": 2, "content": "</s>", "special": true}],
  "normalizer": {"type": "Sequence", "normalizers": [
      {"type": "Prepend", "prepend": "▁"},
      {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
  "pre_tokenizer": null,
  "post_processor": {"type": "TemplateProcessing",
      "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                 {"Sequence": {"id": "A", "type_id": 0}}],
      "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
  "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": true, "fuse_unk": true,
      "vocab": {"<unk>": 0, "<s>": 1, "</s>": 2, "<0xC3>": 3, "<0xA9>": 4, "▁": 5, "a": 6,
                "b": 7, "▁a": 8, "▁ab": 9, "ab": 10},
      "merges": ["▁ a", "a b", "▁a b"]}
})";

TEST_F(TokenizerFolder, TokenizerJsonLlama2ByteFallbackAndBos) {
  write("tokenizer.json", kLlama2Json);
  write("tokenizer_config.json", R"({"bos_token": {"content": "<s>"}, "eos_token": "</s>"})");
  const auto tok = open("llama");
  // "▁ab▁é": "▁ a" (rank 0) takes the "a" before "a b" (rank 1) could; then "▁a b" (rank 2);
  // "é" is not a piece: its bytes C3 A9.
  const TokenizedText t = tok->encode("ab é");
  EXPECT_EQ(t.ids, (Ids{1, 9, 5, 3, 4}));
  EXPECT_EQ(t.pieces, (Strings{"<s>", "\u00B7ab", "\u00B7", "<0xC3>", "<0xA9>"}));
  EXPECT_EQ(tok->encode("ab", false).ids, (Ids{9}));
  // An added token is cut out first; the text after it gets its own "▁".
  EXPECT_EQ(tok->encode("</s>ab").ids, (Ids{1, 2, 9}));
  EXPECT_EQ(tok->encode("").ids, (Ids{1}));
  // "z" is neither a piece nor has byte pieces: <unk>, fused with the next unknown.
  EXPECT_EQ(tok->encode("zz", false).ids, (Ids{5, 0}));
  EXPECT_EQ(tok->special_ids().bos, 1);
  EXPECT_EQ(tok->special_ids().eos, 2);
  EXPECT_EQ(tok->special_ids().unk, 0);
}

TEST_F(TokenizerFolder, TokenizerJsonMetaspacePrependFirst) {
  // Mistral's newer layout: Metaspace with prepend_scheme "first", no normalizer.
  std::string json = kLlama2Json;
  json.replace(json.find("\"normalizer\""),
               json.find("\"pre_tokenizer\": null") - json.find("\"normalizer\"") +
                   std::string("\"pre_tokenizer\": null").size(),
               R"("normalizer": null, "pre_tokenizer": {"type": "Metaspace", "replacement": "▁",
                  "prepend_scheme": "first", "split": false})");
  write("tokenizer.json", json);
  const auto tok = open("mistral");
  EXPECT_EQ(tok->encode("ab ab", false).ids, (Ids{9, 9}));
  EXPECT_EQ(tok->encode("</s>ab", false).ids, (Ids{2, 10}));  // not at the start: no "▁"
}

std::string byte_level_json(const std::string& regex, bool ignore_merges) {
  return R"({"added_tokens": [],
    "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": )" +
         nlohmann::json(regex).dump() + R"(}, "behavior": "Isolated", "invert": false},
        {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}]},
    "post_processor": {"type": "ByteLevel"},
    "model": {"type": "BPE", "ignore_merges": )" +
         (ignore_merges ? "true" : "false") + R"(,
      "vocab": {"1": 0, "2": 1, "3": 2, "4": 3, "12": 4, "123": 5, "Ġ": 6, "h": 7, "i": 8,
                "hi": 9, "Ġhi": 10, "'": 11, "T": 12, "'T": 13, "x": 14, "hx": 15},
      "merges": [["1", "2"], ["12", "3"], ["h", "i"], ["Ġ", "hi"], ["'", "T"]]}})";
}

constexpr const char* kLlama3Regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr const char* kQwen2Regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

TEST_F(TokenizerFolder, TokenizerJsonLlama3SplitAndMergePairs) {
  write("tokenizer.json", byte_level_json(kLlama3Regex, false));
  const auto tok = open("llama");
  // Pieces "123", "4", " hi", "'T" (the contraction, in capitals); "hx" has no merge.
  const TokenizedText t = tok->encode("1234 hi'T hx");
  EXPECT_EQ(t.ids, (Ids{5, 3, 10, 13, 6, 7, 14}));
  EXPECT_EQ(t.pieces, (Strings{"123", "4", "\u00B7hi", "'T", "\u00B7", "h", "x"}));
}

TEST_F(TokenizerFolder, TokenizerJsonIgnoreMergesTakesAWholePiece) {
  write("tokenizer.json", byte_level_json(kLlama3Regex, true));
  EXPECT_EQ(open("llama")->encode("hx").ids, (Ids{15}));
}

TEST_F(TokenizerFolder, TokenizerJsonQwen2SplitsEveryDigit) {
  write("tokenizer.json", byte_level_json(kQwen2Regex, false));
  EXPECT_EQ(open("qwen2")->encode("1234").ids, (Ids{0, 1, 2, 3}));
}

// BERT: ids are line numbers.
constexpr const char* kBertVocab =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n,\nun\n##aff\n##able\n!\n\xE4\xB8\xAD\n"
    "\xE6\x96\x87\na\n##a\n";

TEST_F(TokenizerFolder, BertLowerCasedStripsAccentsAndSplits) {
  write("vocab.txt", kBertVocab);
  const auto tok = open("bert");
  // "Héllo" -> "hello"; "UNAFFABLE" -> "un" "##aff" "##able" (longest first); 中 and 文 apart.
  const TokenizedText t = tok->encode("Héllo, UNAFFABLE!中文 [MASK]");
  EXPECT_EQ(t.ids, (Ids{2, 5, 6, 7, 8, 9, 10, 11, 12, 4, 3}));
  EXPECT_EQ(t.pieces, (Strings{"[CLS]", "hello", ",", "un", "##aff", "##able", "!", "\xE4\xB8\xAD",
                               "\xE6\x96\x87", "[MASK]", "[SEP]"}));
  // Control characters are dropped, tabs and new lines split words ("aff" is "a" and no "##ff").
  EXPECT_EQ(tok->encode("hel\x01lo\tun\naff", false).ids, (Ids{5, 7, 1}));
  // 100 characters is still a word; 101 is [UNK]; a word no pieces can make is one [UNK].
  EXPECT_EQ(tok->encode(std::string(100, 'a'), false).ids.size(), 100u);
  EXPECT_EQ(tok->encode(std::string(101, 'a'), false).ids, (Ids{1}));
  EXPECT_EQ(tok->encode("unx", false).ids, (Ids{1}));
  EXPECT_EQ(tok->encode("").ids, (Ids{2, 3}));
  EXPECT_EQ(tok->special_ids().cls, 2);
  EXPECT_EQ(tok->special_ids().mask, 4);
  EXPECT_EQ(tok->special_ids().pad, 0);
  EXPECT_EQ(tok->vocab_size(), 15);
}

TEST_F(TokenizerFolder, BertCasedKeepsCaseAndAccents) {
  write("vocab.txt", kBertVocab);
  write("tokenizer_config.json", R"({"do_lower_case": false})");
  EXPECT_EQ(open("bert")->encode("Héllo, hello UNAFFABLE").ids, (Ids{2, 1, 6, 5, 1, 3}));
}

TEST_F(TokenizerFolder, ErrorsNameTheFileAndTheFix) {
  const auto one_line = [](const std::string& message) {
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  };
  EXPECT_NE(one_line(open_error("bert")).find("vocab.txt: not found"), std::string::npos);
  EXPECT_NE(one_line(open_error("llama")).find("tokenizer.json: not found"), std::string::npos);
  write("tokenizer.model", "sentencepiece");
  EXPECT_NE(one_line(open_error("llama")).find("tokenizer.model (SentencePiece)"),
            std::string::npos);
  write("tokenizer.json", "{\"model\": {");
  EXPECT_NE(one_line(open_error("llama")).find("tokenizer.json: not valid JSON"),
            std::string::npos);
  write("tokenizer.json", "{}");
  EXPECT_NE(one_line(open_error("llama")).find("model is missing"), std::string::npos);
  write("tokenizer.json", byte_level_json(R"(\w+|\s+)", false));
  const std::string pattern = one_line(open_error("llama"));
  EXPECT_NE(pattern.find("the Split pattern \"\\w+|\\s+\" is not supported"), std::string::npos)
      << pattern;
  write("tokenizer.json", R"({"model": {"type": "Unigram", "vocab": []}})");
  EXPECT_NE(one_line(open_error("llama")).find("model.type \"Unigram\" is not supported"),
            std::string::npos);
  write("tokenizer.json", R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b"]}})");
  EXPECT_NE(one_line(open_error("llama")).find("not in the vocabulary"), std::string::npos);
  write("vocab.json", R"({"a": 0, "b": 1})");
  write("merges.txt", "#version: 0.2\na b c\n");
  EXPECT_NE(one_line(open_error("gpt2")).find("merges.txt: line 2"), std::string::npos);
  write("vocab.txt", "hello\n");
  EXPECT_NE(one_line(open_error("bert")).find("not a BERT vocabulary"), std::string::npos);
  EXPECT_THROW(HfTokenizer::open((dir_ / "nothing").string(), "bert"), UserError);
}

}  // namespace
}  // namespace attnlab

TEST(ValidUtf8, InvalidBytesBecomeReplacementCharactersAndValidTextIsKept) {
  EXPECT_EQ(attnlab::unicode::valid_utf8("caf\xe9 au lait"), "caf\xEF\xBF\xBD au lait");
  EXPECT_EQ(attnlab::unicode::valid_utf8("\xC3\xA9t\xC3\xA9 \xE4\xBD\xA0"),
            "\xC3\xA9t\xC3\xA9 \xE4\xBD\xA0");
  EXPECT_EQ(attnlab::unicode::valid_utf8("\xE4\xBD"),
            "\xEF\xBF\xBD\xEF\xBF\xBD");  // a cut character
  EXPECT_EQ(attnlab::unicode::valid_utf8("\xC0\xAF"),
            "\xEF\xBF\xBD\xEF\xBF\xBD");  // an overlong "/"
  EXPECT_EQ(attnlab::unicode::valid_utf8("\xED\xA0\x80"),
            "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
}
