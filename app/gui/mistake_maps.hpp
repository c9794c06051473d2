// The mistakes tab's three maps of the record where the mistake lands (MistakeReport::record):
// correct, buggy and |buggy - correct|, on one colour scale, cached for the shown trace.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "app/gui/heatmap_data.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

struct AppState;

struct MistakeMaps {
  std::array<HeatmapSet, 3> maps;  // correct, buggy, |difference|
  uint64_t version = 0;            // bumped on every rebuild; the renderer re-uploads on change
  std::weak_ptr<const Trace> of;   // the buggy trace they were built from,
  std::array<int64_t, 3> key{-1, -1, -1};  // for this (head, token, batch item)
};

// The maps of `record` of batch item `batch_index`: head `head` of each run (the buggy one's
// token `token` when its maps are per token, as with forget-transpose's (B, T, h, h)), and their
// |difference| when the two are the same size; one colour scale for all three.
std::array<HeatmapSet, 3> build_mistake_maps(const Trace& correct, const Trace& buggy,
                                             const std::string& record, int64_t head, int64_t token,
                                             int64_t batch_index);

// Those of state.mistake_map / mistake_token for the shown mistake; empty sets without one.
const std::array<HeatmapSet, 3>& current_mistake_maps(AppState& state);

}  // namespace attnlab::gui
