#include "app/common/check_report.hpp"

#include <cstdio>
#include <sstream>

namespace attnlab {

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
  out << line << stage_verdict(s) << "\n";
}

}  // namespace

std::string stage_verdict(const StageGrade& s) {
  std::ostringstream out;
  if (!s.given) {
    out << "not given";
  } else if (!s.shape_ok) {
    out << "WRONG shape: " << s.name << " is " << shape_to_string(s.given_shape)
        << "; this exercise's " << s.name << " is " << shape_to_string(s.right_shape);
  } else if (s.values_ok) {
    out << "right   (max error " << number(s.max_error) << ")";
  } else {
    out << "WRONG   max error " << number(s.max_error)
        << (s.non_finite.empty() ? "" : " over the finite entries") << " (tolerance "
        << number(s.tolerance) << "), " << s.wrong_entries << " of " << s.entries
        << " entries differ";
    if (!s.non_finite.empty()) out << "; " << s.non_finite;
  }
  return out.str();
}

std::string diagnosis_report(const Diagnosis& d) {
  std::ostringstream out;
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
  return out.str();
}

std::string check_report(const Grade& grade, const std::string& answer_label,
                         const std::string& exercise_label) {
  std::ostringstream out;
  out << "Checking " << answer_label << " against " << exercise_label << "\n";
  for (const StageGrade& s : grade.stages) print_stage(out, s);
  if (!grade.unknown_names.empty()) {
    std::string names;
    for (const std::string& n : grade.unknown_names) names += (names.empty() ? "" : ", ") + n;
    out << "Ignored (not stages of this exercise): " << names << "\n";
  }
  if (grade.given_count == 0) {
    out << "\nNo stage of this exercise is given: save them under the names above (q, k, v, "
           "..., out), e.g. np.savez(\"answer.npz\", out=out)\n";
  } else if (grade.all_right()) {
    out << "\nEvery given stage is right (" << grade.given_count << " of " << grade.stages.size()
        << ").\n";
  } else if (grade.first_wrong < 0) {  // every given stage right, beside the starter's marker
    out << "\n" << not_implemented_report(answer_label);
  } else {
    out << "\nFirst wrong stage: " << grade.stages[size_t(grade.first_wrong)].name << "\n";
    out << diagnosis_report(grade.diagnosis);
  }
  return out.str();
}

std::string not_implemented_report(const std::string& answer_label) {
  return answer_label +
         ": mha() is not implemented yet: fill in its body in mha.py (or mha_torch.py), run it "
         "again, then check\n";
}

}  // namespace attnlab
