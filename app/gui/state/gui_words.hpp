// An error as the app says it: the core words its messages for the command line in what() and for
// the controls in UserError::in_controls() (core/model/setting_words.hpp); the app shows the
// controls' words.
#pragma once

#include <exception>
#include <string>

namespace attnlab::gui {

// The error's message in the controls' words: a UserError's own wording for them, else what().
std::string in_gui_words(const std::exception& error);

}  // namespace attnlab::gui
