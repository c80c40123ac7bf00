#pragma once
// Lock rules the compiler checks: clang's thread-safety analysis (-Wthread-safety, on in
// every clang build, an error with TOOLCALC_WERROR), as Envoy does with ABSL_GUARDED_BY.
// A member written `int n TOOLCALC_GUARDED_BY(mutex_);` can only be touched with mutex_
// held; a function marked TOOLCALC_REQUIRES(mutex_) only called with it held; and
// TOOLCALC_ACQUIRED_AFTER states a lock order that taking the locks the other way round
// breaks (-Wthread-safety-beta checks that one). A condition-variable predicate that reads
// guarded members says so itself: `[&]() TOOLCALC_REQUIRES(mutex_) { return ready_; }`.
// libstdc++'s std::mutex carries no annotations, so the guarded code uses Mutex and
// MutexLock below, which are std::mutex and std::unique_lock with them. GCC ignores the
// attributes.
// Reference: https://clang.llvm.org/docs/ThreadSafetyAnalysis.html
#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define TOOLCALC_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define TOOLCALC_THREAD_ANNOTATION(x)
#endif

#define TOOLCALC_CAPABILITY(x) TOOLCALC_THREAD_ANNOTATION(capability(x))
#define TOOLCALC_SCOPED_CAPABILITY TOOLCALC_THREAD_ANNOTATION(scoped_lockable)
#define TOOLCALC_GUARDED_BY(x) TOOLCALC_THREAD_ANNOTATION(guarded_by(x))
#define TOOLCALC_PT_GUARDED_BY(x) TOOLCALC_THREAD_ANNOTATION(pt_guarded_by(x))
#define TOOLCALC_ACQUIRED_BEFORE(...) TOOLCALC_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define TOOLCALC_ACQUIRED_AFTER(...) TOOLCALC_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
#define TOOLCALC_REQUIRES(...) TOOLCALC_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define TOOLCALC_EXCLUDES(...) TOOLCALC_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define TOOLCALC_ACQUIRE(...) TOOLCALC_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define TOOLCALC_RELEASE(...) TOOLCALC_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define TOOLCALC_TRY_ACQUIRE(...) TOOLCALC_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define TOOLCALC_RETURN_CAPABILITY(x) TOOLCALC_THREAD_ANNOTATION(lock_returned(x))
// For the rare function whose locking the analysis cannot follow (say why beside it).
#define TOOLCALC_NO_THREAD_SAFETY_ANALYSIS TOOLCALC_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace toolcalc {

// std::mutex as a capability the analysis knows.
class TOOLCALC_CAPABILITY("mutex") Mutex {
 public:
  void lock() TOOLCALC_ACQUIRE() { m_.lock(); }
  void unlock() TOOLCALC_RELEASE() { m_.unlock(); }
  bool try_lock() TOOLCALC_TRY_ACQUIRE(true) { return m_.try_lock(); }
  std::mutex& native() { return m_; }

 private:
  std::mutex m_;
};

// Holds a Mutex for its scope (std::unique_lock), and is what a CondVar waits with: the
// wait gives the mutex up and takes it back before it returns, so to the analysis the
// mutex stays held throughout.
class TOOLCALC_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& m) TOOLCALC_ACQUIRE(m) : lock_(m.native()) {}
  // Takes over a mutex the caller holds already (after a successful try_lock).
  MutexLock(Mutex& m, std::adopt_lock_t) TOOLCALC_REQUIRES(m)
      : lock_(m.native(), std::adopt_lock) {}
  ~MutexLock() TOOLCALC_RELEASE() {}
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  // Gives the mutex up early (before a slow call) and takes it back.
  void unlock() TOOLCALC_RELEASE() { lock_.unlock(); }
  void lock() TOOLCALC_ACQUIRE() { lock_.lock(); }

  std::unique_lock<std::mutex>& native() { return lock_; }

 private:
  std::unique_lock<std::mutex> lock_;
};

// Holds a Mutex for its scope only if it was free when try_lock() was called
// (std::unique_lock with std::try_to_lock), for the code that must never wait for it:
//   MutexTryLock lock(mu_);
//   if (!lock.try_lock()) return false;
class TOOLCALC_SCOPED_CAPABILITY MutexTryLock {
 public:
  explicit MutexTryLock(Mutex& m) TOOLCALC_EXCLUDES(m) : lock_(m.native(), std::defer_lock) {}
  ~MutexTryLock() TOOLCALC_RELEASE() {}
  MutexTryLock(const MutexTryLock&) = delete;
  MutexTryLock& operator=(const MutexTryLock&) = delete;

  bool try_lock() TOOLCALC_TRY_ACQUIRE(true) { return lock_.try_lock(); }

 private:
  std::unique_lock<std::mutex> lock_;
};

// std::condition_variable over a MutexLock.
class CondVar {
 public:
  void notify_one() noexcept { cv_.notify_one(); }
  void notify_all() noexcept { cv_.notify_all(); }
  void wait(MutexLock& lock) { cv_.wait(lock.native()); }
  template <class Predicate>
  void wait(MutexLock& lock, Predicate ready) {
    cv_.wait(lock.native(), std::move(ready));
  }
  template <class Rep, class Period, class Predicate>
  bool wait_for(MutexLock& lock, const std::chrono::duration<Rep, Period>& d, Predicate ready) {
    return cv_.wait_for(lock.native(), d, std::move(ready));
  }
  template <class Clock, class Duration, class Predicate>
  bool wait_until(MutexLock& lock, const std::chrono::time_point<Clock, Duration>& t,
                  Predicate ready) {
    return cv_.wait_until(lock.native(), t, std::move(ready));
  }
  template <class Clock, class Duration>
  std::cv_status wait_until(MutexLock& lock, const std::chrono::time_point<Clock, Duration>& t) {
    return cv_.wait_until(lock.native(), t);
  }

 private:
  std::condition_variable cv_;
};

}  // namespace toolcalc
