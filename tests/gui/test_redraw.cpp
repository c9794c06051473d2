// Idle means idle: the app asks for frames only while something moves without input (a transition,
// play, a computation, a pending request, ImGui settling after input) and sleeps otherwise, waking
// often enough for a blinking text cursor and for SIGTERM.
#include <imgui_internal.h>  // a window's scroll bar

#include <chrono>
#include <thread>

#include "app/gui/panels/layout_motion.hpp"
#include "app/gui/state/redraw.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class Redraw : public HeadlessImGui {
 protected:
  // seed003 on screen, settled: no transition, no play, nothing computing or requested.
  void settle_on_seed003() {
    start_on("seed003");
    for (int i = 0; i < 3; ++i) frame();
    ASSERT_FALSE(wants_frames(state)) << "seed003 should be settled after its first frames";
  }
  static constexpr InputActivity kNoInput{kSettleFrames, false, false};
};

TEST_F(Redraw, SettledAppSleepsUntilAnEventAndWakesForTheStopFlag) {
  settle_on_seed003();
  const NextFrame next = next_frame(state, kNoInput);
  EXPECT_EQ(next.wait_seconds, kIdleWaitSeconds);
  EXPECT_FALSE(next.draw_on_timeout);  // a timeout with no event draws nothing
}

// SIGTERM is seen when the wait ends, and the app must end within a second: half of it at most
// for the wait, the rest for stopping the jobs and saving the settings.
static_assert(kIdleWaitSeconds > 0.0 && kIdleWaitSeconds <= 0.5);
// ImGui needs 2-3 frames after input for hover and active states.
static_assert(kSettleFrames >= 2);

TEST_F(Redraw, AStepChangeAnimatesUntilTheTransitionLands) {
  settle_on_seed003();
  state.ui.animation_seconds = 0.6f;
  step_by(state, 1);
  EXPECT_TRUE(wants_frames(state));
  advance_clock(state, 0.3);  // half way: progress 0.5
  EXPECT_TRUE(wants_frames(state));
  EXPECT_EQ(next_frame(state, kNoInput).wait_seconds, 0.0);
  advance_clock(state, 0.31);  // landed
  EXPECT_FALSE(wants_frames(state));
}

TEST_F(Redraw, NoAnimationMeansNoFramesAfterAStep) {
  settle_on_seed003();
  state.ui.animation_seconds = 0;
  step_by(state, 1);
  EXPECT_FALSE(wants_frames(state));
}

TEST_F(Redraw, AFrozenTransitionIsAStillPicture) {
  settle_on_seed003();
  step_by(state, 1);
  state.walk.frozen_transition = 0.5f;  // a figure of the transition half way
  EXPECT_FALSE(wants_frames(state));
}

TEST_F(Redraw, PlayingRedrawsUntilPaused) {
  settle_on_seed003();
  state.ui.animation_seconds = 0;
  toggle_play(state);
  EXPECT_TRUE(wants_frames(state));
  toggle_play(state);
  EXPECT_FALSE(wants_frames(state));
}

TEST_F(Redraw, TheWorkersProgressRedrawsUntilItsTraceIsTaken) {
  settle_on_seed003();
  ASSERT_TRUE(apply_preset(state, "base"));  // B=32, T=128: computed on the worker
  ASSERT_TRUE(state.session.computing);
  EXPECT_TRUE(wants_frames(state));
  state.session.worker->wait_idle();
  EXPECT_TRUE(wants_frames(state)) << "the finished trace is not on screen until a frame takes it";
  poll_trace(state);
  EXPECT_EQ(state.session.trace->config.seq_len, 128);
  EXPECT_FALSE(wants_frames(state));
}

TEST_F(Redraw, AMeasurementRedrawsUntilItsResultIsTaken) {
  settle_on_seed003();
  start_importance(state);
  EXPECT_TRUE(wants_frames(state));
  // Finished on its thread, but the result not yet taken by a frame's poll.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (state.head_tools.importance.busy() && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_FALSE(state.head_tools.importance.busy());
  EXPECT_TRUE(wants_frames(state)) << "a finished measurement must reach the screen";
  poll_measurements(state);
  ASSERT_TRUE(state.head_tools.importance.result());
  EXPECT_FALSE(wants_frames(state));
}

TEST_F(Redraw, EachWindowRequestGetsAFrame) {
  settle_on_seed003();
  const auto wanted_after = [&](auto change) {
    AppState& s = state;
    change(s);
    const bool wanted = wants_frames(s);
    s.window = WindowRequests{};
    s.tabs.requested_tool.reset();
    s.tabs.requested_info.reset();
    return wanted;
  };
  EXPECT_TRUE(wanted_after([](AppState& s) { s.window.fonts_dirty = true; }));
  EXPECT_TRUE(wanted_after([](AppState& s) { s.window.toggle_fullscreen = true; }));
  EXPECT_TRUE(wanted_after([](AppState& s) { s.window.export_request = ExportRequest{}; }));
  EXPECT_TRUE(wanted_after([](AppState& s) { s.tabs.requested_tool = ToolTab::Memory; }));
  EXPECT_TRUE(wanted_after([](AppState& s) { s.tabs.requested_info = InfoTab::Checks; }));
  EXPECT_FALSE(wants_frames(state));
}

