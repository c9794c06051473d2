#include "app/cli/check.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/options.hpp"
#include "app/cli/parse_arguments.hpp"
#include "core/exercise/grade.hpp"
#include "core/model/errors.hpp"

namespace attnlab::cli {

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

void print_stage(std::ostream& out, const StageGrade& s) {
  std::string line = "  " + s.name;
  line.resize(24, ' ');
  line += shape_to_string(s.right_shape) + " " + s.axes;
  line.resize(62, ' ');
  if (!s.given) {
    out << line << "not given\n";
  } else if (!s.shape_ok) {
    out << line << "WRONG shape: " << s.name << " is " << shape_to_string(s.given_shape)
        << "; this exercise's " << s.name << " is " << shape_to_string(s.right_shape) << "\n";
  } else if (s.values_ok) {
    out << line << "right   (max error " << number(s.max_error) << ")\n";
  } else {
    out << line << "WRONG   max error " << number(s.max_error)
        << (s.non_finite.empty() ? "" : " over the finite entries") << " (tolerance "
        << number(s.tolerance) << "), " << s.wrong_entries << " of " << s.entries
        << " entries differ";
    if (!s.non_finite.empty()) out << "; " << s.non_finite;
    out << "\n";
  }
}

void print_diagnosis(std::ostream& out, const Diagnosis& d) {
  for (const NamedMistake& m : d.mistakes) {
    out << "\nMistake: " << m.name << " (" << m.title << ")\n"
        << "  symptom:  " << m.symptom << "\n"
        << "  seen:     " << m.evidence << "\n"
        << "  wrong:    " << m.wrong << "\n"
        << "  fix:      " << m.right << "\n";
    if (m.simulated != Mistake::None)
      out << "  see it:   attnlab-cli --preset seed003 --mistake " << m.name << "\n";
  }
  if (d.mistakes.empty()) out << "\nDiagnosis: " << d.unexplained << "\n";
}

}  // namespace

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
  std::string dir, answer_path;
  app.add_option("DIR", dir, "The exercise folder (attnlab-cli exercise DIR wrote it)")->required();
  app.add_option("--answer", answer_path,
                 "The answer: a .npz (np.savez or np.savez_compressed) or a folder of .npy "
                 "(default DIR/answer.npz)");
  if (const int stop = parse_arguments(app, argc, argv, "attnlab-cli check"); stop >= 0)
    return stop;
  if (answer_path.empty()) answer_path = dir + "/answer.npz";
  const Exercise exercise = load_exercise(dir);  // a bad folder or answer: one line, exit 2 (main)
  const Answer answer = read_answer(answer_path);
  std::ostream& out = std::cout;
  if (answer.not_implemented && answer.arrays.empty()) {
    out << answer_path
        << ": mha() is not implemented yet: fill in its body in mha.py (or mha_torch.py), run "
           "it again, then check\n";
    return 1;
  }
  const Grade grade = grade_answer(exercise, answer);
  out << "Checking " << answer_path << " against " << dir << "\n";
  for (const StageGrade& s : grade.stages) print_stage(out, s);
  if (!grade.unknown_names.empty()) {
    std::string names;
    for (const std::string& n : grade.unknown_names) names += (names.empty() ? "" : ", ") + n;
    out << "Ignored (not stages of this exercise): " << names << "\n";
  }
  if (grade.given_count == 0) {
    out << "\nNo stage of this exercise is given: save them under the names above (q, k, v, "
           "..., out), e.g. np.savez(\"answer.npz\", out=out)\n";
    return 1;
  }
  if (grade.all_right()) {
    out << "\nEvery given stage is right (" << grade.given_count << " of " << grade.stages.size()
        << ").\n";
    return 0;
  }
  out << "\nFirst wrong stage: " << grade.stages[size_t(grade.first_wrong)].name << "\n";
  print_diagnosis(out, grade.diagnosis);
  return 1;
}

}  // namespace attnlab::cli
