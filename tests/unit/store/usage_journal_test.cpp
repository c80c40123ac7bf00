#include "store/usage_journal.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <fstream>

#include "support/test_support.hpp"

using namespace toolcalc;
using accounts::testing::TempDir;
using store::UsageJournal;
using Writes = store::UsageJournal::Writes;
using SeqAndDelta = std::vector<std::pair<uint64_t, int64_t>>;

namespace {

SeqAndDelta seq_and_delta(const std::vector<store::JournalRecord>& rs) {
  SeqAndDelta out;
  for (const auto& r : rs) out.emplace_back(r.seq, r.delta.delta);
  return out;
}

// The file as a killed server of the previous format left it: two records appended by
// write(2), nothing allocated ahead.
void write_previous_format(const std::filesystem::path& file) {
  UsageJournal::open_exclusive(file, Writes::ByPwrite)
      ->append({{1, "2026-11", 1}, {1, "2026-11", 2}});
  std::filesystem::resize_file(file, 2 * UsageJournal::kRecordBytes);
}

// `groups` groups of one record each, numbered from 1: key 7, its number as the delta.
void append_one_record_groups(const std::filesystem::path& file, Writes writes, int64_t groups) {
  auto j = UsageJournal::open_exclusive(file, writes);
  for (int64_t i = 1; i <= groups; ++i) ASSERT_TRUE(j->append({{7, "2026-11", i}}));
}

// Inverts one byte of the file at `offset` (doing it twice restores it).
void flip_byte(const std::filesystem::path& file, uint64_t offset) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  const char c = static_cast<char>(f.get());
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(~c));
}

// Sets the file size limit (RLIMIT_FSIZE, SIGXFSZ ignored: a write past it is cut short
// or fails with EFBIG, as on a full disk) until destroyed.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old_;
    small.rlim_cur = bytes;
    set_ = setrlimit(RLIMIT_FSIZE, &small) == 0;
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  bool set() const { return set_; }

 private:
  struct rlimit old_ {};
  void (*old_handler_)(int) = nullptr;
  bool set_ = false;
};

}  // namespace

// Every behaviour of the journal, with appends through the mapping and by pwrite(2).
class UsageJournalWrites : public ::testing::TestWithParam<Writes> {};

INSTANTIATE_TEST_SUITE_P(Both, UsageJournalWrites,
                         ::testing::Values(Writes::MappedWhereSafe, Writes::ByPwrite),
                         [](const auto& info) {
                           return info.param == Writes::ByPwrite ? "ByPwrite" : "Mapped";
                         });

TEST_P(UsageJournalWrites, AppendsRecordsAndReadsThemBackInOrder) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto j = UsageJournal::open_exclusive(file, GetParam());
  ASSERT_TRUE(j);
  ASSERT_TRUE(j->append({{7, "2026-11", 3}, {8, "2026-11", 0}, {9, "2026-10", -2}}));
  ASSERT_TRUE(j->append({{7, "2026-11", 5}}));
  EXPECT_EQ(j->last_seq(), 3u);  // the zero delta is not recorded
  const auto all = j->read_after(0);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].delta.key_id, 7);
  EXPECT_EQ(all[0].delta.period, "2026-11");
  EXPECT_EQ(all[1].delta.key_id, 9);
  EXPECT_EQ(all[1].delta.period, "2026-10");
  EXPECT_EQ(seq_and_delta(all), (SeqAndDelta{{1, 3}, {2, -2}, {3, 5}}));
  EXPECT_EQ(seq_and_delta(j->read_after(2)), (SeqAndDelta{{3, 5}}));
  // What another process opening the file after a kill reads.
  j.reset();
  EXPECT_EQ(seq_and_delta(UsageJournal::open_exclusive(file, GetParam())->read_after(0)),
            (SeqAndDelta{{1, 3}, {2, -2}, {3, 5}}));
}

