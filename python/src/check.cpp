#include "python/src/check.hpp"

#include <pybind11/stl.h>

#include "app/common/check_report.hpp"
#include "core/exercise/grade.hpp"
#include "python/src/arrays.hpp"

namespace py = pybind11;

namespace attnlab::python {

namespace {

py::tuple shape_tuple(const Shape& shape) {
  py::tuple t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) t[i] = shape[i];
  return t;
}

py::dict stage_dict(const StageGrade& s) {
  py::dict d;
  d["name"] = s.name;
  d["axes"] = s.axes;
  d["shape"] = shape_tuple(s.right_shape);
  d["given"] = s.given;
  d["given_shape"] = s.given ? py::object(shape_tuple(s.given_shape)) : py::none();
  d["shape_ok"] = s.shape_ok;
  d["values_ok"] = s.values_ok;
  d["right"] = s.right();
  d["max_error"] = s.max_error;
  d["tolerance"] = s.tolerance;
  d["wrong_entries"] = s.wrong_entries;
  d["entries"] = s.entries;
  d["worst_index"] = s.wrong() ? py::object(shape_tuple(s.worst_index)) : py::none();
  d["non_finite"] = s.non_finite.empty() ? py::object(py::none()) : py::str(s.non_finite);
  return d;
}

py::dict result(const Exercise& exercise, const Answer& answer, const std::string& answer_label,
                const std::string& exercise_label) {
  py::dict r;
  if (answer.not_implemented && answer.arrays.empty()) {
    r["passed"] = false;
    r["report"] = not_implemented_report(answer_label);
    r["first_wrong"] = py::none();
    r["mistakes"] = py::list();
    r["unexplained"] = py::none();
    r["stages"] = py::list();
    r["ignored"] = py::list();
    return r;
  }
  const Grade grade = grade_answer(exercise, answer);
  r["passed"] = grade.all_right();
  r["report"] = check_report(grade, answer_label, exercise_label);
  r["first_wrong"] = grade.first_wrong >= 0
                         ? py::object(py::str(grade.stages[size_t(grade.first_wrong)].name))
                         : py::none();
  py::list mistakes;
  for (const NamedMistake& m : grade.diagnosis.mistakes) {
    py::dict d;
    d["name"] = m.name;
    d["title"] = m.title;
    d["symptom"] = m.symptom;
    d["evidence"] = m.evidence;
    d["wrong"] = m.wrong;
    d["fix"] = m.right;
    mistakes.append(d);
  }
  r["mistakes"] = mistakes;
  r["unexplained"] = grade.first_wrong >= 0 && grade.diagnosis.mistakes.empty()
                         ? py::object(py::str(grade.diagnosis.unexplained))
                         : py::none();
  py::list stages;
  for (const StageGrade& s : grade.stages) stages.append(stage_dict(s));
  r["stages"] = stages;
  r["ignored"] = grade.unknown_names;
  return r;
}

}  // namespace

py::dict grade_arrays(const Exercise& exercise, const py::dict& stages, bool not_implemented,
                      const std::string& answer_label, const std::string& exercise_label) {
  Answer answer;
  answer.source = answer_label;
  answer.not_implemented = not_implemented;
  for (const auto& [key, value] : stages) {
    const std::string name = py::str(key);
    using Floats = py::array_t<float, py::array::c_style | py::array::forcecast>;
    const Floats array = Floats::ensure(value);
    if (!array) throw py::type_error(name + " is not an array of numbers");
    answer.arrays.push_back({name, tensor_copy(array, name)});
  }
  return result(exercise, answer, answer_label, exercise_label);
}

py::dict grade_file(const Exercise& exercise, const std::string& path,
                    const std::string& exercise_label) {
  return result(exercise, read_answer(path), path, exercise_label);
}

}  // namespace attnlab::python
