// A fleet instance's usage ledger (usage_ledger.hpp): the embedded store's usage_ledger
// table, for one process alone.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "store/sqlite_account_store.hpp"
#include "store/usage_ledger.hpp"

namespace toolcalc::store {
namespace {

// A ledger and the lock that makes it this process's alone (flock on a file beside the
// database, released when the process ends, however it ends).
class LockedLedger final : public UsageLedger {
 public:
  explicit LockedLedger(const std::filesystem::path& data_dir) {
    const std::filesystem::path lock_file = data_dir / "ledger.lock";
    lock_fd_ = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0)
      throw StoreError(lock_file.string() + ": cannot open: " + std::strerror(errno));
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(lock_fd_);
      throw StoreError("the usage ledger in " + data_dir.string() +
                       " is in use by another toolcalc process: each instance of a fleet "
                       "needs a data directory of its own");
    }
    store_ = std::make_unique<sqlite::SqliteAccountStore>(sqlite_store_file(data_dir));
  }
  ~LockedLedger() override {
    store_.reset();
    ::close(lock_fd_);
  }
  LockedLedger(const LockedLedger&) = delete;
  LockedLedger& operator=(const LockedLedger&) = delete;

  const std::string& instance_id() const override { return store_->instance_id(); }
  std::unordered_map<int64_t, int64_t> load_counts(std::string_view period) override {
    return store_->load_counts(period);
  }
  void add_counts(const std::vector<UsageDelta>& deltas) override { store_->add_counts(deltas); }
  bool add_counts_if_free(const std::vector<UsageDelta>& deltas) override {
    return store_->add_counts_if_free(deltas);
  }
  void checkpoint() override { store_->checkpoint(); }

 private:
  int lock_fd_ = -1;
  std::unique_ptr<sqlite::SqliteAccountStore> store_;
};

}  // namespace

std::unique_ptr<UsageLedger> open_usage_ledger(const std::filesystem::path& data_dir,
                                               NewStore new_store) {
  sqlite::prepare_store(data_dir, new_store);
  return std::make_unique<LockedLedger>(data_dir);
}

}  // namespace toolcalc::store
