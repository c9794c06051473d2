// Lets a caller on another thread follow and stop a long computation: a trace, a measurement
// (head importance, loop vs batched, one head vs many). Every such function checks the flag
// often enough to stop within a few milliseconds and reports its progress from 0 to 1.
#pragma once

#include <atomic>
#include <exception>
#include <functional>

namespace attnlab {

struct RunControl {
  const std::atomic<bool>* cancel = nullptr;  // set to true to stop: the work throws Cancelled
  std::function<void(double)> progress;       // called with 0..1 as the work advances

  bool cancel_requested() const { return cancel && cancel->load(std::memory_order_relaxed); }
  void check_cancel() const;           // throws Cancelled when asked to stop
  void report(double fraction) const;  // progress(fraction), when someone listens
  // The same cancel flag, with progress 0..1 of a part mapped onto [begin, end] of the whole.
  RunControl part(double begin, double end) const;
};

class Cancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "cancelled"; }
};

}  // namespace attnlab
