// Every entry point catches at its boundary and says one line: each command-line subcommand runs
// through run_guarded, and the app's jobs word what they caught with error_line. Whatever was
// thrown (bad input, out of memory, a JSON library error, a number that did not parse, an unknown
// type) becomes one line naming what went wrong and what to do, never a crash.
#pragma once

#include <exception>
#include <functional>
#include <iosfwd>
#include <string>

namespace attnlab {

// One line for a caught exception: a UserError's own words; std::bad_alloc and std::length_error
// "out of memory: ..."; anything else what went wrong in plain words and its text.
std::string error_line(const std::exception& error);
// The same for the exception being handled (call it inside a catch block), of any type.
std::string current_error_line();

// Runs `work` and returns its exit code; whatever it throws is said as "NAME: LINE" on `err` and
// returns 2.
int run_guarded(const std::string& name, const std::function<int()>& work, std::ostream& err);

}  // namespace attnlab
