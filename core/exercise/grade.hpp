// Grading a student's answer stage by stage against the exercise's right answer, and the
// diagnosis. The result is data: the CLI prints it (app/cli/check.cpp), a GUI tab can draw it (each
// stage's box green or red, the first wrong stage's given and right maps, the differing heads and
// entries outlined, the mistake card).
#pragma once

#include <string>
#include <vector>

#include "core/exercise/answer.hpp"
#include "core/exercise/diagnosis.hpp"
#include "core/exercise/exercise.hpp"

namespace attnlab {

// float32 agreement: |given - right| <= kAnswerTolerance * max(1, max |right|) entry by entry.
// A float64 NumPy answer from the float32 inputs is within about 1e-6 of it; a wrong line is off
// by far more.
constexpr double kAnswerTolerance = 1e-4;
// A masked score may be -inf or any "large negative" fill at or below this (-1e9, -1e4, ...).
constexpr double kLargeNegative = -1e4;

struct StageGrade {
  std::string name;     // export name: "scores"
  std::string axes;     // the right tensor's axes: "(B, h, T, T)"
  Shape right_shape;    // (the right values: Grade::exercise.answer.find(name))
  bool given = false;   // the answer holds it
  Tensor given_tensor;  // the student's values, when given
  Shape given_shape;
  bool shape_ok = false;
  bool values_ok = false;  // every entry within tolerance (-inf where right is -inf)
  double max_error = 0;    // largest |given - right| over entries both finite
  double tolerance = 0;    // kAnswerTolerance * max(1, max |right|)
  int64_t entries = 0;
  int64_t wrong_entries = 0;
  std::vector<int64_t> worst_index;  // where the largest error is (or the first wrong entry)
  double worst_given = 0, worst_right = 0;
  std::vector<int64_t> differing_heads;  // heads holding a wrong entry (head axis, or h*d columns)
  std::vector<uint8_t> wrong_at;  // per entry, row-major: 1 where it differs (to outline them)
  std::string non_finite;  // "NaN at index (0, 1, 2, 0)": the first NaN/Inf where right is finite
  bool right() const { return given && shape_ok && values_ok; }
  bool wrong() const { return given && !right(); }
};

struct Grade {
  std::vector<StageGrade> stages;          // every stage of the exercise, in pipeline order
  int first_wrong = -1;                    // index into stages, -1 when every given one is right
  std::vector<std::string> unknown_names;  // arrays the exercise does not know (ignored)
  bool not_implemented = false;            // the untouched starter's marker
  int given_count = 0;
  Diagnosis diagnosis;  // empty mistakes and where when all is right
  bool all_right() const { return !not_implemented && given_count > 0 && first_wrong < 0; }
};

// Compares one tensor with the right one (shape, values, where they differ). `given` may be null.
StageGrade grade_stage(const TensorRecord& right, const Tensor* given);

// Whether `given` equals `right` within the answer tolerance (same shape; -inf or a large negative
// fill where right is -inf; NaN never).
bool same_answer(const Tensor& given, const Tensor& right);

Grade grade_answer(const Exercise& exercise, const Answer& answer);

}  // namespace attnlab
