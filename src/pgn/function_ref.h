// A non-owning reference to a callable: two pointers, no allocation, cheap to pass by value.
// The callable must outlive the call it is passed to (lambdas at the call site do).
#pragma once
#include <memory>
#include <type_traits>
#include <utility>

namespace fenmill {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  FunctionRef() = default;  // empty: calling it does nothing (R must then be void)
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT(google-explicit-constructor): meant to bind lambdas implicitly
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const {
    if constexpr (std::is_void_v<R>) {
      if (!call_) return;
    }
    return call_(object_, std::forward<Args>(args)...);
  }
  explicit operator bool() const { return call_ != nullptr; }

 private:
  void* object_ = nullptr;
  R (*call_)(void*, Args...) = nullptr;
};

}  // namespace fenmill
