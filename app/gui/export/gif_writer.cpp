#include "app/gui/export/gif_writer.hpp"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <numeric>

#include "core/model/errors.hpp"

namespace attnlab::gui {

namespace {

constexpr int kBins = 1 << 15;

int bin_of(const unsigned char* rgb) {
  return (rgb[0] >> 3) << 10 | (rgb[1] >> 3) << 5 | (rgb[2] >> 3);
}

[[noreturn]] void cannot_encode(const std::string& path, int error) {
  throw UserError("cannot encode " + path + " as a GIF: " + GifErrorString(error));
}

GifFileType* gif_of(void* gif) {
  return static_cast<GifFileType*>(gif);
}

// The palette as giflib takes it (a power of two entries); freed by the caller.
ColorMapObject* colour_map(const Palette256& palette) {
  const int entries = int(palette.colours.size() / 3);
  int size = 2;
  while (size < entries) size *= 2;
  std::vector<GifColorType> colours(size_t(size), GifColorType{0, 0, 0});
  for (int e = 0; e < entries; ++e)
    colours[size_t(e)] = {palette.colours[size_t(e * 3)], palette.colours[size_t(e * 3 + 1)],
                          palette.colours[size_t(e * 3 + 2)]};
  return GifMakeMapObject(size, colours.data());
}

}  // namespace

// [SECTION] the palette

Palette256 frame_palette(const std::vector<unsigned char>& rgb) {
  std::vector<uint64_t> count(kBins, 0);
  std::vector<std::array<uint64_t, 3>> sum(kBins, {0, 0, 0});
  for (size_t i = 0; i + 2 < rgb.size(); i += 3) {
    const int bin = bin_of(&rgb[i]);
    ++count[size_t(bin)];
    for (int c = 0; c < 3; ++c) sum[size_t(bin)][size_t(c)] += rgb[i + size_t(c)];
  }
  std::vector<int> bins(kBins);
  std::iota(bins.begin(), bins.end(), 0);
  std::stable_sort(bins.begin(), bins.end(),
                   [&](int a, int b) { return count[size_t(a)] > count[size_t(b)]; });
  Palette256 palette;
  for (int k = 0; k < 256 && count[size_t(bins[size_t(k)])] > 0; ++k) {
    const int bin = bins[size_t(k)];
    for (int c = 0; c < 3; ++c)
      palette.colours.push_back(
          (unsigned char)((sum[size_t(bin)][size_t(c)] + count[size_t(bin)] / 2) /
                          count[size_t(bin)]));
  }
  if (palette.colours.empty()) palette.colours = {0, 0, 0};
  const int entries = int(palette.colours.size() / 3);
  palette.of_bin.assign(kBins, 0);
  for (int bin = 0; bin < kBins; ++bin) {
    if (count[size_t(bin)] == 0) continue;  // only the bins the frame uses are looked up
    const int centre[3] = {((bin >> 10) & 31) * 8 + 4, ((bin >> 5) & 31) * 8 + 4,
                           (bin & 31) * 8 + 4};
    int best = 0, best_distance = 1 << 30;
    for (int e = 0; e < entries; ++e) {
      int distance = 0;
      for (int c = 0; c < 3; ++c) {
        const int d = centre[c] - palette.colours[size_t(e * 3 + c)];
        distance += d * d;
      }
      if (distance < best_distance) best = e, best_distance = distance;
    }
    palette.of_bin[size_t(bin)] = (unsigned char)best;
  }
  return palette;
}

// [SECTION] the GIF

GifStream::GifStream(const std::string& path, int width, int height)
    : path_(path),
      temporary_(path + ".partial-" + std::to_string(::getpid())),  // no .gif: not the file yet
      width_(width),
      height_(height) {
  // Opened here, not by giflib: its files are readable by their owner alone.
  const int fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw UserError("cannot write " + path + ": " + std::strerror(errno));
  int error = 0;
  GifFileType* gif = EGifOpenFileHandle(fd, &error);
  if (!gif) {
    ::close(fd);
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
    throw UserError("cannot write " + path + ": " + GifErrorString(error));
  }
  gif_ = gif;
  EGifSetGifVersion(gif, true);
}

GifStream::~GifStream() {
  if (!gif_) return;
  int error = 0;
  EGifCloseFile(gif_of(gif_), &error);
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
}

void GifStream::fail(int code) {
  int close_error = 0;
  EGifCloseFile(gif_of(gif_), &close_error);
  gif_ = nullptr;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
  cannot_encode(path_, code ? code : close_error);
}

void GifStream::add(const AnimationFrame& frame) {
  GifFileType* gif = gif_of(gif_);
  if (!gif) throw UserError("cannot write " + path_ + ": the GIF was already finished");
  const Palette256 palette = frame_palette(frame.rgb);
  ColorMapObject* map = colour_map(palette);
  bool ok = true;
  if (frames_ == 0) {
    // The first frame's palette is the screen's too; then it loops for ever (NETSCAPE2.0).
    ok = EGifPutScreenDesc(gif, width_, height_, 8, 0, map) == GIF_OK;
    const unsigned char loop[3] = {1, 0, 0};
    ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_OK &&
         EGifPutExtensionBlock(gif, 3, loop) == GIF_OK && EGifPutExtensionTrailer(gif) == GIF_OK;
  }
  GraphicsControlBlock timing{DISPOSE_DO_NOT, false, frame.centiseconds, NO_TRANSPARENT_COLOR};
  GifByteType extension[4];
  EGifGCBToExtension(&timing, extension);
  ok = ok && EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_OK &&
       EGifPutImageDesc(gif, 0, 0, width_, height_, false, frames_ == 0 ? nullptr : map) == GIF_OK;
  GifFreeMapObject(map);
  std::vector<GifPixelType> line(static_cast<size_t>(width_));
  for (int y = 0; ok && y < height_; ++y) {
    const unsigned char* row = frame.rgb.data() + size_t(y) * size_t(width_) * 3;
    for (int x = 0; x < width_; ++x) line[size_t(x)] = palette.of_bin[size_t(bin_of(row + x * 3))];
    ok = EGifPutLine(gif, line.data(), width_) == GIF_OK;
  }
  if (!ok) fail(gif->Error);
  ++frames_;
}

void GifStream::finish() {
  if (frames_ == 0) throw UserError("cannot write " + path_ + ": the animation has no frames");
  int error = 0;
  const int closed = EGifCloseFile(gif_of(gif_), &error);
  gif_ = nullptr;
  std::error_code failure;
  if (closed != GIF_OK) {
    std::filesystem::remove(temporary_, failure);
    cannot_encode(path_, error);
  }
  std::filesystem::rename(temporary_, path_, failure);
  if (failure) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
    throw UserError("cannot write " + path_ + ": " + failure.message());
  }
}

void write_gif(const std::string& path, int width, int height,
               const std::vector<AnimationFrame>& frames, const RunControl& control) {
  if (frames.empty()) throw UserError("cannot write " + path + ": the animation has no frames");
  GifStream gif(path, width, height);
  for (size_t f = 0; f < frames.size(); ++f) {
    control.check_cancel();  // the stream, dropped, leaves nothing
    control.report(double(f) / double(frames.size()));
    gif.add(frames[f]);
  }
  gif.finish();
}

}  // namespace attnlab::gui
