// attnlab-cli's text output: the shape journey table, counters, diagnostics, tensor values.
#pragma once

#include <ostream>
#include <string>

#include "core/model/preset.hpp"
#include "core/teaching/comparisons.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::cli {

// The theory seed's "Complete Shape Journey": operation, shape, strides, contiguous?, notes.
void print_shape_journey(std::ostream& out, const Trace& trace);
void print_counters(std::ostream& out, const Trace& trace);
// KV-cache decoding, step by step: the cache's shape and bytes, the score row, FLOPs vs recompute.
void print_decode(std::ostream& out, const Trace& trace);
void print_diagnostics(std::ostream& out, const Trace& trace);
// A tensor's values, NumPy style, one innermost row per line.
void print_values(std::ostream& out, const TensorRecord& record);
void print_preset_list(std::ostream& out, const std::vector<Preset>& presets);
void print_mistake_list(std::ostream& out);
// What the injected mistake changed, measured against the correct run.
void print_mistake_report(std::ostream& out, const Trace& correct, const Trace& buggy);
void print_importance(std::ostream& out, const std::vector<double>& importance);
void print_model_table(std::ostream& out);
void print_head_comparison(std::ostream& out, const HeadCountComparison& comparison);
void print_path_comparison(std::ostream& out, const PathComparison& comparison);
void print_code(std::ostream& out, const Config& config);

}  // namespace attnlab::cli
