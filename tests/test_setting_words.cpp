// The core names settings by field, never by flag (issue 28): one message, worded for the
// command line and for the controls; and a read of the core's sources finds no flag in a message.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/model/config.hpp"
#include "core/model/errors.hpp"
#include "core/model/setting_words.hpp"

namespace attnlab {
namespace {

std::string cli(const std::string& m) {
  return worded(m, Wording::command_line);
}
std::string gui(const std::string& m) {
  return worded(m, Wording::controls);
}

TEST(SettingWords, OneMessageIsWordedForTheCommandLineAndForTheControls) {
  const std::string m = "decode at most 4 tokens, or raise T{{(seq_len)}}";
  EXPECT_EQ(cli(m), "decode at most 4 tokens, or raise T (--seq-len)");
  EXPECT_EQ(gui(m), "decode at most 4 tokens, or raise T");
  EXPECT_EQ(cli("{{drop n_kv_heads}}, or {{drop mla}}"), "drop --kv-heads, or drop --mla");
  EXPECT_EQ(gui("{{drop n_kv_heads}}, or {{drop mla}}"), "turn off K/V heads, or turn off MLA");
  EXPECT_EQ(cli("{{drop cross}}"), "drop --sentence-kv / --x-kv");
  EXPECT_EQ(gui("{{drop cross}}"), "turn off cross-attention");
  EXPECT_EQ(cli("{{d_model 10}} is not divisible"), "--d-model 10 is not divisible");
  EXPECT_EQ(gui("{{d_model 10}} is not divisible"), "d_model 10 is not divisible");
  EXPECT_EQ(cli("turn it on {{(mask causal)}}."), "turn it on (--mask causal).");
  EXPECT_EQ(gui("turn it on {{(mask causal)}}."), "turn it on.");
  EXPECT_EQ(gui("the {{seq_len}} slider"), "the T slider");
}

TEST(SettingWords, BracesAroundAnythingElseAreKeptAsTheyAre) {
  const std::string path = "/tmp/{{not a setting}}/x.npy and {1, 2, 4}";
  EXPECT_EQ(cli(path), path);
  EXPECT_EQ(gui(path), path);
  EXPECT_EQ(cli("unclosed {{seq_len"), "unclosed {{seq_len");
  EXPECT_EQ(unknown_setting_names("{{seq_len}} {{drop mla}} {{(nonsense 3)}}"),
            std::vector<std::string>{"nonsense"});
}

TEST(SettingWords, ErrorsAndIssuesCarryBothWordings) {
  const UserError error("use a longer sentence{{(sentence)}}");
  EXPECT_STREQ(error.what(), "use a longer sentence (--sentence)");
  EXPECT_EQ(error.in_controls(), "use a longer sentence");
  Config c;
  c.kv_latent = 4;   // MLA
  c.n_kv_heads = 1;  // and grouped K/V heads: refused
  bool found = false;
  for (const ConfigIssue& issue : validate(c)) {
    if (issue.field != "mla") continue;
    found = true;
    EXPECT_NE(issue.message.find("drop --kv-heads"), std::string::npos) << issue.message;
    EXPECT_NE(issue.in_controls.find("turn off K/V heads"), std::string::npos) << issue.in_controls;
    EXPECT_EQ(issue.in_controls.find("--"), std::string::npos) << issue.in_controls;
  }
  EXPECT_TRUE(found);
}

// The string literals of a C++ source, each with the statement it is in (comments left out).
struct Literal {
  std::string text, statement;
};
std::vector<Literal> literals_of(const std::string& src) {
  std::vector<Literal> out;
  std::vector<size_t> open;  // literals of the statement being read
  std::string statement;
  for (size_t i = 0; i < src.size(); ++i) {
    const char c = src[i];
    if (c == '/' && i + 1 < src.size() && (src[i + 1] == '/' || src[i + 1] == '*')) {
      i = src[i + 1] == '/' ? src.find('\n', i) : src.find("*/", i + 2) + 1;
      if (i == std::string::npos || i == 0) break;
      continue;
    }
    if (c == '"' && i > 0 && src[i - 1] == 'R') {  // a raw string: R"(...)"
      const size_t end = src.find(")\"", i);
      if (end == std::string::npos) break;
      out.push_back({src.substr(i + 2, end - i - 2), ""});
      open.push_back(out.size() - 1);
      i = end + 1;
      continue;
    }
    if (c == '"') {
      std::string text;
      for (++i; i < src.size() && src[i] != '"'; ++i) {
        if (src[i] == '\\') text += src[i++];
        text += src[i];
      }
      out.push_back({text, ""});
      open.push_back(out.size() - 1);
      statement += text;
      continue;
    }
    if (c == '\'' && i + 2 < src.size() && !std::isalnum(static_cast<unsigned char>(src[i - 1]))) {
      // a character: '"' must not open a literal (a digit separator, 1'000, is not one)
      i = src.find('\'', i + (src[i + 1] == '\\' ? 3 : 2));
      if (i == std::string::npos) break;
      continue;
    }
    statement += c;
    if (c == ';' || c == '{' || c == '}') {
      for (size_t k : open) out[k].statement = statement;
      open.clear();
      statement.clear();
    }
  }
  return out;
}

TEST(SettingWords, NoCoreMessageSpellsAFlagAndEveryMentionIsASetting) {
  namespace fs = std::filesystem;
  const std::regex flag("--[a-z]");
  const std::regex mention(R"(\{\{\(?(?:drop )?([a-z_]+))");
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ATTNLAB_CORE_DIR)) {
    if (entry.path().extension() != ".cpp") continue;
    ++files;
    // The two tables that hold the flags (and their help).
    const std::string name = entry.path().filename().string();
    if (name == "config_fields.cpp" || name == "setting_words.cpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    for (const Literal& lit : literals_of(text.str())) {
      // A command to run ("attnlab-cli exercise DIR --preset seed002") is spelled as typed.
      const bool command = lit.statement.find("attnlab-cli") != std::string::npos ||
                           lit.statement.find("cmake --") != std::string::npos;
      EXPECT_TRUE(command || !std::regex_search(lit.text, flag))
          << entry.path() << ": \"" << lit.text << "\" names a flag: name the setting as {{field}}";
      for (std::sregex_iterator m(lit.text.begin(), lit.text.end(), mention), end; m != end; ++m)
        EXPECT_TRUE(unknown_setting_names("{{" + (*m)[1].str() + "}}").empty())
            << entry.path() << ": {{" << (*m)[1] << "}} is not a setting";
    }
  }
  EXPECT_GT(files, 50);
}

}  // namespace
}  // namespace attnlab
