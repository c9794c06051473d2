#include "core/exercise/grade.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

double largest_finite(const std::vector<Scalar>& values) {
  double largest = 0;
  for (Scalar v : values)
    if (std::isfinite(v)) largest = std::max(largest, double(std::abs(v)));
  return largest;
}

// Does a given entry agree with the right one? `tolerance` is absolute.
bool entry_agrees(double given, double right, double tolerance) {
  if (std::isinf(right) && right < 0) return given <= kLargeNegative;
  if (!std::isfinite(given) || !std::isfinite(right)) return given == right;
  return std::abs(given - right) <= tolerance;
}

// The head an entry belongs to: its head axis, or for heads side by side in a feature axis
// (h*d_k) the column's block. -1 when the tensor has no heads.
int64_t head_of(const Axes& axes, const Shape& index) {
  const int head = find_axis(axes, AxisKind::Head);
  if (head >= 0) return index[head];
  for (size_t a = 0; a < axes.size(); ++a)
    if (axes[a].kind == AxisKind::Feature && axes[a].heads > 1)
      return index[a] / (axes[a].size / axes[a].heads);
  return -1;
}

}  // namespace

bool same_answer(const Tensor& given, const Tensor& right) {
  if (given.shape() != right.shape()) return false;
  const std::vector<Scalar> g = given.to_vector(), r = right.to_vector();
  const double tolerance = kAnswerTolerance * std::max(1.0, largest_finite(r));
  for (size_t i = 0; i < g.size(); ++i)
    if (!entry_agrees(g[i], r[i], tolerance)) return false;
  return true;
}

StageGrade grade_stage(const TensorRecord& right, const Tensor* given) {
  StageGrade s;
  s.name = right.name;
  s.axes = right.axes_text();
  s.right_shape = right.tensor.shape();
  s.entries = right.tensor.numel();
  if (!given) return s;
  s.given = true;
  s.given_tensor = *given;
  s.given_shape = given->shape();
  s.shape_ok = s.given_shape == s.right_shape;
  if (!s.shape_ok) return s;
  const std::vector<Scalar> g = given->to_vector(), r = right.tensor.to_vector();
  s.tolerance = kAnswerTolerance * std::max(1.0, largest_finite(r));
  std::vector<bool> head_wrong;
  int64_t worst = -1;
  s.wrong_at.assign(g.size(), 0);
  for (size_t i = 0; i < g.size(); ++i) {
    if (entry_agrees(g[i], r[i], s.tolerance)) continue;
    s.wrong_at[i] = 1;
    ++s.wrong_entries;
    const Shape index = unravel_index(int64_t(i), s.right_shape);
    if (!std::isfinite(g[i]) && std::isfinite(r[i]) && s.non_finite.empty())
      s.non_finite = std::string(std::isnan(g[i]) ? "NaN"
                                 : g[i] > 0       ? "Inf"
                                                  : "-Inf") +
                     " at index " + shape_to_string(index);
    const double error = std::abs(double(g[i]) - double(r[i]));
    if (std::isfinite(error) && error > s.max_error) {
      s.max_error = error;
      worst = int64_t(i);
    }
    if (worst < 0) worst = int64_t(i);
    if (const int64_t h = head_of(right.axes, index); h >= 0) {
      if (head_wrong.size() <= size_t(h)) head_wrong.resize(h + 1, false);
      head_wrong[h] = true;
    }
  }
  s.values_ok = s.wrong_entries == 0;
  for (size_t h = 0; h < head_wrong.size(); ++h)
    if (head_wrong[h]) s.differing_heads.push_back(int64_t(h));
  if (worst >= 0) {
    s.worst_index = unravel_index(worst, s.right_shape);
    s.worst_given = g[worst];
    s.worst_right = r[worst];
  }
  return s;
}

Grade grade_answer(const Exercise& exercise, const Answer& answer) {
  Grade grade;
  grade.not_implemented = answer.not_implemented;
  const std::vector<std::string> names = stage_names(exercise.answer);
  for (const std::string& name : names) {
    grade.stages.push_back(grade_stage(*exercise.answer.find(name), answer.find(name)));
    const StageGrade& s = grade.stages.back();
    grade.given_count += s.given;
    if (s.wrong() && grade.first_wrong < 0) grade.first_wrong = int(grade.stages.size()) - 1;
  }
  for (const AnswerArray& a : answer.arrays)
    if (std::find(names.begin(), names.end(), a.name) == names.end())
      grade.unknown_names.push_back(a.name);
  if (grade.first_wrong >= 0) grade.diagnosis = diagnose(exercise, answer, grade.stages);
  return grade;
}

}  // namespace attnlab
