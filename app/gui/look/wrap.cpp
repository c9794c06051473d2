#include "app/gui/look/wrap.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // RenderTextEllipsis, the window's font scale

#include <cfloat>
#include <cstdarg>
#include <cstdio>
#include <sstream>

namespace attnlab::gui {

std::vector<std::string> wrap_at_spaces(const std::string& text, float width,
                                        const std::function<float(const std::string&)>& measure) {
  std::vector<std::string> lines;
  std::istringstream paragraphs(text);
  for (std::string paragraph; std::getline(paragraphs, paragraph);) {
    std::string line;
    std::istringstream words(paragraph);
    for (std::string word; words >> word;) {
      const std::string longer = line.empty() ? word : line + " " + word;
      if (!line.empty() && measure(longer) > width) {
        lines.push_back(line);
        line = word;
      } else {
        line = longer;
      }
    }
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> code_units(const std::string& code, float width,
                                    const std::function<float(const std::string&)>& measure) {
  std::vector<std::string> units(1);
  int depth = 0;
  for (const char c : code) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == ' ' && depth == 0) {
      if (!units.back().empty()) units.emplace_back();
    } else {
      units.back() += c;
    }
  }
  if (units.back().empty()) units.pop_back();
  if (width <= 0) return units;
  // A unit wider than the room: first between the calls of a chain ("q.view(...)" |
  // ".transpose(1, 2)"), then, for a piece still too wide, at its own spaces.
  std::vector<std::string> fitting;
  for (const std::string& unit : units) {
    std::vector<std::string> pieces(1);
    int level = 0;
    for (size_t i = 0; i < unit.size(); ++i) {
      const char c = unit[i];
      if (c == '(' || c == '[' || c == '{') ++level;
      if ((c == ')' || c == ']' || c == '}') && level > 0) --level;
      if (c == '.' && level == 0 && i > 0 && unit[i - 1] == ')' && measure(unit) > width)
        pieces.emplace_back();
      pieces.back() += c;
    }
    for (const std::string& piece : pieces) {
      if (measure(piece) <= width) {
        fitting.push_back(piece);
        continue;
      }
      std::istringstream words(piece);
      for (std::string word; words >> word;) fitting.push_back(word);
    }
  }
  return fitting;
}

std::vector<std::string> wrap_code(const std::string& code, float width,
                                   const std::function<float(const std::string&)>& measure) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& unit : code_units(code, width, measure)) {
    const bool chained = unit.front() == '.';  // a chain's next call follows with no space
    const std::string longer = line.empty() ? unit : line + (chained ? "" : " ") + unit;
    if (!line.empty() && measure(longer) > width) {
      lines.push_back(line);
      line = unit;
    } else {
      line = longer;
    }
  }
  lines.push_back(line);
  return lines;
}

void text_wrapped(const std::string& text) {
  const float width = ImGui::GetContentRegionAvail().x;
  const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  for (const std::string& line : wrap_at_spaces(text, width, measure))
    ImGui::TextUnformatted(line.c_str());
}

void text_wrapped_format(const char* format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  text_wrapped(text);
}

void draw_cut_text(ImVec2 at, float width, float size, ImU32 colour, const char* text) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float scale = window->FontWindowScale;
  ImGui::SetWindowFontScale(scale * size / ImGui::GetFontSize());
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  const float right = at.x + width;
  ImGui::RenderTextEllipsis(window->DrawList, at, ImVec2(right, at.y + ImGui::GetFontSize()), right,
                            right, text, nullptr, nullptr);
  ImGui::PopStyleColor();
  ImGui::SetWindowFontScale(scale);
}

std::vector<std::string> large_text(const std::string& text, float size, ImU32 colour) {
  const float width = ImGui::GetContentRegionAvail().x;
  const auto measure = [&](const std::string& s) {
    return ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, s.c_str()).x;
  };
  const std::vector<std::string> lines = wrap_at_spaces(text, width, measure);
  ImVec2 at = ImGui::GetCursorScreenPos();
  for (const std::string& line : lines) {
    draw_cut_text(at, width, size, colour, line.c_str());
    at.y += size * 1.15f;
  }
  ImGui::Dummy(ImVec2(width, size * 1.15f * float(lines.size())));
  return lines;
}

float room_beside_last_item(float spacing) {
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  return right - ImGui::GetItemRectMax().x - spacing;
}

bool same_line_if_fits(float width, float spacing) {
  if (width > room_beside_last_item(spacing)) return false;
  ImGui::SameLine(0, spacing);
  return true;
}

}  // namespace attnlab::gui
