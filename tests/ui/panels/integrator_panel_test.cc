// The Solver panel's integrator choices (ui/panels/integrator_panel.h): each combo entry maps to
// its integrator and back, the θ-method keeps the weights of one in force (the named members
// fix theirs), and every choice keeps the accuracy set.
#include "ui/panels/integrator_panel.h"

#include <gtest/gtest.h>

#include <iterator>

namespace contactlab {
namespace {

TEST(IntegratorPanel, EachChoiceIsItsIntegratorAndKeepsTheAccuracy) {
  TimeIntegration current = TimeIntegration::ErrorControlled(3e-5);
  const TimeIntegration expected[] = {TimeIntegration{}, TimeIntegration::ImplicitEuler(),
                                      TimeIntegration::Midpoint(), TimeIntegration::Theta(0.5, 1),
                                      TimeIntegration::ErrorControlled(3e-5)};
  static_assert(std::size(expected) == std::size(kIntegratorLabels));
  for (int i = 0; i < static_cast<int>(std::size(kIntegratorLabels)); ++i) {
    const TimeIntegration chosen = IntegratorChoice(i, current);
    EXPECT_EQ(chosen.scheme, expected[i].scheme) << kIntegratorLabels[i];
    EXPECT_EQ(chosen.theta_q, expected[i].theta_q) << kIntegratorLabels[i];
    EXPECT_EQ(chosen.theta_v, expected[i].theta_v) << kIntegratorLabels[i];
    EXPECT_EQ(chosen.accuracy, 3e-5) << kIntegratorLabels[i];
    EXPECT_EQ(IntegratorIndex(chosen), i) << kIntegratorLabels[i];
  }
  current = TimeIntegration::Theta(0.7, 0.2);
  EXPECT_EQ(IntegratorChoice(3, current), current) << "the θ-method keeps its weights";
  EXPECT_EQ(IntegratorIndex(TimeIntegration::Theta(1, 1)), 1) << "implicit Euler by its weights";
  // From a named member the θ-method is a pair of its own, which the combo then shows.
  for (const TimeIntegration& named :
       {TimeIntegration::ImplicitEuler(), TimeIntegration::Midpoint()}) {
    EXPECT_EQ(IntegratorIndex(IntegratorChoice(3, named)), 3) << TimeIntegrationName(named);
  }
}

}  // namespace
}  // namespace contactlab
