// Robots from URDF: the Panda's kinematics against Franka's published zero configuration,
// joint limits and dofs, and clear errors for bad files.
#include "io/urdf_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/world/world.h"
#include "io/scene_loader.h"
#include "test_support/build_paths.h"

namespace contactlab {
namespace {

const std::string kPanda = contactlab::testing::SourceDirectory() + "/assets/robots/panda.urdf";

TEST(UrdfLoader, PandaHasSevenRevoluteJointsTwoFingersAndFranksLimits) {
  SceneSpec scene;
  AddUrdfRobot(kPanda, UrdfOptions{}, &scene);
  World world(scene);
  EXPECT_EQ(world.multibody().num_velocities(), 9);
  const int link4 = scene.FindBody("panda_link4");
  ASSERT_GE(link4, 0);
  ASSERT_TRUE(scene.bodies[link4].limits.has_value());
  EXPECT_DOUBLE_EQ(scene.bodies[link4].limits->first, -3.0718);
  EXPECT_DOUBLE_EQ(scene.bodies[link4].limits->second, -0.0698);
  EXPECT_EQ(scene.bodies[scene.FindBody("panda_leftfinger")].body.joint, JointType::kPrismatic);
}

TEST(UrdfLoader, ZeroConfigurationPutsTheFlangeWhereFrankaSaysAndPointsItDown) {
  // Franka's modified-DH parameters give the flange at (a7, 0, d1 + d3 + d5 − d_F) =
  // (0.088, 0, 0.926) m at q = 0 with its z axis pointing down. The hand sits on the flange.
  SceneSpec scene;
  AddUrdfRobot(kPanda, UrdfOptions{}, &scene);
  // q4 = 0 is outside its limit (an error as an initial position), but kinematics don't care:
  // the state is set to it, and only the pose is checked.
  World world(scene);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(world.q().size());
  world.SetState(q, Eigen::VectorXd::Zero(world.v().size()), 0.0);
  const Eigen::Isometry3d X_WH = world.BodyPose(scene.FindBody("panda_hand"));
  EXPECT_LT((X_WH.translation() - Eigen::Vector3d(0.088, 0, 0.926)).norm(), 1e-9);
  EXPECT_NEAR(X_WH.linear().col(2).z(), -1.0, 1e-12);
  // A non-trivial configuration: rotating joint 1 by 90° turns the flange to (0, 0.088, z).
  q[world.multibody().position_start(world.multibody_index(scene.FindBody("panda_link1")))] =
      M_PI / 2;
  world.SetState(q, Eigen::VectorXd::Zero(world.v().size()), 0.0);
  EXPECT_LT((world.BodyPose(scene.FindBody("panda_hand")).translation() -
             Eigen::Vector3d(0, 0.088, 0.926))
                .norm(),
            1e-9);
}

TEST(UrdfLoader, HeldByItsPdControllersTheArmStaysPut) {
  SceneSpec scene =
      ParseScene(R"(
dt: 1.0e-3
robots:
  - urdf: robots/panda.urdf
    joint_positions: {panda_joint2: -0.3, panda_joint4: -2.2, panda_joint6: 1.9, panda_joint7: 0.8}
    pd: {kp: 20000, kd: 500}
)",
                 contactlab::testing::SourceDirectory() + "/assets/scenes/inline.yaml");
  World world(scene);
  const Eigen::Isometry3d start = world.BodyPose(scene.FindBody("panda_hand"));
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(world.Step());
  EXPECT_TRUE(world.last_stats().converged);
  // Static sag of a PD under gravity: joint 2 carries ≈ 15 kg at ≈ 0.3 m, i.e. ≈ 45 N·m, so
  // ≈ 45/2e4 = 2.2 mrad, ≈ 1.3 mm at the hand's 0.6 m reach; and the arm is at rest.
  EXPECT_LT(
      (world.BodyPose(scene.FindBody("panda_hand")).translation() - start.translation()).norm(),
      2.5e-3);
  EXPECT_LT(world.v().norm(), 1e-3);
}

TEST(UrdfLoader, SceneGivesChosenLinksAHydroelasticModel) {
  const std::string source = contactlab::testing::SourceDirectory() + "/assets/scenes/inline.yaml";
  const SceneSpec scene = ParseScene(R"(
robots:
  - urdf: robots/panda.urdf
    hydroelastic:
      - {links: [panda_leftfinger, panda_rightfinger], contact_model: hydroelastic_compliant,
         hydroelastic_modulus: 2.0e6, resolution: 0.004}
)",
                                     source);
  int compliant = 0;
  for (const SceneBody& b : scene.bodies) {
    const bool finger = b.body.name == "panda_leftfinger" || b.body.name == "panda_rightfinger";
    for (const GeometrySpec& g : b.geometries) {
      if (finger) {
        EXPECT_EQ(g.hydroelastic.model, ContactModel::kHydroelasticCompliant);
        EXPECT_EQ(g.hydroelastic.modulus_Pa, 2.0e6);
        EXPECT_EQ(g.hydroelastic.resolution_m, 0.004);
        ++compliant;
      } else {
        EXPECT_EQ(g.hydroelastic.model, ContactModel::kPoint) << b.body.name;
      }
    }
  }
  EXPECT_EQ(compliant, 2);
  try {
    ParseScene(R"(
robots:
  - urdf: robots/panda.urdf
    hydroelastic: [{links: [panda_thumb], contact_model: hydroelastic_rigid}]
)",
               source);
    ADD_FAILURE() << "an unknown link was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("no link 'panda_thumb'"), std::string::npos) << e.what();
  }
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(UrdfLoader, BadFilesGiveClearErrors) {
  SceneSpec scene;
  EXPECT_THROW(AddUrdfRobot("/no/such/robot.urdf", UrdfOptions{}, &scene), SceneError);
  const std::string garbage = WriteTemp("contactlab_garbage.urdf", "<robot name='x'><link");
  try {
    AddUrdfRobot(garbage, UrdfOptions{}, &scene);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find(garbage), std::string::npos) << e.what();
  }
  const std::string mesh = WriteTemp(
      "contactlab_mesh.urdf",
      "<robot name='m'><link name='a'><inertial><mass value='1'/><inertia ixx='1' ixy='0' "
      "ixz='0' iyy='1' iyz='0' izz='1'/></inertial><collision><geometry><mesh "
      "filename='x.stl'/></geometry></collision></link></robot>");
  try {
    AddUrdfRobot(mesh, UrdfOptions{}, &scene);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'a'"), std::string::npos) << e.what();
  }
  UrdfOptions unknown_joint;
  unknown_joint.initial_positions = {{"no_such_joint", 0.1}};
  EXPECT_THROW(AddUrdfRobot(kPanda, unknown_joint, &scene), SceneError);
}

