#pragma once
// The embedded store's usage journal (docs/reliability.md, "Counts on disk"): a file beside
// the database where a serving process records each group's usage deltas before their
// responses leave. Where it is safe, the file is allocated at open (kCapacityBytes) and
// mapped shared, so an append is a copy into the kernel's page cache without a system
// call; elsewhere it is one pwrite(2). Either way a SIGKILL cannot take the records back.
// The database takes them over later, in one transaction per flush interval that also
// records the last sequence number it took (the journal is then cleared); a process killed
// in between has them read back when its store opens again, those at or below that number
// skipped.
//
// Why not commit each group to SQLite at once: a WAL commit is six fcntl(2) locks, two
// pwrite(2)s of a 4 KiB page and about 19,000 instructions; with two serving threads that
// was 1.7 µs of every request (session 17 in
// docs/history/performance-and-reliability-log.md). A record here is 40 bytes.
//
// One process owns the file (flock): a second one opening it gets no journal and commits
// to the database directly, as a store opened by `toolcalc keys` always does.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
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
  // How appends reach the file: through a shared mapping where that cannot meet a full
  // disk (the default), or always by pwrite(2) (tests of that path).
  enum class Writes { MappedWhereSafe, ByPwrite };

  // The journal at `file` (created when missing), owned by this process until destroyed;
  // nullptr when another process owns it. Throws StoreError when it cannot be opened.
  static std::unique_ptr<UsageJournal> open_exclusive(const std::filesystem::path& file,
                                                      Writes writes = Writes::MappedWhereSafe);
  ~UsageJournal();
  UsageJournal(const UsageJournal&) = delete;
  UsageJournal& operator=(const UsageJournal&) = delete;

  // The journal's run as read_run finds it: the records numbered above `after`, in order,
  // and where the run held records that failed their check.
  struct Run {
    std::vector<JournalRecord> records;
    // Offsets of records inside the run that failed their check (damaged on disk): a
    // record numbered above the one before follows them, so they were written and their
    // groups acknowledged; their usage is lost, and the caller reports it.
    std::vector<uint64_t> damaged;
    // Offset of the last record when it fails its check and ends the run (a write cut
    // short by a kill or a power loss, whose group was never acknowledged, or damage
    // that cannot be told from one).
    std::optional<uint64_t> cut_short;
    // Bytes from the file's start to the end of the run's last record that passed.
    uint64_t end = 0;
  };
  // The run is the records from the file's start whose numbers rise. It ends at a record
  // of zeros (never written, or cleared), at the file's end, or at a record not numbered
  // above the one before (left by an earlier run); a record that fails its check is passed
  // over when a record that continues the run follows it. Nothing after the run is owed
  // to the database.
  Run read_run(uint64_t after) const;
  // read_run's records alone.
  std::vector<JournalRecord> read_after(uint64_t after) const { return read_run(after).records; }

  // Appends a record of each non-zero delta, numbered from last_seq() + 1. False, with the
  // journal as it was, when they cannot all be written (the mapped file is full until the
  // next clear(), the disk is full, a period is longer than a record holds); the caller
  // then writes them elsewhere.
  bool append(const std::vector<UsageDelta>& deltas);

  // The sequence number of the last record appended or read back (0 for none); a new
  // journal continues after `at_least` (the last number the database took).
  uint64_t last_seq() const { return last_seq_; }
  void continue_after(uint64_t at_least);

  // Ends the run once the database holds every record in it: its records are zeroed, and
  // the next append starts a new run at the file's start. Throws StoreError when the
  // zeros cannot be written (by pwrite(2) on a full disk; the records are then skipped at
  // the next start, being numbered at or below what the database took).
  void clear();

  // Whether appends go through the mapping; write_mode() says so ("mapped") or why they
  // are written by pwrite(2) instead (logged when the store opens).
  bool mapped() const { return map_ != nullptr; }
  const std::string& write_mode() const { return write_mode_; }

  // A record's size on disk.
  static constexpr size_t kRecordBytes = 40;
  // The mapped file's size: 104,857 records, one per key, month and group commit. One key
  // at full load (about 100,000 requests a second, in groups of about 60) fills 2 % of it
  // per one-second flush interval; a record per request (each from another key), all of
  // it. A full journal sends groups to the database until the next flush.
  static constexpr uint64_t kCapacityBytes = 4 << 20;

 private:
  explicit UsageJournal(int fd);
  // Allocates and maps the file where a store into it cannot meet a full disk; otherwise
  // leaves appends to pwrite(2) and says why in write_mode_.
  void map_for_writes();
  // Zeroes `bytes` at `offset`; false when the zeros could not be written.
  bool zero(uint64_t offset, uint64_t bytes);

  int fd_ = -1;
  unsigned char* map_ = nullptr;  // the file, mapped shared: a store is in the page cache
  uint64_t capacity_ = 0;         // bytes mapped
  uint64_t size_ = 0;             // bytes of the current run
  uint64_t last_seq_ = 0;
  std::string write_mode_ = "pwrite(2)";
  bool broken_ = false;  // records a failed pwrite(2) left could not be zeroed again
};

// The journal file of the embedded store in `data_dir`.
std::filesystem::path usage_journal_file(const std::filesystem::path& data_dir);

}  // namespace toolcalc::store
