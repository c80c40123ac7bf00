#pragma once
// Allocation for objects made and freed in batches on one thread. A response waiting for
// its group commit holds one such object until the commit; a batch holds dozens at once,
// more than glibc's per-thread cache keeps of a size (tcache: 7 blocks), so each would take
// malloc's slow path. Deriving from Recycled<T> keeps the freed blocks on the freeing
// thread's list for the next allocation instead.
#include <cstddef>
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

}  // namespace toolcalc