TEST_P(UsageJournalWrites, ARecordCutShortAtTheEndIsNotTaken) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  {
    auto j = UsageJournal::open_exclusive(file, GetParam());
    ASSERT_TRUE(j->append({{1, "2026-11", 1}, {2, "2026-11", 2}, {3, "2026-11", 3}}));
  }
  // A power loss mid-write: the last record cut short, or its bytes not what was written.
  std::filesystem::resize_file(file, 3 * UsageJournal::kRecordBytes - 7);
  {
    auto j = UsageJournal::open_exclusive(file, GetParam());
    const UsageJournal::Run run = j->read_run(0);
    EXPECT_EQ(seq_and_delta(run.records), (SeqAndDelta{{1, 1}, {2, 2}}));
    EXPECT_TRUE(run.damaged.empty());
    EXPECT_EQ(run.cut_short, 2 * UsageJournal::kRecordBytes);
  }
  flip_byte(file, UsageJournal::kRecordBytes + 16);  // the second record's delta
  auto j = UsageJournal::open_exclusive(file, GetParam());
  const UsageJournal::Run run = j->read_run(0);
  // Nothing that passes its check follows the second record: the run ends before it.
  EXPECT_EQ(seq_and_delta(run.records), (SeqAndDelta{{1, 1}}));
  EXPECT_TRUE(run.damaged.empty());
  EXPECT_EQ(run.cut_short, UsageJournal::kRecordBytes);
  EXPECT_EQ(j->last_seq(), 1u);
  // The next record is written where the one cut short was.
  ASSERT_TRUE(j->append({{1, "2026-11", 9}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{1, 1}, {2, 9}}));
}

// One byte flipped in the middle of 40 records (one group each): that record is passed
// over and reported by its offset, the 39 others are read, and the run still ends where
// it does.
TEST_P(UsageJournalWrites, ADamagedRecordInsideTheRunIsSkippedAndTheOthersRead) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  ASSERT_NO_FATAL_FAILURE(append_one_record_groups(file, GetParam(), 40));
  const uint64_t twentieth = 19 * UsageJournal::kRecordBytes;
  for (const size_t byte : {0, 9, 16, 25, 33}) {  // sequence number, key, delta, period, check
    SCOPED_TRACE(byte);
    flip_byte(file, twentieth + byte);
    auto j = UsageJournal::open_exclusive(file, GetParam());
    const UsageJournal::Run run = j->read_run(0);
    ASSERT_EQ(run.records.size(), 39u);
    EXPECT_EQ(run.records[18].seq, 19u);
    EXPECT_EQ(run.records[19].seq, 21u);
    EXPECT_EQ(run.records.back().seq, 40u);
    EXPECT_EQ(run.damaged, std::vector<uint64_t>{twentieth});
    EXPECT_FALSE(run.cut_short);
    EXPECT_EQ(j->last_seq(), 40u);
    EXPECT_EQ(j->read_after(30).size(), 10u);
    flip_byte(file, twentieth + byte);  // back as it was written
  }
  // Appends go on after the run, not over its records.
  auto j = UsageJournal::open_exclusive(file, GetParam());
  flip_byte(file, twentieth + 3);
  ASSERT_TRUE(j->append({{7, "2026-11", 41}}));
  const UsageJournal::Run run = j->read_run(39);
  EXPECT_EQ(seq_and_delta(run.records), (SeqAndDelta{{40, 40}, {41, 41}}));
  EXPECT_EQ(run.damaged, std::vector<uint64_t>{twentieth});
}

// Damaged records in a row, and one at the file's start, are each passed over; a record of
// zeros still ends the run (nothing after it is the run's).
TEST_P(UsageJournalWrites, DamagedRecordsInARowOrFirstAreSkippedAndZerosEndTheRun) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  ASSERT_NO_FATAL_FAILURE(append_one_record_groups(file, GetParam(), 6));
  constexpr uint64_t R = UsageJournal::kRecordBytes;
  flip_byte(file, 0 * R + 5);
  flip_byte(file, 2 * R + 5);
  flip_byte(file, 3 * R + 20);
  {
    const UsageJournal::Run run = UsageJournal::open_exclusive(file, GetParam())->read_run(0);
    EXPECT_EQ(seq_and_delta(run.records), (SeqAndDelta{{2, 2}, {5, 5}, {6, 6}}));
    EXPECT_EQ(run.damaged, (std::vector<uint64_t>{0, 2 * R, 3 * R}));
  }
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(4 * R));
    const std::string zeros(R, '\0');
    f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  const UsageJournal::Run run = UsageJournal::open_exclusive(file, GetParam())->read_run(0);
  EXPECT_EQ(seq_and_delta(run.records), (SeqAndDelta{{2, 2}}));
  EXPECT_EQ(run.damaged, std::vector<uint64_t>{0});
  EXPECT_EQ(run.cut_short, 2 * R);  // the two damaged ones before the zeros end the run
}

