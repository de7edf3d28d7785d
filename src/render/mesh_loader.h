// Loads a triangle mesh (OBJ, STL, DAE, PLY, anything assimp reads) for drawing: all meshes
// of the file merged, node transforms applied, triangulated, with normals.
#pragma once

#include <string>

#include "render/triangle_mesh.h"

namespace contactlab {

// Throws RenderError naming `path` when the file is missing, unreadable, malformed or holds
// no triangles. Coordinates are in the file's units (the caller scales).
TriangleMesh LoadMesh(const std::string& path);

}  // namespace contactlab
