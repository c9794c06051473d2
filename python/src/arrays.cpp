#include "python/src/arrays.hpp"

#include <algorithm>
#include <vector>

namespace py = pybind11;

namespace attnlab::python {

py::object tensor_view(const Tensor& tensor, py::handle owner) {
  if (!tensor.has_values()) return py::none();
  std::vector<py::ssize_t> shape(tensor.shape().begin(), tensor.shape().end());
  std::vector<py::ssize_t> strides;  // NumPy's are in bytes, the core's in elements
  for (int64_t s : tensor.strides()) strides.push_back(py::ssize_t(s * sizeof(Scalar)));
  py::array view(py::dtype::of<Scalar>(), shape, strides, tensor.data(), owner);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

Tensor tensor_copy(const py::array_t<float, py::array::c_style | py::array::forcecast>& array,
                   const std::string& name) {
  Shape shape(array.shape(), array.shape() + array.ndim());
  Tensor tensor = Tensor::empty(name, shape);
  std::copy(array.data(), array.data() + array.size(), tensor.data());
  return tensor;
}

}  // namespace attnlab::python
