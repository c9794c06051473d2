// Error tiers: assertions for programmer bugs; UserError for bad user input; ViewError for the
// framework error a mistake can raise.
// Every message says what is wrong and how to fix it, in plain language, naming settings as
// {{field}} (core/model/setting_words.hpp): the command line and the controls word them.
#pragma once

#include <stdexcept>
#include <string>

#include "core/model/setting_words.hpp"

namespace attnlab {

// Bad input from a user: a setting, a file, a sentence. what() is the command line's wording;
// in_controls() the GUI's.
class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& message)
      : std::runtime_error(worded(message, Wording::command_line)),
        in_controls_(worded(message, Wording::controls)) {}
  const std::string& in_controls() const { return in_controls_; }

 private:
  std::string in_controls_;
};

// view() on a tensor whose strides cannot express the requested shape (PyTorch's RuntimeError):
// a bug in the code (or an injected mistake, which the trace records), never bad user input.
class ViewError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace attnlab
