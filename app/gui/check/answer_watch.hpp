// The Check tab's watcher: a thread that looks at the answer's modification time (answer_stamp)
// a few times a second and, when it changes, wakes the main loop. Idle, the loop sleeps until an
// event arrives: without the wake, an answer rewritten from a terminal would be graded only when
// the mouse moved. The wake is the window's (WindowRequests::wake_loop: glfwPostEmptyEvent on the
// desktop); the frame it brings sees answer_changed() and grades. With no wake (a page, whose
// answers arrive dropped, as input) there is no thread: the time is looked at when opened.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace attnlab::gui {

// Seconds between two looks at the answer's modification time: a change is graded well within a
// second.
constexpr double kAnswerLookSeconds = 0.25;

class AnswerWatch {
 public:
  AnswerWatch() = default;
  ~AnswerWatch();
  // Movable (the thread holds only the shared part, never `this`); a watch moved over is stopped.
  AnswerWatch(AnswerWatch&& other) noexcept;
  AnswerWatch& operator=(AnswerWatch&& other) noexcept;

  // Watches `answer` (the watch before is stopped), its time looked at now; `wake` is called from
  // the watcher's thread each time the time changes (empty: no thread, no later look).
  void watch(const std::string& answer, std::function<void()> wake);
  void stop();

  // The answer's modification time last seen (min(): missing, or nothing watched).
  std::filesystem::file_time_type stamp() const;

 private:
  struct Shared;  // the path, the time seen and the stop flag, shared with the thread
  static void watch_until_stopped(Shared& shared);
  std::shared_ptr<Shared> shared_;
  std::thread thread_;
};

}  // namespace attnlab::gui
