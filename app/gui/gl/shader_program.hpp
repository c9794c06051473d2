// Compiling and linking GLSL with the driver's info log on failure (as Dear ImGui's CheckShader).
#pragma once

#include "app/gui/platform/gl_api.hpp"

#include <string>

namespace attnlab::gui {

// Returns the linked program, or 0 with `log` saying which shader failed and the driver's info
// log (also printed to stderr). Needs a current GL context.
GLuint build_program(const char* name, const char* vertex_source, const char* fragment_source,
                     std::string& log);

}  // namespace attnlab::gui
