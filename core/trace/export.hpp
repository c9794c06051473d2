// Writes a trace to a folder: one C-order float32 .npy per stage tensor (and per parameter),
// plus trace.json. Files appear under their final names only when complete.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnlab {

// The export's files, name and bytes: <record>.npy for every parameter and stage tensor, and
// trace.json. Throws UserError for a shape-only trace.
std::vector<std::pair<std::string, std::string>> export_files(const Trace& trace);

// Throws UserError (naming the folder or file and why) when something cannot be written.
void export_trace(const Trace& trace, const std::string& dir);

// The same files in one .zip (the app's "Save .npy" button; in the browser, a download).
std::string export_zip(const Trace& trace);

// trace.json's text: every stage's shape, strides, contiguity, FLOPs, bytes, diagnostics.
std::string trace_to_json(const Trace& trace);

}  // namespace attnlab
