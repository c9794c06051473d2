// The one table of config fields (core/model/config_fields.hpp): it lists every member of Config,
// and a config with any value in every field comes back unchanged through JSON and through the
// command-line flags, both of which are read and written from the table alone.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <random>
#include <set>

#include "app/common/config_flags.hpp"
#include "core/model/config_fields.hpp"
#include "core/model/config_json.hpp"
#include "core/teaching/mistakes.hpp"

namespace attnlab {
namespace {

// [SECTION] counting Config's members without naming them

// Converts to any member type, so Config{AnyMember{}, ...} compiles with at most as many as
// Config has members (an aggregate).
struct AnyMember {
  template <class T>
  operator T() const;
};

template <class T, class... Members>
constexpr size_t member_count() {
  if constexpr (requires { T{Members{}..., AnyMember{}}; })
    return member_count<T, Members..., AnyMember>();
  else
    return sizeof...(Members);
}

TEST(ConfigFields, TheTableListsEveryMemberOfConfigOnce) {
  static_assert(member_count<MaskSpec>() == 4, "the counting sees MaskSpec's four members");
  const std::vector<ConfigField>& table = config_fields();
  EXPECT_EQ(table.size(), member_count<Config>())
      << "a Config member is missing from config_fields() (core/model/config_fields.cpp)";
  std::set<std::string> names, flags;
  std::vector<FieldMember> members;
  for (const ConfigField& f : table) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_TRUE(flags.insert(f.flag).second) << f.flag;
    EXPECT_EQ(std::find(members.begin(), members.end(), f.member), members.end())
        << f.name << " points at a member another field has";
    members.push_back(f.member);
    EXPECT_EQ(find_config_field(f.name), &f);
  }
}

// [SECTION] a config with a random value in every field

// Whole numbers in their range (or 0 where it means "auto"/"off"), kept small so the head list
// and the flags stay short; every other type as its flag can say it.
class RandomConfig {
 public:
  explicit RandomConfig(uint64_t seed) : rng_(seed) {}

  Config make() {
    Config c;
    for (const ConfigField& f : config_fields())
      std::visit([&](auto m) { fill(f, c, m); }, f.member);
    // What the flags imply: --decode turns the causal mask on.
    if (c.decode_steps > 0) c.mask.causal = true;
    // Switched-off heads are listed for the n_heads heads.
    if (!c.ablated_heads.empty()) {
      c.ablated_heads.resize(size_t(c.n_heads), false);
      c.ablated_heads[size_t(below(c.n_heads))] = true;
    }
    return c;
  }

 private:
  int64_t below(int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(rng_); }
  bool coin() { return below(2) == 1; }
  std::string words() {
    const char* pool[] = {"the", "cat", "-sat", "on", "mat", "Katze", "猫", "🐈", ",", "a=b"};
    std::string text;
    for (int64_t n = below(5); n > 0; --n)
      text += (text.empty() ? "" : " ") + std::string(pool[below(10)]);
    return text;
  }

  void fill(const ConfigField& f, Config& c, int64_t Config::*m) {
    if (f.flag_unit > 0) {
      c.*m = 1 + below(int64_t{1} << 40);  // bytes: whole MiB fractions are exact in double
      return;
    }
    if (f.zero && coin()) {
      c.*m = 0;
      return;
    }
    c.*m = f.low + below(std::min<int64_t>(f.high - f.low + 1, 8));
  }
  void fill(const ConfigField&, Config& c, uint64_t Config::*m) {
    c.*m = std::uniform_int_distribution<uint64_t>()(rng_);
  }
  void fill(const ConfigField&, Config& c, bool Config::*m) { c.*m = coin(); }
  void fill(const ConfigField& f, Config& c, double Config::*m) {
    if (f.zero && coin()) {
      c.*m = 0;
      return;
    }
    c.*m = std::uniform_real_distribution<double>(f.real_low, std::min(f.real_high, 1e6))(rng_);
  }
  void fill(const ConfigField&, Config& c, std::string Config::*m) { c.*m = words(); }
  void fill(const ConfigField&, Config& c, MaskSpec Config::*m) {
    MaskSpec& mask = c.*m;
    mask.causal = coin();
    for (int64_t n = below(3); n > 0; --n) mask.padding_lengths.push_back(below(9));
    mask.window = coin() ? 1 + below(4) : 0;
    mask.global_tokens = mask.window > 0 ? below(3) : 0;
  }
  void fill(const ConfigField&, Config& c, Mistake Config::*m) {
    const std::vector<MistakeInfo>& all = all_mistakes();
    c.*m = coin() ? Mistake::None : all[size_t(below(int64_t(all.size())))].id;
  }
  void fill(const ConfigField&, Config& c, PositionEncoding Config::*m) {
    const std::vector<PositionEncoding>& all = all_position_encodings();
    c.*m = all[size_t(below(int64_t(all.size())))];
  }
  void fill(const ConfigField&, Config& c, std::vector<bool> Config::*m) {
    if (coin()) (c.*m).push_back(true);  // filled in for n_heads in make()
  }

