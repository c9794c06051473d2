// Naming the mistake behind a wrong answer: by its signature in the stages given (a shape, a
// constant factor, which axis sums to 1, the masked weights, K equal to Q, ...), and, where only
// later stages are given, by running each simulated mistake (core/teaching/mistakes.hpp) on the
// same inputs and matching. Nothing is named that the answer does not show.
#pragma once

#include <string>
#include <vector>

#include "core/exercise/answer.hpp"
#include "core/exercise/exercise.hpp"
#include "core/model/config.hpp"

namespace attnlab {

struct StageGrade;

struct NamedMistake {
  std::string name;     // --list-mistakes name ("forget-transpose"), or the grader's own two:
                        // "no-output-projection", "mask-missing"
  std::string title;    // "Forgetting the transpose after splitting heads"
  std::string symptom;  // one line
  std::string wrong;    // the buggy line (PyTorch)
  std::string right;    // the fix
  Mistake simulated =
      Mistake::None;     // the simulator's mistake to show it on (None: the grader's own)
  std::string evidence;  // what in this answer shows it: "scores is (1, 3, 2, 2) (B, T, h, h)..."
};

struct Diagnosis {
  std::vector<NamedMistake> mistakes;  // empty: nothing known explains the answer
  // Nothing known explains it: the first wrong stage and where it differs, in words.
  std::string unexplained;
};

Diagnosis diagnose(const Exercise& exercise, const Answer& answer,
                   const std::vector<StageGrade>& stages);

}  // namespace attnlab
