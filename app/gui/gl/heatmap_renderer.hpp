// The heatmaps on the GPU: one GL_R32F texture per head, uploaded only when the maps change, drawn
// as one textured quad per head through shaders/heatmap.*.glsl, which colour each value with the
// colour-map table (a 256x1 texture) — so 16 heads of 128x128 cost 16 quads per frame.
#pragma once

#include "app/gui/platform/gl_api.hpp"

#include <array>
#include <string>
#include <vector>

#include "app/gui/panels/heatmap_drawer.hpp"

namespace attnlab::gui {

class GlHeatmapRenderer final : public HeatmapDrawer {
 public:
  // Needs a current GL context. A shader failure leaves error() set (the panel shows it).
  GlHeatmapRenderer();
  ~GlHeatmapRenderer() override;
  GlHeatmapRenderer(const GlHeatmapRenderer&) = delete;
  GlHeatmapRenderer& operator=(const GlHeatmapRenderer&) = delete;

  void prepare(const HeatmapSet& set, uint64_t version, HeatmapSlot slot) override;
  void draw(ImDrawList* list, const HeatmapSet& set,
            const std::vector<HeatmapPlacement>& placements, HeatmapSlot slot) override;
  const std::string& error() const override { return error_; }

  // Colours of the masked cells' hatching (they follow the theme).
  void set_masked_colours(ImU32 a, ImU32 b);

 private:
  // One slot's textures and what its draw callback applies (copied at draw time: the set may
  // change before rendering).
  struct Slot {
    const GlHeatmapRenderer* owner = nullptr;
    std::vector<GLuint> textures;  // one per map
    uint64_t uploaded_version = ~uint64_t{0};
    float range_min = 0, range_max = 1;
    int colormap_index = 0;
  };

  // ImDrawList callback: switches ImGui's renderer to the heatmap program with one slot's range
  // and colour map until the ImDrawCallback_ResetRenderState that follows the quads.
  static void use_program(const ImDrawList* list, const ImDrawCmd* command);

  GLuint program_ = 0;
  GLint projection_ = -1, values_ = -1, colormap_ = -1, range_ = -1;
  GLint masked_a_ = -1, masked_b_ = -1, hatch_period_ = -1, masked_below_ = -1;
  GLint even_above_ = -1, even_colour_ = -1;
  GLuint colormap_textures_[2] = {0, 0};       // ColormapKind::Sequential, ::Diverging
  std::array<Slot, kHeatmapSlotCount> slots_;  // fixed addresses: the callbacks point at them
  float hatch_pixels_ = 6;
  ImVec4 masked_colour_a_{0.75f, 0.75f, 0.75f, 1}, masked_colour_b_{0.55f, 0.55f, 0.55f, 1};
  std::string error_;
};

}  // namespace attnlab::gui
