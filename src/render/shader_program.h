// A GLSL program built from a vertex and a fragment shader file, read at run time (so shaders
// can be edited without rebuilding). Compile and link errors throw RenderError naming the
// file and carrying the driver's log on one line.
#pragma once

#include <glad/gl.h>

#include <Eigen/Dense>
#include <string>

namespace contactlab {

class ShaderProgram {
 public:
  // `defines` (e.g. "#define HARD_SHADOWS\n") are inserted after both files' #version line.
  ShaderProgram(const std::string& vertex_path, const std::string& fragment_path,
                const std::string& defines = "");
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  void Use() const { glUseProgram(program_); }
  // Location of a uniform, −1 when the driver optimized it away (setting −1 is a no-op in GL).
  // Look locations up once, not per frame.
  GLint Location(const char* name) const { return glGetUniformLocation(program_, name); }

  // Setters for the program in use.
  static void Set(GLint location, const Eigen::Matrix4f& m);
  static void Set(GLint location, const Eigen::Matrix3f& m);
  static void Set(GLint location, const Eigen::Vector4f& v);
  static void Set(GLint location, const Eigen::Vector3f& v);
  static void Set(GLint location, const Eigen::Vector2f& v);
  static void Set(GLint location, float v);
  static void Set(GLint location, int v);

 private:
  GLuint program_ = 0;
};

// Reads a whole text file; throws RenderError naming it when it can't be read.
std::string ReadTextFile(const std::string& path);

}  // namespace contactlab
