#include "app/gui/export/animation_sink.hpp"

#include <algorithm>
#include <utility>

namespace attnlab::gui {

void MergingFrames::add(AnimationSink& sink, std::vector<unsigned char> rgb, int centiseconds) {
  if (!kept_.rgb.empty() && kept_.rgb == rgb) {
    kept_.centiseconds += centiseconds;  // the picture holds: one longer frame
    return;
  }
  if (!kept_.rgb.empty()) {
    kept_.centiseconds = std::max(1, kept_.centiseconds);
    sink.add(kept_);
  }
  kept_ = {std::move(rgb), centiseconds};
  ++distinct_;
}

void MergingFrames::lengthen(int centiseconds) {
  if (!kept_.rgb.empty()) kept_.centiseconds += std::max(0, centiseconds);
}

void MergingFrames::finish(AnimationSink& sink) {
  if (kept_.rgb.empty()) return;
  kept_.centiseconds = std::max(1, kept_.centiseconds);
  sink.add(kept_);
  kept_ = {{}, 0};
}

EncoderThread::EncoderThread(std::unique_ptr<AnimationSink> encoder)
    : encoder_(std::move(encoder)), thread_([this] { encode_frames(); }) {}

EncoderThread::~EncoderThread() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    handed_.reset();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void EncoderThread::encode_frames() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || handed_; });
    if (!handed_) return;  // stopping, nothing left
    AnimationFrame frame = std::move(*handed_);
    handed_.reset();
    encoding_ = true;
    lock.unlock();
    std::exception_ptr failure;
    try {
      encoder_->add(frame);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    encoding_ = false;
    if (failure && !failure_) failure_ = failure;
    changed_.notify_all();
  }
}

void EncoderThread::wait_until_free(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return !handed_ && !encoding_; });
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void EncoderThread::add(const AnimationFrame& frame) {
  std::unique_lock lock(mutex_);
  wait_until_free(lock);  // the frame before encoded: at most one is held here
  handed_ = frame;
  changed_.notify_all();
}

void EncoderThread::finish() {
  {
    std::unique_lock lock(mutex_);
    wait_until_free(lock);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
  encoder_->finish();
}

}  // namespace attnlab::gui
