// An animation on its way to a file, frame by frame: the frames, the sink an encoder is (a GIF,
// gif_writer.hpp; an MP4 through ffmpeg, picture_export.hpp), and the merging of a picture that
// holds into one longer frame, so an export or a recording keeps at most the frame before.
#pragma once

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace attnlab::gui {

struct AnimationFrame {
  std::vector<unsigned char> rgb;  // width * height * 3, top row first
  int centiseconds = 10;           // how long it is shown
};

// Where an animation's frames go as they are made: an encoder writing its file (a GIF here, an
// MP4 through ffmpeg: open_animation, picture_export.hpp), so no animation is ever kept whole.
class AnimationSink {
 public:
  virtual ~AnimationSink() = default;  // not finished: no file is left, not even a partial one
  // Encodes one frame (its time known); throws UserError naming the file when it cannot.
  virtual void add(const AnimationFrame& frame) = 0;
  // The file whole at its path (a temporary file until then, renamed).
  virtual void finish() = 0;
};

// Frames on their way to a sink, keeping only the one before: a picture equal to it only makes it
// longer, a new one sends it on (its time is then known).
class MergingFrames {
 public:
  void add(AnimationSink& sink, std::vector<unsigned char> rgb, int centiseconds);
  void lengthen(int centiseconds);               // the frame kept is shown this much longer
  void finish(AnimationSink& sink);              // the frame kept sent on too
  size_t distinct() const { return distinct_; }  // frames sent on or kept
  bool empty() const { return distinct_ == 0; }
  const AnimationFrame* kept() const { return kept_.rgb.empty() ? nullptr : &kept_; }

 private:
  AnimationFrame kept_{{}, 0};
  size_t distinct_ = 0;
};

// Another sink's encoding on its own thread, so the window draws on while a frame is encoded
// (Record): add() hands the frame over and returns at once, waiting only while the frame before
// is still being encoded (so at most one frame is held here). The encoder's error is thrown by the
// next add() or by finish(); dropped unfinished, the encoder is dropped too (no file).
class EncoderThread final : public AnimationSink {
 public:
  explicit EncoderThread(std::unique_ptr<AnimationSink> encoder);
  ~EncoderThread() override;
  EncoderThread(const EncoderThread&) = delete;
  EncoderThread& operator=(const EncoderThread&) = delete;
  void add(const AnimationFrame& frame) override;
  void finish() override;  // waits for the frames handed over, then finishes the file

 private:
  void encode_frames();  // the thread's loop
  void wait_until_free(std::unique_lock<std::mutex>& lock);
  std::unique_ptr<AnimationSink> encoder_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<AnimationFrame> handed_;  // the frame waiting for the thread
  bool encoding_ = false;                 // the thread is encoding one
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::thread thread_;  // last: starts once every member above exists
};

}  // namespace attnlab::gui