// <mimic> becomes a coupler q = ρ·q_leader + offset between the joints' child links; the mimic
// joint gets no PD of its own and starts on its coupling.
std::string MimicUrdf(const std::string& mimic) {
  const std::string inertial =
      "<inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' "
      "izz='1'/></inertial>";
  return "<robot name='m'><link name='base'>" + inertial + "</link><link name='l'>" + inertial +
         "</link><link name='r'>" + inertial +
         "</link><joint name='jl' type='prismatic'><parent link='base'/><child link='l'/>"
         "<axis xyz='0 1 0'/><limit lower='-1' upper='1' effort='10' velocity='1'/></joint>"
         "<joint name='jr' type='prismatic'><parent link='base'/><child link='r'/>"
         "<axis xyz='0 -1 0'/><limit lower='-1' upper='1' effort='10' velocity='1'/>" +
         mimic + "</joint></robot>";
}

TEST(UrdfLoader, MimicBecomesACouplerAndStartsOnItsCoupling) {
  const std::string path = WriteTemp("contactlab_mimic.urdf",
                                     MimicUrdf("<mimic joint='jl' multiplier='-2' offset='0.1'/>"));
  UrdfOptions options;
  options.name_prefix = "m_";
  options.initial_positions = {{"jl", 0.2}};
  options.pd = JointPdSpec{100, 10};
  SceneSpec scene;
  AddUrdfRobot(path, options, &scene);
  ASSERT_EQ(scene.couplers.size(), 1u);
  const CouplerSpec& c = scene.couplers[0];
  EXPECT_EQ(c.name, "m_jr");
  EXPECT_EQ(c.body_a, scene.FindBody("m_r"));
  EXPECT_EQ(c.body_b, scene.FindBody("m_l"));
  EXPECT_EQ(c.parameters.gear_ratio, -2);
  EXPECT_EQ(c.parameters.offset, 0.1);
  EXPECT_TRUE(scene.bodies[c.body_b].pd.has_value());
  EXPECT_FALSE(scene.bodies[c.body_a].pd.has_value());
  EXPECT_DOUBLE_EQ(scene.bodies[c.body_a].initial_position, -2 * 0.2 + 0.1);

  SceneSpec panda;
  AddUrdfRobot(kPanda, UrdfOptions{}, &panda);
  ASSERT_EQ(panda.couplers.size(), 1u);  // the right finger mimics the left
  EXPECT_EQ(panda.bodies[panda.couplers[0].body_a].body.name, "panda_rightfinger");
  EXPECT_EQ(panda.couplers[0].parameters.gear_ratio, 1);
}

