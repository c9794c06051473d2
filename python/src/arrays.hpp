// The core's tensors as NumPy arrays, without a copy: the array reads the tensor's storage through
// the tensor's own shape, strides and offset (a transposed view stays a non-contiguous view), and
// keeps `owner` (the Python object holding the C++ tensor) alive as its base. Read-only: the
// exercise's inputs and right answers are not for editing in place.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "core/tensor/tensor.hpp"

namespace attnlab::python {

// A read-only view of `tensor` with `owner` as its base; None for a tensor without values.
pybind11::object tensor_view(const Tensor& tensor, pybind11::handle owner);

// A student's array as a new contiguous float32 tensor (storage named `name`), copied.
Tensor tensor_copy(
    const pybind11::array_t<float, pybind11::array::c_style | pybind11::array::forcecast>& array,
    const std::string& name);

}  // namespace attnlab::python
