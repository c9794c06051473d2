// attnlab-cli: runs one configuration, prints the shape journey and diagnostics, exports stages;
// `attnlab-cli train ...` trains a tiny attention-only transformer (app/cli/train.cpp);
// `attnlab-cli exercise DIR` and `attnlab-cli check DIR` set and grade an exercise (check.cpp).
// Exit codes: 0 ok, 2 bad input or anything thrown (one line on stderr naming the problem and the
// fix: app/common/error_line.hpp),
// 3 the injected mistake made the run fail as a framework would (--mistake view-no-contiguous).
#include <iostream>
#include <optional>
#include <string_view>

#include "app/cli/check.hpp"
#include "app/cli/flash.hpp"
#include "app/cli/options.hpp"
#include "app/cli/print.hpp"
#include "app/cli/real_model.hpp"
#include "app/cli/shuffle.hpp"
#include "app/cli/train.hpp"
#include "app/common/error_line.hpp"
#include "core/model/errors.hpp"
#include "core/pretrained/layer_trace.hpp"
#include "core/teaching/ablation.hpp"
#include "core/tensor/npy.hpp"
#include "core/trace/export.hpp"
#include "core/trace/mha.hpp"

namespace attnlab::cli {
namespace {

// `attnlab-cli [config flags]`: one traced run, printed and exported.
int run_trace(int argc, char** argv) {
  Request request;
  if (const int code = parse(argc, argv, request); code >= 0) return code;
  if (request.model_table) {
    print_model_table(std::cout);
    return 0;
  }
  if (request.list_mistakes) {
    print_mistake_list(std::cout);
    return 0;
  }
  if (request.list_presets) {
    std::vector<std::string> errors;
    print_preset_list(std::cout, load_all_presets(&errors));
    for (const std::string& e : errors) std::cerr << "attnlab-cli: " << e << "\n";
    return 0;
  }
  for (const std::string& w : request.warnings) std::cerr << "attnlab-cli: warning: " << w << "\n";
  for (const std::string& notice : request.notices) std::cerr << "attnlab-cli: " << notice << "\n";
  if (request.flash) return run_flash(request);
  // Measurements need values: refuse them up front, before any output, for a shape-only or
  // too-large config.
  const auto refuse_without_values = [&](bool asked, const char* flag) {
    if (asked && validate(request.config).empty()) require_values(request.config, flag);
  };
  refuse_without_values(request.importance, "--importance");
  refuse_without_values(request.compare_heads, "--compare-heads");
  refuse_without_values(request.compare_paths, "--compare-paths");
  const RealModel* real = request.real_model.get();
  std::optional<ShuffleDemo> shuffle;
  if (request.shuffle) shuffle = shuffle_request(request, *request.shuffle);
  const Trace trace = run(request.config, request.inputs);
  for (const std::string& name : request.show) {
    if (!trace.find(name)) {
      throw UserError("--show " + name +
                      ": no such tensor; names are those of the export, e.g. "
                      "x, q, q_heads, scores, weights, context, concat, out");
    }
  }
  if (request.json) {
    std::cout << trace_to_json(trace);
  } else {
    if (real) print_model_header(std::cout, *real);
    print_shape_journey(std::cout, trace);
    if (real) print_block_rest(std::cout, *real);
    print_counters(std::cout, trace);
    print_decode(std::cout, trace);
    print_diagnostics(std::cout, trace);
    if (trace.config.mistake != Mistake::None && !trace.shape_only) {
      Config correct = trace.config;
      correct.mistake = Mistake::None;
      print_mistake_report(std::cout, run(correct, request.inputs), trace);
    }
    if (request.importance || request.compare_heads || request.compare_paths) {
      const Inputs complete = trace_inputs(trace, request.inputs);
      // A measurement this config cannot take says which flag asked for it.
      const auto measure = [](const char* flag, const auto& work) {
        try {
          work();
        } catch (const UserError& e) {
          throw UserError(std::string(flag) + ": " + e.what());
        }
      };
      if (request.importance) {
        measure("--importance",
                [&] { print_importance(std::cout, head_importance(trace.config, complete)); });
      }
      if (request.compare_heads) {
        measure("--compare-heads", [&] {
          print_head_comparison(std::cout, compare_head_counts(trace.config, complete));
        });
      }
      if (request.compare_paths) {
        measure("--compare-paths",
                [&] { print_path_comparison(std::cout, compare_paths(trace.config, complete)); });
      }
    }
    if (real && request.next_token) print_next_tokens(std::cout, *real, 10, request.temperature);
    if (real && request.generate > 0) print_generation(std::cout, *real, request.generate);
    if (real && request.heads_report)
      print_heads_report(std::cout, find_heads(real->session.model, real->forward),
                         request.heads_sort);
    if (shuffle) print_shuffle(std::cout, *shuffle, trace);
    if (request.code) print_code(std::cout, trace.config);
    for (const std::string& name : request.show) print_values(std::cout, *trace.find(name));
  }
  if (!request.export_dir.empty()) {
    export_trace(trace, request.export_dir);
    if (real)
      for (const auto& [name, bytes] : model_export_files(real->forward, real->layer))
        write_file_atomically(request.export_dir + "/" + name, bytes);
    std::cerr << "attnlab-cli: wrote "
              << trace.parameters.size() + trace.records.size() + trace.side_records.size()
              << " .npy files and trace.json to " << request.export_dir << "\n";
  }
  if (trace.failure.failed) {
    std::cerr << "attnlab-cli: " << stage_name(trace.failure.stage)
              << " stage: " << trace.failure.message << "\n";
    return 3;
  }
  return 0;
}

// The subcommands with flags of their own; anything else is a trace.
struct Subcommand {
  const char* name;
  int (*run)(int argc, char** argv);  // argv[0] is the subcommand's name
};
constexpr Subcommand kSubcommands[] = {
    {"train", run_train},        // app/cli/train.cpp
    {"exercise", run_exercise},  // app/cli/check.cpp
    {"check", run_check},
};

}  // namespace
}  // namespace attnlab::cli

// Each subcommand runs inside its boundary: whatever it throws is one line and exit 2.
int main(int argc, char** argv) {
  using namespace attnlab;
  for (const cli::Subcommand& sub : cli::kSubcommands)
    if (argc >= 2 && std::string_view(argv[1]) == sub.name)
      return run_guarded(
          std::string("attnlab-cli ") + sub.name, [&] { return sub.run(argc - 1, argv + 1); },
          std::cerr);
  return run_guarded(
      "attnlab-cli", [&] { return cli::run_trace(argc, argv); }, std::cerr);
}
