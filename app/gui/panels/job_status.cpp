#include "app/gui/panels/job_status.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

JobAction job_status(const JobView& job, ImU32 error_colour) {
  JobAction action = JobAction::None;
  ImGui::PushID(job.id);
  if (job.busy) {
    const float button_w = ImGui::CalcTextSize("Cancel").x + 2 * ImGui::GetStyle().FramePadding.x;
    const float bar_w =
        std::max(ImGui::GetFontSize() * 4,
                 ImGui::GetContentRegionAvail().x - button_w - ImGui::GetStyle().ItemSpacing.x);
    char label[32];
    std::snprintf(label, sizeof label, "measuring %.0f%%", 100 * job.progress);
    ImGui::ProgressBar(float(job.progress), ImVec2(bar_w, 0), label);
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) action = JobAction::Cancel;
    tooltip("Stop this measurement (it stops within a fraction of a second).");
  } else if (!job.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, error_colour);
    text_wrapped(job.error);
    ImGui::PopStyleColor();
  } else if (job.cancelled) {
    ImGui::TextDisabled("Cancelled.");
    ImGui::SameLine();
    if (ImGui::Button("Measure again")) action = JobAction::Restart;
  }
  ImGui::PopID();
  return action;
}

}  // namespace attnlab::gui