TEST_P(UsageJournalWrites, ClearEndsTheRunAndNumbersGoOn) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto j = UsageJournal::open_exclusive(file, GetParam());
  ASSERT_TRUE(j->append({{1, "2026-11", 1}, {1, "2026-11", 2}}));
  j->clear();
  EXPECT_TRUE(j->read_after(0).empty());
  ASSERT_TRUE(j->append({{1, "2026-11", 4}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{3, 4}}));
  // Numbers may skip within a run (a journal told to continue after the database's
  // number): the run is the records whose numbers rise.
  j->continue_after(10);
  ASSERT_TRUE(j->append({{1, "2026-11", 5}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{3, 4}, {11, 5}}));
}

// clear() zeroes the run it ends: a later run numbered from lower down (a database restored
// from a backup, with the journal left in place) is never continued by the old records.
TEST_P(UsageJournalWrites, AClearedRunIsNeverReadAgain) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  {
    auto j = UsageJournal::open_exclusive(file, GetParam());
    ASSERT_TRUE(j->append({{1, "2026-11", 1}, {1, "2026-11", 2}, {1, "2026-11", 3}}));
    j->clear();
  }
  auto j = UsageJournal::open_exclusive(file, GetParam());
  EXPECT_EQ(j->last_seq(), 0u);
  ASSERT_TRUE(j->append({{1, "2026-11", 9}}));  // numbered 1, where the old 1 was
  j.reset();
  EXPECT_EQ(seq_and_delta(UsageJournal::open_exclusive(file, GetParam())->read_after(0)),
            (SeqAndDelta{{1, 9}}));
}

// An old record behind a new run (a kill in the middle of a clear) is numbered below it.
TEST_P(UsageJournalWrites, AnOlderRecordAfterTheRunEndsIt) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  {
    auto j = UsageJournal::open_exclusive(file, GetParam());
    ASSERT_TRUE(j->append({{1, "2026-11", 1}, {1, "2026-11", 2}}));
  }
  const auto before_clear = tmp.path() / "before-clear";
  std::filesystem::copy_file(file, before_clear);
  {
    auto j = UsageJournal::open_exclusive(file, GetParam());
    j->clear();
    ASSERT_TRUE(j->append({{1, "2026-11", 4}}));  // numbered 3
  }
  {
    // The first record as the new run wrote it, the second as the clear had not yet zeroed it.
    std::ifstream old(before_clear, std::ios::binary);
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    std::string second(UsageJournal::kRecordBytes, '\0');
    old.seekg(UsageJournal::kRecordBytes);
    old.read(second.data(), static_cast<std::streamsize>(second.size()));
    f.seekp(UsageJournal::kRecordBytes);
    f.write(second.data(), static_cast<std::streamsize>(second.size()));
  }
  EXPECT_EQ(seq_and_delta(UsageJournal::open_exclusive(file, GetParam())->read_after(0)),
            (SeqAndDelta{{3, 4}}));
}

TEST_P(UsageJournalWrites, APeriodLongerThanARecordHoldsIsRefusedWithNothingWritten) {
  TempDir tmp;
  auto j = UsageJournal::open_exclusive(store::usage_journal_file(tmp.path()), GetParam());
  EXPECT_FALSE(j->append({{1, "2026-11", 1}, {1, "2026-11-27", 1}}));
  EXPECT_TRUE(j->read_after(0).empty());
  EXPECT_EQ(j->last_seq(), 0u);
}

TEST_P(UsageJournalWrites, AFileOfThePreviousFormatIsTakenOver) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  write_previous_format(file);
  auto j = UsageJournal::open_exclusive(file, GetParam());
  EXPECT_EQ(j->last_seq(), 2u);
  ASSERT_TRUE(j->append({{1, "2026-11", 3}}));
  EXPECT_EQ(seq_and_delta(j->read_after(1)), (SeqAndDelta{{2, 2}, {3, 3}}));
}

