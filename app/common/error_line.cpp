#include "app/common/error_line.hpp"

#include <new>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "core/model/errors.hpp"

namespace attnlab {

namespace {

// The first line of a message, at most 300 characters (a message may quote a file's bytes).
std::string first_line(std::string text) {
  if (const size_t end = text.find_first_of("\r\n"); end != std::string::npos) text.resize(end);
  constexpr size_t kMaxLine = 300;
  if (text.size() > kMaxLine) text = text.substr(0, kMaxLine) + "...";
  return text;
}

// nlohmann's "[json.exception.type_error.302] type must be number, but is string": the reason.
std::string without_json_id(const std::string& text) {
  if (text.rfind("[json.exception.", 0) != 0) return text;
  const size_t end = text.find("] ");
  return end == std::string::npos ? text : text.substr(end + 2);
}

}  // namespace

std::string error_line(const std::exception& error) {
  if (dynamic_cast<const UserError*>(&error)) return first_line(error.what());
  if (dynamic_cast<const std::bad_alloc*>(&error) || dynamic_cast<const std::length_error*>(&error))
    return "out of memory: the sizes asked for need more memory than there is; lower B, T or the "
           "widths, or use --shape-only";
  if (dynamic_cast<const nlohmann::json::exception*>(&error))
    return first_line("a JSON file holds a value of the wrong type or form (" +
                      without_json_id(error.what()) + "); fix that value or make the file again");
  if (dynamic_cast<const std::out_of_range*>(&error))
    return first_line(std::string("a number or position is out of range (") + error.what() +
                      "); use a smaller value");
  if (dynamic_cast<const std::invalid_argument*>(&error))
    return first_line(std::string("a value could not be read (") + error.what() +
                      "); check the numbers and names given");
  return first_line(std::string("unexpected error (") + error.what() +
                    "); please report it with the command that caused it");
}

std::string current_error_line() {
  try {
    throw;
  } catch (const std::exception& error) {
    return error_line(error);
  } catch (...) {
    return "unexpected error of an unknown kind; please report it with the "
           "command that caused it";
  }
}

int run_guarded(const std::string& name, const std::function<int()>& work, std::ostream& err) {
  try {
    return work();
  } catch (...) {
    err << name << ": " << current_error_line() << "\n" << std::flush;
    return 2;
  }
}

}  // namespace attnlab
