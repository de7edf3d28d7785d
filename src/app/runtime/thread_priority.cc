#include "app/runtime/thread_priority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace contactlab {

bool LowerThisThreadsPriority(int increment) {
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int current = getpriority(PRIO_PROCESS, tid);
  if (errno != 0) return false;
  return setpriority(PRIO_PROCESS, tid, std::min(current + increment, 19)) == 0;
}

}  // namespace contactlab
