// The command line: good options parse, bad ones give one line and exit code 2.
#include <gtest/gtest.h>

#include <vector>

#include "app/gui/options.hpp"

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
  EXPECT_EQ(*o.heads, 4);
  EXPECT_EQ(*o.d_model, 8);
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
}

}  // namespace
}  // namespace attnlab::gui
