// A fixed-size array of trivially copyable slots in anonymous memory: zero-filled by the kernel (no clearing
// pass) and backed by transparent huge pages where the system allows, because on the VMs measured every 4 KiB
// page fault of a large hash table was dear (docs/PERFORMANCE.md).
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace fenmill {

template <typename T>
class HugeTable {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  HugeTable() = default;
  explicit HugeTable(std::size_t n) : size_(n) {
    if (n == 0) return;
    void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();  // like std::vector: out of memory is not a data error
    madvise(p, bytes(), MADV_HUGEPAGE);
    data_ = static_cast<T*>(p);
  }
  ~HugeTable() {
    if (data_) munmap(data_, bytes());
  }
  HugeTable(const HugeTable&) = delete;
  HugeTable& operator=(const HugeTable&) = delete;
  void swap(HugeTable& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }

  // Grows to n slots (n >= size()), keeping the contents; the new slots are zero. mremap moves the pages
  // instead of copying them, so growing touches no memory but the new slots.
  void grow(std::size_t n) {
    if (!data_) {
      HugeTable fresh(n);
      swap(fresh);
      return;
    }
    void* p = mremap(data_, bytes(), n * sizeof(T), MREMAP_MAYMOVE);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    size_ = n;
    madvise(p, bytes(), MADV_HUGEPAGE);
  }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  std::size_t bytes() const { return size_ * sizeof(T); }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace fenmill
