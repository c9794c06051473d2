// PNG export: reads the rendered frame back (glReadPixels) and writes it with stb_image_write.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// Call after rendering and before swapping buffers. `crop` is x0, y0, x1, y1 in window
// coordinates (ImGui's), none = the whole window. Throws UserError when the file cannot be
// written; the file appears only when complete.
void save_frame_png(const std::string& path, ImVec2 framebuffer_scale, std::optional<ImVec4> crop);

// The frame just rendered (the whole viewport), top row first, 4 bytes a pixel (RGBA).
std::vector<unsigned char> read_frame_rgba(int& width, int& height);
// The same, 3 bytes a pixel (RGB): an animation's frame.
std::vector<unsigned char> read_frame_rgb(int& width, int& height);

// Writes RGBA pixels as a PNG, whole or not at all; throws UserError naming the file.
void write_png_rgba(const std::string& path, int width, int height,
                    const std::vector<unsigned char>& rgba);

}  // namespace attnlab::gui
