// Compiles under the thread-safety analysis: the twin of unlocked_access.cpp with the lock
// taken (ctest ThreadSafety.LockedAccessCompiles), so that the twin fails for its one
// missing lock and not for anything else in the snippet.
#include "core/thread_safety.hpp"

class Counter {
 public:
  void add() {
    toolcalc::MutexLock lock(mu_);
    ++count_;
  }

 private:
  toolcalc::Mutex mu_;
  int count_ TOOLCALC_GUARDED_BY(mu_) = 0;
};

int main() {
  Counter c;
  c.add();
}
