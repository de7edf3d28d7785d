#include "io/scene_mesh_shape.h"

#include <memory>
#include <stdexcept>

#include "engine/hydroelastic/hydroelastic_representation.h"
#include "engine/hydroelastic/vtk_reader.h"
#include "io/mesh_file.h"

namespace contactlab {
namespace {

using scene_yaml::Context;

Eigen::Vector3d ParseScale(const Context& ctx, const YAML::Node& node, const std::string& where) {
  const YAML::Node scale = node["scale"];
  if (!scale.IsDefined() || scale.IsNull()) return Eigen::Vector3d::Ones();
  const Eigen::Vector3d s = scale.IsSequence()
                                ? Eigen::Vector3d(ctx.Vector(scale, where + ".scale", 3))
                                : Eigen::Vector3d::Constant(ctx.Number(scale, where + ".scale"));
  // A negative factor would mirror the mesh and turn it inside-out: refused as such.
  for (int i = 0; i < 3; ++i) {
    ctx.InRange(scale, where + ".scale", s[i], {1e-6, 1e6, "(positive factors)"});
  }
  return s;
}

std::shared_ptr<const SolidMesh> MakeObjectMesh(const MeshData& data) {
  return std::make_shared<const SolidMesh>(MakeSolidMesh(data.vertices, data.triangles));
}

}  // namespace

MeshShapes LoadMeshShapes(const Context& ctx, const YAML::Node& node, const std::string& where) {
  const std::string file = ctx.String(node, "file", "");
  if (file.empty()) ctx.Fail(node, where + ": a mesh needs file: PATH");
  const Eigen::Vector3d scale = ParseScale(ctx, node, where);
  MeshData data;
  try {
    data = LoadMeshFile(ctx.ResolvePath(file), scale);
  } catch (const std::exception& e) {
    ctx.Fail(node["file"], fmt::format("{}: {}", where, e.what()));
  }
  MeshShapes shapes;
  for (int k = 0; k < data.num_objects(); ++k) {
    try {
      shapes.objects.push_back(Shape::Mesh(MakeObjectMesh(data.Object(k))));
    } catch (const std::invalid_argument& e) {
      const std::string object = data.num_objects() > 1
                                     ? fmt::format(" (object {} of {})", k + 1, data.num_objects())
                                     : std::string();
      ctx.Fail(node["file"], fmt::format("{}: mesh file '{}'{} {}", where, file, object, e.what()));
    }
  }
  shapes.whole =
      data.num_objects() == 1 ? shapes.objects.front() : Shape::Mesh(MakeObjectMesh(data));
  return shapes;
}

std::shared_ptr<const hydroelastic::VolumeMesh> LoadVolumeMesh(const Context& ctx,
                                                               const YAML::Node& node,
                                                               const std::string& where) {
  const std::string file = ctx.String(node, "volume_mesh", "");
  if (file.empty()) ctx.Fail(node["volume_mesh"], where + ".volume_mesh: a VTK file's path");
  hydroelastic::VtkVolumeMesh vtk;
  try {
    vtk = hydroelastic::ReadVtkVolumeMesh(ctx.ResolvePath(file));
  } catch (const std::exception& e) {
    ctx.Fail(node["volume_mesh"], fmt::format("{}.volume_mesh: {}", where, e.what()));
  }
  if (vtk.mesh.num_tets() > kMaxHydroelasticTets) {
    ctx.Fail(node["volume_mesh"], fmt::format("{}.volume_mesh: {} tets, more than the {} allowed",
                                              where, vtk.mesh.num_tets(), kMaxHydroelasticTets));
  }
  return std::make_shared<const hydroelastic::VolumeMesh>(std::move(vtk.mesh));
}

}  // namespace contactlab
