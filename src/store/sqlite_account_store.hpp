#pragma once
// The embedded AccountStore (account_store.hpp), which is also a fleet instance's
// UsageLedger (usage_ledger.hpp): one SQLite database in WAL mode under the data
// directory. It owns the connection and the locks; each table's statements are in a file
// of their own (sqlite_keys, sqlite_usage, sqlite_alerts, sqlite_journal), the connection
// in sqlite_database, the schema in sqlite_schema, the checkpoints' connection in
// sqlite_checkpoint.
//
// Locks (checked by clang's thread-safety analysis, core/thread_safety.hpp): mu_ holds
// the connection and every statement on it; journal_mu_ the journal's units not yet in
// the database; checkpoint_mu_ the checkpoints' connection. Their order is declared
// below (TOOLCALC_ACQUIRED_AFTER/BEFORE).
#include <filesystem>
#include <memory>
#include <string>

#include "core/thread_safety.hpp"
#include "store/account_store.hpp"
#include "store/sqlite_alerts.hpp"
#include "store/sqlite_checkpoint.hpp"
#include "store/sqlite_database.hpp"
#include "store/sqlite_journal.hpp"
#include "store/sqlite_keys.hpp"
#include "store/sqlite_usage.hpp"
#include "store/usage_journal.hpp"
#include "store/usage_ledger.hpp"

namespace toolcalc::store::sqlite {

class SqliteAccountStore final : public AccountStore, public UsageLedger {
 public:
  // With `journal`, add_usage_if_free records usage there (usage_journal.hpp) and add_usage
  // moves it into the database; what a killed process left in it is taken over here.
  // Once open, the directory's marker names the store (store_directory.hpp).
  explicit SqliteAccountStore(const std::filesystem::path& file,
                              std::unique_ptr<UsageJournal> journal = nullptr);

  std::optional<int64_t> create_key(const NewKey& key) override;
  RevokeOutcome revoke_key(std::string_view prefix, int64_t now_epoch_s) override;
  ChangeOutcome rotate_key(std::string_view prefix, std::string_view new_hash,
                           int64_t previous_expires_epoch_s) override;
  ChangeOutcome update_key(std::string_view prefix, const KeyUpdate& update) override;
  int64_t key_generation() override;
  KeySet load_keys() override;
  std::vector<KeyWithUsage> list_keys(std::string_view period) override;
  std::unordered_map<int64_t, int64_t> load_usage(std::string_view period) override;
  // Also moves the journal's usage into the database (with the number of its last record,
  // in the same transaction), then clears the journal.
  void add_usage(const std::vector<UsageDelta>& deltas,
                 const std::vector<HistoryDelta>& history) override;
  using AccountStore::add_usage;
  // With a journal: an append to it, unless a flush holds it at the moment (then, as
  // when the journal cannot take them, the database when it is free).
  bool add_usage_if_free(const std::vector<UsageDelta>& deltas) override;
  void checkpoint() override;
  std::vector<HistoryRow> load_history(int64_t key_id, int32_t first_day, int32_t end_day) override;
  void drop_history_before(int32_t day) override;
  bool create_alert(const QuotaAlert& alert) override;
  std::vector<QuotaAlert> lease_due_alerts(int64_t now_s, int64_t lease_until_s,
                                           size_t limit) override;
  void finish_alert(const QuotaAlert& alert, AlertOutcome outcome, int64_t at_s) override;

  // UsageLedger
  const std::string& instance_id() const override { return instance_id_; }
  std::unordered_map<int64_t, int64_t> load_counts(std::string_view period) override;
  void add_counts(const std::vector<UsageDelta>& deltas) override;
  bool add_counts_if_free(const std::vector<UsageDelta>& deltas) override;

 private:
  void take_over_journal() TOOLCALC_EXCLUDES(mu_, journal_mu_);
  // After a commit that started at `changes_before` (sqlite3_total_changes64): one that
  // wrote rows wrote frames, and so started the log again if that was due.
  void note_commit(int64_t changes_before) TOOLCALC_REQUIRES(mu_);

  const std::filesystem::path file_;
  // The connection: one statement at a time. The server writes from its committer and
  // background threads, and from a request's thread only through add_usage_if_free, which
  // never waits; it reads from a request's thread only when the clock enters a month not
  // loaded yet.
  Mutex mu_;
  Database db_ TOOLCALC_GUARDED_BY(mu_);  // before the statements: finalised before it closes
  // The next commit starts the write-ahead log again (after a checkpoint that copied all
  // of it, and when the store opens): SQLite then writes the log's header and fsyncs it,
  // and with journal_size_limit may truncate the file. The writes that never wait
  // (add_usage_if_free, add_counts_if_free) leave that commit to a writer that may wait
  // (add_usage, add_counts), off the serving threads.
  bool log_restarts_next_ TOOLCALC_GUARDED_BY(mu_) = true;
  KeyRows keys_ TOOLCALC_GUARDED_BY(mu_);
  PeriodCounts usage_ TOOLCALC_GUARDED_BY(mu_);
  PeriodCounts ledger_ TOOLCALC_GUARDED_BY(mu_);
  HistoryRows history_ TOOLCALC_GUARDED_BY(mu_);
  AlertRows alerts_ TOOLCALC_GUARDED_BY(mu_);
  JournalMark journal_mark_ TOOLCALC_GUARDED_BY(mu_);
  // Taken alone by add_usage_if_free, which only tries it: a request's thread appends its
  // group's usage while no flush is moving the journal into the database.
  Mutex journal_mu_ TOOLCALC_ACQUIRED_AFTER(mu_);
  JournaledUsage journaled_ TOOLCALC_GUARDED_BY(journal_mu_);
  const bool journaling_;  // journaled_.present(), which never changes
  std::string instance_id_;
  // A checkpoint's second pass holds the store's commits (mu_): see checkpoint().
  Mutex checkpoint_mu_ TOOLCALC_ACQUIRED_BEFORE(mu_);
  Checkpointer checkpointer_ TOOLCALC_GUARDED_BY(checkpoint_mu_);
};

// Every open of a data directory's store starts here (store_directory.hpp): refused, or the
// database is there afterwards, created (with the directory's marker) before any other
// file of the store, so that a failed first start leaves no sign of use behind.
void prepare_store(const std::filesystem::path& data_dir, NewStore new_store);

}  // namespace toolcalc::store::sqlite
