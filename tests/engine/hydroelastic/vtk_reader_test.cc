// VTK legacy ASCII tet meshes: valid files load with the right geometry and field; malformed
// files throw std::runtime_error naming the file and the offending line.
#include "engine/hydroelastic/vtk_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "test_support/build_paths.h"

namespace contactlab::hydroelastic {
namespace {

using V = Eigen::Vector3d;

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// The tet (0,0,0), (1,0,0), (0,1,0), (0,0,1) split into 4 tets at its centroid (vertex 4), in
// tetgen's orientation (negative in ours for some cells).
const char* kHeader =
    "# vtk DataFile Version 2.0\n"
    "mesh.1.vtk, created by TetGen\n"
    "ASCII\n"
    "DATASET UNSTRUCTURED_GRID\n";
const char* kPoints =
    "POINTS 5 double\n"
    "0 0 0\n1 0 0\n0 1 0\n0 0 1\n"
    "0.25 0.25 0.25\n";
const char* kCells =
    "\nCELLS 4 20\n"
    "4 1 2 3 4\n4 0 3 2 4\n4 0 1 3 4\n4 0 2 1 4\n"
    "CELL_TYPES 4\n10\n10\n10\n10\n";

TEST(VtkReader, LoadsTetsAndComputesEpsilonFromBoundaryDistance) {
  const auto path = WriteTemp("split_tet.vtk", std::string(kHeader) + kPoints + kCells);
  const auto vtk = ReadVtkVolumeMesh(path);
  ASSERT_EQ(vtk.mesh.num_vertices(), 5);
  ASSERT_EQ(vtk.mesh.num_tets(), 4);
  EXPECT_FALSE(vtk.point_pressure_Pa.has_value());
  for (int t = 0; t < 4; ++t) EXPECT_GT(vtk.mesh.TetVolume(t), 0.0);
  EXPECT_NEAR(vtk.mesh.TotalVolume(), 1.0 / 6.0, 1e-15);
  const auto geometry = MakeCompliantGeometry(vtk, 1e5);
  // ε: 0 on the 4 corners, 1 at the interior vertex (the only one).
  for (int v = 0; v < 4; ++v) EXPECT_EQ(geometry.field.pressure_Pa[v], 0.0);
  EXPECT_DOUBLE_EQ(geometry.field.pressure_Pa[4], 1e5);
}

TEST(VtkReader, UsesPointDataAsPressure) {
  const std::string text = std::string(kHeader) + kPoints + kCells +
                           "CELL_DATA 4\nSCALARS region int 1\nLOOKUP_TABLE default\n1 1 1 1\n"
                           "POINT_DATA 5\nSCALARS pressure double 1\nLOOKUP_TABLE default\n"
                           "0 0 0 0 2.5e4\n";
  const auto vtk = ReadVtkVolumeMesh(WriteTemp("with_pressure.vtk", text));
  ASSERT_TRUE(vtk.point_pressure_Pa.has_value());
  EXPECT_EQ(vtk.scalar_name, "pressure");
  EXPECT_EQ((*vtk.point_pressure_Pa)[4], 2.5e4);
  const auto geometry = MakeCompliantGeometry(vtk, 1e5);  // E_h from the data: 2.5e4
  EXPECT_EQ(geometry.field.hydroelastic_modulus_Pa, 2.5e4);
  // Linear field in tet 0: p = 2.5e4 at the centroid vertex, gradient towards it.
  EXPECT_NEAR(geometry.tet_pressure[0](V(0.25, 0.25, 0.25)), 2.5e4, 1e-9);
}

void ExpectThrowsAt(const std::string& name, const std::string& text, int line,
                    const std::string& words) {
  const auto path = WriteTemp(name, text);
  try {
    ReadVtkVolumeMesh(path);
    ADD_FAILURE() << name << ": no exception";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path + ":" + std::to_string(line) + ":"), std::string::npos) << what;
    EXPECT_NE(what.find(words), std::string::npos) << what;
  }
}

TEST(VtkReader, MalformedFilesThrowWithFileAndLine) {
  const std::string h = kHeader, p = kPoints, c = kCells;
  ExpectThrowsAt("not_vtk.vtk", "hello\n", 1, "not a VTK");
  ExpectThrowsAt("binary.vtk", "# vtk DataFile Version 2.0\nx\nBINARY\n", 3, "ASCII");
  ExpectThrowsAt("bad_coord.vtk", h + "POINTS 5 double\n0 0 0\n1 zero 0\n", 7, "'zero'");
  ExpectThrowsAt("truncated.vtk", h + "POINTS 5 double\n0 0 0\n1 0 0\n", 7, "end of file");
  ExpectThrowsAt("bad_index.vtk", h + p + "CELLS 1 5\n4 0 1 2 9\n", 12, "out of range");
  ExpectThrowsAt("not_tet.vtk", h + p + "CELLS 1 4\n3 0 1 2\n", 11, "tetrahedra");
  ExpectThrowsAt("bad_type.vtk", h + p + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n12\n", 14,
                 "not a tetrahedron");
  ExpectThrowsAt("no_cells.vtk", h + p, 10, "no CELLS");
  ExpectThrowsAt("bad_point_data.vtk",
                 h + p + c + "POINT_DATA 3\nSCALARS p double\nLOOKUP_TABLE default\n0 0 0\n", 22,
                 "POINT_DATA count");
  ExpectThrowsAt("negative_pressure.vtk",
                 h + p + c + "POINT_DATA 5\nSCALARS p double\nLOOKUP_TABLE default\n0 0 -1 0 0\n",
                 25, "negative pressure");
  EXPECT_THROW(ReadVtkVolumeMesh(::testing::TempDir() + "does_not_exist.vtk"), std::runtime_error);
  // Counts beyond what the text can hold are refused before anything is sized by them.
  ExpectThrowsAt("huge_points.vtk", h + "POINTS 1000000000000 double\n0 0 0\n", 5,
                 "exceeds what the file holds");
  ExpectThrowsAt("huge_cells.vtk", h + p + "CELLS 4000000000000000000 20\n", 11,
                 "exceeds what the file holds");
}

// Found by fuzz_vtk (tests/data/fuzz/): a second POINTS section, with fewer points, after the
// cells had been checked against the first — the field's computation then read past the end.
TEST(VtkReader, ASectionGivenTwiceIsRefused) {
  const std::string path =
      contactlab::testing::SourceDirectory() + "/tests/data/fuzz/vtk_points_twice.vtk";
  try {
    MakeCompliantGeometry(ReadVtkVolumeMesh(path), 1e6);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("vtk_points_twice.vtk:18: POINTS given twice"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace contactlab::hydroelastic
