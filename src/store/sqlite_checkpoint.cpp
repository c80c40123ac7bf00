#include "store/sqlite_checkpoint.hpp"

namespace toolcalc::store::sqlite {

bool Checkpointer::copy_log() {
  if (!db_) {
    db_ = std::make_unique<Database>(file_);
    // The syncs of a checkpoint are made at this connection's level: NORMAL syncs the
    // log before copying it and the database file after.
    db_->exec("PRAGMA synchronous = NORMAL");
  }
  int log_frames = -1, copied = -1;
  const int rc = sqlite3_wal_checkpoint_v2(db_->handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                           &log_frames, &copied);
  if (rc != SQLITE_OK && rc != SQLITE_BUSY) db_->fail("checkpoint");
  return rc == SQLITE_OK && log_frames >= 0 && log_frames == copied;
}

}  // namespace toolcalc::store::sqlite
