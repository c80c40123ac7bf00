#include "store/usage_journal.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <fstream>

#include "support/test_support.hpp"

using namespace toolcalc;
using accounts::testing::TempDir;
using store::UsageJournal;

namespace {

std::vector<std::pair<uint64_t, int64_t>> seq_and_delta(
    const std::vector<store::JournalRecord>& rs) {
  std::vector<std::pair<uint64_t, int64_t>> out;
  for (const auto& r : rs) out.emplace_back(r.seq, r.delta.delta);
  return out;
}

// The file as a killed server of the previous format left it: two records appended by
// write(2), nothing allocated ahead.
void write_previous_format(const std::filesystem::path& file) {
  UsageJournal::open_exclusive(file)->append({{1, "2026-11", 1}, {1, "2026-11", 2}});
  std::filesystem::resize_file(file, 2 * UsageJournal::kRecordBytes);
}

}  // namespace

TEST(UsageJournal, AppendsRecordsAndReadsThemBackInOrder) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto j = UsageJournal::open_exclusive(file);
  ASSERT_TRUE(j);
  ASSERT_TRUE(j->append({{7, "2026-11", 3}, {8, "2026-11", 0}, {9, "2026-10", -2}}));
  ASSERT_TRUE(j->append({{7, "2026-11", 5}}));
  EXPECT_EQ(j->last_seq(), 3u);  // the zero delta is not recorded
  EXPECT_EQ(std::filesystem::file_size(file), UsageJournal::kCapacityBytes);  // allocated at open
  const auto all = j->read_after(0);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].delta.key_id, 7);
  EXPECT_EQ(all[0].delta.period, "2026-11");
  EXPECT_EQ(all[1].delta.key_id, 9);
  EXPECT_EQ(all[1].delta.period, "2026-10");
  EXPECT_EQ(seq_and_delta(all),
            (std::vector<std::pair<uint64_t, int64_t>>{{1, 3}, {2, -2}, {3, 5}}));
  EXPECT_EQ(seq_and_delta(j->read_after(2)), (std::vector<std::pair<uint64_t, int64_t>>{{3, 5}}));
}

TEST(UsageJournal, ReadingStopsAtATornRecord) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  {
    auto j = UsageJournal::open_exclusive(file);
    ASSERT_TRUE(j->append({{1, "2026-11", 1}, {2, "2026-11", 2}, {3, "2026-11", 3}}));
  }
  // A power loss mid-write: the last record cut short, or its bytes not what was written.
  std::filesystem::resize_file(file, 3 * UsageJournal::kRecordBytes - 7);
  {
    auto j = UsageJournal::open_exclusive(file);
    EXPECT_EQ(seq_and_delta(j->read_after(0)),
              (std::vector<std::pair<uint64_t, int64_t>>{{1, 1}, {2, 2}}));
  }
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(UsageJournal::kRecordBytes + 16);  // the second record's delta
    f.put('\x7f');
  }
  auto j = UsageJournal::open_exclusive(file);
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (std::vector<std::pair<uint64_t, int64_t>>{{1, 1}}));
  EXPECT_EQ(j->last_seq(), 1u);
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

TEST(UsageJournal, ClearEmptiesTheFileAndNumbersGoOn) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto j = UsageJournal::open_exclusive(file);
  ASSERT_TRUE(j->append({{1, "2026-11", 1}, {1, "2026-11", 2}}));
  j->clear();
  EXPECT_TRUE(j->read_after(0).empty());
  // The new run overwrites the old one from the start; the old second record (number 2)
  // does not follow the new first (number 3), so reading stops before it.
  ASSERT_TRUE(j->append({{1, "2026-11", 4}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)), (std::vector<std::pair<uint64_t, int64_t>>{{3, 4}}));
  j->continue_after(10);
  ASSERT_TRUE(j->append({{1, "2026-11", 5}}));
  EXPECT_EQ(j->read_after(3).at(0).seq, 11u);
}

TEST(UsageJournal, APeriodLongerThanARecordHoldsIsRefusedWithNothingWritten) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  auto j = UsageJournal::open_exclusive(file);
  EXPECT_FALSE(j->append({{1, "2026-11", 1}, {1, "2026-11-27", 1}}));
  EXPECT_TRUE(j->read_after(0).empty());
  EXPECT_EQ(j->last_seq(), 0u);
}

// A disk too full for the file's blocks, made with the file size limit (RLIMIT_FSIZE;
// SIGXFSZ ignored, posix_fallocate fails with EFBIG), with a file of the previous format:
// its records are still read, and every append is refused, so the store commits to the
// database.
TEST(UsageJournal, ADiskTooFullForTheFileLeavesItUnusableButReadable) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  write_previous_format(file);
  struct rlimit old {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 100;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  auto j = UsageJournal::open_exclusive(file);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_TRUE(j);
  EXPECT_FALSE(j->usable());
  EXPECT_EQ(seq_and_delta(j->read_after(0)),
            (std::vector<std::pair<uint64_t, int64_t>>{{1, 1}, {2, 2}}));
  EXPECT_EQ(j->last_seq(), 2u);
  EXPECT_FALSE(j->append({{1, "2026-11", 3}}));
  j->clear();
  EXPECT_TRUE(j->read_after(0).empty());
  EXPECT_EQ(std::filesystem::file_size(file), 2 * UsageJournal::kRecordBytes);
}

// With room, the same file is grown to the journal's size and the new records follow.
TEST(UsageJournal, AFileOfThePreviousFormatIsReadAndGrown) {
  TempDir tmp;
  const auto file = store::usage_journal_file(tmp.path());
  write_previous_format(file);
  auto j = UsageJournal::open_exclusive(file);
  EXPECT_TRUE(j->usable());
  EXPECT_EQ(std::filesystem::file_size(file), UsageJournal::kCapacityBytes);
  ASSERT_TRUE(j->append({{1, "2026-11", 3}}));
  EXPECT_EQ(seq_and_delta(j->read_after(1)),
            (std::vector<std::pair<uint64_t, int64_t>>{{2, 2}, {3, 3}}));
}

// A full journal refuses a group whole, until it is cleared.
TEST(UsageJournal, AFullJournalRefusesAGroupUntilCleared) {
  TempDir tmp;
  auto j = UsageJournal::open_exclusive(store::usage_journal_file(tmp.path()));
  const size_t capacity = UsageJournal::kCapacityBytes / UsageJournal::kRecordBytes;
  ASSERT_TRUE(j->append(std::vector<store::UsageDelta>(capacity - 1, {1, "2026-11", 1})));
  EXPECT_FALSE(j->append({{1, "2026-11", 2}, {1, "2026-11", 3}}));
  EXPECT_EQ(j->last_seq(), capacity - 1);
  ASSERT_TRUE(j->append({{1, "2026-11", 4}}));
  EXPECT_EQ(j->read_after(0).size(), capacity);
  j->clear();
  ASSERT_TRUE(j->append({{1, "2026-11", 5}}));
  EXPECT_EQ(seq_and_delta(j->read_after(0)),
            (std::vector<std::pair<uint64_t, int64_t>>{{capacity + 1, 5}}));
}
