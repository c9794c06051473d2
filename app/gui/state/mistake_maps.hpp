// The mistakes tab's three maps of the record where the mistake lands (MistakeReport::record):
// correct, buggy and |buggy - correct|, on one colour scale, cached for the shown trace
// (MistakesTab::maps).
#pragma once

#include <array>
#include <cstdint>

#include "app/gui/state/heatmap_data.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

struct AppState;

// What the maps are built for, besides the trace.
struct MistakeMapChoice {
  int64_t head = 0;
  int64_t token = 0;
  int64_t batch = 0;  // the sequence shown
  bool operator==(const MistakeMapChoice&) const = default;
};

// The maps of `record` of batch item `batch_index`: head `head` of each run (the buggy one's
// token `token` when its maps are per token, as with forget-transpose's (B, T, h, h)), and their
// |difference| when the two are the same size; one colour scale for all three.
std::array<HeatmapSet, 3> build_mistake_maps(const Trace& correct, const Trace& buggy,
                                             const std::string& record, int64_t head, int64_t token,
                                             int64_t batch_index);

// Those of state.mistakes.head / token for the shown mistake; empty sets without one.
const std::array<HeatmapSet, 3>& current_mistake_maps(AppState& state);

}  // namespace attnlab::gui
