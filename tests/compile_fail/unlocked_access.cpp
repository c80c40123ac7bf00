// Must not compile under the thread-safety analysis: a member guarded by a mutex touched
// without it (ctest ThreadSafety.UnlockedAccessIsACompileError). Its twin,
// locked_access.cpp, is the same with the lock taken.
#include "core/thread_safety.hpp"

class Counter {
 public:
  void add() { ++count_; }

 private:
  toolcalc::Mutex mu_;
  int count_ TOOLCALC_GUARDED_BY(mu_) = 0;
};

int main() {
  Counter c;
  c.add();
}
