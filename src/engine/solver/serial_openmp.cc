#include "engine/solver/serial_openmp.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace contactlab {

void RunOpenMpRegionsSerially() {
#ifdef _OPENMP
  if (omp_get_max_active_levels() != 0) omp_set_max_active_levels(0);
#endif
}

}  // namespace contactlab
