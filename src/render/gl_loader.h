// Loading the OpenGL functions the renderer calls (glad, GL 3.3 core).
#pragma once

namespace contactlab {

// Loads GL function pointers through glad with the given loader (e.g. glfwGetProcAddress).
// Returns false if GL 3.3 core is not available.
using GlProcLoader = void* (*)(const char*);
bool LoadGl(GlProcLoader loader);

}  // namespace contactlab
