#pragma once
// Allocation for objects made and freed in batches on one thread. A response waiting for
// its group commit holds one such object until the commit; a batch holds dozens at once,
// more than glibc's per-thread cache keeps of a size (tcache: 7 blocks), so each would take
// malloc's slow path. Deriving from Recycled<T> keeps the freed blocks on the freeing
// thread's list for the next allocation instead; RecycledAllocator does the same for an
// object made by std::allocate_shared (its block also holds the shared_ptr's counts).
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace toolcalc {

template <class T>
class Recycled {
 public:
  static void* operator new(std::size_t size) {
    if (size == sizeof(T)) {
      std::vector<void*>& free = free_blocks();
      if (!free.empty()) {
        void* block = free.back();
        free.pop_back();
        return block;
      }
    }
    return ::operator new(size);
  }

  static void operator delete(void* block, std::size_t size) noexcept {
    if (size == sizeof(T)) {
      std::vector<void*>& free = free_blocks();
      if (free.size() < kKept) {
        try {
          free.push_back(block);
          return;
        } catch (const std::bad_alloc&) {
          // the block is freed below
        }
      }
    }
    ::operator delete(block);
  }

 private:
  // As many as one thread's connections keep waiting at once in practice; beyond that,
  // blocks go back to malloc.
  static constexpr std::size_t kKept = 4096;

  struct FreeBlocks {
    std::vector<void*> blocks;
    ~FreeBlocks() {
      for (void* block : blocks) ::operator delete(block);
    }
  };
  static std::vector<void*>& free_blocks() {
    thread_local FreeBlocks free;
    return free.blocks;
  }
};

template <class T>
class RecycledAllocator {
 public:
  using value_type = T;
  RecycledAllocator() = default;
  template <class U>
  RecycledAllocator(const RecycledAllocator<U>&) noexcept {}  // allocate_shared rebinds it

  T* allocate(std::size_t n) {
    if (n == 1) return static_cast<T*>(Recycled<T>::operator new(sizeof(T)));
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* block, std::size_t n) noexcept {
    if (n == 1) return Recycled<T>::operator delete(block, sizeof(T));
    std::allocator<T>().deallocate(block, n);
  }
  template <class U>
  bool operator==(const RecycledAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace toolcalc
