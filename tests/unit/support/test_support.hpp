#pragma once
// Shared by the accounts and store tests: a fresh temporary data directory per test, UTC
// instants for the manual clock, and key records to store.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "store/account_store.hpp"

namespace toolcalc::accounts::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "toolcalc-accounts-XXXXXX");
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Epoch milliseconds of a UTC date and time.
inline int64_t utc_ms(int y, unsigned mo, unsigned d, int h = 0, int mi = 0, int s = 0,
                      int ms = 0) {
  using namespace std::chrono;
  const sys_days date = year_month_day(year(y), month(mo), day(d));
  return duration_cast<milliseconds>(date.time_since_epoch()).count() +
         ((int64_t{h} * 60 + mi) * 60 + s) * 1000 + ms;
}

// Every byte of every file under `dir` (the database, its WAL and shared-memory files).
inline std::string all_bytes_under(const std::filesystem::path& dir) {
  std::string bytes;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    bytes.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return bytes;
}

// A key record as `keys create` stores it; its hash is `fill` repeated (no key maps to it).
inline store::NewKey new_key(const std::string& prefix, char fill = 'x',
                             const std::string& plan = "free") {
  store::NewKey k;
  k.prefix = prefix;
  k.key_hash = std::string(32, fill);
  k.label = "label";
  k.plan = plan;
  k.created_epoch_s = 1'700'000'000;
  return k;
}

}  // namespace toolcalc::accounts::testing
