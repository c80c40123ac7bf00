#include "api/admin_guard.hpp"

#include <algorithm>
#include <string>

#include "core/client_address.hpp"
#include "core/log.hpp"

namespace toolcalc::api {

namespace {

// The key of text that is no address: in ff01::/16 (multicast, never a TCP source), so
// neither an IPv6 /64's key nor an IPv4 address's (core/client_address.cpp).
constexpr uint64_t kNotAnAddress = 0xff01'0000'0000'0000;

uint64_t key_of(std::string_view address) {
  return client_address_key(address).value_or(kNotAnAddress);
}

}  // namespace

AdminGuard::Window* AdminGuard::window_of(uint64_t address, int64_t now_s, bool create) {
  auto it = windows_.find(address);
  Window* w = nullptr;
  if (it != windows_.end()) {
    w = &it->second;
  } else {
    if (windows_.size() >= max_addresses_) forget_expired(now_s);
    if (windows_.size() < max_addresses_) {
      if (!create) return nullptr;  // no failure yet
      w = &windows_[address];
    } else {
      w = &shared_;
    }
  }
  if (now_s - w->start_s >= kWindowSeconds) *w = {now_s, 0};
  return w;
}

// At most once a second, so that a full table of live windows is not scanned per request.
void AdminGuard::forget_expired(int64_t now_s) {
  if (now_s == last_sweep_s_) return;
  last_sweep_s_ = now_s;
  std::erase_if(windows_,
                [&](const auto& entry) { return now_s - entry.second.start_s >= kWindowSeconds; });
}

int64_t AdminGuard::retry_after_s(std::string_view address, int64_t now_s) {
  std::lock_guard lock(mutex_);
  const Window* w = window_of(key_of(address), now_s, false);
  if (!w || w->failures < kMaxFailures) return 0;
  return std::max<int64_t>(1, w->start_s + kWindowSeconds - now_s);
}

void AdminGuard::record_failure(std::string_view address, int64_t now_s,
                                std::string_view request_id) {
  int failures;
  int64_t retry_after;
  {
    std::lock_guard lock(mutex_);
    Window& w = *window_of(key_of(address), now_s, true);
    failures = ++w.failures;
    retry_after = std::max<int64_t>(1, w.start_s + kWindowSeconds - now_s);
  }
  if (failures == 1) {
    log::warn("admin: authentication failed", {{"request_id", request_id}, {"peer_ip", address}});
  } else if (failures == kMaxFailures) {
    log::warn("admin: authentication failures from one address; refusing it",
              {{"request_id", request_id},
               {"peer_ip", address},
               {"failures", std::to_string(failures)},
               {"window_s", std::to_string(kWindowSeconds)},
               {"retry_after_s", std::to_string(retry_after)}});
  }
}

size_t AdminGuard::addresses() const {
  std::lock_guard lock(mutex_);
  return windows_.size();
}

}  // namespace toolcalc::api
