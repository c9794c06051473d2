#include "app/gui/state/gui_words.hpp"

#include <new>

#include "core/model/errors.hpp"

namespace attnlab::gui {

std::string in_gui_words(const std::exception& error) {
  if (const auto* user = dynamic_cast<const UserError*>(&error)) return user->in_controls();
  if (dynamic_cast<const std::bad_alloc*>(&error))
    return "out of memory (std::bad_alloc): try a smaller configuration or a lower memory cap";
  return error.what();
}

}  // namespace attnlab::gui
