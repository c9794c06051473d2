// Measured tables (app/gui/panels/measured_table.hpp): their width is the extent ImGui lays their
// columns out to, their height ends under the last row, and their columns are a function of the
// content and the font, the same whatever the table showed the frames before.
#include <imgui_internal.h>  // the table's laid-out columns and rows

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/panels/measured_table.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

struct Laid {
  float columns_right = 0;    // the last column's right edge, from the table's left
  float last_row_bottom = 0;  // under the last row, from the table's top
  float height = 0;           // of the table
  std::vector<float> widths;  // each column's, as laid out
};

class MeasuredTable : public HeadlessImGui {
 protected:
  // The table drawn from `cells` under `headers`, with `flags`, as ImGui lays it out.
  Laid draw(const std::vector<std::string>& headers,
            const std::vector<std::vector<std::string>>& cells, ImGuiTableFlags flags,
            float* measured = nullptr, float* measured_height = nullptr) {
    Laid laid;
    probe_frame(ImVec2(900, 600), [&] {
      const MeasuredColumns columns = measure_columns(headers, cells);
      if (measured) *measured = measured_table_width(columns, flags);
      if (!begin_measured_table("probe_table", columns, int(cells.size()), flags)) return;
      for (const auto& row : cells) {
        ImGui::TableNextRow();
        for (const std::string& text : row) {
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(text.c_str());
        }
      }
      ImGuiTable* table = ImGui::GetCurrentTable();
      for (int c = 0; c < table->ColumnsCount; ++c) {
        laid.columns_right = std::max(laid.columns_right, table->Columns[c].MaxX);
        laid.widths.push_back(table->Columns[c].WidthGiven);
      }
      laid.columns_right -= table->OuterRect.Min.x;
      ImGui::EndTable();  // ends the last row, and the table's height where ImGui gives it
      laid.last_row_bottom = table->RowPosY2 - table->OuterRect.Min.y;
      laid.height = table->OuterRect.GetHeight();
      if (measured_height)
        *measured_height =
            measured_table_height(measure_columns(headers, cells), int(cells.size()), false);
    });
    return laid;
  }
};

const std::vector<std::vector<std::string>> kCells = {{"Tiny transformer", "128", "66.0 k"},
                                                      {"GPT-3 175B", "12288", "604.03 M"}};
const std::vector<std::vector<std::string>> kNarrow = {{"GPT-2", "768", "1 k"}};

TEST_F(MeasuredTable, ItsWidthIsTheColumnsExtentAndItsHeightEndsUnderTheLastRow) {
  for (const ImGuiTableFlags flags :
       {ImGuiTableFlags(0), ImGuiTableFlags(ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)}) {
    for (const std::vector<std::string>& headers :
         {std::vector<std::string>{},
          std::vector<std::string>{"model", "d_model", "attn\nmemory"}}) {
      float measured = 0, measured_height = 0;
      draw(headers, kCells, flags, &measured);
      const Laid laid = draw(headers, kCells, flags, &measured, &measured_height);
      SCOPED_TRACE("flags " + std::to_string(flags) + ", " + std::to_string(headers.size()) +
                   " headers");
      // Every column whole inside the table's width, and at most a border and a rounding wider.
      EXPECT_LE(laid.columns_right, measured + 0.5f);
      EXPECT_GE(laid.columns_right, measured - 2.5f);
      // The last row inside the table, with nothing drawn under it but the border; and the height
      // a tab lays the table out by is the height ImGui gives it.
      EXPECT_LE(laid.last_row_bottom, laid.height + 0.5f);
      EXPECT_LT(laid.height - laid.last_row_bottom, 2.0f);
      EXPECT_NEAR(measured_height, laid.height, 3.0f);
    }
  }
}

TEST_F(MeasuredTable, ItsColumnsAreTheSameAfterWiderContentAsDrawnAfresh) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders;
  const std::vector<std::string> headers{"model", "d_model", "params"};
  draw(headers, kNarrow, flags);
  const Laid fresh = draw(headers, kNarrow, flags);
  for (int i = 0; i < 3; ++i) draw(headers, kCells, flags);  // the scene before, wider
  const Laid walked = draw(headers, kNarrow, flags);
  EXPECT_EQ(walked.widths, fresh.widths);
  // Each as wide as its widest text, header included.
  ASSERT_EQ(fresh.widths.size(), 3u);
  EXPECT_FLOAT_EQ(fresh.widths[0], std::ceil(ImGui::CalcTextSize("model").x));
  EXPECT_FLOAT_EQ(fresh.widths[1], std::ceil(ImGui::CalcTextSize("d_model").x));
  EXPECT_FLOAT_EQ(fresh.widths[2], std::ceil(ImGui::CalcTextSize("params").x));
}

}  // namespace
}  // namespace attnlab::gui
