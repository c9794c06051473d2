#include "app/gui/gl/heatmap_renderer.hpp"

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "app/gui/gl/shader_program.hpp"
#include "app/gui/look/colormap.hpp"
#include "embedded_shaders.hpp"

namespace attnlab::gui {

namespace {

GLuint make_texture(GLint filter) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return texture;
}

GLuint upload_colormap(ColormapKind kind) {
  const ColormapTable& table = colormap_table(kind);
  std::vector<uint8_t> rgba;
  for (const Rgb8& c : table) rgba.insert(rgba.end(), {c.r, c.g, c.b, 255});
  const GLuint texture = make_texture(GL_LINEAR);  // the CPU side interpolates the same way
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kColormapEntries, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               rgba.data());
  return texture;
}

// The embedded source, or with $ATTNLAB_SHADER_DIR set the file of that name in it: edit a
// shader and restart without rebuilding (and a way to test what a broken shader does).
std::string shader_source(const char* file_name, const char* embedded) {
  const char* dir = std::getenv("ATTNLAB_SHADER_DIR");
  if (!dir || !*dir) return embedded;
  std::ifstream file(std::string(dir) + "/" + file_name);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();  // a missing file compiles as empty source and reports that error
}

}  // namespace

GlHeatmapRenderer::GlHeatmapRenderer() {
  const std::string vertex = shader_source("heatmap.vert.glsl", shaders::kHeatmapVert);
  const std::string fragment = shader_source("heatmap.frag.glsl", shaders::kHeatmapFrag);
  program_ = build_program("heatmap", vertex.c_str(), fragment.c_str(), error_);
  if (!program_) return;
  projection_ = glGetUniformLocation(program_, "ProjMtx");
  values_ = glGetUniformLocation(program_, "Values");
  colormap_ = glGetUniformLocation(program_, "Colormap");
  range_ = glGetUniformLocation(program_, "ValueRange");
  masked_a_ = glGetUniformLocation(program_, "MaskedColorA");
  masked_b_ = glGetUniformLocation(program_, "MaskedColorB");
  hatch_period_ = glGetUniformLocation(program_, "HatchPeriod");
  masked_below_ = glGetUniformLocation(program_, "MaskedBelow");
  even_above_ = glGetUniformLocation(program_, "EvenAbove");
  even_colour_ = glGetUniformLocation(program_, "EvenColor");
  for (Slot& slot : slots_) slot.owner = this;
  GLint last_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  colormap_textures_[0] = upload_colormap(ColormapKind::Sequential);
  colormap_textures_[1] = upload_colormap(ColormapKind::Diverging);
  glBindTexture(GL_TEXTURE_2D, GLuint(last_texture));
}

GlHeatmapRenderer::~GlHeatmapRenderer() {
  for (Slot& slot : slots_)
    if (!slot.textures.empty())
      glDeleteTextures(GLsizei(slot.textures.size()), slot.textures.data());
  glDeleteTextures(2, colormap_textures_);
  if (program_) glDeleteProgram(program_);
}

void GlHeatmapRenderer::set_masked_colours(ImU32 a, ImU32 b) {
  masked_colour_a_ = ImGui::ColorConvertU32ToFloat4(a);
  masked_colour_b_ = ImGui::ColorConvertU32ToFloat4(b);
}

void GlHeatmapRenderer::prepare(const HeatmapSet& set, uint64_t version, HeatmapSlot which) {
  Slot& slot = slots_[size_t(which)];
  if (!program_ || version == slot.uploaded_version) return;
  slot.uploaded_version = version;
  std::vector<GLuint>& textures = slot.textures;
  while (textures.size() > size_t(set.heads)) {
    glDeleteTextures(1, &textures.back());
    textures.pop_back();
  }
  GLint last_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  while (textures.size() < size_t(set.heads))
    textures.push_back(make_texture(GL_NEAREST));  // one texel per cell, crisp edges
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  for (int64_t head = 0; head < set.heads; ++head) {
    glBindTexture(GL_TEXTURE_2D, textures[size_t(head)]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, GLsizei(set.cols), GLsizei(set.rows), 0, GL_RED,
                 GL_FLOAT, set.values.data() + head * set.rows * set.cols);
  }
  glBindTexture(GL_TEXTURE_2D, GLuint(last_texture));
}

void GlHeatmapRenderer::draw(ImDrawList* list, const HeatmapSet& set,
                             const std::vector<HeatmapPlacement>& placements, HeatmapSlot which) {
  if (!program_) return;
  Slot& slot = slots_[size_t(which)];
  slot.range_min = set.value_min;
  slot.range_max = set.value_max;
  slot.colormap_index = set.colormap == ColormapKind::Sequential ? 0 : 1;
  hatch_pixels_ = std::max(4.0f, ImGui::GetFontSize() * 0.3f);
  list->AddCallback(&GlHeatmapRenderer::use_program, &slot);
  for (const HeatmapPlacement& p : placements) {
    if (size_t(p.head) >= slot.textures.size()) continue;
    list->AddImage(ImTextureID(intptr_t(slot.textures[size_t(p.head)])), p.min, p.max, p.uv_min,
                   p.uv_max);
  }
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void GlHeatmapRenderer::use_program(const ImDrawList*, const ImDrawCmd* command) {
  const auto* slot = static_cast<const Slot*>(command->UserCallbackData);
  const GlHeatmapRenderer* self = slot->owner;
  const ImDrawData* data = ImGui::GetDrawData();
  // The orthographic projection ImGui's OpenGL3 backend uses, so the quads land where ImGui
  // placed them.
  const float L = data->DisplayPos.x, R = data->DisplayPos.x + data->DisplaySize.x;
  const float T = data->DisplayPos.y, B = data->DisplayPos.y + data->DisplaySize.y;
  const float projection[4][4] = {
      {2.0f / (R - L), 0.0f, 0.0f, 0.0f},
      {0.0f, 2.0f / (T - B), 0.0f, 0.0f},
      {0.0f, 0.0f, -1.0f, 0.0f},
      {(R + L) / (L - R), (T + B) / (B - T), 0.0f, 1.0f},
  };
  glUseProgram(self->program_);
  glUniformMatrix4fv(self->projection_, 1, GL_FALSE, &projection[0][0]);
  glUniform1i(self->values_, 0);
  glUniform1i(self->colormap_, 1);
  glUniform2f(self->range_, slot->range_min, slot->range_max);
  const ImVec4& a = self->masked_colour_a_;
  const ImVec4& b = self->masked_colour_b_;
  glUniform3f(self->masked_a_, a.x, a.y, a.z);
  glUniform3f(self->masked_b_, b.x, b.y, b.z);
  glUniform1f(self->hatch_period_, self->hatch_pixels_);
  glUniform1f(self->masked_below_, kMaskedBelow);
  glUniform1f(self->even_above_, kEvenAbove);
  glUniform3f(self->even_colour_, kEvenRowColour.r / 255.0f, kEvenRowColour.g / 255.0f,
              kEvenRowColour.b / 255.0f);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, self->colormap_textures_[slot->colormap_index]);
  glActiveTexture(GL_TEXTURE0);
  // ImGui's vertex buffer is bound; point our attribute locations (0, 1, 2) at its layout.
  // The reset callback afterwards re-points ImGui's own.
  for (GLuint location : {0u, 1u, 2u}) glEnableVertexAttribArray(location);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
}

}  // namespace attnlab::gui
