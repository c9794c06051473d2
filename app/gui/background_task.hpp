// A measurement too slow for a frame (the loop-vs-batched timings, head importance, one head vs
// many at the base preset take about a second): run on its own thread, polled every frame, and
// kept with the config it belongs to so a panel knows when its numbers are stale.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <optional>
#include <string>

#include "core/config.hpp"

namespace attnlab::gui {

template <typename Result>
class BackgroundTask {
 public:
  // Starts `work` for `config`. Ignored while one runs: a std::async future blocks when it is
  // replaced, which would freeze the window; the panel restarts it once stale.
  void start(const Config& config, std::function<Result()> work) {
    if (busy()) return;
    config_ = config;
    result_.reset();
    error_.clear();
    running_ = std::async(std::launch::async, std::move(work));
  }
  // Takes the finished result, once. Called every frame.
  void poll() {
    if (!busy() || running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    try {
      result_ = running_.get();
    } catch (const std::exception& error) {
      error_ = error.what();
    }
  }
  // Blocks until the running work is done (tests, screenshots).
  void wait() {
    if (busy()) running_.wait();
    poll();
  }
  bool busy() const { return running_.valid(); }
  // Started (running, done or failed) for exactly this config.
  bool started_for(const Config& config) const { return config_ && *config_ == config; }
  const std::optional<Result>& result() const { return result_; }
  const std::string& error() const { return error_; }

 private:
  std::future<Result> running_;
  std::optional<Config> config_;
  std::optional<Result> result_;
  std::string error_;
};

}  // namespace attnlab::gui
