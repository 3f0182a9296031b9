// A growable byte buffer that, unlike std::string, never zero-fills what it is about to overwrite
// (a 2 MiB memset per chunk is measurable at 1 GB/s) and keeps its bytes on the heap, so a
// string_view into it survives moving the buffer (std::string's small-string storage would not).
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

namespace fenmill {

class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(ByteBuffer&& other) noexcept { *this = std::move(other); }
  ByteBuffer& operator=(ByteBuffer&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.size_ = other.capacity_ = 0;
    return *this;
  }
  ByteBuffer(const ByteBuffer& other) { append(other.view()); }
  ByteBuffer& operator=(const ByteBuffer& other) {
    if (this != &other) {
      clear();
      append(other.view());
    }
    return *this;
  }

  const char* data() const { return data_.get(); }
  char* data() { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {data_.get(), size_}; }

  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    std::size_t grown = capacity_ + capacity_ / 2;
    std::size_t cap = n > grown ? n : grown;
    Storage bigger = Storage::allocate(cap);
    if (size_) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = data_.size();
  }
  // Makes room for n more bytes and returns where they go; call commit() with how many were written.
  char* prepare(std::size_t n) {
    reserve(size_ + n);
    return data_.get() + size_;
  }
  void commit(std::size_t n) { size_ += n; }
  void append(std::string_view bytes) {
    if (bytes.empty()) return;
    std::memcpy(prepare(bytes.size()), bytes.data(), bytes.size());
    size_ += bytes.size();
  }
  // Keeps the first n bytes (n <= size()).
  void truncate(std::size_t n) { size_ = n; }
  // Drops the first n bytes (n <= size()).
  void drop_front(std::size_t n) {
    std::memmove(data_.get(), data_.get() + n, size_ - n);
    size_ -= n;
  }

 private:
  // Small buffers come from the heap; chunk-sized ones straight from the kernel in 2 MiB-aligned
  // anonymous memory advised for huge pages: one page fault per 2 MiB instead of 512 (a 4 KiB first
  // touch costs ~5 us on the VMs measured, and a 2-thread run first-touches ~30 MB of buffers).
  class Storage {
   public:
    static constexpr std::size_t kHuge = std::size_t{2} << 20;
    Storage() = default;
    Storage(Storage&& o) noexcept { *this = std::move(o); }
    Storage& operator=(Storage&& o) noexcept {
      release();
      std::swap(data_, o.data_);
      std::swap(size_, o.size_);
      std::swap(mapped_, o.mapped_);
      return *this;
    }
    ~Storage() { release(); }
    static Storage allocate(std::size_t n) {
      Storage s;
      if (n < kHuge / 2) {
        s.data_ = new char[n];  // default-initialised: no zero fill
        s.size_ = n;
        return s;
      }
      std::size_t size = (n + kHuge - 1) / kHuge * kHuge;
      void* p = mmap(nullptr, size + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      auto base = reinterpret_cast<std::uintptr_t>(p);
      std::uintptr_t aligned = (base + kHuge - 1) / kHuge * kHuge;
      if (aligned > base) munmap(p, aligned - base);
      std::size_t tail = base + size + kHuge - (aligned + size);
      if (tail) munmap(reinterpret_cast<void*>(aligned + size), tail);
      madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
      s.data_ = reinterpret_cast<char*>(aligned);
      s.size_ = size;
      s.mapped_ = true;
      return s;
    }
    char* get() const { return data_; }
    std::size_t size() const { return size_; }

   private:
    void release() {
      if (mapped_) munmap(data_, size_);
      else delete[] data_;
      data_ = nullptr;
      size_ = 0;
      mapped_ = false;
    }
    char* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
  };
  Storage data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace fenmill
