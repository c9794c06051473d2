// A measurement too slow for a frame (the loop-vs-batched timings, head importance, one head vs
// many at the base preset take about a second): run on its own thread, polled every frame, and
// kept with the config it belongs to so a panel knows when its numbers are stale. Every task can
// be cancelled (the work checks the flag every few milliseconds) and reports its progress; a config
// whose values cannot be computed (shape-only, above the memory cap) is refused before a thread
// starts, with the message the trace gives.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/model/config.hpp"
#include "core/model/run_control.hpp"

namespace attnlab::gui {

template <typename Result>
class BackgroundTask {
 public:
  using Work = std::function<Result(const RunControl&)>;

  BackgroundTask() = default;
  // Movable (the thread holds only the shared state, never `this`); a task moved over is stopped.
  BackgroundTask(BackgroundTask&&) noexcept = default;
  BackgroundTask& operator=(BackgroundTask&& other) noexcept {
    stop();
    shared_ = std::move(other.shared_);
    thread_ = std::move(other.thread_);
    config_ = std::move(other.config_);
    result_ = std::move(other.result_);
    error_ = std::move(other.error_);
    cancelled_ = other.cancelled_;
    return *this;
  }
  ~BackgroundTask() { stop(); }

  // Starts `work` for `config` (`what` names it in a refusal: "head importance"). While an earlier
  // run is still going it is asked to stop and this one is ignored: the panel asks again next
  // frame.
  void start(const Config& config, const std::string& what, Work work) {
    if (busy()) {
      cancel();
      return;
    }
    join();
    config_ = config;
    result_.reset();
    error_.clear();
    cancelled_ = false;
    if (const std::string reason = values_unavailable(config); !reason.empty()) {
      error_ = what + " needs computed values, and " + reason;
      return;
    }
    shared_ = std::make_shared<Shared>();
    thread_ = std::thread([shared = shared_, work = std::move(work)] {
      RunControl control;
      control.cancel = &shared->cancel;
      control.progress = [&shared](double fraction) { shared->progress = fraction; };
      std::optional<Result> result;
      std::string error;
      bool cancelled = false;
      try {
        result = work(control);
      } catch (const Cancelled&) {
        cancelled = true;
      } catch (const std::exception& failure) {  // UserError, bad_alloc
        error = failure.what();
      }
      std::lock_guard lock(shared->mutex);
      shared->result = std::move(result);
      shared->error = std::move(error);
      shared->cancelled = cancelled;
      shared->done = true;
    });
  }

  // Asks the running work to stop; it comes back as cancelled (not an error) within milliseconds.
  void cancel() {
    if (shared_) shared_->cancel = true;
  }

  // Takes the finished result, once. Called every frame.
  void poll() {
    if (!shared_) return;
    {
      std::lock_guard lock(shared_->mutex);
      if (!shared_->done) return;
      result_ = std::move(shared_->result);
      error_ = std::move(shared_->error);
      cancelled_ = shared_->cancelled;
    }
    join();
  }
  // Blocks until the running work is done (tests, screenshots).
  void wait() {
    if (thread_.joinable()) thread_.join();
    poll();
  }
  // Cancels and waits: what closing the app does.
  void stop() {
    cancel();
    wait();
  }

  bool busy() const {
    if (!shared_) return false;
    std::lock_guard lock(shared_->mutex);
    return !shared_->done;
  }
  // Running, or finished with a result poll() has not taken yet: a frame is still due.
  bool pending() const { return shared_ != nullptr; }
  double progress() const { return shared_ ? shared_->progress.load() : 0.0; }
  // Started (running, done, failed, refused or cancelled) for exactly this config.
  bool started_for(const Config& config) const { return config_ && *config_ == config; }
  const std::optional<Result>& result() const { return result_; }
  const std::string& error() const { return error_; }  // a refusal or a failure
  bool cancelled() const { return cancelled_; }
  // Forgets the config, so the panel may start the same measurement again (after a cancel).
  void forget() {
    if (!busy()) config_.reset();
  }

 private:
  // Lives as long as the longer of the task and its thread.
  struct Shared {
    std::atomic<bool> cancel{false};
    std::atomic<double> progress{0.0};
    mutable std::mutex mutex;
    bool done = false;
    std::optional<Result> result;
    std::string error;
    bool cancelled = false;
  };
  void join() {
    if (thread_.joinable()) thread_.join();
    if (shared_ && shared_->done) shared_.reset();
  }

  std::shared_ptr<Shared> shared_;
  std::thread thread_;
  std::optional<Config> config_;
  std::optional<Result> result_;
  std::string error_;
  bool cancelled_ = false;
};

}  // namespace attnlab::gui
