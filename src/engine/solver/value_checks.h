// Range checks of user-given values (scene files, the command line, live settings): each throws
// std::invalid_argument "<what> must be …, got <value>" naming the value, so that one bad number
// is one clear line.
#pragma once

#include <string>

namespace contactlab {

// Finite and > 0.
void CheckPositive(double value, const std::string& what);
// Finite and ≥ 0.
void CheckNonNegative(double value, const std::string& what);

}  // namespace contactlab
