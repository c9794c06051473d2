// What the lesson fuzz target does with one input (fuzz_lesson.cpp, and the replay of its corpus
// and regressions in test_fuzz_replay.cpp). Apart from fuzz_inputs.hpp: a scene's options are read
// by the app's own parser, so this needs the GUI's logic library.
#pragma once

#include <string>

namespace attnlab::fuzz {

// Parses `text` as a lesson, then each scene's options as a scene gives them. Promises (a broken
// one throws BrokenPromise): nothing else is thrown; every field and every problem is valid UTF-8;
// a problem is one line of at most 2,000 bytes naming a line of the file; an answer "head N" is a
// head or named as a problem; and no scene, whatever it holds, sets an option that writes a file
// (--screenshot, --dump-layout, --export-*).
void exercise_lesson(const std::string& text);

}  // namespace attnlab::fuzz
