#include "app/gui/panels/three_maps.hpp"

#include <cmath>

namespace attnlab::gui {

ImVec2 ThreeMaps::map_min(int i) const {
  return ImVec2(start.x + float(i) * (side + gap), start.y + title_h);
}

ImVec2 ThreeMaps::map_max(int i, const HeatmapSet& set) const {
  const float w = set.cols >= set.rows ? side : side * float(set.cols) / float(set.rows);
  const float h = set.rows >= set.cols ? side : side * float(set.rows) / float(set.cols);
  const ImVec2 at = map_min(i);
  return ImVec2(at.x + w, at.y + h);
}

float ThreeMaps::text_room() const {
  return side + gap * 0.7f;
}

void ThreeMaps::title(ImDrawList* list, int i, std::initializer_list<const char*> titles,
                      ImU32 colour) const {
  const char* shown = *(titles.end() - 1);
  for (const char* title : titles)
    if (ImGui::CalcTextSize(title).x <= text_room()) {
      shown = title;
      break;
    }
  const ImVec2 at = map_min(i);
  const ImVec4 clip(at.x, start.y, at.x + text_room(), at.y);
  list->AddText(nullptr, 0, ImVec2(at.x, start.y), colour, shown, nullptr, 0, &clip);
}

void ThreeMaps::end() const {
  ImGui::Dummy(ImVec2(width, side + 2 * title_h));
}

float three_maps_side(ImVec2 room) {
  const float title_h = ImGui::GetTextLineHeightWithSpacing(), gap = ImGui::GetFontSize();
  return std::floor(std::min((room.x - 2 * gap) / 3, room.y - 2 * title_h));
}

std::optional<ThreeMaps> three_maps_row() {
  ThreeMaps row;
  const ImVec2 room = ImGui::GetContentRegionAvail();
  row.width = room.x;
  row.title_h = ImGui::GetTextLineHeightWithSpacing();
  row.gap = ImGui::GetFontSize();
  row.side = three_maps_side(room);
  if (row.side < 8) return std::nullopt;
  row.start = ImGui::GetCursorScreenPos();
  return row;
}

}  // namespace attnlab::gui