  std::mt19937_64 rng_;
};

TEST(ConfigFields, EveryFieldRoundTripsThroughJson) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const Config c = RandomConfig(seed).make();
    std::vector<std::string> warnings;
    const nlohmann::json written = config_to_json(c);
    EXPECT_EQ(written.size(), config_fields().size()) << "one key per field";
    const Config read = config_from_json(written, "round-trip", {}, warnings);
    ASSERT_EQ(read, c) << "seed " << seed << ": " << written.dump();
    EXPECT_TRUE(warnings.empty());
  }
}

// The flags, parsed as attnlab-cli and attnlab parse them, applied over the defaults.
Config from_flags(const std::vector<std::string>& args) {
  CLI::App app;
  ConfigFlags flags;
  add_config_flags(app, flags);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  app.parse(reversed);
  Config c;
  Inputs unused;
  apply_config_flags(flags, c, unused);
  return c;
}

TEST(ConfigFields, EveryFieldRoundTripsThroughTheFlags) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const Config c = RandomConfig(seed).make();
    const std::vector<std::string> args = config_to_flags(c);
    std::string line;
    for (const std::string& arg : args) line += " " + arg;
    const Config read = from_flags(args);
    ASSERT_EQ(read, c) << "seed " << seed << ":" << line << "\ngave  " << config_to_json(read)
                       << "\nwanted " << config_to_json(c);
  }
}

TEST(ConfigFields, EveryFlagIsInTheHelpWithTheTablesWords) {
  CLI::App app;
  ConfigFlags flags;
  add_config_flags(app, flags);
  const std::string help = app.help();
  for (const ConfigField& f : config_fields()) {
    EXPECT_NE(help.find(std::string(f.flag) + " "), std::string::npos) << f.flag;
    EXPECT_NE(help.find(f.help), std::string::npos) << f.help;
  }
  EXPECT_NE(help.find("--no-bias"), std::string::npos);
  EXPECT_NE(help.find("--no-output-proj"), std::string::npos);
}

TEST(ConfigFields, ValidateChecksEachWholeNumberAgainstTheTablesRange) {
  for (const ConfigField& f : config_fields()) {
    const auto* member = std::get_if<int64_t Config::*>(&f.member);
    if (!member || f.high == 0) continue;
    Config c;
    c.*(*member) = f.high + 1;
    const std::vector<ConfigIssue> issues = validate(c);
    ASSERT_FALSE(issues.empty()) << f.name;
    EXPECT_EQ(issues[0].field, f.issue_name());
    EXPECT_EQ(issues[0].message, std::string(f.issue_name()) + "=" + std::to_string(f.high + 1) +
                                     " is out of range: " + f.meaning + " must be between " +
                                     std::to_string(f.low) + " and " + std::to_string(f.high));
  }
}

TEST(ConfigFields, ValidateChecksEachRealNumberWithAMeaningAgainstTheTablesRange) {
  for (const ConfigField& f : config_fields()) {
    const auto* member = std::get_if<double Config::*>(&f.member);
    if (!member || *f.meaning == 0) continue;
    Config c;
    c.*(*member) = f.real_high;  // the range is open above
    const std::vector<ConfigIssue> issues = validate(c);
    ASSERT_FALSE(issues.empty()) << f.name;
    EXPECT_EQ(issues[0].field, f.issue_name());
    EXPECT_NE(issues[0].message.find(" is out of range: " + std::string(f.meaning) + " must be "),
              std::string::npos)
        << issues[0].message;
    c.*(*member) = f.real_low;
    EXPECT_TRUE(validate(c).empty()) << f.name << ": " << describe(validate(c));
  }
}

TEST(ConfigFields, FieldTextSaysWhatZeroMeans) {
  Config c;
  EXPECT_EQ(field_text(*find_config_field("seq_len"), c), "sentence length");
  EXPECT_EQ(field_text(*find_config_field("d_k"), c), "d_model / n_heads");
  EXPECT_EQ(field_text(*find_config_field("memory_cap_bytes"), c), "1.0 GiB");
  EXPECT_EQ(field_text(*find_config_field("mistake"), c), "none");
  c.ablated_heads = {false, true, true};
  EXPECT_EQ(field_text(*find_config_field("ablated_heads"), c), "1,2");
  c.n_kv_heads = 1;
  EXPECT_EQ(field_text(*find_config_field("n_kv_heads"), c), "1");
}

}  // namespace
}  // namespace attnlab
