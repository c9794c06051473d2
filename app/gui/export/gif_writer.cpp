#include "app/gui/export/gif_writer.hpp"

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <numeric>

#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

constexpr int kBins = 1 << 15;

int bin_of(const unsigned char* rgb) {
  return (rgb[0] >> 3) << 10 | (rgb[1] >> 3) << 5 | (rgb[2] >> 3);
}

[[noreturn]] void cannot_encode(const std::string& path, int error) {
  throw UserError("cannot encode " + path + " as a GIF: " + GifErrorString(error));
}

// giflib's output function: the encoded bytes appended to the std::string given to EGifOpen.
int append_bytes(GifFileType* gif, const GifByteType* data, int length) {
  static_cast<std::string*>(gif->UserData)
      ->append(reinterpret_cast<const char*>(data), size_t(length));
  return length;
}

}  // namespace

Palette256 animation_palette(const std::vector<AnimationFrame>& frames) {
  std::vector<uint64_t> count(kBins, 0);
  std::vector<std::array<uint64_t, 3>> sum(kBins, {0, 0, 0});
  for (const AnimationFrame& frame : frames)
    for (size_t i = 0; i + 2 < frame.rgb.size(); i += 3) {
      const int bin = bin_of(&frame.rgb[i]);
      ++count[size_t(bin)];
      for (int c = 0; c < 3; ++c) sum[size_t(bin)][size_t(c)] += frame.rgb[i + size_t(c)];
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
  palette.of_bin.resize(kBins);
  for (int bin = 0; bin < kBins; ++bin) {
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

void write_gif(const std::string& path, int width, int height,
               const std::vector<AnimationFrame>& frames, const RunControl& control) {
  if (frames.empty()) throw UserError("cannot write " + path + ": the animation has no frames");
  const Palette256 palette = animation_palette(frames);
  const int entries = int(palette.colours.size() / 3);
  int size = 2;
  while (size < entries) size *= 2;
  std::vector<GifColorType> colours(size_t(size), GifColorType{0, 0, 0});
  for (int e = 0; e < entries; ++e)
    colours[size_t(e)] = {palette.colours[size_t(e * 3)], palette.colours[size_t(e * 3 + 1)],
                          palette.colours[size_t(e * 3 + 2)]};
  // Encoded in memory, then written whole by the one atomic writer the exports share.
  std::string bytes;
  int error = 0;
  GifFileType* gif = EGifOpen(&bytes, append_bytes, &error);
  if (!gif) cannot_encode(path, error);
  bool ok = true;
  const auto fail = [&] {
    const int code = gif->Error;  // before the close frees it
    int close_error = 0;
    EGifCloseFile(gif, &close_error);
    cannot_encode(path, code ? code : close_error);
  };
  ColorMapObject* map = GifMakeMapObject(size, colours.data());
  EGifSetGifVersion(gif, true);
  ok = EGifPutScreenDesc(gif, width, height, 8, 0, map) == GIF_OK;
  GifFreeMapObject(map);
  // Loops for ever (the NETSCAPE2.0 application extension).
  const unsigned char loop[3] = {1, 0, 0};
  ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
       EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_OK &&
       EGifPutExtensionBlock(gif, 3, loop) == GIF_OK && EGifPutExtensionTrailer(gif) == GIF_OK;
  if (!ok) fail();
  std::vector<GifPixelType> line(static_cast<size_t>(width));
  for (size_t f = 0; f < frames.size(); ++f) {
    const AnimationFrame& frame = frames[f];
    if (control.cancel_requested()) {  // nothing is written
      EGifCloseFile(gif, &error);
      throw Cancelled();
    }
    control.report(double(f) / double(frames.size()));
    GraphicsControlBlock timing{DISPOSE_DO_NOT, false, frame.centiseconds, NO_TRANSPARENT_COLOR};
    GifByteType extension[4];
    EGifGCBToExtension(&timing, extension);
    ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_OK &&
         EGifPutImageDesc(gif, 0, 0, width, height, false, nullptr) == GIF_OK;
    for (int y = 0; ok && y < height; ++y) {
      const unsigned char* row = frame.rgb.data() + size_t(y) * size_t(width) * 3;
      for (int x = 0; x < width; ++x) line[size_t(x)] = palette.of_bin[size_t(bin_of(row + x * 3))];
      ok = EGifPutLine(gif, line.data(), width) == GIF_OK;
    }
    if (!ok) fail();
  }
  if (EGifCloseFile(gif, &error) != GIF_OK) cannot_encode(path, error);
  write_file_atomically(path, bytes);
}

}  // namespace attnlab::gui
