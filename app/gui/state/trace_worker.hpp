// Computes traces (with their correct twin under a mistake) on a background thread so a big
// configuration (the base preset, B=32) never freezes the window. A newer request supersedes the
// one running: the old run is cancelled. A one-thread build (core/model/threads_available.hpp)
// has no thread: a request is computed when it is made.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/gui/state/trace_bundle.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

struct TraceResult {
  uint64_t request_id = 0;
  TraceBundle bundle;  // bundle.trace is null when the run failed or was cancelled
  std::string error;   // the UserError's message when it failed
  bool cancelled = false;
};

class TraceWorker {
 public:
  TraceWorker();
  ~TraceWorker();  // cancels the current run and joins the thread
  TraceWorker(const TraceWorker&) = delete;
  TraceWorker& operator=(const TraceWorker&) = delete;

  // Queues a run; any queued or running request is superseded (and cancelled).
  void request(uint64_t request_id, const Config& config, const Inputs& inputs);
  void cancel();  // stops the current run; its result comes back as cancelled

  // The newest finished result, once.
  std::optional<TraceResult> take_result();
  bool busy() const { return busy_.load(); }
  double progress() const { return progress_.load(); }  // 0..1 of the running request
  // Blocks until nothing is queued or running (tests, screenshot mode).
  void wait_idle();

 private:
  struct Job {
    uint64_t request_id;
    Config config;
    Inputs inputs;
  };
  void loop();
  // Runs `job` (cancel_ and progress_ reset by the caller): its bundle, error or cancellation.
  TraceResult compute(const Job& job);
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::optional<Job> pending_;
  std::optional<TraceResult> result_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> busy_{false};
  std::atomic<double> progress_{0.0};
  bool running_ = false;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after every member above exists (none in a one-thread build)
};

}  // namespace attnlab::gui
