// A reader in a bounded child process (io/bounded_child.h): its answer comes back, its
// exceptions become one line, and a reader that loops or allocates without end is stopped.
#include "io/bounded_child.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/mesh_file.h"
#include "test_support/build_paths.h"

namespace contactlab {
namespace {

TEST(BoundedChild, ReturnsTheChildsBytes) {
  std::string big(1 << 20, 'x');  // larger than a pipe's buffer
  big[12345] = 'y';
  const ChildResult r = RunInBoundedChild([&] { return big; }, ChildBudget{});
  ASSERT_TRUE(r.ok) << r.failure;
  EXPECT_EQ(r.bytes, big);
}

TEST(BoundedChild, ARuntimeErrorBecomesTheFailure) {
  const ChildResult r =
      RunInBoundedChild([]() -> std::string { throw std::runtime_error("file.obj:3: bad"); }, {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure, "file.obj:3: bad");
}

// assimp reports a failed assertion on std::cerr, which flushes std::cout and so C's stdout: the
// child must not find the parent's pending output there and print it a second time (seen as a
// program's earlier lines repeated after a fuzzed PLY tripped an assertion inside assimp).
TEST(BoundedChild, TheParentsPendingOutputIsNotPrintedTwice) {
  ::testing::internal::CaptureStdout();
  std::fputs("pending, not yet flushed", stdout);
  const ChildResult r = RunInBoundedChild(
      []() -> std::string {
        std::cerr << "assertion failed inside the reader\n";
        std::abort();
      },
      {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "pending, not yet flushed");
}

TEST(BoundedChild, AReaderThatNeverEndsIsStoppedByItsCpuBudget) {
  const auto start = std::chrono::steady_clock::now();
  const ChildResult r = RunInBoundedChild(
      []() -> std::string {
        for (;;) asm volatile("");  // a loop the optimizer may not remove
      },
      ChildBudget{1, 1});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure, "more than 1 s of CPU time");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30);
}

// Found by fuzz_mesh_file (tests/data/fuzz/): one '*' among a COLLADA file's triangle indices
// makes assimp 5.2 run for minutes and take ~19 GB. Now it costs one line within the budget.
TEST(BoundedChild, AMeshThatRunsAwayWithAssimpIsOneErrorLine) {
  const std::string path =
      contactlab::testing::SourceDirectory() + "/tests/data/fuzz/dae_star_in_indices.dae";
  try {
    LoadMeshFile(path, Eigen::Vector3d::Ones(), ChildBudget{1, 2});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot load mesh file '" + path + "': more than"), std::string::npos)
        << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

// Found by fuzz_mesh_file: a PLY whose one corrupt header letter trips an assertion inside
// assimp's triangulation, which aborted the whole process. Now the child's abort is one line.
TEST(BoundedChild, AMeshThatAbortsAssimpIsOneErrorLine) {
  const std::string path =
      contactlab::testing::SourceDirectory() + "/tests/data/fuzz/ply_triangulate_abort.ply";
  try {
    LoadMeshFile(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot load mesh file '" + path + "': the reader crashed (signal 6)");
  }
}

// Found by fuzz_mesh_file: a COLLADA float_array without its count attribute makes assimp 5.2
// dereference a null pointer (SIGSEGV inside the library). The child's crash is one line.
TEST(BoundedChild, AMeshThatCrashesAssimpIsOneErrorLine) {
  const std::string path =
      contactlab::testing::SourceDirectory() + "/tests/data/fuzz/dae_float_array_without_count.dae";
  try {
    LoadMeshFile(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot load mesh file '" + path + "': the reader crashed (signal 11)");
  }
}

}  // namespace
}  // namespace contactlab
