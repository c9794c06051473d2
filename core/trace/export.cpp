#include "core/trace/export.hpp"

#include <filesystem>
#include <system_error>

#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab {

namespace fs = std::filesystem;

void export_trace(const Trace& trace, const std::string& dir) {
  if (trace.shape_only) {
    throw UserError(
        "a shape-only trace has no values to export: lower the sizes so it can be "
        "computed (trace.json alone is written with --json)");
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    throw UserError("cannot create the export folder " + dir + " (" +
                    (ec ? ec.message() : "a file has that name") +
                    "): choose another --export path");
  }
  for (const TensorRecord& r : trace.parameters) save_npy(dir + "/" + r.name + ".npy", r.tensor);
  for (const TensorRecord& r : trace.records) save_npy(dir + "/" + r.name + ".npy", r.tensor);
  write_file_atomically(dir + "/trace.json", trace_to_json(trace));
}

}  // namespace attnlab
