#include "render/shader_program.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "render/render_error.h"

namespace contactlab {
namespace {

// Driver logs are multi-line; exceptions travel as one-line messages (command-line errors,
// UI status bar), so join the lines.
std::string JoinLines(std::string log) {
  while (!log.empty() && (log.back() == '\n' || log.back() == '\r' || log.back() == '\0')) {
    log.pop_back();
  }
  std::string out;
  out.reserve(log.size());
  for (char c : log) {
    if (c == '\n') {
      out += " | ";
    } else if (c != '\r') {
      out += c;
    }
  }
  return out;
}

// `defines` go right after the #version line, which must stay first.
GLuint Compile(GLenum type, const std::string& path, const std::string& defines) {
  std::string source = ReadTextFile(path);
  if (!defines.empty()) {
    const size_t line_end = source.find('\n');
    source.insert(line_end == std::string::npos ? source.size() : line_end + 1, defines);
  }
  const GLuint shader = glCreateShader(type);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    glDeleteShader(shader);
    throw RenderError("shader '" + path + "' failed to compile: " + JoinLines(log));
  }
  return shader;
}

}  // namespace

std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RenderError("cannot read shader file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ShaderProgram::ShaderProgram(const std::string& vertex_path, const std::string& fragment_path,
                             const std::string& defines) {
  const GLuint vertex = Compile(GL_VERTEX_SHADER, vertex_path, defines);
  GLuint fragment = 0;
  try {
    fragment = Compile(GL_FRAGMENT_SHADER, fragment_path, defines);
  } catch (...) {
    glDeleteShader(vertex);
    throw;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vertex);
  glAttachShader(program_, fragment);
  glLinkProgram(program_);
  // The program keeps the compiled code; the shader objects are no longer needed.
  glDetachShader(program_, vertex);
  glDetachShader(program_, fragment);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = GL_FALSE;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint length = 0;
    glGetProgramiv(program_, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
    glGetProgramInfoLog(program_, length, nullptr, log.data());
    glDeleteProgram(program_);
    program_ = 0;
    throw RenderError("shader program '" + vertex_path + "' + '" + fragment_path +
                      "' failed to link: " + JoinLines(log));
  }
  spdlog::debug("built shader program {} + {}", vertex_path, fragment_path);
}

ShaderProgram::~ShaderProgram() {
  if (program_ != 0) glDeleteProgram(program_);
}

void ShaderProgram::Set(GLint location, const Eigen::Matrix4f& m) {
  glUniformMatrix4fv(location, 1, GL_FALSE, m.data());  // Eigen is column-major, like GL
}
void ShaderProgram::Set(GLint location, const Eigen::Matrix3f& m) {
  glUniformMatrix3fv(location, 1, GL_FALSE, m.data());
}
void ShaderProgram::Set(GLint location, const Eigen::Vector4f& v) {
  glUniform4f(location, v.x(), v.y(), v.z(), v.w());
}
void ShaderProgram::Set(GLint location, const Eigen::Vector3f& v) {
  glUniform3f(location, v.x(), v.y(), v.z());
}
void ShaderProgram::Set(GLint location, const Eigen::Vector2f& v) {
  glUniform2f(location, v.x(), v.y());
}
void ShaderProgram::Set(GLint location, float v) { glUniform1f(location, v); }
void ShaderProgram::Set(GLint location, int v) { glUniform1i(location, v); }

}  // namespace contactlab
