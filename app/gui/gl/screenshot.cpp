#include "app/gui/gl/screenshot.hpp"

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/gui/platform/gl_api.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

void save_frame_png(const std::string& path, ImVec2 scale, std::optional<ImVec4> crop) {
  GLint viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, viewport);
  const int fb_w = viewport[2], fb_h = viewport[3];
  int x0 = 0, y0 = 0, x1 = fb_w, y1 = fb_h;  // top-left origin, framebuffer pixels
  if (crop) {
    x0 = std::clamp(int(std::lround(crop->x * scale.x)), 0, fb_w);
    y0 = std::clamp(int(std::lround(crop->y * scale.y)), 0, fb_h);
    x1 = std::clamp(int(std::lround(crop->z * scale.x)), x0, fb_w);
    y1 = std::clamp(int(std::lround(crop->w * scale.y)), y0, fb_h);
  }
  const int w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0) throw UserError("cannot save " + path + ": the region is empty");

  std::vector<unsigned char> pixels(size_t(w) * size_t(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  // GL's rows start at the bottom.
  glReadPixels(x0, fb_h - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  std::vector<unsigned char> flipped(pixels.size());
  const size_t row = size_t(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy_n(pixels.data() + size_t(h - 1 - y) * row, row, flipped.data() + size_t(y) * row);
  for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;  // the window is opaque

  write_png_rgba(path, w, h, flipped);
}

std::vector<unsigned char> read_frame_rgba(int& width, int& height) {
  GLint viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, viewport);
  width = viewport[2];
  height = viewport[3];
  std::vector<unsigned char> pixels(size_t(width) * size_t(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  std::vector<unsigned char> flipped(pixels.size());
  const size_t row = size_t(width) * 4;
  for (int y = 0; y < height; ++y)  // GL's rows start at the bottom
    std::copy_n(pixels.data() + size_t(height - 1 - y) * row, row,
                flipped.data() + size_t(y) * row);
  return flipped;
}

std::vector<unsigned char> read_frame_rgb(int& width, int& height) {
  const std::vector<unsigned char> rgba = read_frame_rgba(width, height);
  std::vector<unsigned char> rgb(rgba.size() / 4 * 3);
  for (size_t i = 0, j = 0; i + 3 < rgba.size(); i += 4, j += 3) {
    rgb[j] = rgba[i];
    rgb[j + 1] = rgba[i + 1];
    rgb[j + 2] = rgba[i + 2];
  }
  return rgb;
}

void write_png_rgba(const std::string& path, int width, int height,
                    const std::vector<unsigned char>& rgba) {
  std::string png;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4))
    throw UserError("cannot encode " + path + " as PNG");
  write_file_atomically(path, png);
}

}  // namespace attnlab::gui
