// Every frame and every job catches at its boundary (issue 43): each exception type a frame or a
// job can meet (std::bad_alloc, a library's own, std::stoi's out_of_range, a JSON type_error, a
// UserError nobody caught, something that is not an exception) ends that frame or that job only,
// says one line (stderr and the status line for a frame, the job's own line for a job), and the
// app draws its next frame as usual.
#include <gtest/gtest.h>

#include <functional>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/gui/panels/frame_guard.hpp"
#include "app/gui/state/background_task.hpp"
#include "core/model/errors.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

struct Thrower {
  const char* name;
  std::function<void()> raise;
  std::string said;  // what the line must hold
};

std::vector<Thrower> throwers() {
  return {
      {"bad_alloc", [] { throw std::bad_alloc(); }, "out of memory"},
      {"runtime_error", [] { throw std::runtime_error("the library said no"); },
       "the library said no"},
      {"stoi", [] { (void)std::stoi("99999999999"); }, "stoi"},
      {"json type_error",
       [] {
         const nlohmann::json format = "1";
         (void)format.get<int>();
       },
       "type must be number"},
      {"UserError", [] { throw UserError("nobody caught this"); }, "nobody caught this"},
      {"not an exception", [] { throw 42; }, "an unknown error"},
  };
}

class FrameGuardTest : public HeadlessImGui {};

TEST_F(FrameGuardTest, EachExceptionTypeThroughAFrameEndsThatFrameOnlyWithOneLine) {
  start_on("seed003");
  for (const Thrower& thrower : throwers()) {
    ::testing::internal::CaptureStderr();
    bool failed = false;
    const bool goes_on = guard_frame(
        state,
        [&] {
          ImGui::NewFrame();
          draw_frame(state, nullptr);
          // Thrown half-way through a window, an ID and a colour: the frame is left as it was.
          ImGui::Begin("half drawn");
          ImGui::PushID(7);
          ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 0, 0, 255));
          thrower.raise();
          ImGui::End();
          ImGui::Render();
          return true;
        },
        &failed);
    const std::string said = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(goes_on) << thrower.name;
    EXPECT_TRUE(failed) << thrower.name;
    EXPECT_EQ(said, "attnlab: " + state.status + "\n") << thrower.name << ": one line on stderr";
    EXPECT_EQ(state.status.find('\n'), std::string::npos) << thrower.name;
    EXPECT_EQ(state.status.rfind("This frame could not be drawn: ", 0), 0u) << state.status;
    EXPECT_NE(state.status.find(thrower.said), std::string::npos)
        << thrower.name << ": " << state.status;
    // The next frames draw as usual.
    frame();
    frame();
    EXPECT_TRUE(state.session.trace) << thrower.name;
  }
  // A frame that ends the loop still does, and one that does not throw is not a failure.
  bool failed = false;
  EXPECT_FALSE(guard_frame(
      state, [] { return false; }, &failed));
  EXPECT_FALSE(failed);
}

TEST(JobBoundary, EachExceptionTypeThroughAJobEndsThatJobWithItsReason) {
  for (const Thrower& thrower : throwers()) {
    BackgroundTask<int> task;
    task.start({}, [&thrower](const RunControl&) -> int {
      thrower.raise();
      return 1;
    });
    task.wait();
    EXPECT_FALSE(task.busy()) << thrower.name;
    EXPECT_FALSE(task.result()) << thrower.name;
    EXPECT_FALSE(task.cancelled()) << thrower.name;
    EXPECT_NE(task.error().find(thrower.said), std::string::npos)
        << thrower.name << ": " << task.error();
    // The same job runs again, and this time gives its result.
    task.forget();
    task.start({}, [](const RunControl&) { return 7; });
    task.wait();
    ASSERT_TRUE(task.result()) << thrower.name;
    EXPECT_EQ(*task.result(), 7);
  }
}

}  // namespace
}  // namespace attnlab::gui
