#pragma once
// One factory per tool file. Each returns the tool's immutable descriptor and its
// pure compute function.
#include "catalog/descriptor.hpp"

namespace toolcalc::tools {

catalog::Tool make_mcu_deep_sleep_battery();  // iot-mcu/mcu-deep-sleep-battery.cpp

}  // namespace toolcalc::tools
