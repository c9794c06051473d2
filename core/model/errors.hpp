// Error tiers: assertions for programmer bugs; UserError for bad user input; ViewError for the
// framework error a mistake can raise.
// Every message says what is wrong and how to fix it, in plain language.
#pragma once

#include <stdexcept>
#include <string>

namespace attnlab {

// Bad input from a user: a setting, a file, a sentence. Shown as-is to the user.
class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// view() on a tensor whose strides cannot express the requested shape (PyTorch's RuntimeError):
// a bug in the code (or an injected mistake, which the trace records), never bad user input.
class ViewError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace attnlab
