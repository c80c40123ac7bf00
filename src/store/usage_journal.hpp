#pragma once
// The embedded store's usage journal (docs/reliability.md, "Counts on disk"): an
// append-only file beside the database where a serving process records each group's usage
// deltas with one write(2) before their responses leave. The database takes them over
// later, in one transaction per flush interval that also records the last sequence number
// it took (the file is then emptied); a process killed in between has them read back from
// the file when its store opens again, those at or below that number skipped.
//
// Why not commit each group to SQLite at once: a WAL commit is six fcntl(2) locks, two
// pwrite(2)s of a 4 KiB page and about 19,000 instructions; with two serving threads that
// was 1.7 µs of every request (docs/performance.md). A record here is 40 bytes.
//
// One process owns the file (flock): a second one opening it gets no journal and commits
// to the database directly, as a store opened by `toolcalc keys` always does.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "store/account_store.hpp"

namespace toolcalc::store {

struct JournalRecord {
  uint64_t seq = 0;
  UsageDelta delta;
};

class UsageJournal {
 public:
  // The journal at `file` (created when missing), owned by this process until destroyed;
  // nullptr when another process owns it. Throws StoreError when it cannot be opened.
  static std::unique_ptr<UsageJournal> open_exclusive(const std::filesystem::path& file);
  ~UsageJournal();
  UsageJournal(const UsageJournal&) = delete;
  UsageJournal& operator=(const UsageJournal&) = delete;

  // The records in the file with a sequence number above `after`, in order. Reading stops
  // at the first record that is incomplete or fails its check (a write torn by a power
  // loss): nothing after it was acknowledged.
  std::vector<JournalRecord> read_after(uint64_t after) const;

  // Appends a record of each non-zero delta in one write(2), numbered from last_seq() + 1.
  // False, with the file as it was, when they cannot all be written (the disk is full, a
  // period longer than a record holds); the caller then writes them elsewhere.
  bool append(const std::vector<UsageDelta>& deltas);

  // The sequence number of the last record appended or read back (0 for none); a new
  // journal continues after `at_least` (the last number the database took).
  uint64_t last_seq() const { return last_seq_; }
  void continue_after(uint64_t at_least);

  // Empties the file once the database holds every record in it. Throws StoreError.
  void clear();

  // A record's size on disk.
  static constexpr size_t kRecordBytes = 40;

 private:
  explicit UsageJournal(int fd);

  int fd_ = -1;
  uint64_t size_ = 0;
  uint64_t last_seq_ = 0;
  bool broken_ = false;  // a failed write left part of a record that could not be cut off
};

// The journal file of the embedded store in `data_dir`.
std::filesystem::path usage_journal_file(const std::filesystem::path& data_dir);

}  // namespace toolcalc::store
