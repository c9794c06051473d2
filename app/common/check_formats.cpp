#include "app/common/check_formats.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/common/check_report.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab {

using nlohmann::json;

namespace {

// JSON text of `doc`: a byte that is not UTF-8 (an array name in the student's archive) replaced.
std::string json_text(const json& doc) {
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

// A value of the answer: a number, or "-inf", "inf", "nan" where JSON has none (float() reads
// them back).
json value_json(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  return value;
}

json shape_json(const Shape& shape) {
  return json(std::vector<int64_t>(shape.begin(), shape.end()));
}

// The stage in one line, as JUnit's failure message and the first line of a Gradescope test's
// output say it: "q_heads: WRONG ... (the first wrong stage; mistake: forget-transpose)".
std::string stage_summary(const Grade& grade, size_t i) {
  const StageGrade& s = grade.stages[i];
  std::string line = s.name + ": " + stage_verdict(s);
  if (!s.given && grade.not_implemented) line += " (mha() is not implemented yet)";
  if (!s.wrong()) return line;
  if (int(i) != grade.first_wrong)
    return line + " (the first wrong stage is " + grade.stages[size_t(grade.first_wrong)].name +
           ": fix it first)";
  std::string names;
  for (const NamedMistake& m : grade.diagnosis.mistakes)
    names += (names.empty() ? "" : ", ") + m.name + " (" + m.title + ")";
  return line + " (the first wrong stage; " +
         (names.empty() ? "nothing known explains it" : "mistake: " + names) + ")";
}

// The stage's summary and, at the first wrong stage, the diagnosis with its fix.
std::string stage_output(const Grade& grade, size_t i) {
  std::string text = stage_summary(grade, i) + "\n";
  if (int(i) == grade.first_wrong) text += diagnosis_report(grade.diagnosis);
  return text;
}

// `text` inside XML (an attribute or an element): valid UTF-8, markup escaped, control characters
// XML 1.0 cannot hold replaced by '?', line breaks kept as character references.
std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : unicode::valid_utf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
    }
  }
  return out;
}

}  // namespace

std::optional<CheckFormat> check_format_named(const std::string& name) {
  if (name == "text") return CheckFormat::Text;
  if (name == "json") return CheckFormat::Json;
  if (name == "junit") return CheckFormat::Junit;
  if (name == "gradescope") return CheckFormat::Gradescope;
  return std::nullopt;
}

std::string check_json(const CheckedAnswer& checked) {
  const Grade& grade = checked.grade;
  json mistakes = json::array();
  for (const NamedMistake& m : grade.diagnosis.mistakes)
    mistakes.push_back({{"name", m.name},
                        {"title", m.title},
                        {"symptom", m.symptom},
                        {"evidence", m.evidence},
                        {"wrong", m.wrong},
                        {"fix", m.right}});
  json stages = json::array();
  for (const StageGrade& s : grade.stages) {
    json stage = {{"name", s.name},
                  {"axes", s.axes},
                  {"shape", shape_json(s.right_shape)},
                  {"given", s.given},
                  {"given_shape", s.given ? shape_json(s.given_shape) : json(nullptr)},
                  {"shape_ok", s.shape_ok},
                  {"values_ok", s.values_ok},
                  {"right", s.right()},
                  {"max_error", s.max_error},
                  {"tolerance", s.tolerance},
                  {"wrong_entries", s.wrong_entries},
                  {"entries", s.entries},
                  {"worst", nullptr},
                  {"non_finite", s.non_finite.empty() ? json(nullptr) : json(s.non_finite)},
                  {"verdict", stage_verdict(s)}};
    if (s.wrong() && !s.worst_index.empty())
      stage["worst"] = {{"index", s.worst_index},
                        {"given", value_json(s.worst_given)},
                        {"right", value_json(s.worst_right)}};
    stages.push_back(stage);
  }
  const bool wrong = grade.first_wrong >= 0;
  const json doc = {
      {"passed", grade.all_right()},
      {"not_implemented", grade.not_implemented},
      {"given", grade.given_count},
      {"first_wrong", wrong ? json(grade.stages[size_t(grade.first_wrong)].name) : json(nullptr)},
      {"mistakes", mistakes},
      {"unexplained", wrong && grade.diagnosis.mistakes.empty() ? json(grade.diagnosis.unexplained)
                                                                : json(nullptr)},
      {"stages", stages},
      {"ignored", grade.unknown_names},
      {"report", checked.report},
  };
  return json_text(doc);
}

std::string check_junit(const CheckedAnswer& checked) {
  const Grade& grade = checked.grade;
  int failures = 0, skipped = 0;
  std::ostringstream cases;
  for (size_t i = 0; i < grade.stages.size(); ++i) {
    const StageGrade& s = grade.stages[i];
    cases << "  <testcase classname=\"attnlab-check\" name=\"" << xml_escaped(s.name) << "\">\n";
    if (s.wrong()) {
      ++failures;
      cases << "   <failure type=\"wrong\" message=\"" << xml_escaped(stage_summary(grade, i))
            << "\">" << xml_escaped(stage_output(grade, i)) << "</failure>\n";
    } else if (!s.given) {
      ++skipped;
      cases << "   <skipped message=\"" << xml_escaped(stage_summary(grade, i)) << "\"/>\n";
    }
    cases << "  </testcase>\n";
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites>\n"
      << " <testsuite name=\"attnlab-check\" tests=\"" << grade.stages.size() << "\" failures=\""
      << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n"
      << cases.str() << "  <system-out>" << xml_escaped(checked.report) << "</system-out>\n"
      << " </testsuite>\n"
      << "</testsuites>\n";
  return out.str();
}

std::string check_gradescope(const CheckedAnswer& checked) {
  const Grade& grade = checked.grade;
  double score = 0;
  json tests = json::array();
  for (size_t i = 0; i < grade.stages.size(); ++i) {
    const StageGrade& s = grade.stages[i];
    const double points = stage_points(checked.exercise, s.name);
    const bool right = s.right();
    score += right ? points : 0;
    tests.push_back({{"name", s.name},
                     {"score", right ? points : 0.0},
                     {"max_score", points},
                     {"status", right ? "passed" : "failed"},
                     {"output", stage_output(grade, i)},
                     {"visibility", "visible"}});
  }
  const json doc = {
      {"score", score}, {"output", checked.report}, {"visibility", "visible"}, {"tests", tests}};
  return json_text(doc);
}

std::string format_check(CheckFormat format, const CheckedAnswer& checked) {
  switch (format) {
    case CheckFormat::Json:
      return check_json(checked);
    case CheckFormat::Junit:
      return check_junit(checked);
    case CheckFormat::Gradescope:
      return check_gradescope(checked);
    case CheckFormat::Text:
      break;
  }
  return checked.report;
}

}  // namespace attnlab