TEST_F(Redraw, InputGetsAFewFramesToSettleThenTheAppSleeps) {
  settle_on_seed003();
  for (int frames = 0; frames < kSettleFrames; ++frames)
    EXPECT_EQ(next_frame(state, {frames, false, false}).wait_seconds, 0.0) << frames;
  EXPECT_EQ(next_frame(state, {kSettleFrames, true, false}).wait_seconds, 0.0)
      << "a held button repeats and drags without new events";
}

TEST_F(Redraw, AHeldKeyOrButtonKeepsFramesComing) {
  settle_on_seed003();
  ImGuiIO& io = ImGui::GetIO();
  InputActivity input;  // an event just arrived
  const auto draw = [&] {
    frame();
    note_frame_drawn(input, state, io);
  };
  draw();
  EXPECT_EQ(input.frames_since_change, 1);
  EXPECT_FALSE(input.held);
  io.KeysDown[kGlfwDown] = true;  // held: ImGui repeats it, X sends no event until its own repeat
  draw();
  EXPECT_TRUE(input.held);
  io.KeysDown[kGlfwDown] = false;
  io.MouseDown[1] = true;  // a drag, the pointer still
  draw();
  EXPECT_TRUE(input.held);
  EXPECT_EQ(next_frame(state, input).wait_seconds, 0.0);
  io.MouseDown[1] = false;
  draw();
  EXPECT_FALSE(input.held);
  EXPECT_EQ(input.frames_since_change, 4);
  EXPECT_GT(next_frame(state, input).wait_seconds, 0.0);
}

TEST_F(Redraw, AFewFramesFollowTheEndOfATransitionForImGuiToSettle) {
  settle_on_seed003();
  state.ui.animation_seconds = 0.1f;
  InputActivity input{kSettleFrames, false, false};  // the step below came from the walk's play
  step_by(state, 1);
  int frames = 0;
  while (next_frame(state, input).wait_seconds == 0 && frames < 100) {
    frame();  // 1/60 s each: the transition lands after 6
    note_frame_drawn(input, state, ImGui::GetIO());
    ++frames;
  }
  EXPECT_EQ(transition_progress(state), 1.0f);
  // 6 frames until it lands, then the landing frame is followed by kSettleFrames - 1 more.
  EXPECT_GE(frames, 6 + kSettleFrames - 1);
  EXPECT_LE(frames, 7 + kSettleFrames);
}

TEST_F(Redraw, ATextCursorBlinksAtAFewHertzNotEveryFrame) {
  settle_on_seed003();
  const NextFrame next = next_frame(state, {kSettleFrames, false, true});
  EXPECT_GE(next.wait_seconds, 0.2);  // at most 5 frames a second
  EXPECT_LE(next.wait_seconds, 0.5);  // at least 2: the blink shows
  EXPECT_TRUE(next.draw_on_timeout);  // no event needed: the blink is the change
}

TEST_F(Redraw, TheClockResumesAfterASleepInsteadOfJumping) {
  EXPECT_EQ(capped_frame_seconds(1.0 / 60), 1.0 / 60);
  EXPECT_EQ(capped_frame_seconds(10.0), kMaxFrameSeconds);
  // A transition started just before a 10 s sleep is still under way after the next frame.
  settle_on_seed003();
  state.ui.animation_seconds = 0.6f;
  step_by(state, 1);
  advance_clock(state, capped_frame_seconds(10.0));
  EXPECT_LT(transition_progress(state), 1.0f);
}

// A saved picture waits for the windows to stand still: a window whose content outgrows it moves
// the frame it grows and the next (ImGui adds the scroll bar by the frame before's content), then
// stands still.
TEST_F(Redraw, TheLayoutMovesUntilAScrollBarHasFollowedItsContent) {
  LayoutMotion motion;
  int lines = 3;
  const auto draw = [&] {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(300, 200));
    ImGui::Begin("motion");
    for (int i = 0; i < lines; ++i) ImGui::Text("line %d", i);
    ImGui::End();
    ImGui::Render();
    motion.note_frame();
  };
  draw();
  EXPECT_TRUE(motion.moving());  // the first frame
  draw();
  EXPECT_FALSE(motion.moving());
  lines = 40;
  draw();
  EXPECT_TRUE(motion.moving());
  EXPECT_FALSE(ImGui::FindWindowByName("motion")->ScrollbarY);
  draw();
  EXPECT_TRUE(motion.moving());
  EXPECT_TRUE(ImGui::FindWindowByName("motion")->ScrollbarY);
  draw();
  EXPECT_FALSE(motion.moving());
  EXPECT_FALSE(picture_settling(state, motion));
}

}  // namespace
}  // namespace attnlab::gui
