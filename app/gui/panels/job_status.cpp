#include "app/gui/panels/job_status.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

JobAction job_status(const JobView& job, ImU32 error_colour) {
  JobAction action = JobAction::None;
  ImGui::PushID(job.id);
  if (job.busy) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float button_w = ImGui::CalcTextSize("Cancel").x + 2 * style.FramePadding.x;
    // The bar and Cancel on one line where the bar keeps its label whole beside the button,
    // else the bar across the row and Cancel under it.
    const float avail = ImGui::GetContentRegionAvail().x;
    const std::string longest = std::string(job.doing) + " 100%";
    const float label_w = ImGui::CalcTextSize(longest.c_str()).x + 2 * style.ItemSpacing.x;
    const bool one_line = avail - button_w - style.ItemSpacing.x >= label_w;
    const float bar_w = one_line ? avail - button_w - style.ItemSpacing.x : avail;
    // Where even the row is short of the label, the percentage alone.
    char label[64];
    if (avail >= label_w)
      std::snprintf(label, sizeof label, "%s %.0f%%", job.doing, 100 * job.progress);
    else
      std::snprintf(label, sizeof label, "%.0f%%", 100 * job.progress);
    ImGui::ProgressBar(float(job.progress), ImVec2(bar_w, 0), label);
    if (one_line) ImGui::SameLine();
    if (ImGui::Button("Cancel")) action = JobAction::Cancel;
    tooltip("Stop it (within a fraction of a second).");
  } else if (!job.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, error_colour);
    text_wrapped(job.error);
    ImGui::PopStyleColor();
  } else if (job.cancelled) {
    ImGui::TextDisabled("Cancelled.");
    if (job.again) {
      same_line_if_fits(ImGui::CalcTextSize(job.again).x + 2 * ImGui::GetStyle().FramePadding.x,
                        ImGui::GetStyle().ItemSpacing.x);
      if (ImGui::Button(job.again)) action = JobAction::Restart;
    }
  }
  ImGui::PopID();
  return action;
}

}  // namespace attnlab::gui
