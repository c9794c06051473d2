// Every rule of validate(), with the message a student would read.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/model/config.hpp"

namespace attnlab {
namespace {

// The single issue a config has (fails the test if there is not exactly one).
ConfigIssue only_issue(const Config& c) {
  const std::vector<ConfigIssue> issues = validate(c);
  EXPECT_EQ(issues.size(), 1u) << describe(issues);
  return issues.empty() ? ConfigIssue{"", ""} : issues[0];
}

Config small() {
  Config c;
  c.seq_len = 5;
  c.d_model = 8;
  c.n_heads = 2;
  return c;
}

TEST(Validate, DefaultsAndPresetsLikeSizesAreValid) {
  EXPECT_TRUE(validate(Config{}).empty());
  EXPECT_TRUE(validate(small()).empty());
}

TEST(Validate, DModelNotDivisibleByHeads) {
  Config c = small();
  c.d_model = 10;
  c.n_heads = 4;
  const ConfigIssue issue = only_issue(c);
  EXPECT_EQ(issue.field, "n_heads");
  EXPECT_EQ(issue.message,
            "d_model=10 is not divisible by n_heads=4 (each head would get 2.5 dimensions): "
            "choose n_heads in {1, 2, 5, 10} or set d_k");
}

TEST(Validate, IndependentDkLiftsTheDivisibilityRule) {
  Config c = small();
  c.d_model = 10;
  c.n_heads = 4;
  c.d_k = 3;
  EXPECT_TRUE(validate(c).empty());
  EXPECT_EQ(c.head_dim_v(), 3);
}

TEST(Validate, MoreHeadsThanDimensions) {
  Config c = small();
  c.n_heads = 16;
  const ConfigIssue issue = only_issue(c);
  EXPECT_EQ(issue.field, "n_heads");
  EXPECT_NE(issue.message.find("n_heads=16 is larger than d_model=8"), std::string::npos);
  EXPECT_NE(issue.message.find("{1, 2, 4, 8}"), std::string::npos);
}

TEST(Validate, SizesOutOfRange) {
  Config c = small();
  c.batch = 0;
  EXPECT_EQ(only_issue(c).field, "batch");
  c = small();
  c.d_model = 0;
  EXPECT_NE(only_issue(c).message.find("d_model=0 is out of range"), std::string::npos);
  c = small();
  c.n_heads = -2;
  EXPECT_EQ(only_issue(c).field, "n_heads");
  c = small();
  c.seq_len = -1;
  EXPECT_EQ(only_issue(c).field, "seq_len");
  c = small();
  c.d_v = -1;
  EXPECT_EQ(only_issue(c).field, "d_v");
  c = small();
  c.d_in = int64_t{1} << 40;
  EXPECT_EQ(only_issue(c).field, "d_in");
}

TEST(Validate, PaddingLengths) {
  Config c = small();
  c.batch = 3;
  c.mask.padding_lengths = {2, 3};
  EXPECT_NE(only_issue(c).message.find("lists 2 lengths but the batch has B=3"), std::string::npos);
  c.mask.padding_lengths = {2, 3, 9};
  EXPECT_NE(only_issue(c).message.find("padding length 9 is outside 0..5"), std::string::npos);
  c.mask.padding_lengths = {4};
  EXPECT_TRUE(validate(c).empty());
}

TEST(Validate, WindowAndGlobalTokens) {
  Config c = small();
  c.mask.window = -1;
  EXPECT_NE(only_issue(c).message.find("must be at least 1"), std::string::npos);
  c = small();
  c.mask.global_tokens = 2;
  EXPECT_NE(only_issue(c).message.find("only apply with a sliding window"), std::string::npos);
  c.mask.window = 1;
  EXPECT_TRUE(validate(c).empty());
  c.mask.global_tokens = 6;
  EXPECT_NE(only_issue(c).message.find("between 0 and T=5"), std::string::npos);
}

TEST(Validate, Dropout) {
  Config c = small();
  c.dropout = 1.0;
  EXPECT_EQ(only_issue(c).field, "dropout");
  c.dropout = -0.1;
  EXPECT_EQ(only_issue(c).field, "dropout");
  c.dropout = std::nan("");
  EXPECT_EQ(only_issue(c).field, "dropout");
  c.dropout = 0.5;
  EXPECT_TRUE(validate(c).empty());
}

TEST(Validate, MemoryCapStatesTheBytesNeeded) {
  Config c;
  c.batch = 32;
  c.seq_len = 128;
  c.d_model = 512;
  c.n_heads = 8;
  c.memory_cap_bytes = 1 << 20;
  const ConfigIssue issue = only_issue(c);
  EXPECT_EQ(issue.field, "memory");
  EXPECT_NE(issue.message.find(std::to_string(trace_bytes_needed(c)) + " bytes"),
            std::string::npos);
  c.shape_only = true;  // shapes need no memory
  EXPECT_TRUE(validate(c).empty());
}

TEST(Config, BytesNeededNeverWrapsEvenForInvalidSizes) {
  Config c = small();
  c.n_heads = -3;  // the GUI asks before validating
  c.d_k = 1 << 20;
  EXPECT_EQ(trace_bytes_needed(c), 0);
  c = small();
  c.batch = int64_t{1} << 40;
  c.seq_len = int64_t{1} << 40;
  EXPECT_EQ(trace_bytes_needed(c), std::numeric_limits<int64_t>::max());
}

TEST(Validate, ReportsEveryViolationAtOnce) {
  Config c = small();
  c.n_heads = 3;
  c.dropout = 2;
  c.mask.padding_lengths = {7};
  EXPECT_EQ(validate(c).size(), 3u);
}

TEST(Config, ResolvedSizes) {
  Config c;
  c.d_model = 12;
  c.n_heads = 3;
  EXPECT_EQ(c.head_dim_k(), 4);
  EXPECT_EQ(c.input_dim(), 12);
  EXPECT_EQ(c.out_dim(), 12);
  c.output_proj = false;
  c.d_v = 5;
  EXPECT_EQ(c.out_dim(), 15);
  c.sentence = "The artist painted the portrait of a woman with a brush";
  EXPECT_EQ(c.tokens(), 11);
  c.seq_len = 4;
  EXPECT_EQ(c.tokens(), 4);
}

TEST(Config, FormatBytes) {
  EXPECT_EQ(format_bytes(512), "512 bytes");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(3.0 * (1 << 30)), "3.0 GiB");
}

}  // namespace
}  // namespace attnlab
