// The presets in assets/ load, and malformed preset files are named with their problem.
#include <gtest/gtest.h>

#include "core/model/errors.hpp"
#include "core/trace/mha.hpp"
#include "core/model/preset.hpp"

namespace attnlab {
namespace {

std::string error_of(const std::string& json) {
  try {
    parse_preset(json, "broken.json");
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Presets, EveryShippedPresetLoadsAndMatchesTheSeeds) {
  std::vector<std::string> errors;
  const std::vector<Preset> presets = load_all_presets(&errors);
  EXPECT_TRUE(errors.empty()) << errors[0];
  std::vector<std::string> names;
  for (const Preset& p : presets) {
    names.push_back(p.name);
    EXPECT_TRUE(p.warnings.empty()) << p.name;
    EXPECT_FALSE(p.description.empty()) << p.name;
  }
  for (const char* wanted : {"seed002", "seed003", "cat", "base", "bert-base", "bert-large",
                             "gpt2-small", "gpt3", "tiny", "crafted"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), wanted), names.end()) << wanted;
  }
  const Config seed003 = find_preset("seed003").config;
  EXPECT_EQ(seed003.tokens(), 11);
  EXPECT_EQ(seed003.input_dim(), 8);
  EXPECT_EQ(seed003.out_dim(), 4);
  EXPECT_EQ(seed003.head_dim_k(), 2);
  EXPECT_TRUE(seed003.mask.causal);
  EXPECT_FALSE(seed003.output_proj);
  const Config base = find_preset("base").config;
  EXPECT_EQ(base.batch, 32);
  EXPECT_EQ(base.tokens(), 128);
  EXPECT_EQ(base.head_dim_k(), 64);
  EXPECT_TRUE(find_preset("gpt3").config.shape_only);
  EXPECT_EQ(find_preset("gpt3").config.head_dim_k(), 128);
}

TEST(Presets, Seed002CarriesItsInputs) {
  const Preset p = find_preset("seed002");
  EXPECT_EQ(p.inputs.x.shape(), (Shape{1, 3, 4}));
  EXPECT_EQ(p.inputs.w_o.shape(), (Shape{4, 4}));
  EXPECT_FLOAT_EQ(p.inputs.x.at({0, 2, 0}), 0.7f);
  EXPECT_EQ(p.config.tokens(), 3);
}

TEST(Presets, UnknownPresetListsTheKnownOnes) {
  try {
    find_preset("nope");
    FAIL();
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("choose one of"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("seed003"), std::string::npos);
  }
  EXPECT_THROW(find_preset("../presets/seed002"), UserError);
}

TEST(Presets, MalformedFilesAreNamedWithTheProblem) {
  EXPECT_NE(error_of("{\"d_model\": 4,").find("broken.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("[1, 2]").find("must be a JSON object"), std::string::npos);
  EXPECT_NE(error_of("{\"d_model\": \"four\"}").find("key \"d_model\" must be a whole number"),
            std::string::npos);
  EXPECT_NE(error_of("{\"n_heads\": 0}").find("key \"n_heads\" must be at least 1"),
            std::string::npos);
  EXPECT_NE(error_of("{\"bias\": 1}").find("key \"bias\" must be true or false"),
            std::string::npos);
  EXPECT_NE(error_of("{\"dropout\": 1.5}").find("key \"dropout\" must be a number in [0, 1)"),
            std::string::npos);
  EXPECT_NE(error_of("{\"mask\": {\"padding\": 3}}").find("mask.padding"), std::string::npos);
  EXPECT_NE(error_of("{\"d_model\": 10, \"n_heads\": 4}").find("not divisible"), std::string::npos);
  EXPECT_NE(error_of("{\"inputs\": {\"x\": [[1, 2], [3]]}}").find("ragged"), std::string::npos);
  EXPECT_NE(error_of("{\"inputs\": {\"x\": [[1, \"a\"]]}}").find("where a number belongs"),
            std::string::npos);
  EXPECT_NE(error_of("{\"seed\": -1}").find("key \"seed\" must be a non-negative"),
            std::string::npos);
  EXPECT_NE(error_of("{\"d_model\": 99999999999999999999}").find("d_model"), std::string::npos);
}

TEST(Presets, UnknownKeysAreWarnedAndIgnored) {
  const Preset p =
      parse_preset("{\"d_model\": 8, \"colour\": 3, \"mask\": {\"cosmic\": 1}}", "p.json");
  ASSERT_EQ(p.warnings.size(), 2u);
  EXPECT_NE(p.warnings[0].find("unknown key \"colour\""), std::string::npos);
  EXPECT_NE(p.warnings[1].find("mask.cosmic"), std::string::npos);
  EXPECT_EQ(p.config.d_model, 8);
}

TEST(Presets, ExplicitInputsFixTheSizes) {
  const Preset p = parse_preset(
      "{\"d_model\": 2, \"n_heads\": 1, \"inputs\": {\"x\": [[1, 0, 0], [0, 1, 0]]}}", "p.json");
  EXPECT_EQ(p.config.tokens(), 2);
  EXPECT_EQ(p.config.input_dim(), 3);
  EXPECT_EQ(run(p.config, p.inputs).find("out")->tensor.shape(), (Shape{1, 2, 2}));
}

}  // namespace
}  // namespace attnlab
