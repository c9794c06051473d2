#include "app/gui/gl/shader_program.hpp"

#include <cstdio>
#include <vector>

namespace attnlab::gui {

namespace {

std::string info_log(GLuint object, bool program) {
  GLint length = 0;
  if (program) {
    glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
  } else {
    glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  }
  std::vector<char> text(size_t(std::max(length, 1)), '\0');
  if (program) {
    glGetProgramInfoLog(object, length, nullptr, text.data());
  } else {
    glGetShaderInfoLog(object, length, nullptr, text.data());
  }
  return text.data();
}

GLuint compile(GLenum type, const char* source, const std::string& what, std::string& log) {
  const GLuint shader = glCreateShader(type);
  const std::string text = glsl_for_platform(source);  // the browser's GLSL ES version line
  const char* text_start = text.c_str();
  glShaderSource(shader, 1, &text_start, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return shader;
  log = what + " failed to compile:\n" + info_log(shader, false);
  glDeleteShader(shader);
  return 0;
}

}  // namespace

GLuint build_program(const char* name, const char* vertex_source, const char* fragment_source,
                     std::string& log) {
  log.clear();
  const std::string prefix = std::string("shader ") + name;
  const GLuint vertex = compile(GL_VERTEX_SHADER, vertex_source, prefix + ".vert", log);
  const GLuint fragment =
      vertex ? compile(GL_FRAGMENT_SHADER, fragment_source, prefix + ".frag", log) : 0;
  GLuint program = 0;
  if (vertex && fragment) {
    program = glCreateProgram();
    glAttachShader(program, vertex);
    glAttachShader(program, fragment);
    glLinkProgram(program);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
      log = prefix + " failed to link:\n" + info_log(program, true);
      glDeleteProgram(program);
      program = 0;
    }
  }
  if (vertex) glDeleteShader(vertex);
  if (fragment) glDeleteShader(fragment);
  if (!program) std::fprintf(stderr, "attnlab: %s\n", log.c_str());
  return program;
}

}  // namespace attnlab::gui
