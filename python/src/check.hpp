// attnlab.check's grading: a student's arrays (or answer.npz) graded by the core (grade_answer,
// diagnose) and reported by the command line's report (app/common/check_report), returned as
// plain data for python/attnlab/check.py to wrap.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "core/exercise/exercise.hpp"

namespace attnlab::python {

// `stages`: {export name: array-like}, copied as float32 (NumPy's casting; a value it cannot cast
// raises its TypeError/ValueError). `not_implemented`: the solution said NotImplementedError.
// Returns {"passed", "report", "first_wrong", "mistakes": [{name, title, symptom, evidence, wrong,
// fix}], "unexplained", "stages": [{name, axes, shape, given, given_shape, shape_ok, values_ok,
// max_error, tolerance, wrong_entries, entries, worst_index, non_finite}], "ignored"}.
pybind11::dict grade_arrays(const Exercise& exercise, const pybind11::dict& stages,
                            bool not_implemented, const std::string& answer_label,
                            const std::string& exercise_label);

// The same for an answer file or folder (read_answer: a .npz or a folder of .npy).
pybind11::dict grade_file(const Exercise& exercise, const std::string& path,
                          const std::string& exercise_label);

}  // namespace attnlab::python
