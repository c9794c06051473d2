#include "app/gui/check/check_maps.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// The given tensor as a record of the exercise's trace: the right record's axes when the shapes
// agree, else axes named by their sizes (the student's layout is theirs).
Trace given_trace(const Exercise& exercise, const StageGrade& stage) {
  Trace trace;
  trace.config = exercise.answer.config;
  TensorRecord record = *exercise.answer.find(stage.name);
  record.tensor = stage.given_tensor;
  if (!stage.shape_ok) {
    record.axes.clear();
    for (int64_t i = 0; i < stage.given_tensor.dim(); ++i)
      record.axes.push_back({AxisKind::Feature, std::to_string(stage.given_shape[size_t(i)]),
                             stage.given_shape[size_t(i)]});
  }
  trace.records.push_back(std::move(record));
  return trace;
}

}  // namespace

int64_t check_map_count(const Exercise& exercise, const StageGrade& stage) {
  const TensorRecord* right = exercise.answer.find(stage.name);
  return right && right->tensor.dim() == 4 ? right->tensor.size(1) : 1;
}

int64_t first_check_map(const StageGrade& stage) {
  const Shape& shape = stage.right_shape;
  if (!stage.shape_ok || shape.size() != 4) return 0;
  const auto wrong = std::find(stage.wrong_at.begin(), stage.wrong_at.end(), uint8_t(1));
  if (wrong == stage.wrong_at.end()) return 0;
  return (int64_t(wrong - stage.wrong_at.begin()) / (shape[2] * shape[3])) % shape[1];
}

std::array<HeatmapSet, 3> build_check_maps(const Exercise& exercise, const StageGrade& stage,
                                           int64_t map) {
  std::array<HeatmapSet, 3> maps;
  const HeatmapSet right = record_heatmaps(exercise.answer, stage.name, 0);
  if (!right.empty()) maps[1] = single_map(right, map);
  if (stage.given) {
    const HeatmapSet given = record_heatmaps(given_trace(exercise, stage), stage.name, 0);
    if (!given.empty()) maps[0] = single_map(given, std::min(map, given.heads - 1));
  }
  share_colour_scale(std::span(maps.data(), 2));
  if (!maps[0].empty() && !maps[1].empty() && stage.shape_ok) {
    maps[2] = difference_map(maps[1], maps[0]);
    // On the maps' own magnitude: float32 rounding stays dark, not stretched to the full scale.
    const float magnitude = std::max(std::abs(maps[1].value_min), std::abs(maps[1].value_max));
    maps[2].value_max = std::max(maps[2].value_max, magnitude);
  }
  return maps;
}

bool check_entry_wrong(const StageGrade& stage, int64_t map, int64_t row, int64_t col) {
  if (!stage.shape_ok || stage.wrong_at.empty()) return false;
  const Shape& shape = stage.right_shape;
  int64_t at = 0;
  if (shape.size() == 4)
    at = (map * shape[2] + row) * shape[3] + col;  // sequence 0 of (B, A, R, C)
  else if (shape.size() == 3)
    at = row * shape[2] + col;  // sequence 0 of (B, R, C)
  else
    return false;
  return at >= 0 && at < int64_t(stage.wrong_at.size()) && stage.wrong_at[size_t(at)] != 0;
}

}  // namespace attnlab::gui
