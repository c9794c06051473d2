#include "core/tensor/tensor.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>
#include <sstream>

#include "core/model/errors.hpp"

namespace attnlab {

Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * shape[d + 1];
  }
  return strides;
}

std::string shape_to_string(const Shape& shape) {
  std::ostringstream out;
  out << "(";
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? ", " : "") << shape[i];
  out << ")";
  return out.str();
}

Tensor Tensor::empty(const std::string& storage_name, Shape shape, bool allocate) {
  Tensor t;
  t.shape_ = std::move(shape);
  t.strides_ = contiguous_strides(t.shape_);
  t.storage_ = std::make_shared<Storage>();
  t.storage_->name = storage_name;
  t.storage_->numel = t.numel();
  if (allocate) t.storage_->values.resize(static_cast<size_t>(t.storage_->numel));
  return t;
}

Tensor Tensor::zeros(const std::string& storage_name, Shape shape, bool allocate) {
  Tensor t = empty(storage_name, std::move(shape), allocate);
  if (allocate) std::fill(t.storage_->values.begin(), t.storage_->values.end(), 0.0f);
  return t;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

int64_t Tensor::normalize_dim(int64_t d) const {
  const int64_t n = dim();
  if (d < 0) d += n;
  assert(d >= 0 && d < n && "dimension out of range");
  return d;
}

bool Tensor::is_contiguous() const {
  // As PyTorch: sizes of 1 impose no stride requirement.
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (shape_[d] == 1) continue;
    if (strides_[d] != expected) return false;
    expected *= shape_[d];
  }
  return true;
}

