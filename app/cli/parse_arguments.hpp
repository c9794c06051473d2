// What both of attnlab-cli's command lines (the trace, `train`) do with CLI11's answer.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace attnlab::cli {

// Parses argv into `app`. Returns -1 to go on, 0 after printing --help, or 2 after one line on
// stderr naming the problem ("<command>: ... (see <command> --help)").
int parse_arguments(CLI::App& app, int argc, char** argv, const std::string& command);

}  // namespace attnlab::cli
