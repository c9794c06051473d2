// How panels get heatmaps on screen without knowing about OpenGL: the GL renderer implements this
// (float textures coloured by shaders/heatmap.frag.glsl); headless tests pass none. Each slot holds
// its own maps, range and colour map, so the mistakes panel can draw correct, buggy and difference
// maps in the same frame as the heads panel, and the Model tab its model view.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/heatmap_data.hpp"

namespace attnlab::gui {

enum class HeatmapSlot { Heads, MistakeCorrect, MistakeBuggy, MistakeDifference, ModelView };
constexpr int kHeatmapSlotCount = 5;

class HeatmapDrawer {
 public:
  virtual ~HeatmapDrawer() = default;
  // Uploads the slot's maps when `version` differs from its last upload (not every frame).
  virtual void prepare(const HeatmapSet& set, uint64_t version,
                       HeatmapSlot slot = HeatmapSlot::Heads) = 0;
  // Queues one textured quad per placement into the draw list, coloured through the colour map;
  // a placement's uv_min..uv_max picks the part of the map it shows (zoom).
  virtual void draw(ImDrawList* list, const HeatmapSet& set,
                    const std::vector<HeatmapPlacement>& placements,
                    HeatmapSlot slot = HeatmapSlot::Heads) = 0;
  // Shader compile/link failure ("" when fine): the panel shows it instead of the maps.
  virtual const std::string& error() const = 0;
};

}  // namespace attnlab::gui
