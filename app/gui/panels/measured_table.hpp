// Tables whose columns are as wide as their widest text, measured each frame: the widths are a
// function of the content, the font and the room only. (ImGui's auto-fit columns take their width
// from what the previous frame drew, so a table walked to from another scene, or drawn while its
// region's type shrinks, keeps columns a few pixels off the same table drawn afresh.) Knowing the
// whole width before drawing also lets a tab choose its layout: tables side by side where they
// fit, one under another where not.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

namespace attnlab::gui {

// A table's columns: their header texts (none: no header row; a header may hold "\n") and each
// one's content width in pixels at the current font.
struct MeasuredColumns {
  std::vector<std::string> headers;
  std::vector<float> widths;
};

// The columns of a table of text: each as wide as its widest cell or header, plus extra[c] pixels
// where column c draws something beside its text (a value bar). cells[row][column].
MeasuredColumns measure_columns(const std::vector<std::string>& headers,
                                const std::vector<std::vector<std::string>>& cells,
                                const std::vector<float>& extra = {});

// The whole table's width with these columns and flags: columns, cell padding, borders.
float measured_table_width(const MeasuredColumns& columns, ImGuiTableFlags flags);

// The whole table's height with `rows` rows of one text line under its header (if any); with room
// for a sideways scrollbar where `scrolls`.
float measured_table_height(const MeasuredColumns& columns, int rows, bool scrolls);

// BeginTable with these columns (fixed widths) as wide and tall as they need, scrolling sideways
// only when wider than the room; sets the columns up and draws the header row. EndTable when true.
bool begin_measured_table(const char* id, const MeasuredColumns& columns, int rows,
                          ImGuiTableFlags flags);

// What `measure` returns measured at the least type a fitted region shrinks to (fitted_type.hpp):
// a layout chosen from it does not change while the region's type is fitted.
float at_least_type(const std::function<float()>& measure);

}  // namespace attnlab::gui
