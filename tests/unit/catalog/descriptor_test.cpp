// InputDescriptor::is_numeric: the one test sweeps, tolerances, solve, their schemas and
// the registry's checks use to tell inputs that take a number from the others.
#include <gtest/gtest.h>

#include "catalog/descriptor_builder.hpp"

using namespace toolcalc::catalog;

TEST(InputDescriptor, NumberAndIntegerInputsAreNumeric) {
  EXPECT_TRUE(number_input({.key = "r_ohm",
                            .label = "R",
                            .unit = "Ω",
                            .help = "",
                            .min = 1,
                            .max = 1e6,
                            .step = 1,
                            .default_value = 1000})
                  .is_numeric());
  EXPECT_TRUE(integer_input({.key = "layers",
                             .label = "Layers",
                             .unit = "",
                             .help = "",
                             .min = 1,
                             .max = 32,
                             .step = 1,
                             .default_value = 4})
                  .is_numeric());
}

TEST(InputDescriptor, ChoiceAndFlagInputsAreNotNumeric) {
  EXPECT_FALSE(choice_input({.key = "series",
                             .label = "Series",
                             .help = "",
                             .options = {"E12", "E24"},
                             .default_value = "E24"})
                   .is_numeric());
  EXPECT_FALSE(flag_input({.key = "batch", .label = "Batch", .help = "", .default_value = false})
                   .is_numeric());
}
