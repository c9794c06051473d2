#include "app/cli/check.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/options.hpp"
#include "app/cli/parse_arguments.hpp"
#include "app/common/check_formats.hpp"
#include "app/common/check_report.hpp"
#include "core/exercise/grade.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::cli {

int run_exercise(int argc, char** argv) {
  // --force is the exercise's own flag; the rest are the trace's (argv[0] stands for the program).
  bool force = false;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--force")
      force = true;
    else
      args.push_back(argv[i]);
  }
  if (args.size() < 2 || args[1][0] == '-') {
    if (args.size() >= 2 && (std::string(args[1]) == "--help" || std::string(args[1]) == "-h")) {
      std::cout << "attnlab-cli exercise DIR [--force] [config flags | --preset NAME]: writes an "
                   "exercise folder (inputs as .npy, exercise.json, README.md, mha.py, "
                   "mha_torch.py); the config flags are attnlab-cli's (see attnlab-cli --help). "
                   "Over a folder that is there it writes only what is missing and keeps every "
                   "file that differs (a student's mha.py), saying which; --force replaces them, "
                   "moving each old one aside first (mha.py to mha.py.~1~)\n";
      return 0;
    }
    std::cerr << "attnlab-cli exercise: give the folder to write, e.g. attnlab-cli exercise "
                 "ex1 --preset seed002\n";
    return 2;
  }
  const std::string dir = args[1];
  args.erase(args.begin() + 1);
  Request request;
  if (const int code = parse(int(args.size()), args.data(), request); code >= 0) return code;
  if (request.real_model || request.flash || !request.export_dir.empty() || request.json)
    throw UserError(
        "exercise takes config flags or --preset NAME only: drop --model, --flash, "
        "--export and --json");
  const Exercise e = make_exercise(request.config, request.inputs);
  const PersonWrite written =
      write_exercise(e, dir, force ? WhenDifferent::MoveAside : WhenDifferent::Keep);
  if (const std::string moved = moved_line(written, dir); !moved.empty())
    std::cerr << "attnlab-cli exercise: " << moved << "\n";
  if (const std::string kept = kept_line(written, dir); !kept.empty())
    std::cerr << "attnlab-cli exercise: " << kept
              << (written.kept.size() == 1
                      ? " (--force replaces it, moving the old one aside)\n"
                      : " (--force replaces them, moving the old ones aside)\n");
  std::cout << "exercise written to " << dir
            << ": README.md states the task; fill in mha() in mha.py (or mha_torch.py), run "
               "it, then: attnlab-cli check "
            << dir << "\n";
  return 0;
}

int run_check(int argc, char** argv) {
  CLI::App app{
      "attnlab-cli check: grades a student's answer to an exercise stage by stage and "
      "names the mistake. Exit 0: every given stage right; 1: one is wrong; 2: the "
      "exercise or the answer cannot be read."};
  std::string dir, answer_path, format_name = "text", output_path;
  app.add_option("DIR", dir, "The exercise folder (attnlab-cli exercise DIR wrote it)")->required();
  app.add_option("--answer", answer_path,
                 "The answer: a .npz (np.savez or np.savez_compressed) or a folder of .npy "
                 "(default DIR/answer.npz)");
  app.add_option("--format", format_name,
                 "text (the report, the default), json (the report as data), junit (JUnit XML: "
                 "a test case per stage) or gradescope (Gradescope's results.json, scored by "
                 "exercise.json's \"points\")");
  app.add_option("--output", output_path,
                 "Write the result to this file (written whole or not at all) rather than to "
                 "the standard output, which then gets the text report");
  if (const int stop = parse_arguments(app, argc, argv, "attnlab-cli check"); stop >= 0)
    return stop;
  const std::optional<CheckFormat> format = check_format_named(format_name);
  if (!format) {
    std::cerr << "attnlab-cli check: --format " << format_name << " is not a format; give "
              << kCheckFormatNames << "\n";
    return 2;
  }
  if (answer_path.empty()) answer_path = dir + "/answer.npz";
  const Exercise exercise = load_exercise(dir);  // a bad folder or answer: one line, exit 2 (main)
  const Answer answer = read_answer(answer_path);
  const Grade grade = grade_answer(exercise, answer);
  const CheckedAnswer checked{exercise, grade,
                              answer.not_implemented && answer.arrays.empty()
                                  ? not_implemented_report(answer_path)
                                  : check_report(grade, answer_path, dir)};
  if (output_path.empty()) {
    std::cout << format_check(*format, checked);
  } else {
    write_file_atomically(output_path, format_check(*format, checked));
    std::cout << checked.report;
  }
  return grade.all_right() ? 0 : 1;
}

}  // namespace attnlab::cli
