// Writes a trace to a folder: one C-order float32 .npy per stage tensor (and per parameter),
// plus trace.json. Files appear under their final names only when complete.
#pragma once

#include <string>

#include "core/trace/trace.hpp"

namespace attnlab {

// Throws UserError (naming the folder or file and why) when something cannot be written.
void export_trace(const Trace& trace, const std::string& dir);

// trace.json's text: every stage's shape, strides, contiguity, FLOPs, bytes, diagnostics.
std::string trace_to_json(const Trace& trace);

}  // namespace attnlab
