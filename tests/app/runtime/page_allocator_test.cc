// app/runtime/page_allocator.h: a freed buffer leaves the process, also after glibc has raised its
// mmap threshold — the case the 60-minute soak found (docs/architecture.md §8).
#include "app/runtime/page_allocator.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <thread>
#include <vector>

namespace contactlab {
namespace {

double ResidentMB() {
  std::ifstream statm("/proc/self/statm");
  long size_pages = 0, resident_pages = 0;
  statm >> size_pages >> resident_pages;
  return static_cast<double>(resident_pages) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1e6;
}

constexpr size_t k24MB = (24u << 20) / sizeof(double), k16MB = (16u << 20) / sizeof(double);

// On a thread of its own, as the timeline's ring lives on the sim thread (its malloc arena).
TEST(PageAllocator, AFreedRingLeavesTheProcess) {
  std::thread([] {
    // A 24 MB block through malloc, freed: glibc raises its mmap threshold to 24 MB and serves
    // smaller blocks from the thread's arena, where a freed one below a live block stays resident
    // (with std::allocator below, resident memory stays 16 MB up).
    { std::vector<double> earlier_ring(k24MB, 1.0); }
    const double before_MB = ResidentMB();
    std::unique_ptr<char[]> allocated_after_the_ring;  // keeps the arena's top above the ring
    {
      std::vector<double, PageAllocator<double>> ring(k16MB, 1.0);  // touched: resident
      allocated_after_the_ring = std::make_unique<char[]>(4096);
      EXPECT_GT(ResidentMB(), before_MB + 15);
    }
    EXPECT_LT(ResidentMB(), before_MB + 2);
  }).join();
}

TEST(PageAllocator, AnEmptyVectorAllocatesNothing) {
  std::vector<double, PageAllocator<double>> empty;
  empty.reserve(0);
  EXPECT_EQ(empty.data(), nullptr);
}

}  // namespace
}  // namespace contactlab
