#include "store/usage_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
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

bool encode(uint64_t seq, const UsageDelta& d, unsigned char* out) {
  if (d.period.size() > kPeriodBytes) return false;
  put(out, seq);
  put(out + 8, static_cast<uint64_t>(d.key_id));
  put(out + 16, static_cast<uint64_t>(d.delta));
  std::memset(out + 24, 0, kPeriodBytes);
  std::memcpy(out + 24, d.period.data(), d.period.size());
  put(out + kCheckedBytes, fnv1a(out, kCheckedBytes));
  return true;
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
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) throw StoreError(failure(file.c_str()));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return nullptr;
  }
  std::unique_ptr<UsageJournal> journal(new UsageJournal(fd));
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw StoreError(failure("fstat"));
  journal->size_ = static_cast<uint64_t>(st.st_size);
  for (const JournalRecord& r : journal->read_after(0))
    journal->last_seq_ = std::max(journal->last_seq_, r.seq);
  return journal;
}

UsageJournal::UsageJournal(int fd) : fd_(fd) {}

UsageJournal::~UsageJournal() {
  ::close(fd_);  // releases the flock
}

std::vector<JournalRecord> UsageJournal::read_after(uint64_t after) const {
  std::vector<JournalRecord> out;
  std::array<unsigned char, kRecordBytes * 256> buf;
  uint64_t offset = 0;
  for (;;) {
    const ssize_t n = ::pread(fd_, buf.data(), buf.size(), static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw StoreError(failure("read"));
    }
    const size_t whole = static_cast<size_t>(n) / kRecordBytes;
    for (size_t i = 0; i < whole; ++i) {
      JournalRecord r;
      if (!decode(buf.data() + i * kRecordBytes, r)) return out;
      if (r.seq > after) out.push_back(std::move(r));
    }
    if (static_cast<size_t>(n) < buf.size()) return out;  // the end (or a torn last record)
    offset += static_cast<uint64_t>(n);
  }
}

bool UsageJournal::append(const std::vector<UsageDelta>& deltas) {
  if (broken_) return false;
  // One group holds a handful of keys; a larger one is written from the heap.
  std::array<unsigned char, kRecordBytes * 8> local;
  std::vector<unsigned char> heap;
  unsigned char* out = local.data();
  if (deltas.size() > 8) {
    heap.resize(deltas.size() * kRecordBytes);
    out = heap.data();
  }
  size_t bytes = 0;
  uint64_t seq = last_seq_;
  for (const UsageDelta& d : deltas) {
    if (d.delta == 0) continue;
    if (!encode(seq + 1, d, out + bytes)) return false;
    ++seq;
    bytes += kRecordBytes;
  }
  if (bytes == 0) return true;
  ssize_t n;
  do n = ::write(fd_, out, bytes);
  while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(bytes)) {
    size_ += bytes;
    last_seq_ = seq;
    return true;
  }
  // A short write (the disk filled mid-way): cut the part that was written off again, so
  // the next record follows the last whole one. Should that fail too, the part fails its
  // check and reading stops there: what follows is written by the database instead (the
  // caller's fallback, until clear()), so nothing is lost, only not journaled.
  if (n > 0 && ::ftruncate(fd_, static_cast<off_t>(size_)) != 0) broken_ = true;
  return false;
}

void UsageJournal::continue_after(uint64_t at_least) {
  last_seq_ = std::max(last_seq_, at_least);
}

void UsageJournal::clear() {
  if (::ftruncate(fd_, 0) != 0) throw StoreError(failure("truncate"));
  size_ = 0;
  broken_ = false;
}

}  // namespace toolcalc::store
