#include "store/sqlite_account_store.hpp"

#include <utility>

#include "core/log.hpp"
#include "core/service_metrics.hpp"
#include "store/sqlite_schema.hpp"
#include "store/store_directory.hpp"

namespace toolcalc::store {
namespace sqlite {
namespace {

// Once a store is open: the directory's marker names it.
void mark_directory(const std::filesystem::path& data_dir, const StoreIdentity& identity) {
  switch (record_store_identity(data_dir, identity)) {
    case MarkerChange::None:
      break;
    case MarkerChange::Written:
      log::info("store marker written", {{"file", store_marker_file(data_dir).string()},
                                         {"store", describe_store(identity)}});
      break;
    case MarkerChange::Rewritten:
      log::warn(
          "store marker rewritten: it was unreadable, or the database predates store ids",
          {{"file", store_marker_file(data_dir).string()}, {"store", describe_store(identity)}});
      break;
  }
}

void create_data_dir(const std::filesystem::path& data_dir) {
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  if (ec)
    throw StoreError("cannot create the data directory " + data_dir.string() + ": " + ec.message());
}

}  // namespace

SqliteAccountStore::SqliteAccountStore(const std::filesystem::path& file,
                                       std::unique_ptr<UsageJournal> journal)
    : file_(file),
      db_(file),
      keys_(configure(db_)),
      usage_(PeriodCounts::monthly_usage(db_)),
      ledger_(PeriodCounts::usage_ledger(db_)),
      history_(db_),
      alerts_(db_),
      journal_mark_(db_),
      journaled_(std::move(journal)),
      journaling_(journaled_.present()),
      checkpointer_(file) {
  if (journaling_) take_over_journal();
  instance_id_ = read_ledger_instance(db_);
  mark_directory(file_.parent_path(), read_identity(db_));
}

std::optional<int64_t> SqliteAccountStore::create_key(const NewKey& key) {
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();  // one statement or transaction
  return keys_.create(key);
}

RevokeOutcome SqliteAccountStore::revoke_key(std::string_view prefix, int64_t now_epoch_s) {
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();  // one statement or transaction
  return keys_.revoke(prefix, now_epoch_s);
}

ChangeOutcome SqliteAccountStore::rotate_key(std::string_view prefix, std::string_view new_hash,
                                             int64_t previous_expires_epoch_s) {
  MutexLock lock(mu_);
  return keys_.rotate(prefix, new_hash, previous_expires_epoch_s);
}

ChangeOutcome SqliteAccountStore::update_key(std::string_view prefix, const KeyUpdate& update) {
  MutexLock lock(mu_);
  return keys_.update(prefix, update);
}

int64_t SqliteAccountStore::key_generation() {
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();  // one statement or transaction
  return keys_.generation();
}

KeySet SqliteAccountStore::load_keys() {
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();  // one statement or transaction
  return keys_.load();
}

std::vector<KeyWithUsage> SqliteAccountStore::list_keys(std::string_view period) {
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();  // one statement or transaction
  std::vector<KeyWithUsage> out = keys_.list(period);
  MutexLock journal_lock(journal_mu_);
  for (auto& row : out) row.used += journaled_.units(row.key.id, period);
  return out;
}

std::unordered_map<int64_t, int64_t> SqliteAccountStore::load_usage(std::string_view period) {
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();  // one statement or transaction
  std::unordered_map<int64_t, int64_t> out = usage_.load(period);
  MutexLock journal_lock(journal_mu_);
  journaled_.add_to(out, period);
  return out;
}

void SqliteAccountStore::add_usage(const std::vector<UsageDelta>& deltas,
                                   const std::vector<HistoryDelta>& history) {
  MutexLock lock(mu_);
  MutexLock journal_lock(journal_mu_);
  const bool from_journal = journaled_.pending();
  if (deltas.empty() && history.empty() && !from_journal) return;
  metrics::store_round_trips.inc();  // one statement or transaction
  const int64_t changes_before = sqlite3_total_changes64(db_.handle());
  Transaction tx(db_, Transaction::Write);
  usage_.add(deltas);
  if (from_journal) journaled_.write_pending(usage_, journal_mark_);
  history_.add(history);
  tx.commit();
  note_commit(changes_before);
  if (from_journal) journaled_.forget_pending();
}

bool SqliteAccountStore::add_usage_if_free(const std::vector<UsageDelta>& deltas) {
  if (journaling_) {
    MutexTryLock journal_lock(journal_mu_);
    if (journal_lock.try_lock() && journaled_.append(deltas)) {
      metrics::store_round_trips.inc();
      return true;
    }
  }
  // The database when it is free at once: never waits (docs/durability.md).
  MutexTryLock lock(mu_);
  if (!lock.try_lock() || log_restarts_next_) return false;
  return usage_.add_unless_busy(deltas);
}

void SqliteAccountStore::checkpoint() {
  MutexLock lock(checkpoint_mu_);
  // The first pass copies the bulk while commits go on. Under a steady stream of commits
  // it never catches up with the last one, and SQLite starts the log again from its
  // beginning only when a write begins with every frame copied: the log would grow without
  // bound (hundreds of MB a minute at a few thousand commits a second). So a second pass
  // runs with this process's commits held (mu_): it copies the few frames committed
  // during the first, and the next commit restarts the log.
  checkpointer_.copy_log();
  MutexLock writer(mu_);
  if (checkpointer_.copy_log()) log_restarts_next_ = true;
}

std::vector<HistoryRow> SqliteAccountStore::load_history(int64_t key_id, int32_t first_day,
                                                         int32_t end_day) {
  MutexLock lock(mu_);
  return history_.load(key_id, first_day, end_day);
}

void SqliteAccountStore::drop_history_before(int32_t day) {
  MutexLock lock(mu_);
  history_.drop_before(day);
}

bool SqliteAccountStore::create_alert(const QuotaAlert& alert) {
  MutexLock lock(mu_);
  return alerts_.create(alert);
}

std::vector<QuotaAlert> SqliteAccountStore::lease_due_alerts(int64_t now_s, int64_t lease_until_s,
                                                             size_t limit) {
  MutexLock lock(mu_);
  return alerts_.lease_due(now_s, lease_until_s, limit);
}

void SqliteAccountStore::finish_alert(const QuotaAlert& alert, AlertOutcome outcome, int64_t at_s) {
  MutexLock lock(mu_);
  alerts_.finish(alert, outcome, at_s);
}

std::unordered_map<int64_t, int64_t> SqliteAccountStore::load_counts(std::string_view period) {
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();  // one statement or transaction
  return ledger_.load(period);
}

void SqliteAccountStore::add_counts(const std::vector<UsageDelta>& deltas) {
  if (deltas.empty()) return;
  MutexLock lock(mu_);
  metrics::store_round_trips.inc();
  const int64_t changes_before = sqlite3_total_changes64(db_.handle());
  Transaction tx(db_, Transaction::Write);
  ledger_.add(deltas);
  tx.commit();
  note_commit(changes_before);
}

bool SqliteAccountStore::add_counts_if_free(const std::vector<UsageDelta>& deltas) {
  // Never waits, as add_usage_if_free.
  MutexTryLock lock(mu_);
  if (!lock.try_lock() || log_restarts_next_) return false;
  return ledger_.add_unless_busy(deltas);
}

void SqliteAccountStore::take_over_journal() {
  MutexLock lock(mu_);
  MutexLock journal_lock(journal_mu_);
  journaled_.take_over(db_, usage_, journal_mark_);
}

void SqliteAccountStore::note_commit(int64_t changes_before) {
  if (sqlite3_total_changes64(db_.handle()) != changes_before) log_restarts_next_ = false;
}

void prepare_store(const std::filesystem::path& data_dir, NewStore new_store) {
  create_data_dir(data_dir);
  const StoreOpening opening = check_store_directory(data_dir, new_store);
  if (!opening.create) return;
  set_aside(opening.set_aside);
  Database db(sqlite_store_file(data_dir), /*create=*/true);
  const StoreIdentity identity = read_identity(configure(db));
  record_store_identity(data_dir, identity);
  if (opening.earlier_use.empty() && opening.set_aside.empty()) {
    log::info("new store created",
              {{"data_dir", data_dir.string()}, {"store", describe_store(identity)}});
    return;
  }
  std::vector<std::string> set_aside_names;
  for (const auto& f : opening.set_aside) set_aside_names.push_back(f.filename().string());
  log::warn("new, empty store created on purpose (--new-store) in a data directory used before",
            {{"data_dir", data_dir.string()},
             {"store", describe_store(identity)},
             {"earlier_use", joined(opening.earlier_use)},
             {"renamed_aside", joined(set_aside_names)}});
}

}  // namespace sqlite

std::filesystem::path sqlite_store_file(const std::filesystem::path& data_dir) {
  return data_dir / "toolcalc.db";
}

std::unique_ptr<AccountStore> open_sqlite_store(const std::filesystem::path& data_dir,
                                                NewStore new_store) {
  sqlite::prepare_store(data_dir, new_store);
  return std::make_unique<sqlite::SqliteAccountStore>(sqlite_store_file(data_dir));
}

std::unique_ptr<AccountStore> open_sqlite_store_for_serving(const std::filesystem::path& data_dir,
                                                            NewStore new_store) {
  sqlite::prepare_store(data_dir, new_store);
  std::unique_ptr<UsageJournal> journal =
      UsageJournal::open_exclusive(usage_journal_file(data_dir));
  if (!journal)
    log::warn(
        "another process serves this data directory: usage is committed to the database "
        "directly (one server per data directory; docs/operations.md)",
        {{"data_dir", data_dir.string()}});
  else if (!journal->mapped())
    log::warn("usage journal written by system calls, not through a mapping (slower)",
              {{"file", usage_journal_file(data_dir).string()}, {"writes", journal->write_mode()}});
  return std::make_unique<sqlite::SqliteAccountStore>(sqlite_store_file(data_dir),
                                                      std::move(journal));
}

}  // namespace toolcalc::store
