// A few threads kept for the life of the process, so that splitting a loop over the cores costs
// a wake-up, not a thread start. One loop at a time: a second caller (another thread, or a loop
// inside a loop) runs its loop on its own thread instead of waiting.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace attnlab {

class ThreadPool {
 public:
  // The process's pool: usable_cores() - 1 helper threads (none in a one-thread build), started
  // on first use.
  static ThreadPool& shared();

  // Calls task(i) for every i in [0, tasks), spread over the helpers and the calling thread;
  // returns when all have finished. task must not throw.
  void run(int64_t tasks, const std::function<void(int64_t)>& task);

  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  explicit ThreadPool(int helpers);
  void helper_loop();
  // Runs tasks of the current loop until none is left; returns how many this thread ran.
  int64_t drain();

  std::mutex busy_;  // held by the caller whose loop is running
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> helpers_;
  const std::function<void(int64_t)>* task_ = nullptr;
  int64_t tasks_ = 0;
  std::atomic<int64_t> next_{0};
  int64_t finished_ = 0;     // tasks completed in the current loop (under mutex_)
  int active_ = 0;           // helpers working on the current loop (under mutex_)
  uint64_t generation_ = 0;  // bumped for every loop, so helpers know there is new work
  bool stopping_ = false;
};

}  // namespace attnlab
