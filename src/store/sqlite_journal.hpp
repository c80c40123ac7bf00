#pragma once
// The serving process's usage journal seen from the database (docs/reliability.md, "Counts
// on disk"): the units a group commit recorded in the journal (usage_journal.hpp) and the
// database has not taken yet, which count with the database's own until a flush moves them
// in, and the number of the last journal record the database took (`meta`), so that what a
// killed process left in the journal is taken over once, at the next open.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "store/sqlite_database.hpp"
#include "store/sqlite_usage.hpp"
#include "store/usage_journal.hpp"

namespace toolcalc::store::sqlite {

// meta.usage_journal_seq: the last journal record the database took.
class JournalMark {
 public:
  explicit JournalMark(Database& db);
  uint64_t read();  // 0: none yet
  // In the caller's transaction, with the usage it took.
  void write(uint64_t seq);

 private:
  Statement read_, write_;
};

class JournaledUsage {
 public:
  // Without a journal (a store not opened for serving, or a second server of the
  // directory) it holds nothing and appends nothing.
  explicit JournaledUsage(std::unique_ptr<UsageJournal> journal);

  bool present() const { return journal_ != nullptr; }
  // Records the deltas in the journal: false, with nothing recorded, without a journal or
  // when it cannot take them all (UsageJournal::append).
  bool append(const std::vector<UsageDelta>& deltas);

  // Units in the journal not yet in the database: of one key, of every key in a period.
  int64_t units(int64_t key_id, std::string_view period) const;
  void add_to(std::unordered_map<int64_t, int64_t>& counts, std::string_view period) const;

  // Whether a flush has units to move into the database.
  bool pending() const { return journal_ && !units_.empty(); }
  // Writes them through `usage` and the journal's last record number through `mark`, in
  // the caller's transaction; forget_pending() once it committed clears the journal.
  void write_pending(PeriodCounts& usage, JournalMark& mark) const;
  void forget_pending();

  // When the store opens: the records a killed process left above the number the database
  // last took go into the database, once. A record damaged inside the run is passed over,
  // counted and logged with its offset; the records after it are taken.
  void take_over(Database& db, PeriodCounts& usage, JournalMark& mark);

 private:
  // After the database took every record: a journal that cannot be cleared now keeps
  // records the next start skips (their numbers are taken), and is cleared by the next
  // flush that moves records.
  void clear_journal();

  std::unique_ptr<UsageJournal> journal_;
  // (key id, period) → units appended since the database last took them.
  std::map<std::pair<int64_t, std::string>, int64_t> units_;
};

}  // namespace toolcalc::store::sqlite
