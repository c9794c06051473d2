// Appends records to a trace and works out, from the storages, which are views and which copies.
#pragma once

#include <string>
#include <utility>

#include "core/trace.hpp"

namespace attnlab {

class TraceBuilder {
 public:
  explicit TraceBuilder(Trace& trace) : trace_(trace) {}

  struct Step {
    std::string name, substep, axes, formula, pytorch;
    double flops = 0;
  };

  Tensor add(Stage stage, Step step, const Tensor& tensor) {
    TensorRecord record;
    record.name = std::move(step.name);
    record.stage = stage;
    record.substep = std::move(step.substep);
    record.axes = std::move(step.axes);
    record.tensor = tensor;
    record.formula = std::move(step.formula);
    record.pytorch = std::move(step.pytorch);
    record.flops = step.flops;
    const TensorRecord* owner = owner_of(tensor);
    record.is_view = owner != nullptr;
    record.storage_owner = owner ? owner->name : record.name;
    record.bytes = owner ? 0 : tensor.storage()->numel * static_cast<int64_t>(sizeof(Scalar));
    trace_.counters.flops += record.flops;
    trace_.counters.bytes += record.bytes;
    trace_.records.push_back(std::move(record));
    return tensor;
  }

 private:
  const TensorRecord* owner_of(const Tensor& tensor) const {
    for (const TensorRecord& r : trace_.records)
      if (r.tensor.shares_storage_with(tensor) && !r.is_view) return &r;
    return nullptr;
  }
  Trace& trace_;
};

}  // namespace attnlab
