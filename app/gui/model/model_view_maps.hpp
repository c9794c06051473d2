// The Model tab's model view as numbers: every layer x head of a real model's run as one small
// map, each row scaled to its largest weight (the heads panel's default; an even row, attention
// spread evenly over the keys it sees, in the even rows' grey: colormap.hpp), sampled down to at
// most kModelViewCells cells a side. Built once per run and uploaded once as textures (the heads
// panel's renderer), so the view costs one quad per head a frame, not one rectangle per cell.
#pragma once

#include <cstdint>

#include "app/gui/state/heatmap_data.hpp"
#include "core/pretrained/pretrained_forward.hpp"

namespace attnlab::gui {

// A map of about this many cells a side is finer than the view draws it (maps of 20-60 px).
constexpr int64_t kModelViewCells = 64;

// (layers * heads) maps of (cells, cells), cells = min(T, kModelViewCells); map l * heads + h is
// layer l's head h; values in 0 .. 1 (the sequential colour map) or kEvenPosition. `causal`: query
// i sees keys 0..i (the model's mask; its hidden keys' weights are 0). Empty for a run of no
// layers.
HeatmapSet model_view_maps(const PretrainedRun& run, bool causal);

}  // namespace attnlab::gui