TEST(UsageJournal, OneProcessOwnsIt) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto first = UsageJournal::open_exclusive(file);
  ASSERT_TRUE(first);
  // flock locks belong to the open file description: a second open is refused as another
  // process's would be.
  EXPECT_FALSE(UsageJournal::open_exclusive(file));
  first.reset();
  EXPECT_TRUE(UsageJournal::open_exclusive(file));
}

// Mapped on the file systems that overwrite allocated blocks in place, the whole file
// allocated at open; by pwrite(2) on the others.
TEST(UsageJournal, IsMappedWhereAStoreCannotMeetAFullDisk) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto j = UsageJournal::open_exclusive(file);
  struct statfs fs {};
  ASSERT_EQ(statfs(tmp.path().c_str(), &fs), 0);
  const bool in_place = fs.f_type == 0xEF53 || fs.f_type == 0x58465342 || fs.f_type == 0x01021994;
  if (in_place) {
    EXPECT_TRUE(j->mapped());
    EXPECT_EQ(j->write_mode(), "mapped");
    EXPECT_EQ(std::filesystem::file_size(file), UsageJournal::kCapacityBytes);
  } else {
    EXPECT_FALSE(j->mapped());
    EXPECT_EQ(j->write_mode(), "pwrite(2): the file system may copy on write");
    EXPECT_EQ(std::filesystem::file_size(file), 0u);
  }
}

// A full mapped journal refuses a group whole, until it is cleared.
TEST(UsageJournal, AFullJournalRefusesAGroupUntilCleared) {
  TempDir tmp;
  auto j = UsageJournal::open_exclusive(store::usage_journal_file(tmp.path()));
  if (!j->mapped()) GTEST_SKIP() << "not mapped here: " << j->write_mode();
  const size_t capacity = UsageJournal::kCapacityBytes / UsageJournal::kRecordBytes;
  ASSERT_TRUE(j->append(std::vector<store::UsageDelta>(capacity - 1, {1, "2026-11", 1})));
  EXPECT_FALSE(j->append({{1, "2026-11", 2}, {1, "2026-11", 3}}));
  EXPECT_EQ(j->last_seq(), capacity - 1);
  ASSERT_TRUE(j->append({{1, "2026-11", 4}}));
  EXPECT_EQ(j->read_after(0).size(), capacity);
  j->clear();
  ASSERT_TRUE(j->append({{1, "2026-11", 5}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{capacity + 1, 5}}));
}

// A disk with no room for the file's blocks (the file size limit, so posix_fallocate fails
// with EFBIG): the journal is written by pwrite(2), and what a killed server left in it is
// still read.
TEST(UsageJournal, ADiskTooFullToAllocateTheFileIsWrittenByPwrite) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  write_previous_format(file);
  std::unique_ptr<UsageJournal> j;
  {
    FileSizeLimit limit(200);
    ASSERT_TRUE(limit.set());
    j = UsageJournal::open_exclusive(file);
  }
  ASSERT_TRUE(j);
  if (j->write_mode() == "pwrite(2): the file system may copy on write")
    GTEST_SKIP() << "not mapped here in any case";
  EXPECT_FALSE(j->mapped());
  EXPECT_EQ(j->write_mode(), "pwrite(2): allocating the file: File too large");
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{1, 1}, {2, 2}}));
  ASSERT_TRUE(j->append({{1, "2026-11", 3}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{1, 1}, {2, 2}, {3, 3}}));
}

// The disk filling in the middle of a group's pwrite(2) (the limit lets one whole record
// and part of the next through): what was written is zeroed again, since the caller writes
// the group elsewhere, and the next group takes its place.
TEST(UsageJournal, AWriteCutShortIsZeroedAndTheGroupRefused) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto j = UsageJournal::open_exclusive(file, Writes::ByPwrite);
  ASSERT_TRUE(j->append({{1, "2026-11", 1}}));
  {
    FileSizeLimit limit(2 * UsageJournal::kRecordBytes + 20);
    ASSERT_TRUE(limit.set());
    EXPECT_FALSE(j->append({{1, "2026-11", 2}, {1, "2026-11", 3}}));
  }
  EXPECT_EQ(j->last_seq(), 1u);
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{1, 1}}));
  ASSERT_TRUE(j->append({{1, "2026-11", 4}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (SeqAndDelta{{1, 1}, {2, 4}}));
}
