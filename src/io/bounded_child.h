// Running a third-party reader where its failures cannot reach us: in a child process with a
// memory and CPU-time budget (docs/architecture.md §9). assimp 5.2 can spend minutes and
// tens of GB on a one-byte corruption of a COLLADA file (found by fuzz_mesh_file); a user's
// mesh must give one clear line, never a hung or swapped-out machine.
#pragma once

#include <functional>
#include <string>

namespace contactlab {

struct ChildBudget {
  double memory_GB = 4;  // address space the child may add to what it inherits [GB]
  int cpu_s = 60;        // CPU time [s]
};

// The child's answer: `ok` with the bytes `work` returned, or not with a one-line reason (the
// text `work` threw as std::runtime_error, or what stopped the child).
struct ChildResult {
  bool ok = false;
  std::string bytes;
  std::string failure;
};

// Forks, runs `work` in the child under `budget` and returns what it produced. `work` must
// not touch other threads' state (after fork only this thread exists); its std::runtime_error
// becomes `failure`. Under AddressSanitizer or ThreadSanitizer the memory budget is not set
// (their shadow memory already exceeds any address-space limit): CPU time still bounds it.
ChildResult RunInBoundedChild(const std::function<std::string()>& work, const ChildBudget& budget);

}  // namespace contactlab
