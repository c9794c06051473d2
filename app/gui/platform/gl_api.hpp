// The OpenGL API the renderers use: OpenGL 3.3 core through glad on the desktop, WebGL 2 (OpenGL
// ES 3.0) in the browser. The renderers write GLSL 3.30 core; glsl_for_platform() swaps the
// version line for the browser's "#version 300 es" with a float precision.
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif

#include <string>

namespace attnlab::gui {

// The line Dear ImGui's OpenGL 3 backend is initialised with.
#ifdef __EMSCRIPTEN__
inline constexpr const char* kGlslVersion = "#version 300 es";
#else
inline constexpr const char* kGlslVersion = "#version 330 core";
#endif

// Loads the GL functions through the window system's `get_proc` (glad on the desktop; the
// browser's WebGL 2 needs no loader).
template <typename GetProc>
bool load_gl_functions(GetProc get_proc) {
#ifdef __EMSCRIPTEN__
  (void)get_proc;
  return true;
#else
  return gladLoadGL(get_proc) != 0;
#endif
}

// `source` (starting "#version 330 core") as this platform's GL compiles it.
inline std::string glsl_for_platform(const std::string& source) {
#ifdef __EMSCRIPTEN__
  const size_t line_end = source.find('\n');
  return std::string(kGlslVersion) + "\nprecision highp float;\nprecision highp sampler2D;" +
         source.substr(line_end);
#else
  return source;
#endif
}

}  // namespace attnlab::gui
