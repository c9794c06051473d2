#include "app/gui/train/panel_longer.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"
#include "core/training/length_experiment.hpp"
#include "core/training/tasks.hpp"

namespace attnlab::gui {

namespace {

// A cell of the table: the seeds' mean accuracy, or "n/a" (why in its tooltip and under the
// table); the seeds' values and spread in the tooltip.
void length_cell(const training::LengthCell& cell, ImU32 dim) {
  if (!cell.available) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(dim));
    ImGui::TextUnformatted("n/a");
    ImGui::PopStyleColor();
    tooltip(cell.not_available.c_str());
    return;
  }
  ImGui::Text("%.0f %%", 100.0 * cell.mean());
  std::string seeds;
  for (const double a : cell.accuracy) {
    char one[16];
    std::snprintf(one, sizeof one, "%s%.1f", seeds.empty() ? "" : ", ", 100.0 * a);
    seeds += one;
  }
  char text[160];
  std::snprintf(text, sizeof text, "accuracy per seed: %s %%; mean %.1f ± %.1f %% (sd)",
                seeds.c_str(), 100.0 * cell.mean(), 100.0 * cell.spread());
  tooltip(text);
}

void length_table(const training::LengthExperiment& e, ImU32 dim) {
  const int columns = 1 + int(e.lengths.size());
  const float font = ImGui::GetFontSize();
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(font * 0.4f, font * 0.1f));
  const bool table = ImGui::BeginTable(
      "##longer", columns,
      ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg);
  ImGui::PopStyleVar();
  if (!table) return;
  ImGui::TableSetupColumn("pos");
  for (size_t i = 0; i < e.lengths.size(); ++i) {
    static const char* const kNames[] = {"T", "2T", "4T"};
    char name[32];
    std::snprintf(name, sizeof name, "%s=%lld", i < 3 ? kNames[i] : "", (long long)e.lengths[i]);
    ImGui::TableSetupColumn(i < 3 ? name : "", ImGuiTableColumnFlags_None);
  }
  ImGui::TableHeadersRow();
  std::string reason;
  for (const training::LengthRow& row : e.rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(std::string(position_encoding_name(row.pos)).c_str());
    for (const training::LengthCell& cell : row.cells) {
      ImGui::TableNextColumn();
      length_cell(cell, dim);
      if (!cell.available) reason = cell.not_available;
    }
  }
  ImGui::EndTable();
  char note[200];
  std::snprintf(note, sizeof note,
                "Accuracy on 256 fresh sequences per length, mean over %zu seed%s (hover a cell "
                "for each).",
                e.seeds.size(), e.seeds.size() == 1 ? "" : "s");
  text_wrapped(note);
  if (!reason.empty()) text_wrapped(reason + ", none for a position beyond T.");
}

}  // namespace

void length_eval_line(const std::vector<training::LengthEval>& evals) {
  std::string line;
  for (const training::LengthEval& e : evals) {
    char part[64];
    if (e.available) std::snprintf(part, sizeof part, "%.0f %%", 100.0 * e.lowest_accuracy());
    line += (line.empty() ? "accuracy at T = " : ", at ") + std::to_string(e.seq_len) + ": " +
            (e.available ? std::string(part) : e.not_available);
  }
  if (!line.empty()) text_wrapped(line);
}

void longer_than_training_section(AppState& state, bool table_here) {
  TrainTab& tab = state.train;
  if (ImGui::Button("Longer than training")) {
    const training::TrainSettings settings = tab.settings;
    std::vector<uint64_t> seeds;
    for (int i = 0; i < tab.longer_seeds; ++i) seeds.push_back(settings.seed + uint64_t(i));
    tab.longer.start(NoKey{}, [settings, seeds](const RunControl& control) {
      return training::run_length_experiment(settings, seeds, control);
    });
    tab.show_longer = true;
  }
  tooltip(
      "Train this task once per position encoding (none, sinusoidal, learned, RoPE, ALiBi) in the "
      "background, then measure each model on sequences of T, 2T and 4T tokens.");
  const ImGuiStyle& style = ImGui::GetStyle();
  const float box = ImGui::CalcTextSize("00").x + 2 * style.FramePadding.x +
                    2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
  same_line_if_fits(box + style.ItemInnerSpacing.x + ImGui::CalcTextSize("seeds").x,
                    style.ItemSpacing.x);
  int seeds = tab.longer_seeds;
  ImGui::SetNextItemWidth(box);
  if (ImGui::InputInt("seeds", &seeds, 1, 1)) tab.longer_seeds = std::clamp(seeds, 1, 5);
  tooltip("Seeds per encoding (seed, seed + 1, ...): the table shows their mean.");
  if (table_here) {  // no room for it beside: its progress, then the table, here
    if (tab.longer.pending() || tab.longer.result() || !tab.longer.error().empty())
      longer_than_training_view(state, false);
    return;
  }
  // Its progress and Cancel stand on the right while the experiment is shown there.
  if (!tab.show_longer) draw_task_status(tab.longer, "train_longer", palette(state.ui.theme).error);
  if (tab.longer.result() && !tab.show_longer) {
    if (ImGui::SmallButton("show the table")) tab.show_longer = true;
    tooltip("Show the last experiment's table in place of the heads.");
  }
}

void longer_than_training_view(AppState& state, bool beside_heads) {
  TrainTab& tab = state.train;
  const auto& result = tab.longer.result();
  if (tab.longer.busy() || !result) {
    text_wrapped(tab.longer.busy()
                     ? "Longer than training: training each position encoding on this task, then "
                       "measuring it at T, 2T and 4T..."
                     : "Longer than training: press its button on the left.");
    draw_task_status(tab.longer, "train_longer", palette(state.ui.theme).error);
    return;
  }
  char title[160];
  std::snprintf(title, sizeof title, "Longer than training: %s, trained at T = %lld (%lld steps)",
                training::task_info(result->task).name, (long long)result->lengths.front(),
                (long long)result->steps);
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::ColorConvertU32ToFloat4(palette(state.ui.theme).accent));
  text_wrapped(title);
  ImGui::PopStyleColor();
  length_table(*result, palette(state.ui.theme).text_dim);
  if (!beside_heads) return;
  if (ImGui::SmallButton("back to the heads")) tab.show_longer = false;
  tooltip("The right side shows the run's heads again.");
}

}  // namespace attnlab::gui
