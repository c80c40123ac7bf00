#include "store/usage_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "store/store_errors.hpp"

namespace toolcalc::store {
namespace {

// A record: sequence number, key id, delta, period ("YYYY-MM", NUL-padded to 8 bytes),
// then FNV-1a (64-bit) of those 32 bytes, so that a torn or stale tail is told apart from a
// record. Host byte order: the file is read back by the process's own build on the same
// machine.
constexpr size_t kPeriodBytes = 8;
constexpr size_t kCheckedBytes = 32;
static_assert(kCheckedBytes + sizeof(uint64_t) == UsageJournal::kRecordBytes);

uint64_t fnv1a(const unsigned char* p, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

void put(unsigned char* at, uint64_t v) {
  std::memcpy(at, &v, sizeof v);
}
uint64_t get(const unsigned char* at) {
  uint64_t v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

void encode(uint64_t seq, const UsageDelta& d, unsigned char* out) {
  put(out, seq);
  put(out + 8, static_cast<uint64_t>(d.key_id));
  put(out + 16, static_cast<uint64_t>(d.delta));
  std::memset(out + 24, 0, kPeriodBytes);
  std::memcpy(out + 24, d.period.data(), d.period.size());
  put(out + kCheckedBytes, fnv1a(out, kCheckedBytes));
}

bool decode(const unsigned char* in, JournalRecord& r) {
  if (get(in + kCheckedBytes) != fnv1a(in, kCheckedBytes)) return false;
  r.seq = get(in);
  r.delta.key_id = static_cast<int64_t>(get(in + 8));
  r.delta.delta = static_cast<int64_t>(get(in + 16));
  const char* period = reinterpret_cast<const char*>(in + 24);
  r.delta.period.assign(period, strnlen(period, kPeriodBytes));
  return true;
}

std::string failure(const char* what) {
  return std::string("usage journal: ") + what + ": " + std::strerror(errno);
}

}  // namespace

std::filesystem::path usage_journal_file(const std::filesystem::path& data_dir) {
  return data_dir / "usage.journal";
}

std::unique_ptr<UsageJournal> UsageJournal::open_exclusive(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw StoreError(failure(file.c_str()));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return nullptr;
  }
  std::unique_ptr<UsageJournal> journal(new UsageJournal(fd));
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw StoreError(failure("fstat"));
  const uint64_t existing = static_cast<uint64_t>(st.st_size) / kRecordBytes * kRecordBytes;
  // The blocks are allocated now, so that a store into the mapping never meets a full disk
  // (which would be a SIGBUS). A disk too full for them leaves the journal unusable for
  // appends; what a killed process left in it is still read (its blocks exist).
  const bool allocated =
      ::posix_fallocate(fd, 0, static_cast<off_t>(std::max(existing, kCapacityBytes))) == 0;
  const uint64_t capacity = allocated ? std::max(existing, kCapacityBytes) : existing;
  if (capacity > 0) {
    void* map = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) throw StoreError(failure("mmap"));
    journal->map_ = static_cast<unsigned char*>(map);
    journal->capacity_ = capacity;
  }
  journal->usable_ = allocated;
  const std::vector<JournalRecord> run = journal->read_after(0);
  if (!run.empty()) journal->last_seq_ = run.back().seq;
  journal->size_ = run.size() * kRecordBytes;
  return journal;
}

UsageJournal::UsageJournal(int fd) : fd_(fd) {}

UsageJournal::~UsageJournal() {
  if (map_ != nullptr) ::munmap(map_, capacity_);
  ::close(fd_);  // releases the flock
}

// The run from the start: records that pass their check, each numbered above the one
// before. Numbers may skip (a take-over continues after the database's number). Records
// of an earlier run stay in the file after a clear(), which does not truncate it, and none
// of them is numbered above a record of the new run: the flush before the clear took them
// all, and the new run is numbered after what the flush took.
std::vector<JournalRecord> UsageJournal::read_after(uint64_t after) const {
  std::vector<JournalRecord> out;
  if (map_ == nullptr) return out;
  uint64_t previous = 0;
  for (uint64_t offset = 0; offset + kRecordBytes <= capacity_; offset += kRecordBytes) {
    JournalRecord r;
    if (!decode(map_ + offset, r)) break;
    if (offset > 0 && r.seq <= previous) break;
    previous = r.seq;
    if (r.seq > after) out.push_back(std::move(r));
  }
  return out;
}

bool UsageJournal::append(const std::vector<UsageDelta>& deltas) {
  if (!usable_) return false;
  size_t count = 0;
  for (const UsageDelta& d : deltas) {
    if (d.delta == 0) continue;
    if (d.period.size() > kPeriodBytes) return false;  // checked before any record is written
    ++count;
  }
  if (size_ + count * kRecordBytes > capacity_) return false;  // full until the next flush
  for (const UsageDelta& d : deltas) {
    if (d.delta == 0) continue;
    encode(last_seq_ + 1, d, map_ + size_);
    ++last_seq_;
    size_ += kRecordBytes;
  }
  return true;
}

void UsageJournal::continue_after(uint64_t at_least) {
  last_seq_ = std::max(last_seq_, at_least);
}

// The file keeps its size and its records; the first one is zeroed, so that a reader finds
// no run until the next append starts one there.
void UsageJournal::clear() {
  if (map_ != nullptr) std::memset(map_, 0, kRecordBytes);
  size_ = 0;
}

}  // namespace toolcalc::store
