// A strided tensor as PyTorch has it: shared storage + shape + strides + offset.
// view / transpose / contiguous behave like torch.Tensor's, so the layout the app shows is real.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

using Scalar = float;  // all tensors are float32, like PyTorch's default dtype
using Shape = std::vector<int64_t>;

// Storage starts on a 64-byte boundary. Not only for speed: Eigen's vectorised exp and sums treat
// an unaligned head of a row with scalar code, so without a fixed alignment the same softmax
// could round differently from one allocation to the next.
template <typename T>
struct AlignedAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, size_t) { ::operator delete(p, kAlignment); }
  // Default-initialises: Values(n) and resize(n) leave floats unset instead of writing zeros, so
  // a buffer that is about to be overwritten costs no extra pass. Ask for zeros explicitly.
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  bool operator==(const AlignedAllocator&) const { return true; }
};
using Values = std::vector<Scalar, AlignedAllocator<Scalar>>;

// The flat memory a tensor reads from. `name` is the tensor that allocated it (e.g. "q").
// In shape-only mode `values` stays empty: only the size is known.
struct Storage {
  std::string name;
  int64_t numel = 0;
  Values values;
};

class Tensor {
 public:
  Tensor() = default;
  // As torch.empty: a fresh contiguous tensor owning new storage whose values are not set, for a
  // result every element of which is about to be written; allocate=false keeps it shape-only.
  static Tensor empty(const std::string& storage_name, Shape shape, bool allocate = true);
  // As torch.zeros: the same, filled with 0.
  static Tensor zeros(const std::string& storage_name, Shape shape, bool allocate = true);

  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t size(int64_t d) const { return shape_.at(normalize_dim(d)); }
  int64_t numel() const;
  bool has_values() const { return storage_ && !storage_->values.empty(); }
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  bool shares_storage_with(const Tensor& other) const { return storage_ == other.storage_; }

  bool is_contiguous() const;
  // Same storage, new shape. Throws ViewError (with PyTorch's explanation) when the strides
  // cannot express the new shape, e.g. after a transpose. One entry may be -1 (inferred).
  Tensor view(Shape new_shape) const;
  // Same storage, two dimensions' sizes and strides swapped.
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  // Itself if already contiguous, else a row-major copy into new storage named storage_name.
  Tensor contiguous(const std::string& storage_name) const;
  // Same storage with a new axis of size 1 before `dim` (as torch.unsqueeze).
  Tensor unsqueeze(int64_t dim) const;
  // Same storage, axes of size 1 repeated to `sizes` by a stride of 0: no copy (as torch.expand).
  // Throws ViewError when an axis larger than 1 would have to change size.
  Tensor expand(Shape sizes) const;
  // Same storage, `length` entries of axis `dim` from `start` (as torch.narrow): a view.
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  // As torch.reshape: view() when the strides allow it, else a contiguous copy (new storage
  // named storage_name) viewed.
  Tensor reshape(Shape new_shape, const std::string& storage_name) const;

  // Element access through the strides (index has one entry per dimension).
  Scalar at(const std::vector<int64_t>& index) const;
  Scalar& at(const std::vector<int64_t>& index);
  // Storage position of a logical index: offset + sum(index[i] * stride[i]).
  int64_t storage_index(const std::vector<int64_t>& index) const;
  // Raw pointer to element 0 of this view (offset applied). Only valid when has_values(). A
  // const tensor's values are read-only through it.
  const Scalar* data() const { return storage_->values.data() + offset_; }
  Scalar* data() { return storage_->values.data() + offset_; }
  // Values in logical (row-major) order, whatever the strides.
  std::vector<Scalar> to_vector() const;
  // The same into dst, which has room for numel() values.
  void copy_to(Scalar* dst) const;

 private:
  int64_t normalize_dim(int64_t d) const;
  std::shared_ptr<Storage> storage_;
  Shape shape_;
  Shape strides_;
  int64_t offset_ = 0;
};

// Row-major strides for a shape: (d1*d2*..., ..., d_last, 1).
Shape contiguous_strides(const Shape& shape);
// The row-major index of element number `flat` of a tensor of this shape.
Shape unravel_index(int64_t flat, const Shape& shape);
// "(2, 3, 4)"
std::string shape_to_string(const Shape& shape);
// max |a - b| over the values of two tensors of one shape, in logical order.
double max_abs_difference(const Tensor& a, const Tensor& b);

}  // namespace attnlab
