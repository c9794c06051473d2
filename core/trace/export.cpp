#include "core/trace/export.hpp"

#include <filesystem>
#include <system_error>

#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"
#include "core/tensor/zip_store.hpp"

namespace attnlab {

namespace fs = std::filesystem;

namespace {

void require_values(const Trace& trace) {
  if (trace.shape_only) {
    throw UserError(
        "a shape-only trace has no values to export: lower the sizes so it can be "
        "computed (trace.json alone is written with {{json}})");
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> export_files(const Trace& trace) {
  require_values(trace);
  std::vector<std::pair<std::string, std::string>> files;
  // Every record of the plan (the forward pass and the passes beside it) and every parameter.
  for (const std::vector<TensorRecord>* list :
       {&trace.parameters, &trace.records, &trace.side_records})
    for (const TensorRecord& r : *list) files.emplace_back(r.name + ".npy", npy_bytes(r.tensor));
  files.emplace_back("trace.json", trace_to_json(trace));
  return files;
}

void export_trace(const Trace& trace, const std::string& dir) {
  require_values(trace);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    throw UserError("cannot create the export folder " + dir + " (" +
                    (ec ? ec.message() : "a file has that name") +
                    "): choose another folder{{(export)}}");
  }
  for (const auto& [name, bytes] : export_files(trace))
    write_file_atomically(dir + "/" + name, bytes);
}

std::string export_zip(const Trace& trace) {
  return zip_store(export_files(trace));
}

}  // namespace attnlab
