#include "app/gui/state/trace_worker.hpp"

#include "app/gui/state/gui_words.hpp"
#include "app/gui/state/job_priority.hpp"
#include "core/model/errors.hpp"
#include "core/model/threads_available.hpp"
#include "core/trace/mha.hpp"

namespace attnlab::gui {

TraceWorker::TraceWorker() {
  if constexpr (kThreadsAvailable)
    thread_ = std::thread([this] {
      lower_this_thread_priority();  // the window's frame first
      loop();
    });
}

TraceWorker::~TraceWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    pending_.reset();
    cancel_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void TraceWorker::request(uint64_t request_id, const Config& config, const Inputs& inputs) {
  if constexpr (!kThreadsAvailable) {
    cancel_ = false;
    progress_ = 0.0;
    TraceResult result = compute(Job{request_id, config, inputs});
    std::lock_guard lock(mutex_);
    result_ = std::move(result);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    pending_ = Job{request_id, config, inputs};
    cancel_ = true;  // supersede the running job; the loop clears it before the next one
    busy_ = true;
  }
  wake_.notify_all();
}

void TraceWorker::cancel() {
  std::lock_guard lock(mutex_);
  pending_.reset();
  cancel_ = true;
  if (!running_) {
    busy_ = false;
    idle_.notify_all();
  }
}

std::optional<TraceResult> TraceWorker::take_result() {
  std::lock_guard lock(mutex_);
  std::optional<TraceResult> out = std::move(result_);
  result_.reset();
  return out;
}

void TraceWorker::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return !busy_.load() && !pending_; });
}

void TraceWorker::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
    if (stopping_) return;
    Job job = std::move(*pending_);
    pending_.reset();
    running_ = true;
    cancel_ = false;
    progress_ = 0.0;
    lock.unlock();
    TraceResult result = compute(job);
    lock.lock();
    running_ = false;
    // A superseded run's result is dropped: a newer request is already queued.
    if (!pending_) {
      result_ = std::move(result);
      busy_ = false;
      idle_.notify_all();
    }
  }
}

TraceResult TraceWorker::compute(const Job& job) {
  TraceResult result;
  result.request_id = job.request_id;
  RunControl control;
  control.cancel = &cancel_;
  control.progress = [this](double fraction) { progress_ = fraction; };
  try {
    result.bundle = compute_bundle(job.config, job.inputs, control);
  } catch (const Cancelled&) {
    result.cancelled = true;
  } catch (const std::exception& error) {  // UserError, or bad_alloc for a huge config
    result.error = in_gui_words(error);
  }
  return result;
}

}  // namespace attnlab::gui
