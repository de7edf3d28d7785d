#include "render/gl_loader.h"

#include <glad/gl.h>
#include <spdlog/spdlog.h>

namespace contactlab {

bool LoadGl(GlProcLoader loader) {
  if (loader == nullptr) return false;
  const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
  if (version == 0) {
    spdlog::error("OpenGL: could not load the GL functions");
    return false;
  }
  const int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const char* gl_version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  // The most samples an offscreen framebuffer can have (the scene's multisampling).
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  spdlog::info("OpenGL {}.{} ({}; {}), up to {} samples", major, minor, renderer ? renderer : "?",
               gl_version ? gl_version : "?", max_samples);
  if (major < 3 || (major == 3 && minor < 3)) {
    spdlog::error("OpenGL 3.3 core is required, the context provides {}.{}", major, minor);
    return false;
  }
  return true;
}

}  // namespace contactlab
