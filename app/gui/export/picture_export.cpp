#include "app/gui/export/picture_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "app/gui/gl/screenshot.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/model/model_state.hpp"
#include "app/gui/panels/layout_dump.hpp"
#include "app/gui/platform/platform.hpp"
#include "app/gui/state/redraw.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

// The layout measures its text, then places it; a scrollbar a first layout needed goes a frame
// after the layout that needs none.
constexpr int kStillFrames = 6;

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// An MP4 through ffmpeg, fed each frame as it comes (repeated for its time), written to a
// temporary file renamed when whole.
class Mp4Stream final : public AnimationSink {
 public:
  Mp4Stream(const std::string& path, int width, int height, int fps)
      : path_(path), temporary_(path + ".partial.mp4"), fps_(fps) {
    const std::string command =
        shell_quoted(platform::program_on_path("ffmpeg")) +
        " -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24" + " -s " +
        std::to_string(width) + "x" + std::to_string(height) + " -r " + std::to_string(fps) +
        " -i - -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -pix_fmt yuv420p " + shell_quoted(temporary_);
    pipe_ = popen(command.c_str(), "w");
    if (!pipe_) throw UserError("cannot start ffmpeg to write " + path);
  }
  ~Mp4Stream() override {
    if (!pipe_) return;
    pclose(pipe_);
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
  Mp4Stream(const Mp4Stream&) = delete;
  Mp4Stream& operator=(const Mp4Stream&) = delete;

  void add(const AnimationFrame& frame) override {
    const int repeats = std::max(1, int(std::lround(frame.centiseconds * fps_ / 100.0)));
    for (int r = 0; r < repeats; ++r)
      if (std::fwrite(frame.rgb.data(), 1, frame.rgb.size(), pipe_) != frame.rgb.size()) fail();
  }
  void finish() override {
    const int status = pclose(std::exchange(pipe_, nullptr));
    if (status != 0) fail();
    std::error_code error;
    std::filesystem::rename(temporary_, path_, error);
    if (error) throw UserError("cannot write " + path_ + ": " + error.message());
  }

 private:
  [[noreturn]] void fail() {
    if (pipe_) pclose(std::exchange(pipe_, nullptr));
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
    throw UserError("ffmpeg could not write " + path_ +
                    " (check that its folder is writable and the disk is not full)");
  }
  std::string path_, temporary_;
  int fps_ = 10;
  FILE* pipe_ = nullptr;
};

// A recorded frame to the encoder (opened with the first), merged with the one before when the
// picture holds.
void add_frame(PictureExport& run, std::vector<unsigned char> rgb) {
  if (!run.sink) run.sink = open_animation(run.animation, run.width, run.height, run.fps);
  run.frames.add(*run.sink, std::move(rgb), std::max(1, int(std::lround(100.0 / run.fps))));
}

// A transparent still: the frame drawn on black and on white; where they differ the picture lets
// the background through (alpha = 1 - (white - black)), and its colour is what it adds on black.
std::vector<unsigned char> transparent_pixels(const std::function<void(const float*)>& render,
                                              int& width, int& height) {
  const float black[4] = {0, 0, 0, 0}, white[4] = {1, 1, 1, 0};
  render(black);
  const std::vector<unsigned char> on_black = read_frame_rgba(width, height);
  render(white);
  const std::vector<unsigned char> on_white = read_frame_rgba(width, height);
  std::vector<unsigned char> rgba(on_black.size());
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    int through = 0;
    for (int c = 0; c < 3; ++c) through += on_white[i + size_t(c)] - on_black[i + size_t(c)];
    const int alpha = std::clamp(255 - through / 3, 0, 255);
    for (int c = 0; c < 3; ++c)
      rgba[i + size_t(c)] =
          alpha == 0 ? 0 : (unsigned char)std::min(255, on_black[i + size_t(c)] * 255 / alpha);
    rgba[i + 3] = (unsigned char)alpha;
  }
  return rgba;
}

}  // namespace

std::unique_ptr<AnimationSink> open_animation(const std::string& path, int width, int height,
                                              int fps) {
  if (ends_with(path, ".mp4")) return std::make_unique<Mp4Stream>(path, width, height, fps);
  return std::make_unique<GifStream>(path, width, height);
}

std::string settle_for_export(AppState& state) {
  const bool reading = !state.model.loading.empty();
  if (reading) wait_for_model(state);
  state.session.worker->wait_idle();
  poll_trace(state);
  wait_for_measurements(state);
  return reading ? state.model.error : "";
}

