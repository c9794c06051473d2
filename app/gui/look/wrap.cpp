#include "app/gui/look/wrap.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // RenderTextEllipsis, the window's font scale

#include <cfloat>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace attnlab::gui {

namespace {

using Measure = std::function<float(const std::string&)>;

// Follows `c` into or out of brackets: `depth` counts those open.
void track_brackets(char c, int& depth) {
  if (c == '(' || c == '[' || c == '{') ++depth;
  if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
}

// The end of the UTF-8 character starting at `i`.
size_t next_char(const std::string& s, size_t i) {
  for (++i; i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;) ++i;
  return i;
}

// `word` in pieces no wider than `width` (at least one character each): the longest piece that
// fits, ended after its last '-', '_', '/' or ',' when it has one, so "gpt2-f32-tied" breaks as
// "gpt2-f32-" and "tied" rather than run past the room.
std::vector<std::string> break_word(const std::string& word, float width, const Measure& measure) {
  std::vector<std::string> pieces;
  for (size_t start = 0; start < word.size();) {
    size_t end = next_char(word, start), soft = 0;
    for (size_t next = end; end < word.size(); end = next) {
      next = next_char(word, end);
      if (measure(word.substr(start, next - start)) > width) break;
      if (std::strchr("-_/,", word[next - 1])) soft = next;
    }
    if (end < word.size() && soft > start) end = soft;
    pieces.push_back(word.substr(start, end - start));
    start = end;
  }
  return pieces;
}

// `units` joined with spaces into lines no wider than `width` (a unit wider than that is broken
// into pieces that fit, break_word); with `glue_chains`, a unit starting with '.' (a chain's next
// call) follows the last with no space. One empty line for no units.
std::vector<std::string> fill_lines(const std::vector<std::string>& whole_units, float width,
                                    const Measure& measure, bool glue_chains) {
  std::vector<std::string> units;
  for (const std::string& unit : whole_units) {
    if (measure(unit) <= width) {
      units.push_back(unit);
      continue;
    }
    for (std::string& piece : break_word(unit, width, measure)) units.push_back(std::move(piece));
  }
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& unit : units) {
    const bool glued = glue_chains && !unit.empty() && unit.front() == '.';
    const std::string longer = line.empty() ? unit : line + (glued ? "" : " ") + unit;
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

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

std::vector<std::string> wrap_at_spaces(const std::string& text, float width,
                                        const Measure& measure) {
  std::vector<std::string> lines;
  std::istringstream paragraphs(text);
  for (std::string paragraph; std::getline(paragraphs, paragraph);)
    for (std::string& line : fill_lines(words_of(paragraph), width, measure, false))
      lines.push_back(std::move(line));
  return lines;
}

std::vector<std::string> code_units(const std::string& code, float width, const Measure& measure) {
  std::vector<std::string> units(1);
  int depth = 0;
  for (const char c : code) {
    track_brackets(c, depth);
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
    if (measure(unit) <= width) {
      fitting.push_back(unit);
      continue;
    }
    std::vector<std::string> pieces(1);
    int level = 0;
    for (size_t i = 0; i < unit.size(); ++i) {
      track_brackets(unit[i], level);
      if (unit[i] == '.' && level == 0 && i > 0 && unit[i - 1] == ')') pieces.emplace_back();
      pieces.back() += unit[i];
    }
    for (const std::string& piece : pieces) {
      if (measure(piece) <= width) {
        fitting.push_back(piece);
        continue;
      }
      for (std::string& word : words_of(piece)) fitting.push_back(std::move(word));
    }
  }
  return fitting;
}

std::vector<std::string> wrap_code(const std::string& code, float width, const Measure& measure) {
  return fill_lines(code_units(code, width, measure), width, measure, true);
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

std::string cut_to_width(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  const std::string ellipsis = "\u2026";
  std::string cut;
  for (size_t i = 0; i < text.size();) {
    const size_t next = next_char(text, i);
    const std::string longer = cut + text.substr(i, next - i);
    if (ImGui::CalcTextSize((longer + ellipsis).c_str()).x > width) break;
    cut = longer;
    i = next;
  }
  return cut + ellipsis;
}

std::string field_hint(const char* hint) {
  return cut_to_width(hint, ImGui::CalcItemWidth() - 2 * ImGui::GetStyle().FramePadding.x);
}

bool wrapped_button(const char* label) {
  const float room = ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().FramePadding.x;
  const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  std::string shown;
  for (const std::string& line : wrap_at_spaces(label, room, measure))
    shown += (shown.empty() ? "" : "\n") + line;
  return ImGui::Button((shown + "###" + label).c_str());
}

void draw_cut_text(ImVec2 at, float width, float size, ImU32 colour, const char* text) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float scale = window->FontWindowScale;
  ImGui::SetWindowFontScale(scale * size / ImGui::GetFontSize());
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  const float right = at.x + width - kCutTextShort;
  // The first line only, clipped at the right only: a bottom at the line's height would shave
  // the pixel a glyph's quad can reach under it ('q', '(').
  const char* line_end = std::strchr(text, '\n');
  ImGui::RenderTextEllipsis(window->DrawList, at, ImVec2(right, at.y + 2 * ImGui::GetFontSize()),
                            right + 2, right, text, line_end, nullptr);
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
