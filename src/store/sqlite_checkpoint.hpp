#pragma once
// The embedded store's checkpoints: a connection of their own, so that their fsyncs never
// hold up a commit on the store's connection. Used under the store's checkpoint lock
// (sqlite_account_store.hpp).
#include <filesystem>
#include <memory>
#include <utility>

#include "store/sqlite_database.hpp"

namespace toolcalc::store::sqlite {

class Checkpointer {
 public:
  explicit Checkpointer(std::filesystem::path file) : file_(std::move(file)) {}

  // A PASSIVE checkpoint: copies what no reader still needs, never waits for readers or
  // writers; with nothing new to copy it syncs nothing. True when every frame of the log
  // is in the database afterwards: the next commit then starts the log again from its
  // beginning. Opens the connection at the first call. Throws StoreError.
  bool copy_log();

 private:
  std::filesystem::path file_;
  std::unique_ptr<Database> db_;
};

}  // namespace toolcalc::store::sqlite
