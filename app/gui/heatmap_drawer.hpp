// How the heads panel gets its maps on screen without knowing about OpenGL: the GL renderer
// implements this (float textures coloured by shaders/heatmap.frag.glsl); headless tests pass none.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/app_state.hpp"
#include "app/gui/heatmap_data.hpp"

namespace attnlab::gui {

class HeatmapDrawer {
 public:
  virtual ~HeatmapDrawer() = default;
  // Uploads the maps when `version` differs from the last upload (not every frame).
  virtual void prepare(const HeatmapSet& set, uint64_t version) = 0;
  // Queues one textured quad per placement into the draw list, coloured through the colour map.
  virtual void draw(ImDrawList* list, const HeatmapSet& set,
                    const std::vector<HeatmapPlacement>& placements) = 0;
  // Shader compile/link failure ("" when fine): the panel shows it instead of the maps.
  virtual const std::string& error() const = 0;
};

}  // namespace attnlab::gui
