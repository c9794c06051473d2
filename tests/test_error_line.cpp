// Every entry point catches at its boundary and says one line (issue 43): each command-line
// subcommand runs inside run_guarded; whatever is thrown through it comes out as "NAME: LINE" and
// exit 2, never an abort.
#include <gtest/gtest.h>

#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/common/error_line.hpp"
#include "core/model/errors.hpp"
#include "core/model/json_fields.hpp"

namespace attnlab {
namespace {

struct Thrown {
  const char* what;
  std::function<void()> raise;
  const char* said;  // the line holds it
};

const std::vector<Thrown>& every_kind() {
  static const std::vector<Thrown> kinds{
      {"UserError", [] { throw UserError("d_model=7 is odd: choose an even d_model"); },
       "d_model=7 is odd: choose an even d_model"},
      {"bad_alloc", [] { throw std::bad_alloc(); }, "out of memory: "},
      {"length_error", [] { std::vector<double>(size_t(-1) / 2); }, "out of memory: "},
      {"json type_error",
       [] { (void)nlohmann::json::parse(R"({"format": "1"})").at("format").get<int>(); },
       "a JSON file holds a value of the wrong type or form (type must be number, but is "
       "string)"},
      {"json parse_error", [] { [[maybe_unused]] const auto doc = nlohmann::json::parse("{"); },
       "a JSON file holds"},
      {"out_of_range", [] { (void)std::string("ab").at(7); }, "out of range"},
      {"invalid_argument", [] { (void)std::stoi("head"); }, "could not be read (stoi)"},
      {"stoi overflow", [] { (void)std::stoi("99999999999"); }, "out of range (stoi)"},
      {"runtime_error", [] { throw std::runtime_error("two\nlines"); }, "unexpected error (two"},
      {"not an exception", [] { throw 42; }, "unexpected error of an unknown kind"},
  };
  return kinds;
}

TEST(RunGuarded, EachExceptionTypeIsOneLineAndExitTwo) {
  for (const Thrown& kind : every_kind()) {
    for (const char* name :
         {"attnlab-cli", "attnlab-cli exercise", "attnlab-cli check", "attnlab-cli train"}) {
      std::ostringstream err;
      const int code = run_guarded(
          name,
          [&] {
            kind.raise();
            return 0;
          },
          err);
      const std::string line = err.str();
      EXPECT_EQ(code, 2) << kind.what;
      EXPECT_EQ(line.rfind(std::string(name) + ": ", 0), 0u) << kind.what << ": " << line;
      EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << kind.what << ": " << line;
      EXPECT_EQ(line.back(), '\n');
      EXPECT_NE(line.find(kind.said), std::string::npos) << kind.what << ": " << line;
      EXPECT_EQ(line.find("[json.exception"), std::string::npos) << line;
    }
  }
}

TEST(RunGuarded, TheExitCodeOfWorkThatEndsIsPassedOnWithNothingSaid) {
  for (const int code : {0, 1, 3}) {
    std::ostringstream err;
    EXPECT_EQ(run_guarded(
                  "attnlab-cli check", [&] { return code; }, err),
              code);
    EXPECT_TRUE(err.str().empty());
  }
}

TEST(JsonFields, AWrongTypeNamesTheFileTheKeyAndTheTypeItMustHave) {
  const auto doc = nlohmann::json::parse(
      R"({"format": "1", "n": 3, "x": 1.5, "b": true, "s": "t", "o": {}, "a": [], "big": 18446744073709551615})");
  try {
    (void)int_field(doc, "format", "ex/exercise.json");
    ADD_FAILURE() << "a string where a whole number belongs must be refused";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), R"(ex/exercise.json: key "format" must be a whole number, not "1")");
  }
  EXPECT_EQ(int_field(doc, "n", "f"), 3);
  EXPECT_EQ(int_field(doc, "missing", "f"), std::nullopt);
  EXPECT_THROW((void)int_field(doc, "x", "f"), UserError);
  EXPECT_THROW((void)int_field(doc, "big", "f"), UserError);
  EXPECT_EQ(number_field(doc, "x", "f"), 1.5);
  EXPECT_EQ(number_field(doc, "n", "f"), 3.0);
  EXPECT_THROW((void)number_field(doc, "s", "f"), UserError);
  EXPECT_EQ(bool_field(doc, "b", "f"), true);
  EXPECT_THROW((void)bool_field(doc, "n", "f"), UserError);
  EXPECT_EQ(string_field(doc, "s", "f"), "t");
  EXPECT_THROW((void)string_field(doc, "b", "f"), UserError);
  EXPECT_NE(object_field(doc, "o", "f"), nullptr);
  EXPECT_THROW((void)object_field(doc, "a", "f"), UserError);
  EXPECT_NE(array_field(doc, "a", "f"), nullptr);
  EXPECT_THROW((void)array_field(doc, "o", "f"), UserError);
}

}  // namespace
}  // namespace attnlab
