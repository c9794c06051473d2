// `attnlab-cli exercise DIR [config flags | --preset NAME]` writes an exercise folder;
// `attnlab-cli check DIR [--answer FILE]` grades a student's answer to it (core/exercise/).
#pragma once

namespace attnlab::cli {

// argv[0] is "exercise". Exit codes: 0 written (the files kept or moved aside named on stderr), 2
// bad input (one line on stderr; nothing written). Throws what it cannot handle: main's boundary
// (app/common/error_line.hpp) says it in one line.
int run_exercise(int argc, char** argv);

// argv[0] is "check". Exit codes: 0 every given stage right, 1 one is wrong (or nothing is
// implemented yet), 2 the exercise or the answer cannot be read (one line on stderr).
int run_check(int argc, char** argv);

}  // namespace attnlab::cli
