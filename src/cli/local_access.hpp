#pragma once
// Access for `toolcalc run`: a local caller on no plan, never limited, no monthly quota
// (the envelope's quota_remaining is then null). The server never uses this.
#include "accounts/access_control.hpp"

namespace toolcalc::cli {

class LocalAccess final : public accounts::AccessControl {
 public:
  accounts::AuthResult authenticate(std::optional<std::string_view>,
                                    std::string_view) const override {
    accounts::AuthResult r;
    r.status = accounts::AuthStatus::Ok;
    r.caller.anonymous = false;
    r.caller.subject = "local";
    r.caller.key_prefix = "local";
    r.caller.plan = {"local", 0, std::nullopt};
    return r;
  }
  std::optional<accounts::RateStep> rate_step(const accounts::Caller&, bool,
                                              accounts::CountedUnits&,
                                              accounts::Suspendable*) override {
    return accounts::RateStep{};
  }
  accounts::RateDecision peek_rate(const accounts::Caller&) const override { return {}; }
  accounts::QuotaReservation reserve_quota(const accounts::Caller&, int64_t units,
                                           accounts::CountedUnits&) override {
    accounts::QuotaReservation r;
    r.unlimited = true;
    r.units = units;
    return r;
  }
  void release_quota(const accounts::Caller&, const accounts::QuotaReservation&, int64_t,
                     accounts::CountedUnits&) override {}
  accounts::QuotaStatus quota_status(const accounts::Caller&) const override {
    accounts::QuotaStatus s;
    s.unlimited = true;
    return s;
  }
};

}  // namespace toolcalc::cli
