#include "app/gui/state/gui_words.hpp"

#include "core/model/errors.hpp"

namespace attnlab::gui {

std::string in_gui_words(const std::exception& error) {
  if (const auto* user = dynamic_cast<const UserError*>(&error)) return user->in_controls();
  return error.what();
}

}  // namespace attnlab::gui
