#include "app/gui/check/answer_watch.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "app/gui/check/check_state.hpp"

namespace attnlab::gui {

struct AnswerWatch::Shared {
  std::string answer;
  std::function<void()> wake;
  mutable std::mutex mutex;
  std::condition_variable stopping;
  std::filesystem::file_time_type stamp = std::filesystem::file_time_type::min();
  bool stop = false;
};

// The thread's loop: a look every kAnswerLookSeconds until stopped; a new time is kept, then woken.
void AnswerWatch::watch_until_stopped(Shared& shared) {
  const auto every = std::chrono::duration<double>(kAnswerLookSeconds);
  std::unique_lock lock(shared.mutex);
  while (!shared.stopping.wait_for(lock, every, [&] { return shared.stop; })) {
    lock.unlock();
    const std::filesystem::file_time_type now = answer_stamp(shared.answer);
    lock.lock();
    if (shared.stop || now == shared.stamp) continue;
    shared.stamp = now;
    lock.unlock();
    shared.wake();
    lock.lock();
  }
}

AnswerWatch::~AnswerWatch() {
  stop();
}

AnswerWatch::AnswerWatch(AnswerWatch&& other) noexcept
    : shared_(std::move(other.shared_)), thread_(std::move(other.thread_)) {}

AnswerWatch& AnswerWatch::operator=(AnswerWatch&& other) noexcept {
  stop();
  shared_ = std::move(other.shared_);
  thread_ = std::move(other.thread_);
  return *this;
}

void AnswerWatch::watch(const std::string& answer, std::function<void()> wake) {
  stop();
  shared_ = std::make_shared<Shared>();
  shared_->answer = answer;
  shared_->wake = std::move(wake);
  shared_->stamp = answer_stamp(answer);
  if (shared_->wake) thread_ = std::thread([shared = shared_] { watch_until_stopped(*shared); });
}

void AnswerWatch::stop() {
  if (!shared_) return;
  {
    std::lock_guard lock(shared_->mutex);
    shared_->stop = true;
  }
  shared_->stopping.notify_all();
  if (thread_.joinable()) thread_.join();
  shared_.reset();
}

std::filesystem::file_time_type AnswerWatch::stamp() const {
  if (!shared_) return std::filesystem::file_time_type::min();
  std::lock_guard lock(shared_->mutex);
  return shared_->stamp;
}

}  // namespace attnlab::gui
