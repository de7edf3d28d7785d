// Thread priorities on Linux, where nice is per thread and threads inherit their creator's:
// the threads that must keep real time (the sim thread) keep theirs, the others (rendering, a
// ghost run) give way.
#pragma once

namespace contactlab {

// Raises the calling thread's nice value by `increment` (capped at 19). Lowering one's own
// priority needs no privilege; raising it back would. False if it could not be changed.
bool LowerThisThreadsPriority(int increment);

}  // namespace contactlab
