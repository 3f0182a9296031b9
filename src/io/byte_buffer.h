// A growable byte buffer that, unlike std::string, never zero-fills what it is about to overwrite
// (a 2 MiB memset per chunk is measurable at 1 GB/s) and keeps its bytes on the heap, so a
// string_view into it survives moving the buffer (std::string's small-string storage would not).
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <string_view>
#include <utility>

#include "io/huge_pages.h"

namespace fenmill {

class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(ByteBuffer&& other) noexcept { *this = std::move(other); }
  ByteBuffer& operator=(ByteBuffer&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = other.size_;
    capacity_ = other.capacity_;
    head_ = other.head_;
    other.size_ = other.capacity_ = other.head_ = 0;
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

  const char* data() const { return data_.get() + head_; }
  char* data() { return data_.get() + head_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_ - head_; }  // bytes that fit from data() on
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {data(), size_}; }

  void clear() { size_ = head_ = 0; }
  void reserve(std::size_t n) {
    if (n <= capacity_ - head_) return;
    if (n <= capacity_) {  // the room drop_front() left at the start is enough: move the bytes down once
      std::memmove(data_.get(), data(), size_);
      head_ = 0;
      return;
    }
    std::size_t grown = capacity_ + capacity_ / 2;
    std::size_t cap = n > grown ? n : grown;
    Storage bigger = Storage::allocate(cap);
    if (size_) std::memcpy(bigger.get(), data(), size_);
    data_ = std::move(bigger);
    capacity_ = data_.size();
    head_ = 0;
  }
  // Makes room for n more bytes and returns where they go; call commit() with how many were written.
  char* prepare(std::size_t n) {
    reserve(size_ + n);
    return data() + size_;
  }
  void commit(std::size_t n) { size_ += n; }
  void append(std::string_view bytes) {
    if (bytes.empty()) return;
    std::memcpy(prepare(bytes.size()), bytes.data(), bytes.size());
    size_ += bytes.size();
  }
  // Keeps the first n bytes (n <= size()).
  void truncate(std::size_t n) { size_ = n; }
  // Drops the first n bytes (n <= size()) without moving the rest: views of it stay valid until the buffer next
  // grows (a PGN carry gives up a chunk at a time from its front: moving the rest each time copied it ~4 times).
  void drop_front(std::size_t n) {
    size_ -= n;
    head_ = size_ == 0 ? 0 : head_ + n;
  }

 private:
  // Small buffers come from the heap; chunk-sized ones in huge pages (io/huge_pages.h): one page fault per
  // 2 MiB instead of 512 (a 2-thread run first-touches ~30 MB of buffers).
  class Storage {
   public:
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
      if (n < kHugePageSize / 2) {
        s.data_ = new char[n];  // default-initialised: no zero fill
        s.size_ = n;
        return s;
      }
      std::size_t size = (n + kHugePageSize - 1) / kHugePageSize * kHugePageSize;
      s.data_ = static_cast<char*>(map_huge_aligned(size, PROT_READ | PROT_WRITE));
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
  std::size_t head_ = 0;  // bytes dropped from the front, not yet reused
};

}  // namespace fenmill