TEST(UrdfLoader, BadMimicIsOneClearError) {
  auto error_of = [](const std::string& mimic) {
    SceneSpec scene;
    try {
      AddUrdfRobot(WriteTemp("contactlab_bad_mimic.urdf", MimicUrdf(mimic)), UrdfOptions{}, &scene);
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("<mimic joint='nope'/>").find("mimics unknown joint 'nope'"),
            std::string::npos);
  EXPECT_NE(error_of("<mimic joint='jr'/>").find("mimics itself"), std::string::npos);
  // q_l = 0, so the follower would start at 2, outside its limits [-1, 1].
  EXPECT_NE(error_of("<mimic joint='jl' offset='2'/>").find("outside its limits"),
            std::string::npos);
}

// A package laid out as ROS does: <tmp>/<test>/contactlab_mesh_pkg/{urdf/robot.urdf, meshes/*.obj}.
// Under a folder of its own test: ctest runs the tests that use it as parallel processes, which
// must not rewrite each other's files.
struct MeshPackage {
  std::filesystem::path scratch = std::filesystem::temp_directory_path() /
                                  (std::string("contactlab_") +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::path root = scratch / "contactlab_mesh_pkg";
  ~MeshPackage() {
    std::error_code ignored;
    std::filesystem::remove_all(scratch, ignored);
  }
  MeshPackage() {
    std::filesystem::create_directories(root / "urdf");
    std::filesystem::create_directories(root / "meshes");
    // A unit cube centred at (0.5, 0.5, 0.5) with a vertex in the middle of one face and a dent
    // (an interior vertex used by no face is dropped by the hull as well).
    std::ofstream(root / "meshes" / "cube.obj") << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                                                   "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                                                   "v 0.5 0.5 0.8\n"
                                                   "f 1 4 3\nf 1 3 2\nf 5 6 9\nf 6 7 9\n"
                                                   "f 7 8 9\nf 8 5 9\nf 1 2 6\nf 1 6 5\n"
                                                   "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\n"
                                                   "f 4 1 5\nf 4 5 8\n";
    std::ofstream(root / "meshes" / "tet.obj")
        << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    std::ofstream(root / "meshes" / "broken.obj") << "v 0 0\nf 1 2 7 x\n";
  }
  std::string Urdf(const std::string& links) const {
    const auto path = root / "urdf" / "robot.urdf";
    std::ofstream(path) << "<robot name='r'>" << links << "</robot>";
    return path.string();
  }
};

constexpr const char* kInertial =
    "<inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' "
    "izz='1'/></inertial>";

TEST(UrdfLoader, CollisionMeshesBecomeTheirConvexHullFromPackageRelativeAndAbsolutePaths) {
  const MeshPackage pkg;
  const std::string absolute = (pkg.root / "meshes" / "tet.obj").string();
  const std::string urdf =
      pkg.Urdf(std::string("<link name='a'>") + kInertial +
               "<collision><origin xyz='0 0 0.1'/><geometry><mesh filename='package://"
               "contactlab_mesh_pkg/meshes/cube.obj' scale='0.2 0.1 0.05'/></geometry></collision>"
               "<collision><geometry><mesh filename='../meshes/tet.obj'/></geometry></collision>"
               "<collision><geometry><mesh filename='" +
               absolute +
               "' scale='2 2 2'/></geometry></collision>"
               "<visual><geometry><mesh filename='../meshes/cube.obj'/></geometry>"
               "<material name='red'><color rgba='1 0 0 1'/></material></visual>"
               "<visual><origin xyz='0 0 1'/><geometry><sphere radius='0.1'/></geometry></visual>"
               "</link>");
  SceneSpec scene;
  AddUrdfRobot(urdf, UrdfOptions{}, &scene);
  ASSERT_EQ(scene.bodies.size(), 1u);
  const SceneBody& body = scene.bodies[0];
  ASSERT_EQ(body.geometries.size(), 3u);
  const Shape& cube = body.geometries[0].shape;
  ASSERT_EQ(cube.type, ShapeType::kConvexMesh);
  // The dented face's middle vertex lies inside the hull: 8 corners, 6 faces, 12 triangles.
  EXPECT_EQ(cube.convex_mesh->num_vertices(), 8);
  EXPECT_EQ(cube.convex_mesh->num_faces(), 6);
  EXPECT_NEAR(ShapeVolume(cube), 0.2 * 0.1 * 0.05, 1e-15);
  EXPECT_LT((ShapeCentroid(cube) - Eigen::Vector3d(0.1, 0.05, 0.025)).norm(), 1e-15);
  EXPECT_LT((body.geometries[0].X_BG.translation() - Eigen::Vector3d(0, 0, 0.1)).norm(), 1e-15);
  EXPECT_NEAR(ShapeVolume(body.geometries[1].shape), 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(ShapeVolume(body.geometries[2].shape), 8.0 / 6.0, 1e-14);
  // Visuals: the mesh as loaded (not its hull) with its colour, and a primitive.
  ASSERT_EQ(body.visuals.size(), 2u);
  ASSERT_NE(body.visuals[0].mesh, nullptr);
  EXPECT_EQ(body.visuals[0].mesh->vertices_m.size(), 9u);
  EXPECT_EQ(body.visuals[0].mesh->triangles.size(), 14u);
  ASSERT_TRUE(body.visuals[0].rgba.has_value());
  EXPECT_EQ(*body.visuals[0].rgba, Eigen::Vector4d(1, 0, 0, 1));
  EXPECT_EQ(body.visuals[1].mesh, nullptr);
  EXPECT_EQ(body.visuals[1].shape.type, ShapeType::kSphere);
  EXPECT_FALSE(body.visuals[1].rgba.has_value());
  // The world takes the mesh: a cube resting on a floor would be in contact.
  World world(scene);
  EXPECT_EQ(world.num_geometries(), 3);
}

TEST(UrdfLoader, MissingOrMalformedMeshNamesTheUrdfTheLinkAndTheFile) {
  const MeshPackage pkg;
  for (const std::string file :
       {"../meshes/none.obj", "../meshes/broken.obj", "package://no_such_package/m.obj"}) {
    const std::string urdf = pkg.Urdf(std::string("<link name='hand'>") + kInertial +
                                      "<collision><geometry><mesh filename='" + file +
                                      "'/></geometry></collision></link>");
    SceneSpec scene;
    try {
      AddUrdfRobot(urdf, UrdfOptions{}, &scene);
      ADD_FAILURE() << file;
    } catch (const SceneError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(urdf), std::string::npos) << what;
      EXPECT_NE(what.find("'hand'"), std::string::npos) << what;
      EXPECT_NE(what.find(file), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  // A flat mesh has no volume: it cannot collide.
  std::ofstream(pkg.root / "meshes" / "flat.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n"
                                                     "f 1 2 3\nf 2 4 3\n";
  const std::string urdf = pkg.Urdf(std::string("<link name='hand'>") + kInertial +
                                    "<collision><geometry><mesh filename='../meshes/flat.obj'/>"
                                    "</geometry></collision></link>");
  SceneSpec scene;
  try {
    AddUrdfRobot(urdf, UrdfOptions{}, &scene);
    ADD_FAILURE();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("coplanar"), std::string::npos) << e.what();
  }
}

TEST(UrdfLoader, PandaVisualMeshesAreTheProjectsOwnAndItsCollisionShapesStayPrimitives) {
  SceneSpec scene;
  AddUrdfRobot(kPanda, UrdfOptions{}, &scene);
  int visual_meshes = 0;
  for (const SceneBody& b : scene.bodies) {
    for (const VisualSpec& v : b.visuals) {
      if (!v.mesh) continue;
      ++visual_meshes;
      EXPECT_NE(v.mesh->source.find("assets/robots/meshes/"), std::string::npos);
      EXPECT_GT(v.mesh->triangles.size(), 10u);
      // Convex, closed and outward: the shell's own volume (divergence theorem) is its hull's
      // (up to its grid quads, not quite planar), and every vertex is a vertex of the hull.
      const ConvexPolyhedron hull = ComputeConvexHull(v.mesh->vertices_m);
      const double volume =
          ComputePolyhedronMassProperties(v.mesh->vertices_m, v.mesh->triangles).volume_m3;
      EXPECT_NEAR(volume, hull.mass.volume_m3, 1e-5 * hull.mass.volume_m3) << v.mesh->source;
      EXPECT_EQ(hull.num_vertices(), static_cast<int>(v.mesh->vertices_m.size())) << v.mesh->source;
    }
    for (const GeometrySpec& g : b.geometries) EXPECT_NE(g.shape.type, ShapeType::kConvexMesh);
  }
  EXPECT_EQ(visual_meshes, 11);
}

}  // namespace
}  // namespace contactlab