std::string start_picture_export(AppState& state, const StartOptions& options, PictureExport& run) {
  run.still = options.export_png;
  run.transparent = options.transparent;
  run.dump_layout = options.dump_layout;
  run.animation = options.export_animation;
  run.fps = options.fps;
  run.seconds_per_stage = options.seconds_per_stage;
  run.print_progress = std::getenv("ATTNLAB_EXPORT_PROGRESS") != nullptr;
  if (!run.animation.empty()) {
    const bool mp4 = ends_with(run.animation, ".mp4");
    if (!mp4 && !ends_with(run.animation, ".gif"))
      return "--export-animation writes a .gif or an .mp4: name the file " + run.animation +
             ".gif or .mp4";
    if (mp4 && platform::program_on_path("ffmpeg").empty())
      return "an MP4 needs ffmpeg, which is not installed (apt-get install ffmpeg); a .gif needs "
             "nothing more";
    run.lesson = !options.lesson.empty();
    run.shots =
        run.lesson ? int(lesson_slides(state.lesson.lesson).size()) : int(state.walk.steps.size());
    if (run.shots == 0) return "there is nothing to animate: no trace was computed";
    run.frames_per_shot = std::max(1, int(std::lround(run.fps * run.seconds_per_stage)));
    // Transitions as the app animates them, within each stage's time.
    state.ui.animation_seconds =
        float(std::min<double>(UiSettings{}.animation_seconds, run.seconds_per_stage * 0.75));
    state.window.fixed_frame_seconds = 1.0 / run.fps;
  }
  state.window.picture_only = true;
  state.ui.presenter = true;
  if (!options.lesson.empty()) state.lesson.slide = true;  // a lesson's picture is its slide
  return "";
}

void before_picture_frame(AppState& state, PictureExport& run) {
  if (run.animation.empty()) {
    if (run.frame_of_shot == 0 || run.frame_of_shot == kStillFrames - 2) settle_for_export(state);
    ++run.frame_of_shot;
    return;
  }
  if (run.warmup > 0) {
    if (!run.lesson) {
      go_to_step(state, 0);
      state.walk.transition_start = -1;
    }
    settle_for_export(state);
    return;
  }
  if (run.frame_of_shot == 0) {
    if (run.lesson) {
      const std::vector<Slide> slides = lesson_slides(state.lesson.lesson);
      const Slide& slide = slides[size_t(run.shot)];
      if (slide.scene != state.lesson.scene || run.shot == 0) show_scene(state, slide.scene);
      state.lesson.slide = true;
      state.lesson.revealed = slide.answer;
      settle_for_export(state);
    } else if (run.shot == 0) {
      go_to_step(state, 0);
      state.walk.transition_start = -1;  // the first stage settled
    } else {
      go_to_step(state, run.shot);  // animated, as the → key does
    }
  }
  ++run.frame_of_shot;
}

bool after_picture_frame(AppState& state, PictureExport& run, int& exit_code,
                         const std::function<void(const float* clear)>& render) {
  try {
    if (run.animation.empty()) {
      // Drawn kStillFrames, and the layout done fitting its type and standing still (bounded).
      run.motion.note_frame();
      if (run.frame_of_shot < kStillFrames ||
          (picture_settling(state, run.motion) &&
           run.frame_of_shot < kStillFrames + kMostFittingFrames)) {
        if (run.frame_of_shot >= kStillFrames) settle_for_export(state);  // a tab's measurement
        return true;
      }
      std::vector<unsigned char> rgba;
      if (run.transparent) {
        rgba = transparent_pixels(render, run.width, run.height);
      } else {
        rgba = read_frame_rgba(run.width, run.height);
        for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
      }
      write_png_rgba(run.still, run.width, run.height, rgba);
      if (!run.dump_layout.empty()) {
        const ImGuiIO& io = ImGui::GetIO();
        write_file_atomically(run.dump_layout,
                              layout_json(state, io.DisplaySize, io.DisplayFramebufferScale));
      }
      std::printf("Wrote %s (%dx%d)\n", run.still.c_str(), run.width, run.height);
      exit_code = 0;
      return false;
    }
    if (run.warmup > 0) {
      --run.warmup;
      return true;
    }
    add_frame(run, read_frame_rgb(run.width, run.height));
    if (run.print_progress) {
      const double recorded = double(run.shot * run.frames_per_shot + run.frame_of_shot);
      std::printf("progress %.3f\n", recorded / double(run.shots * run.frames_per_shot));
      std::fflush(stdout);
    }
    if (run.frame_of_shot < run.frames_per_shot) return true;
    run.frame_of_shot = 0;
    if (++run.shot < run.shots) return true;
    run.frames.finish(*run.sink);
    run.sink->finish();
    std::printf("Wrote %s (%dx%d, %zu distinct frames)\n", run.animation.c_str(), run.width,
                run.height, run.frames.distinct());
    exit_code = 0;
  } catch (const std::exception& error) {
    run.sink.reset();  // a partial file is removed
    std::fprintf(stderr, "attnlab: %s\n", error.what());
    exit_code = 2;
  }
  return false;
}

}  // namespace attnlab::gui
