// SPDX-License-Identifier: MIT
#pragma once
// Application context for hooks (cereal's user-data adapters): an object the hooks of a read or
// a write can reach, typed, without any parameter of the API or the archives changing.
//
//   InternTable table;
//   bifrons::context_scope<InternTable> scope(table);    // for as long as it lives, on this thread
//   Doc doc = bifrons::from_bytes<Doc>(bytes);
//
//   // in Doc's hook:
//   InternTable* table = bifrons::context<InternTable>(ar);   // null outside any scope
//
// The scopes nest (the innermost of a type wins) and belong to the thread that opens them, like
// the call they surround. Nothing is looked up unless a hook asks, so reads and writes that do
// not use a context cost exactly what they did.

#include "detail/tracking.hpp"

namespace bifrons {

namespace detail {
struct context_link {
  const void* type;
  void* value;
  const context_link* outer;
};
inline thread_local const context_link* innermost_context = nullptr;
}  // namespace detail

/// Makes `value` the context of type C for the hooks that run on this thread while it lives.
template <class C>
class context_scope {
 public:
  explicit context_scope(C& value) noexcept : link_{detail::type_key<C>, &value, detail::innermost_context} {
    detail::innermost_context = &link_;
  }
  context_scope(const context_scope&) = delete;
  context_scope& operator=(const context_scope&) = delete;
  ~context_scope() { detail::innermost_context = link_.outer; }

 private:
  detail::context_link link_;
};

/// The innermost context of type C in scope on this thread, or nullptr; called from a hook with
/// its archive.
template <class C, class Archive>
[[nodiscard]] C* context(const Archive&) noexcept {
  for (const detail::context_link* link = detail::innermost_context; link != nullptr; link = link->outer)
    if (link->type == detail::type_key<C>) return static_cast<C*>(link->value);
  return nullptr;
}

}  // namespace bifrons
