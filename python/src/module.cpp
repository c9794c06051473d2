// attnlab._core: the compiled half of `import attnlab` (python/attnlab/ is the other): the core's
// exercise, trace and grader, thin. Arrays are views of the core's tensors (arrays.hpp); a bad
// setting or file is the core's UserError, raised as ValueError with its words.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

#include "core/exercise/exercise.hpp"
#include "core/model/errors.hpp"
#include "core/trace/mha.hpp"
#include "python/src/arrays.hpp"
#include "python/src/check.hpp"
#include "python/src/config_arguments.hpp"

namespace py = pybind11;
using namespace attnlab;

namespace {

// An exercise: its config, inputs and right answer (the traced run), shared by the trace and the
// arrays made from it.
struct PyExercise {
  std::shared_ptr<const Exercise> exercise;
};

// A traced run: an exercise's right answer, or a run of its own.
struct PyTrace {
  std::shared_ptr<const Trace> trace;
};

py::tuple ints(const Shape& values) {
  py::tuple t(values.size());
  for (size_t i = 0; i < values.size(); ++i) t[i] = values[i];
  return t;
}

// Each record of the run: {name, array (a view, base = the Trace object), shape, strides (the
// core's, in elements), offset, is_view, storage, axes, formula, pytorch}.
py::list trace_records(py::object self) {
  const Trace& trace = *self.cast<const PyTrace&>().trace;
  py::list records;
  for (const TensorRecord& r : trace.records) {
    if (r.pass != Pass::Forward) continue;
    py::dict d;
    d["name"] = r.name;
    d["array"] = python::tensor_view(r.tensor, self);
    d["shape"] = ints(r.tensor.shape());
    d["strides"] = ints(r.tensor.strides());
    d["offset"] = r.tensor.offset();
    d["is_view"] = r.is_view;
    d["storage"] = r.storage_owner;
    d["axes"] = r.axes_text();
    d["formula"] = r.formula;
    d["pytorch"] = r.pytorch;
    records.append(d);
  }
  return records;
}

PyExercise exercise_from_settings(const std::optional<std::string>& preset,
                                  const py::dict& keywords) {
  const python::Settings s = python::settings_from_arguments(preset, keywords);
  return {std::make_shared<const Exercise>(make_exercise(s.config, s.inputs))};
}

// The input `name` ("x", "w_q", ..., "b_o") as a view, or None when the exercise has none.
py::object exercise_input(py::object self, const std::string& name) {
  const Exercise& e = *self.cast<const PyExercise&>().exercise;
  for (const std::string& known : input_names(e.config))
    if (known == name)
      for (const InputTensor& t : kInputTensors)
        if (name == t.name) return python::tensor_view(e.inputs.*t.member, self);
  return py::none();
}

// exercise.json's text, as the folder would hold it (sizes, mask, stages).
std::string exercise_json(const PyExercise& self) {
  for (const PersonFile& f : exercise_files(*self.exercise))
    if (f.name == "exercise.json") return f.bytes;
  return "";
}

// write_exercise into `dir`: {"written": [...], "kept": line, "moved": line} ("" when none).
py::dict save_exercise(const PyExercise& self, const std::string& dir, bool force) {
  const PersonWrite w =
      write_exercise(*self.exercise, dir, force ? WhenDifferent::MoveAside : WhenDifferent::Keep);
  py::dict d;
  d["written"] = w.written;
  d["kept"] = kept_line(w, dir);
  d["moved"] = moved_line(w, dir);
  return d;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "Attention Lab's core: exercises, traces and the grader (use the attnlab package)";
  // The core's words for bad input, as the command line says them.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const UserError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ViewError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  py::class_<PyTrace>(m, "Trace")
      .def_static(
          "from_settings",
          [](const std::optional<std::string>& preset, const py::dict& keywords) {
            const python::Settings s = python::settings_from_arguments(preset, keywords);
            return PyTrace{std::make_shared<const Trace>(run(s.config, s.inputs))};
          },
          py::arg("preset"), py::arg("keywords"))
      .def("records", &trace_records);

  py::class_<PyExercise>(m, "Exercise")
      .def_static("from_settings", &exercise_from_settings, py::arg("preset"), py::arg("keywords"))
      .def_static(
          "load",
          [](const std::string& dir) {
            return PyExercise{std::make_shared<const Exercise>(load_exercise(dir))};
          },
          py::arg("dir"))
      .def("input", &exercise_input, py::arg("name"))
      .def("input_names", [](const PyExercise& self) { return input_names(self.exercise->config); })
      .def("exercise_json", &exercise_json)
      .def("save", &save_exercise, py::arg("dir"), py::arg("force") = false)
      .def("trace",
           [](const PyExercise& self) {
             // The exercise's right answer, sharing the exercise (aliasing shared_ptr).
             return PyTrace{std::shared_ptr<const Trace>(self.exercise, &self.exercise->answer)};
           })
      .def(
          "grade_arrays",
          [](const PyExercise& self, const py::dict& stages, bool not_implemented,
             const std::string& answer_label, const std::string& exercise_label) {
            return python::grade_arrays(*self.exercise, stages, not_implemented, answer_label,
                                        exercise_label);
          },
          py::arg("stages"), py::arg("not_implemented"), py::arg("answer_label"),
          py::arg("exercise_label"))
      .def(
          "grade_file",
          [](const PyExercise& self, const std::string& path, const std::string& exercise_label) {
            return python::grade_file(*self.exercise, path, exercise_label);
          },
          py::arg("path"), py::arg("exercise_label"));
}
