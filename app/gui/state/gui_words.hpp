// The core's messages name command-line flags ("drop --sentence-kv", "raise T (--seq-len)"): in the
// app they are said in the controls' words ("clear the K/V sentence", "raise T").
#pragma once

#include <string>

namespace attnlab::gui {

// `message` with every flag said as its control: a parenthesis of flags is left out (the words
// before it name the control already), "drop --X" becomes "turn off X", and any other flag its
// control's label (from the config field table).
std::string in_gui_words(const std::string& message);

}  // namespace attnlab::gui
