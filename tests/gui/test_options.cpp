// The command line: good options parse, bad ones give one line and exit code 2.
#include <gtest/gtest.h>

#include <vector>

#include "app/gui/state/options.hpp"
#include "app/gui/state/startup.hpp"

namespace attnlab::gui {
namespace {

ParseOutcome parse(std::vector<const char*> args, StartOptions& options) {
  args.insert(args.begin(), "attnlab");
  return parse_options(int(args.size()), args.data(), options);
}

TEST(Options, ScreenshotRun) {
  StartOptions o;
  const ParseOutcome outcome =
      parse({"--preset", "seed003", "--stage", "attend:softmax", "--screenshot", "a.png",
             "--frames", "4", "--heads", "4", "--d-model", "8", "--theme", "dark"},
            o);
  EXPECT_EQ(outcome.exit_code, -1) << outcome.message;
  EXPECT_EQ(o.preset, "seed003");
  EXPECT_EQ(o.stage, "attend:softmax");
  EXPECT_EQ(o.frames, 4);
  EXPECT_EQ(*o.config.value("n_heads").count, 4);
  EXPECT_EQ(*o.config.value("d_model").count, 8);
  EXPECT_EQ(o.theme, "dark");
  EXPECT_TRUE(o.scripted());
}

TEST(Options, MistakesAreOneLineAndExitTwo) {
  for (std::vector<const char*> args : {std::vector<const char*>{"--stage", "attention"},
                                        {"--theme", "blue"},
                                        {"--frames", "0"},
                                        {"--no-such-option"},
                                        {"--dump-layout", "x.json"},
                                        {"--heads", "many"},
                                        {"--bench-drag", "2"}}) {
    StartOptions o;
    const ParseOutcome outcome = parse(args, o);
    EXPECT_EQ(outcome.exit_code, 2) << args[0];
    EXPECT_EQ(outcome.message.find('\n'), std::string::npos) << outcome.message;
    EXPECT_EQ(outcome.message.rfind("attnlab: ", 0), 0u) << outcome.message;
  }
}

TEST(Options, ColourScaleNamesAScale) {
  StartOptions o;
  EXPECT_EQ(parse({"--colour-scale", "per-row"}, o).exit_code, -1);
  EXPECT_EQ(o.colour_scale, "per-row");
  StartOptions bad;
  const ParseOutcome outcome = parse({"--colour-scale", "rainbow"}, bad);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.message.find("per-map, per-row, log, fixed"), std::string::npos)
      << outcome.message;
}

TEST(Options, BenchDragNeedsBenchFrames) {
  StartOptions o;
  const ParseOutcome outcome = parse({"--bench-frames", "300", "--bench-drag", "1"}, o);
  EXPECT_EQ(outcome.exit_code, -1) << outcome.message;
  EXPECT_EQ(o.bench_drag, 1);
  EXPECT_TRUE(o.scripted());
}

TEST(Options, HelpExitsZero) {
  StartOptions o;
  const ParseOutcome outcome = parse({"--help"}, o);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(outcome.message.find("--screenshot"), std::string::npos);
  // Every config flag of attnlab-cli, with the same help.
  for (const char* flag :
       {"--sentence", "--seq-len", "--batch", "--d-in", "--d-model", "--heads", "--d-k", "--d-v",
        "--mask", "--bias", "--no-bias", "--no-output-proj", "--dropout", "--seed",
        "--dropout-seed", "--shape-only", "--memory-cap-mb", "--mistake", "--ablate"})
    EXPECT_NE(outcome.message.find(std::string(flag) + " "), std::string::npos) << flag;
  EXPECT_NE(outcome.message.find("none | causal | padding:L1,L2,... | window:W[:G]"),
            std::string::npos);
}

// The flags the app used to lack set the first config exactly as attnlab-cli's do.
TEST(Options, ConfigFlagsOfTheCliSetTheFirstConfig) {
  StartOptions o;
  const ParseOutcome outcome =
      parse({"--preset",  "seed003", "--mask",       "causal", "--mask",         "padding:5",
             "--dropout", "0.25",    "--seed",       "7",      "--dropout-seed", "9",
             "--d-in",    "6",       "--d-v",        "3",      "--bias",         "--no-output-proj",
             "--ablate",  "1",       "--screenshot", "a.png"},
            o);
  ASSERT_EQ(outcome.exit_code, -1) << outcome.message;
  AppState state;
  EXPECT_EQ(start_state(state, o, nullptr), "");
  const Config& c = state.session.config;
  EXPECT_TRUE(c.mask.causal);
  EXPECT_EQ(c.mask.padding_lengths, std::vector<int64_t>{5});
  EXPECT_DOUBLE_EQ(c.dropout, 0.25);
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(c.dropout_seed, 9u);
  EXPECT_EQ(c.d_in, 6);
  EXPECT_EQ(c.d_v, 3);
  EXPECT_TRUE(c.bias);
  EXPECT_FALSE(c.output_proj);
  EXPECT_EQ(c.ablated_heads, (std::vector<bool>{false, true}));
  ASSERT_TRUE(state.session.trace);
  EXPECT_EQ(state.session.trace->config, c);
}

// A bad value is the CLI's one-line message, with the app's name.
TEST(Options, BadConfigFlagsSayWhatTheCliSays) {
  for (const auto& [args, said] : std::vector<std::pair<std::vector<const char*>, std::string>>{
           {{"--mask", "sideways"}, "attnlab: --mask \"sideways\" is not a mask: use none, causal"},
           {{"--mistake", "sideways"}, "attnlab: --mistake sideways: unknown; choose one of"},
           {{"--ablate", "5"}, "attnlab: --ablate 5: heads are numbered 0..1"},
           {{"--memory-cap-mb", "0"}, "attnlab: --memory-cap-mb must be a positive number"}}) {
    StartOptions o;
    std::vector<const char*> with_preset = args;
    with_preset.insert(with_preset.end(), {"--preset", "seed003", "--screenshot", "a.png"});
    ASSERT_EQ(parse(with_preset, o).exit_code, -1) << args[0];
    AppState state;
    const std::string error = start_state(state, o, nullptr);
    EXPECT_EQ(error.rfind(said, 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

// --focus-head, --compare-head, --zoom open the heads panel in focus mode, zoomed about the
// centre: seed003 has T = 11, so zoom 1.25 shows 8.8 cells from 11/2 - 8.8/2 = 1.1; zoom 4 would
// show 2.75 cells, below the 8 that stay visible, so it shows 8 from 5.5 - 4 = 1.5.
TEST(Options, FocusHeadOpensTheHeadZoomedAboutTheCentre) {
  StartOptions o;
  ASSERT_EQ(parse({"--preset", "seed003", "--screenshot", "a.png", "--focus-head", "1",
                   "--compare-head", "0", "--zoom", "1.25"},
                  o)
                .exit_code,
            -1);
  AppState state;
  EXPECT_EQ(start_state(state, o, nullptr), "");
  EXPECT_EQ(state.heads.focus.head, 1);
  EXPECT_EQ(state.heads.focus.compare, 0);
  EXPECT_DOUBLE_EQ(state.heads.focus.view.span, 8.8);
  EXPECT_DOUBLE_EQ(state.heads.focus.view.first_row, 1.1);
  EXPECT_DOUBLE_EQ(state.heads.focus.view.first_col, 1.1);
  StartOptions deep;
  ASSERT_EQ(
      parse({"--preset", "seed003", "--screenshot", "a.png", "--focus-head", "0", "--zoom", "4"},
            deep)
          .exit_code,
      -1);
  AppState zoomed;
  EXPECT_EQ(start_state(zoomed, deep, nullptr), "");
  EXPECT_DOUBLE_EQ(zoomed.heads.focus.view.span, 8);
  EXPECT_DOUBLE_EQ(zoomed.heads.focus.view.first_row, 1.5);

  StartOptions bad;
  ASSERT_EQ(
      parse({"--preset", "seed003", "--screenshot", "a.png", "--focus-head", "5"}, bad).exit_code,
      -1);
  AppState other;
  EXPECT_EQ(start_state(other, bad, nullptr), "attnlab: there is no head 5 (n_heads = 2)");
  StartOptions lone;
  EXPECT_EQ(parse({"--zoom", "4"}, lone).exit_code, 2) << "--zoom needs --focus-head";
}

}  // namespace
}  // namespace attnlab::gui
