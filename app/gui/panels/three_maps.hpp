// Three maps side by side under a title line each, as large as the room allows: the Mistakes tab's
// correct | buggy | difference and the Check tab's yours | right | difference.
#pragma once

#include <imgui.h>

#include <initializer_list>
#include <optional>

#include "app/gui/state/heatmap_data.hpp"

namespace attnlab::gui {

struct ThreeMaps {
  ImVec2 start;       // the row's top left, at the cursor
  float width = 0;    // the room's width
  float side = 0;     // a map's longest side
  float gap = 0;      // between two maps
  float title_h = 0;  // the title line above each map

  // Map i's top left, under its title.
  ImVec2 map_min(int i) const;
  // Map i's bottom right: `set`'s rows and columns in proportion, the longer `side` long.
  ImVec2 map_max(int i, const HeatmapSet& set) const;
  // The width a title or a caption has before the next map's.
  float text_room() const;
  // Draws map i's title: the first of `titles` that fits its room, else the last, clipped there.
  void title(ImDrawList* list, int i, std::initializer_list<const char*> titles,
             ImU32 colour) const;
  // Moves the cursor past the row (the maps, their titles and a caption line below).
  void end() const;
};

// The row for the room left in the window, from the cursor; none when its maps would be under
// 8 px.
std::optional<ThreeMaps> three_maps_row();
// The side of a row's maps in `room` (as three_maps_row's).
float three_maps_side(ImVec2 room);

}  // namespace attnlab::gui
