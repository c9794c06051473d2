// A measurement too slow for a frame (the loop-vs-batched timings, head importance, one head vs
// many at the base preset take about a second): run on its own thread (in a one-thread build,
// core/model/threads_available.hpp, at once when started), polled every frame, and
// kept with the key it was started for, so a panel knows when its numbers are stale. A job derived
// from the shown trace is keyed by (trace generation, the panel's own choice): TraceJob and
// start_for_trace (trace_jobs.hpp). Every task can be cancelled (the work checks the flag every few
// milliseconds) and reports its progress. Every task of the app is in one list (all_jobs,
// jobs.hpp), through which they are polled, waited for and cancelled.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/gui/state/gui_words.hpp"
#include "app/gui/state/job_priority.hpp"
#include "core/model/run_control.hpp"
#include "core/model/threads_available.hpp"

namespace attnlab::gui {

// What the one list of jobs does with each of them.
class Job {
 public:
  virtual ~Job() = default;
  // Takes the finished result, once. Called every frame.
  virtual void poll() = 0;
  // Blocks until the running work is done (tests, screenshots), then takes it.
  virtual void wait() = 0;
  // Asks the running work to stop; it comes back as cancelled (not an error) within milliseconds.
  virtual void cancel() = 0;
  // Running, or finished with a result poll() has not taken yet: a frame is still due.
  virtual bool pending() const = 0;
  // Its work is still running (asked to stop or not).
  virtual bool busy() const = 0;
};

// The key of a job started by a button, whatever the state: it runs again when asked.
struct NoKey {
  bool operator==(const NoKey&) const = default;
};

template <typename Result, typename Key = NoKey>
class BackgroundTask final : public Job {
 public:
  using Work = std::function<Result(const RunControl&)>;

  BackgroundTask() = default;
  // Movable (the thread holds only the shared state, never `this`); a task moved over is stopped.
  BackgroundTask(BackgroundTask&&) noexcept = default;
  BackgroundTask& operator=(BackgroundTask&& other) noexcept {
    stop();
    shared_ = std::move(other.shared_);
    thread_ = std::move(other.thread_);
    key_ = std::move(other.key_);
    result_ = std::move(other.result_);
    error_ = std::move(other.error_);
    cancelled_ = other.cancelled_;
    return *this;
  }
  ~BackgroundTask() override { stop(); }

  // Starts `work` for `key`. While an earlier run is still going it is asked to stop and this one
  // is ignored: the panel asks again next frame.
  void start(const Key& key, Work work) {
    if (!begin(key)) return;
    shared_ = std::make_shared<Shared>();
    if constexpr (kThreadsAvailable)
      thread_ = std::thread([shared = shared_, work = std::move(work)] {
        lower_this_thread_priority();  // the window's frame first
        run(shared, work);
      });
    else
      run(shared_, work);
  }
  // Records `key` as refused for `reason` without starting a thread (a config with no values).
  void refuse(const Key& key, std::string reason) {
    if (begin(key)) error_ = std::move(reason);
  }

  void cancel() override {
    if (shared_) shared_->cancel = true;
  }
  void poll() override {
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
  void wait() override {
    if (thread_.joinable()) thread_.join();
    poll();
  }
  // Cancels and waits: what closing the app does.
  void stop() {
    cancel();
    wait();
  }

  bool busy() const override {
    if (!shared_) return false;
    std::lock_guard lock(shared_->mutex);
    return !shared_->done;
  }
  bool pending() const override { return shared_ != nullptr; }
  double progress() const { return shared_ ? shared_->progress.load() : 0.0; }
  // Started (running, done, failed, refused or cancelled) for exactly this key.
  bool started_for(const Key& key) const { return key_ && *key_ == key; }
  // The result, only when it was computed for `key` (a result of another key is stale).
  const Result* result_for(const Key& key) const {
    return started_for(key) && result_ ? &*result_ : nullptr;
  }
  const std::optional<Key>& key() const { return key_; }
  const std::optional<Result>& result() const { return result_; }
  const std::string& error() const { return error_; }  // a refusal or a failure
  bool cancelled() const { return cancelled_; }
  // Forgets the key, so the panel may start the same measurement again (after a cancel).
  void forget() {
    if (!busy()) key_.reset();
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
  // The work, on its thread (or the caller's): its result, failure or cancellation into `shared`.
  static void run(const std::shared_ptr<Shared>& shared, const Work& work) {
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
    } catch (const std::exception& failure) {  // the job's boundary: UserError, bad_alloc, ...
      error = in_gui_words(failure);
    } catch (...) {
      error = "the job failed with an unknown error";
    }
    std::lock_guard lock(shared->mutex);
    shared->result = std::move(result);
    shared->error = std::move(error);
    shared->cancelled = cancelled;
    shared->done = true;
  }
  // Clears the last run for `key`; false (and the running work asked to stop) while one runs.
  bool begin(const Key& key) {
    if (busy()) {
      cancel();
      return false;
    }
    join();
    key_ = key;
    result_.reset();
    error_.clear();
    cancelled_ = false;
    return true;
  }
  void join() {
    if (thread_.joinable()) thread_.join();
    if (shared_ && shared_->done) shared_.reset();
  }

  std::shared_ptr<Shared> shared_;
  std::thread thread_;
  std::optional<Key> key_;
  std::optional<Result> result_;
  std::string error_;
  bool cancelled_ = false;
};

}  // namespace attnlab::gui
