// The report of a graded answer, as `attnlab-cli check` prints it and `str(attnlab.check(...))`
// gives it (python/): one text, made here, for every front end.
#pragma once

#include <string>

#include "core/exercise/grade.hpp"

namespace attnlab {

// The report of `grade`: "Checking ANSWER against EXERCISE", a line per stage, the ignored names,
// then "Every given stage is right", "No stage of this exercise is given" or the first wrong stage
// and the diagnosis. `answer_label` and `exercise_label` name where the answer and the exercise
// came from ("ex1/answer.npz", "ex1").
std::string check_report(const Grade& grade, const std::string& answer_label,
                         const std::string& exercise_label);

// A stage's verdict as its report line ends: "right   (max error 1.2e-07)", "WRONG   max error
// 0.31 (tolerance 0.0001), 12 of 24 entries differ", "WRONG shape: ...", "not given".
std::string stage_verdict(const StageGrade& stage);

// The diagnosis as the report ends: a "Mistake: NAME (title)" block per named mistake (symptom,
// seen, wrong, fix), or "Diagnosis: ..." when nothing known explains the answer.
std::string diagnosis_report(const Diagnosis& diagnosis);

// What is said instead of a report when the answer is only the untouched starter's marker
// (Answer::not_implemented with no arrays): one line.
std::string not_implemented_report(const std::string& answer_label);

}  // namespace attnlab