namespace {

// PyTorch's computeStride (aten/src/ATen/TensorUtils.cpp): the strides a view of `new_shape`
// would need, or nothing when some new dimension would span two non-adjacent memory chunks.
std::optional<Shape> view_strides(const Shape& old_shape, const Shape& old_strides,
                                  const Shape& new_shape) {
  Shape new_strides(new_shape.size(), 0);
  if (old_shape.empty()) return Shape(new_shape.size(), 1);
  int64_t numel = 1;
  for (int64_t s : old_shape) numel *= s;
  if (numel == 0) return contiguous_strides(new_shape);

  int64_t view_d = static_cast<int64_t>(new_shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_shape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_shape[tensor_d];
    const bool chunk_ends =
        tensor_d == 0 || (old_shape[tensor_d - 1] != 1 &&
                          old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
      new_strides[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_shape[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = old_strides[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

}  // namespace

Tensor Tensor::view(Shape new_shape) const {
  int64_t known = 1;
  int64_t inferred = -1;
  for (size_t i = 0; i < new_shape.size(); ++i) {
    if (new_shape[i] == -1) {
      if (inferred >= 0) throw ViewError("view: only one dimension can be inferred (-1)");
      inferred = static_cast<int64_t>(i);
    } else {
      known *= new_shape[i];
    }
  }
  if (inferred >= 0 && known > 0) new_shape[inferred] = numel() / known;
  int64_t new_numel = 1;
  for (int64_t s : new_shape) new_numel *= s;
  if (new_numel != numel()) {
    throw ViewError("shape '" + shape_to_string(new_shape) + "' is invalid for input of size " +
                    std::to_string(numel()));
  }
  auto strides = view_strides(shape_, strides_, new_shape);
  if (!strides) {
    throw ViewError(
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead. [" +
        std::string("tensor ") + shape_to_string(shape_) + " with strides " +
        shape_to_string(strides_) + " is not contiguous (a transpose swapped its strides), so " +
        shape_to_string(new_shape) +
        " cannot be read from its storage without copying: call .contiguous() before .view()]");
  }
  Tensor t = *this;
  t.shape_ = std::move(new_shape);
  t.strides_ = std::move(*strides);
  return t;
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  const int64_t at = dim < 0 ? dim + this->dim() + 1 : dim;
  assert(at >= 0 && at <= this->dim() && "dimension out of range");
  Tensor t = *this;
  // Any stride serves a size-1 axis; PyTorch uses the one that keeps the tensor contiguous.
  const int64_t stride = at < this->dim() ? shape_[size_t(at)] * strides_[size_t(at)] : 1;
  t.shape_.insert(t.shape_.begin() + at, 1);
  t.strides_.insert(t.strides_.begin() + at, stride);
  return t;
}

Tensor Tensor::expand(Shape sizes) const {
  if (sizes.size() != shape_.size())
    throw ViewError("expand: " + shape_to_string(sizes) + " has " + std::to_string(sizes.size()) +
                    " dimensions but the tensor " + shape_to_string(shape_) + " has " +
                    std::to_string(shape_.size()));
  Tensor t = *this;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == shape_[d]) continue;
    if (shape_[d] != 1)
      throw ViewError("expand: the expanded size " + std::to_string(sizes[d]) +
                      " must match the existing size " + std::to_string(shape_[d]) +
                      " at dimension " + std::to_string(d) + " (only size-1 axes can grow)");
    t.shape_[d] = sizes[d];
    t.strides_[d] = 0;  // every index along this axis reads the same elements
  }
  return t;
}

Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  const int64_t d = normalize_dim(dim);
  assert(start >= 0 && length >= 0 && start + length <= shape_[size_t(d)]);
  Tensor t = *this;
  t.shape_[size_t(d)] = length;
  t.offset_ += start * strides_[size_t(d)];
  return t;
}

Tensor Tensor::reshape(Shape new_shape, const std::string& storage_name) const {
  if (view_strides(shape_, strides_, new_shape)) return view(std::move(new_shape));
  return contiguous(storage_name).view(std::move(new_shape));
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  Tensor t = *this;
  const int64_t a = normalize_dim(dim0);
  const int64_t b = normalize_dim(dim1);
  std::swap(t.shape_[a], t.shape_[b]);
  std::swap(t.strides_[a], t.strides_[b]);
  return t;
}

int64_t Tensor::storage_index(const std::vector<int64_t>& index) const {
  assert(index.size() == shape_.size());
  int64_t pos = offset_;
  for (size_t i = 0; i < index.size(); ++i) {
    assert(index[i] >= 0 && index[i] < shape_[i]);
    pos += index[i] * strides_[i];
  }
  return pos;
}

Scalar Tensor::at(const std::vector<int64_t>& index) const {
  return storage_->values[static_cast<size_t>(storage_index(index))];
}

Scalar& Tensor::at(const std::vector<int64_t>& index) {
  return storage_->values[static_cast<size_t>(storage_index(index))];
}

namespace {

// Calls run(storage_position, length) for every innermost row in logical row-major order; a row
// is `length` elements `inner_stride` apart, starting at storage_position.
template <typename Fn>
void for_each_inner_row(const Shape& shape, const Shape& strides, int64_t offset, Fn run) {
  for (int64_t s : shape)
    if (s == 0) return;
  if (shape.empty()) {
    run(offset, 1);
    return;
  }
  const size_t outer = shape.size() - 1;
  std::vector<int64_t> index(outer, 0);
  int64_t pos = offset;
  while (true) {
    run(pos, shape[outer]);
    size_t d = outer;
    while (true) {
      if (d == 0) return;
      --d;
      if (++index[d] < shape[d]) {
        pos += strides[d];
        break;
      }
      pos -= strides[d] * (shape[d] - 1);
      index[d] = 0;
    }
  }
}

}  // namespace

void Tensor::copy_to(Scalar* dst) const {
  const Scalar* src = storage_->values.data();
  const int64_t inner_stride = shape_.empty() ? 1 : strides_.back();
  for_each_inner_row(shape_, strides_, offset_, [&](int64_t pos, int64_t length) {
    if (inner_stride == 1) {
      std::copy_n(src + pos, length, dst);
    } else {
      for (int64_t j = 0; j < length; ++j) dst[j] = src[pos + j * inner_stride];
    }
    dst += length;
  });
}

std::vector<Scalar> Tensor::to_vector() const {
  std::vector<Scalar> out(static_cast<size_t>(numel()));
  copy_to(out.data());
  return out;
}

Tensor Tensor::contiguous(const std::string& storage_name) const {
  if (is_contiguous()) return *this;
  Tensor copy = Tensor::empty(storage_name, shape_, has_values());
  if (has_values()) copy_to(copy.storage_->values.data());
  return copy;
}

Shape unravel_index(int64_t flat, const Shape& shape) {
  Shape index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

double max_abs_difference(const Tensor& a, const Tensor& b) {
  const std::vector<Scalar> x = a.to_vector(), y = b.to_vector();
  double most = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    most = std::max(most, double(std::abs(x[i] - y[i])));
  return most;
}

}  // namespace attnlab
