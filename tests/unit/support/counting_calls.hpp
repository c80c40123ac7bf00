#pragma once
// Shared by the accounts and store tests: AccessControl's counting calls as a test makes
// them, and a request that can wait (accounts::Suspendable) that reports how often a call
// suspended it and what it was told afterwards.
#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "accounts/access_control.hpp"

namespace toolcalc::accounts::testing {

// The calls of a request whose counted units the test does not look at.
inline QuotaReservation reserve(AccessControl& access, const Caller& caller, int64_t units) {
  CountedUnits counted;
  return access.reserve_quota(caller, units, counted);
}
inline void release(AccessControl& access, const Caller& caller,
                    const QuotaReservation& reservation, int64_t units) {
  CountedUnits counted;
  access.release_quota(caller, reservation, units, counted);
}
// The rate step taken at once (blocking on a shared store): its rate unit.
inline RateDecision take_rate_unit(AccessControl& access, const Caller& caller) {
  CountedUnits counted;
  return access.rate_step(caller, false, counted, nullptr).value().rate;
}
// The rate step of an execution taken at once: its rate unit, and in `early` the quota
// unit the step reserved with it, if any.
inline RateDecision take_rate_unit_for_execution(AccessControl& access, const Caller& caller,
                                                 std::optional<QuotaReservation>& early) {
  CountedUnits counted;
  RateStep step = access.rate_step(caller, true, counted, nullptr).value();
  early = std::move(step.early);
  return step.rate;
}

class WaitingRequest final : public Suspendable {
 public:
  using StepTold = std::function<void(RateStep&&, std::exception_ptr)>;
  // Told its rate step: calls `on_step`. Told whether its units are durable: appends that
  // to `*durable`. Told anything else: a test failure.
  explicit WaitingRequest(StepTold on_step, std::vector<bool>* durable = nullptr)
      : on_step_(std::move(on_step)), durable_(durable) {}
  explicit WaitingRequest(std::vector<bool>& durable) : durable_(&durable) {}

  std::shared_ptr<Suspended> suspend() override {
    ++suspensions;
    if (on_suspend) on_suspend();
    return std::make_shared<Told>(on_step_, durable_);
  }
  int suspensions = 0;
  // What suspending does to the request besides (the API moves it: its caller is gone).
  std::function<void()> on_suspend;

 private:
  struct Told final : Suspended {
    Told(StepTold on_step, std::vector<bool>* durable)
        : on_step(std::move(on_step)), durable(durable) {}
    void rate_step_taken(RateStep&& step, std::exception_ptr failure) override {
      if (on_step)
        on_step(std::move(step), failure);
      else
        ADD_FAILURE() << "told a rate step it did not wait for";
    }
    void units_durable(bool stored) override {
      if (durable)
        durable->push_back(stored);
      else
        ADD_FAILURE() << "told of units it did not wait for";
    }
    StepTold on_step;
    std::vector<bool>* durable;
  };
  StepTold on_step_;
  std::vector<bool>* durable_ = nullptr;
};

}  // namespace toolcalc::accounts::testing
