#include "store/usage_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "core/wrapping.hpp"
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

TOOLCALC_WRAPPING uint64_t fnv1a(const unsigned char* p, size_t n) {
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

bool is_zeros(const unsigned char* record) {
  return std::all_of(record, record + UsageJournal::kRecordBytes,
                     [](unsigned char b) { return b == 0; });
}

std::string failure(const char* what) {
  return std::string("usage journal: ") + what + ": " + std::strerror(errno);
}

}  // namespace

std::filesystem::path usage_journal_file(const std::filesystem::path& data_dir) {
  return data_dir / "usage.journal";
}

std::unique_ptr<UsageJournal> UsageJournal::open_exclusive(const std::filesystem::path& file,
                                                           Writes writes) {
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw StoreError(failure(file.c_str()));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return nullptr;
  }
  std::unique_ptr<UsageJournal> journal(new UsageJournal(fd));
  const Run run = journal->read_run(0);
  if (!run.records.empty()) journal->last_seq_ = run.records.back().seq;
  journal->size_ = run.end;
  if (writes == Writes::MappedWhereSafe) journal->map_for_writes();
  return journal;
}

// Writes go through the mapping only where a store into it cannot meet a full disk: the
// file's blocks allocated ahead, on a file system that overwrites them in place. On a
// copy-on-write one (btrfs, ZFS, bcachefs) every overwrite allocates anew, and a store
// that finds no room is a SIGBUS; there, and wherever the mapping cannot be made, a group
// is one pwrite(2), which reports a full disk as an error.
void UsageJournal::map_for_writes() {
  struct statfs fs {};
  if (::fstatfs(fd_, &fs) != 0) return;
  constexpr long kExt234 = 0xEF53, kXfs = 0x58465342, kTmpfs = 0x01021994;
  if (fs.f_type != kExt234 && fs.f_type != kXfs && fs.f_type != kTmpfs) {
    write_mode_ = "pwrite(2): the file system may copy on write";
    return;
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return;
  const uint64_t capacity = std::max(static_cast<uint64_t>(st.st_size), kCapacityBytes);
  int error;
  do error = ::posix_fallocate(fd_, 0, static_cast<off_t>(capacity));
  while (error == EINTR);
  if (error != 0) {
    write_mode_ = std::string("pwrite(2): allocating the file: ") + std::strerror(error);
    return;
  }
  void* map = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (map == MAP_FAILED) {
    write_mode_ = std::string("pwrite(2): mapping the file: ") + std::strerror(errno);
    return;
  }
  map_ = static_cast<unsigned char*>(map);
  capacity_ = capacity;
  write_mode_ = "mapped";
}

UsageJournal::UsageJournal(int fd) : fd_(fd) {}

UsageJournal::~UsageJournal() {
  if (map_ != nullptr) ::munmap(map_, capacity_);
  ::close(fd_);  // releases the flock
}

// The run from the start: records numbered each above the one before. clear() zeroes the
// run it ends, so what follows a run is zeros, the end of the file, or (a kill in the
// middle of a clear) records of the run before, which the database already holds: each of
// those is numbered below the new run, since a new run is numbered after what the
// database took. A record that fails its check is held back until the next record that
// passes shows whether the run goes on past it (then it was damaged inside the run) or
// ends there (then it was the last write, cut short).
UsageJournal::Run UsageJournal::read_run(uint64_t after) const {
  Run run;
  std::vector<uint64_t> failed;  // since the last record that passed
  std::array<unsigned char, kRecordBytes * 256> buf;
  uint64_t offset = 0;
  uint64_t previous = 0;
  const auto end_of_run = [&] {
    if (!failed.empty()) run.cut_short = failed.front();
    return std::move(run);
  };
  for (;;) {
    const ssize_t n = ::pread(fd_, buf.data(), buf.size(), static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw StoreError(failure("read"));
    }
    const size_t whole = static_cast<size_t>(n) / kRecordBytes;
    for (size_t i = 0; i < whole; ++i, offset += kRecordBytes) {
      const unsigned char* bytes = buf.data() + i * kRecordBytes;
      if (is_zeros(bytes)) return end_of_run();
      JournalRecord r;
      if (!decode(bytes, r)) {
        failed.push_back(offset);
        continue;
      }
      if (r.seq <= previous) return end_of_run();  // numbers start at 1
      run.damaged.insert(run.damaged.end(), failed.begin(), failed.end());
      failed.clear();
      previous = r.seq;
      run.end = offset + kRecordBytes;
      if (r.seq > after) run.records.push_back(std::move(r));
    }
    if (static_cast<size_t>(n) < buf.size()) {  // the end of the file
      // Part of a record (a write cut short by a power loss; the mapped file's last bytes,
      // too few for a record, stay zeros).
      const unsigned char* tail = buf.data() + whole * kRecordBytes;
      const unsigned char* file_end = buf.data() + n;
      if (std::any_of(tail, file_end, [](unsigned char b) { return b != 0; }))
        failed.push_back(offset);
      return end_of_run();
    }
  }
}

bool UsageJournal::append(const std::vector<UsageDelta>& deltas) {
  if (broken_) return false;
  size_t count = 0;
  for (const UsageDelta& d : deltas) {
    if (d.delta == 0) continue;
    if (d.period.size() > kPeriodBytes) return false;  // checked before any record is written
    ++count;
  }
  if (count == 0) return true;
  if (map_ != nullptr) {
    if (size_ + count * kRecordBytes > capacity_) return false;  // full until the next clear
    for (const UsageDelta& d : deltas) {
      if (d.delta == 0) continue;
      encode(++last_seq_, d, map_ + size_);
      size_ += kRecordBytes;
    }
    return true;
  }
  // One group holds a handful of keys; a larger one is written from the heap.
  std::array<unsigned char, kRecordBytes * 8> local;
  std::vector<unsigned char> heap;
  unsigned char* out = local.data();
  if (count > 8) {
    heap.resize(count * kRecordBytes);
    out = heap.data();
  }
  uint64_t seq = last_seq_;
  size_t bytes = 0;
  for (const UsageDelta& d : deltas) {
    if (d.delta == 0) continue;
    encode(++seq, d, out + bytes);
    bytes += kRecordBytes;
  }
  ssize_t n;
  do n = ::pwrite(fd_, out, bytes, static_cast<off_t>(size_));
  while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(bytes)) {
    size_ += bytes;
    last_seq_ = seq;
    return true;
  }
  // Cut short (the disk filled): the whole records written would be read back although the
  // caller writes the group elsewhere, so they are zeroed again. Should that fail too, no
  // more is written here (the records would be counted twice after a kill, as they are in
  // the database as well; the next clear() zeroes them).
  if (n > 0 && !zero(size_, static_cast<uint64_t>(n))) {
    size_ += static_cast<uint64_t>(n);  // for clear() to zero
    broken_ = true;
  }
  return false;
}

void UsageJournal::continue_after(uint64_t at_least) {
  last_seq_ = std::max(last_seq_, at_least);
}

void UsageJournal::clear() {
  if (!zero(0, size_)) throw StoreError(failure("clear"));
  size_ = 0;
  broken_ = false;
}

bool UsageJournal::zero(uint64_t offset, uint64_t bytes) {
  if (map_ != nullptr) {
    std::memset(map_ + offset, 0, bytes);
    return true;
  }
  static constexpr std::array<unsigned char, 4096> kZeros{};
  while (bytes > 0) {
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(bytes, kZeros.size()));
    const ssize_t n = ::pwrite(fd_, kZeros.data(), chunk, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    offset += static_cast<uint64_t>(n);
    bytes -= static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace toolcalc::store
