// Strided tensors behave as PyTorch's: views share storage, transpose swaps strides, view of a
// non-contiguous tensor fails with the explanation, contiguous copies.
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>

#include "core/model/errors.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {
namespace {

Tensor iota(Shape shape) {
  Tensor t = Tensor::zeros("t", std::move(shape));
  for (size_t i = 0; i < t.storage()->values.size(); ++i) t.storage()->values[i] = Scalar(i);
  return t;
}

TEST(Tensor, FreshTensorIsRowMajor) {
  const Tensor t = iota({2, 3, 4});
  EXPECT_EQ(t.strides(), (Shape{12, 4, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.at({1, 2, 3}), 23.0f);
}

TEST(Tensor, ViewSplitsTheLastAxisWithoutCopying) {
  const Tensor q = iota({2, 5, 12});          // (B, T, h*d_k)
  const Tensor split = q.view({2, 5, 3, 4});  // (B, T, h, d_k)
  EXPECT_TRUE(split.shares_storage_with(q));
  EXPECT_EQ(split.strides(), (Shape{60, 12, 4, 1}));
  EXPECT_EQ(split.at({1, 2, 2, 3}), q.at({1, 2, 11}));
}

TEST(Tensor, TransposeOnlySwapsStrides) {
  const Tensor split = iota({2, 5, 3, 4});
  const Tensor heads = split.transpose(1, 2);  // (B, h, T, d_k)
  EXPECT_TRUE(heads.shares_storage_with(split));
  EXPECT_EQ(heads.shape(), (Shape{2, 3, 5, 4}));
  EXPECT_EQ(heads.strides(), (Shape{60, 4, 12, 1}));
  EXPECT_FALSE(heads.is_contiguous());
  for (int64_t h = 0; h < 3; ++h)
    for (int64_t t = 0; t < 5; ++t) EXPECT_EQ(heads.at({1, h, t, 2}), split.at({1, t, h, 2}));
}

TEST(Tensor, ViewAfterTransposeFailsWithTheExplanation) {
  const Tensor heads = iota({2, 3, 5, 4}).transpose(1, 2);  // (B, T, h, d) non-contiguous
  try {
    heads.view({2, 5, 12});
    FAIL() << "view of a non-contiguous tensor must throw";
  } catch (const ViewError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("view size is not compatible with input tensor's size and stride"),
              std::string::npos);
    EXPECT_NE(message.find("call .contiguous() before .view()"), std::string::npos);
    EXPECT_NE(message.find("(2, 5, 3, 4)"), std::string::npos);  // names the shape
  }
}

// A failed view is the framework's RuntimeError (a bug in the code, or an injected mistake), not
// bad user input: a handler for UserError must not swallow it.
TEST(Tensor, ViewErrorIsNotAUserError) {
  const Tensor heads = iota({2, 3, 5, 4}).transpose(1, 2);
  try {
    heads.view({2, 5, 12});
    FAIL() << "view of a non-contiguous tensor must throw";
  } catch (const UserError&) {
    FAIL() << "ViewError was caught as a UserError";
  } catch (const ViewError&) {
    SUCCEED();
  }
}

TEST(Tensor, ContiguousCopiesIntoLogicalOrder) {
  const Tensor heads = iota({1, 2, 3, 2}).transpose(1, 2);  // (1, 3, 2, 2)
  const Tensor copy = heads.contiguous("copy");
  EXPECT_FALSE(copy.shares_storage_with(heads));
  EXPECT_TRUE(copy.is_contiguous());
  EXPECT_EQ(copy.storage()->name, "copy");
  EXPECT_EQ(copy.to_vector(), heads.to_vector());
  // Element (t=1, h=1, e=0) of the transposed view is source (h=1, t=1, e=0) = 1*6 + 1*2 + 0.
  EXPECT_EQ(copy.at({0, 1, 1, 0}), 8.0f);
  EXPECT_EQ(copy.view({1, 3, 4}).strides(), (Shape{12, 4, 1}));
}

TEST(Tensor, ContiguousOfContiguousIsTheSameTensor) {
  const Tensor t = iota({2, 3});
  EXPECT_TRUE(t.contiguous("other").shares_storage_with(t));
}

TEST(Tensor, ViewsThatPyTorchAllowsOnNonContiguousTensors) {
  // Splitting a dimension of a transposed tensor keeps it expressible by strides.
  const Tensor t = iota({4, 6}).transpose(0, 1);  // (6, 4), strides (1, 6)
  const Tensor v = t.view({2, 3, 4});
  EXPECT_EQ(v.strides(), (Shape{3, 1, 6}));
  EXPECT_EQ(v.at({1, 2, 3}), t.at({5, 3}));
  // Size-1 dimensions impose nothing.
  EXPECT_TRUE(iota({1, 5}).transpose(0, 1).is_contiguous());
}

TEST(Tensor, ViewInfersOneDimensionAndChecksTheSize) {
  EXPECT_EQ(iota({2, 3, 4}).view({2, -1}).shape(), (Shape{2, 12}));
  EXPECT_THROW(iota({2, 3, 4}).view({5, 5}), ViewError);
  EXPECT_THROW(iota({2, 3, 4}).view({-1, -1}), ViewError);
}

TEST(Tensor, ShapeOnlyTensorsHaveNoValues) {
  const Tensor t = Tensor::zeros("big", {1000, 1000, 1000}, false);
  EXPECT_FALSE(t.has_values());
  EXPECT_EQ(t.numel(), 1000000000);
  EXPECT_EQ(t.view({1000, 1000, 10, 100}).transpose(1, 2).strides(),
            (Shape{1000000, 100, 1000, 1}));
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// As in PyTorch: empty() allocates without setting values, zeros() fills them with 0; a const
// tensor hands out read-only values.
TEST(Tensor, EmptyAllocatesZerosFillsAndConstIsReadOnly) {
  const Tensor e = Tensor::empty("e", {2, 3});
  ASSERT_TRUE(e.has_values());
  EXPECT_EQ(e.storage()->values.size(), 6u);
  Tensor z = Tensor::zeros("z", {2, 3});
  z.data()[4] = 1.0f;
  EXPECT_EQ(z.to_vector(), (std::vector<Scalar>{0, 0, 0, 0, 1, 0}));
  static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().data()), const Scalar*>);
  static_assert(std::is_same_v<decltype(std::declval<Tensor&>().data()), Scalar*>);
}

}  // namespace
}  // namespace attnlab
