// FENMILL_ADDRESS_SANITIZER: 1 in a build with AddressSanitizer (GCC says so with __SANITIZE_ADDRESS__, Clang with
// __has_feature), else 0. Code that reads past a text's end within its page turns that off under ASan, and tests
// that measure memory or signals skip what ASan changes.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define FENMILL_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FENMILL_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef FENMILL_ADDRESS_SANITIZER
#define FENMILL_ADDRESS_SANITIZER 0
#endif
