#pragma once
// The fixture of the Service unit tests: the API over the real catalog (tools and domains
// from the source tree), a FakeAccess and a fixed clock, and requests as a client with
// the fake's good key sends them.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string_view>

#include "api/service.hpp"
#include "catalog/domains.hpp"
#include "fake_access.hpp"
#include "tools/all.hpp"

namespace toolcalc::test_support {

inline const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;
// The battery tool's default inputs (docs/tools/mcu-deep-sleep-battery.md).
inline constexpr std::string_view kBattery =
    R"({"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
    R"("wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80})";

class ServiceFixture : public ::testing::Test {
 protected:
  catalog::Registry registry{tools::all_tools({kSource / "catalog"}),
                             catalog::load_domains(kSource / "catalog" / "domains.toml")};
  FakeAccess access;
  ManualClock clock{1'800'000'010'000};
  api::Service service{registry, access, clock, api::ServiceOptions{"", "9.9.9"}};

  static api::Request request(std::string_view method, std::string_view target,
                              std::string_view body = {},
                              std::optional<std::string_view> auth = "Bearer tc_live_good",
                              std::string_view content_type = "application/json") {
    api::Request r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.authorization = auth;
    r.content_type = content_type;
    r.peer_ip = "10.1.2.3";
    return r;
  }
};

}  // namespace toolcalc::test_support
