// The contact approximations for parameterized tests, with readable names:
//
//   class Models : public ::testing::TestWithParam<ContactApproximation> {};
//   INSTANTIATE_TEST_SUITE_P(All, Models, ::testing::ValuesIn(testing::kAllApproximations),
//                            testing::ApproximationTestName);
//
// gives tests named All/Models.Foo/sap, …/lagged, …/similar, …/regularized_lagged, and failure
// messages that print "GetParam() = lagged".
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <ostream>
#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

// Found by argument-dependent lookup: gtest prints a ContactApproximation by its name.
inline void PrintTo(ContactApproximation a, std::ostream* os) {
  *os << ContactApproximationName(a);
}

namespace testing {

inline constexpr std::array kAllApproximations = {
    ContactApproximation::kSap, ContactApproximation::kLagged, ContactApproximation::kSimilar,
    ContactApproximation::kRegularizedLagged};

// Name generator for INSTANTIATE_TEST_SUITE_P over ContactApproximation: "sap", "lagged", ….
inline std::string ApproximationTestName(
    const ::testing::TestParamInfo<ContactApproximation>& info) {
  return ContactApproximationName(info.param);
}

}  // namespace testing
}  // namespace contactlab
