// OpenMP regions opened on this thread run serially. Debian's CHOLMOD opens parallel regions
// inside the supernodal numeric factorization with a thread count fixed at its compile time,
// which OMP_NUM_THREADS does not lower, and Eigen's matrix products in this module (compiled
// with OpenMP for CHOLMOD's sake) open their own. For the systems of a time step the fork/join
// and the spinning idle workers cost more than the arithmetic: the clutter scene's impact phase
// took 1.76 s of wall time for 1.2 s of CPU time with CHOLMOD's regions, 0.91 s without (and
// idle workers compete with the render threads); Drumwright & Shell's dense phase 2 spent 58 %
// of its time in idle OpenMP workers.
#pragma once

namespace contactlab {

// Sets this thread's maximum active nesting level to 0, so that every region it opens is
// serial. The setting is per thread (an OpenMP task ICV): call it on the thread that computes.
void RunOpenMpRegionsSerially();

}  // namespace contactlab
