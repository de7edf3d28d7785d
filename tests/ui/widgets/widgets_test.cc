// The approximation choices every combo offers (the main run's and the ghost's): every model the
// engine has, each under its label, and which of them is rigid (docs/contact-model.md §8).
#include "ui/widgets/widgets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "engine/solver/contact_constraint_factory.h"

namespace contactlab {
namespace {

TEST(ApproximationChoices, OfferEveryModelUnderItsLabel) {
  // The enumerators in order, up to the first that ContactApproximationName does not know: a
  // model added to the engine (and named there) is offered or this fails.
  int num_models = 0;
  while (std::string(ContactApproximationName(static_cast<ContactApproximation>(num_models))) !=
         "?") {
    const auto model = static_cast<ContactApproximation>(num_models);
    EXPECT_NE(std::find(std::begin(kApproximationChoices), std::end(kApproximationChoices), model),
              std::end(kApproximationChoices))
        << ContactApproximationName(model) << " is not offered";
    ++num_models;
  }
  EXPECT_EQ(num_models, static_cast<int>(std::size(kApproximationChoices)));
  EXPECT_STREQ(ApproximationLabel(ContactApproximation::kSap), "SAP");
  EXPECT_STREQ(ApproximationLabel(ContactApproximation::kDrumwrightShell), "Drumwright-Shell");
}

// The panels hide a model's compliant diagnostics by IsRigidModel and grey its sliders by
// UsesParameter: the two agree that exactly the rigid model reads no stiffness.
TEST(ApproximationChoices, OnlyDrumwrightShellIsRigid) {
  for (const ContactApproximation model : kApproximationChoices) {
    EXPECT_EQ(IsRigidModel(model), model == ContactApproximation::kDrumwrightShell)
        << ContactApproximationName(model);
    EXPECT_EQ(IsRigidModel(model), !UsesParameter(model, ContactParameter::kStiffness))
        << ContactApproximationName(model);
  }
}

}  // namespace
}  // namespace contactlab
