#pragma once
// The two ways a store fails, for every store and its callers (accounts/, cli/): a store
// that is broken or refused an operation (StoreError), and a shared store that cannot
// count right now (StoreUnavailable), which callers answer by failing closed.
#include <stdexcept>

namespace toolcalc::store {

// A store that cannot be opened, read or written, or that answered with an error. The
// message names the store (its database file, or the Redis URL).
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The store holding the counts (a shared one: Redis) cannot be reached or refused the
// update. Nothing was counted for the request: accounts/ passes it on, and the API answers
// 503 STORE_UNAVAILABLE without running the request (fail closed; docs/api.md). The
// message is for the operator's log. Not a StoreError: callers that map a StoreError to
// "misconfigured" must still answer this one as "try again".
class StoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace toolcalc::store
