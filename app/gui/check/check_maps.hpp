// The Check tab's three maps of one stage: the student's, the right one and |difference|, one map
// (head or token) of one sequence, the first two on one colour scale.
#pragma once

#include <array>
#include <cstdint>

#include "app/gui/state/heatmap_data.hpp"
#include "core/exercise/exercise.hpp"
#include "core/exercise/grade.hpp"

namespace attnlab::gui {

// The index of the map a stage is drawn as (the head, or the token of (B, T, h, d) tensors) and the
// count of them; 1 for a (B, R, C) tensor.
int64_t check_map_count(const Exercise& exercise, const StageGrade& stage);

// The map shown first: the one holding the first differing entry, else 0.
int64_t first_check_map(const StageGrade& stage);

// Yours, right and |yours - right| (empty when the shapes differ) of map `map` of sequence 0; the
// difference coloured from 0 to at least the right map's largest |value|.
std::array<HeatmapSet, 3> build_check_maps(const Exercise& exercise, const StageGrade& stage,
                                           int64_t map);

// Whether the entry (sequence 0, map, row, col) of the stage differs (StageGrade::wrong_at).
bool check_entry_wrong(const StageGrade& stage, int64_t map, int64_t row, int64_t col);

}  // namespace attnlab::gui
