// What the writers' fuzz target does with one input (fuzz_writers.cpp, and the replay of its corpus
// and regressions in test_fuzz_replay.cpp): the bytes as the text every writer takes from a person
// or a file. Apart from fuzz_inputs.hpp: the writers are the desktop's (cairo, the GUI's logic
// library), and the SVG is read back by expat.
#pragma once

#include <string>

namespace attnlab::fuzz {

// The bytes, each way a writer takes text (files in a folder of its own under the temporary
// folder, removed after each input):
//   the handout PDF   the bytes as the lesson's title and a page's title, paragraphs and note;
//                     and as a lesson's Markdown: parsed, its first slides' pages (handout_page)
//   the SVG           a sentence: its tokens (tokenize) as the map's query and key labels; the
//                     bytes as a label, the head's title and a group's data. The maps' PDF too.
//   the page          the bytes as a lesson (and its first line as its name) in the one-file
//                     page's block: page_with_lesson, and save_lesson_page from a .md file
// Promises (a broken one throws BrokenPromise): each writer writes a whole output or fails whole
// (one line, no file left behind). A PDF starts with %PDF-, ends with %%EOF and has a page per
// slide. The SVG is valid UTF-8 and well-formed XML (expat) whose texts and data read back as the
// text made valid (unicode::valid_utf8) with each character XML refuses as U+FFFD. The page's
// block, read as a browser reads it (the HTML tokenizer's script data, then JSON.parse), holds
// neither "</script" nor "<!--" in any case and gives back exactly the lesson and its name made
// valid; saving the same lesson again changes nothing.
void exercise_writers(const std::string& bytes);

}  // namespace attnlab::fuzz
