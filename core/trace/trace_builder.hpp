// Appends records to a trace as the plan describes them (name, stage, sub-step, axes, inputs and
// words), and works out from the storages which are views and which copies.
#pragma once

#include <stdexcept>
#include <string>

#include "core/trace/narration.hpp"
#include "core/trace/plan.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

class TraceBuilder {
 public:
  TraceBuilder(const Plan& plan, Trace& trace) : plan_(plan), trace_(trace) {}

  // Records the planned step `name` holding `tensor`, which took `flops` to compute.
  Tensor add(const std::string& name, const Tensor& tensor, double flops = 0) {
    const PlannedStep& step = plan_.step(name);
    const Words words = narrate(plan_, step);
    TensorRecord record;
    record.name = step.name;
    record.op = step.op;
    record.which = step.which;
    record.pass = step.pass;
    record.position = step.position;
    record.stage = step.stage;
    record.substep = step.substep;
    record.axes = step.axes;
    for (size_t i = 0; i < record.axes.size() && i < tensor.shape().size(); ++i)
      record.axes[i].size = tensor.shape()[i];
    record.inputs = step.inputs;
    record.tensor = tensor;
    record.formula = words.formula;
    record.pytorch = pytorch_line(plan_, step);
    record.flops = flops;
    const TensorRecord* owner = owner_of(tensor);
    record.is_view = owner != nullptr;
    record.storage_owner = owner ? owner->name : record.name;
    record.bytes = owner ? 0 : tensor.storage()->numel * static_cast<int64_t>(sizeof(Scalar));
    if (step.pass != Pass::Forward) {  // beside the forward pass: not in its counters
      trace_.side_records.push_back(std::move(record));
      return tensor;
    }
    trace_.counters.flops += record.flops;
    trace_.counters.bytes += record.bytes;
    trace_.records.push_back(std::move(record));
    return tensor;
  }

  // The tensor an earlier step recorded under that name (a record of any pass).
  Tensor recorded(const std::string& name) const {
    const TensorRecord* r = trace_.find(name);
    if (!r) throw std::logic_error("no record named " + name + " yet");
    return r->tensor;
  }

 private:
  const TensorRecord* owner_of(const Tensor& tensor) const {
    for (const std::vector<TensorRecord>* list : {&trace_.records, &trace_.side_records})
      for (const TensorRecord& r : *list)
        if (r.tensor.shares_storage_with(tensor) && !r.is_view) return &r;
    return nullptr;
  }
  const Plan& plan_;
  Trace& trace_;
};

}  // namespace attnlab
