// The result of `attnlab-cli check` in the forms a course's tools read, each a rendering of the
// same Grade and its report (check_report.hpp): JSON (the report as data), JUnit XML (GitHub
// Classroom, any CI) and Gradescope's results.json (a test per stage, scored by exercise.json's
// "points").
#pragma once

#include <optional>
#include <string>

#include "core/exercise/exercise.hpp"
#include "core/exercise/grade.hpp"

namespace attnlab {

enum class CheckFormat { Text, Json, Junit, Gradescope };

// The names --format accepts, as said when another is given.
constexpr const char* kCheckFormatNames = "text, json, junit or gradescope";

// The format of a --format value, or nullopt for a name it does not know.
std::optional<CheckFormat> check_format_named(const std::string& name);

// What every format renders: the grade, the text report said of it (check_report or, for the
// untouched starter, not_implemented_report) and the exercise (its points per stage).
struct CheckedAnswer {
  const Exercise& exercise;
  const Grade& grade;
  std::string report;
};

// {"passed", "first_wrong", "mistakes": [{"name", "title", ..., "fix"}], "unexplained", "stages":
// [{"name", "axes", "given", "shape_ok", "values_ok", "max_error", "wrong_entries", "entries",
// "worst": {"index", "given", "right"}, "non_finite", ...}], "ignored", "report"}.
std::string check_json(const CheckedAnswer& checked);

// A <testsuite name="attnlab-check"> with a <testcase> per stage of the exercise: a wrong stage
// holds a <failure> whose message names the stage and the diagnosis, a stage not given <skipped/>.
std::string check_junit(const CheckedAnswer& checked);

// Gradescope's results.json: "score", "output" (the report), "visibility" and "tests", one per
// stage with "name", "score" (its points when right, else 0), "max_score", "status", "output".
std::string check_gradescope(const CheckedAnswer& checked);

// The result in `format` (CheckFormat::Text: the report itself).
std::string format_check(CheckFormat format, const CheckedAnswer& checked);

}  // namespace attnlab
