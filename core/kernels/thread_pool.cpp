#include "core/kernels/thread_pool.hpp"

#include "core/model/threads_available.hpp"

namespace attnlab {

ThreadPool& ThreadPool::shared() {
  static ThreadPool pool(int(usable_cores()) - 1);
  return pool;
}

ThreadPool::ThreadPool(int helpers) {
  for (int i = 0; i < helpers; ++i) helpers_.emplace_back([this] { helper_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& helper : helpers_) helper.join();
}

void ThreadPool::run(int64_t tasks, const std::function<void(int64_t)>& task) {
  std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
  if (!busy.owns_lock() || helpers_.empty() || tasks <= 1) {
    for (int64_t i = 0; i < tasks; ++i) task(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    tasks_ = tasks;
    next_ = 0;
    finished_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  const int64_t mine = drain();
  std::unique_lock<std::mutex> lock(mutex_);
  finished_ += mine;
  // Helpers only touch this loop while counted in active_, so once none is left the loop's
  // state can be cleared and reused.
  done_.wait(lock, [&] { return finished_ == tasks_ && active_ == 0; });
  task_ = nullptr;
}

int64_t ThreadPool::drain() {
  int64_t completed = 0;
  for (int64_t i = next_++; i < tasks_; i = next_++) {
    (*task_)(i);
    ++completed;
  }
  return completed;
}

void ThreadPool::helper_loop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || (task_ != nullptr && generation_ != seen); });
    if (stopping_) return;
    seen = generation_;
    ++active_;
    lock.unlock();
    const int64_t completed = drain();
    lock.lock();
    finished_ += completed;
    --active_;
    if (finished_ == tasks_ && active_ == 0) done_.notify_all();
  }
}

}  // namespace attnlab
