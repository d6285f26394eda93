// Application context for hooks (bifrons/context.hpp): context_scope makes an object reachable
// from hooks with bifrons::context<C>(ar), on the thread that opened the scope.
#include <bifrons/context.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "types/test_support.hpp"

namespace bifrons_test {
namespace {

/// Interns strings: a message stores each word once, then indices.
struct Interner {
  std::vector<std::string> words;
  std::map<std::string, std::uint32_t> index;
  std::uint32_t id(const std::string& w) {
    const auto [it, added] = index.emplace(w, static_cast<std::uint32_t>(words.size()));
    if (added) words.push_back(w);
    return it->second;
  }
};

/// A word written as its index in the Interner of the context.
struct Word {
  std::string text;
  template <class Archive>
  void save(Archive& ar) const {
    ar(bifrons::context<Interner>(ar)->id(text));
  }
  template <class Archive>
  void load(Archive& ar) {
    std::uint32_t i = 0;
    ar(i);
    const Interner* table = bifrons::context<Interner>(ar);
    if (table == nullptr || i >= table->words.size()) return ar.fail(bifrons::errc::invalid_value);
    text = table->words[i];
  }
};

struct Counter {
  int n = 0;
};

TEST(Context, HooksReachTheObjectInScope) {
  Interner writing;
  bytes b;
  {
    bifrons::context_scope<Interner> scope(writing);
    b = bifrons::to_bytes(std::vector<Word>{{"b"}, {"a"}, {"b"}});
  }
  // Each word is its index, in an envelope of one byte: 02 00, 02 01, 02 00.
  EXPECT_EQ(hex(b), "03 02 00 02 01 02 00");
  EXPECT_EQ(writing.words, (std::vector<std::string>{"b", "a"}));

  Interner reading{writing.words, {}};
  bifrons::context_scope<Interner> scope(reading);
  const auto words = bifrons::from_bytes<std::vector<Word>>(b);
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[1].text, "a");
  EXPECT_EQ(words[2].text, "b");
}

TEST(Context, ScopesNestAndEndWithTheirThread) {
  const bifrons::detail::size_archive ar;
  EXPECT_EQ(bifrons::context<Counter>(ar), nullptr);
  Counter outer{1}, inner{2};
  Interner other;
  bifrons::context_scope<Counter> a(outer);
  EXPECT_EQ(bifrons::context<Counter>(ar), &outer);
  {
    bifrons::context_scope<Counter> b(inner);
    bifrons::context_scope<Interner> c(other);
    EXPECT_EQ(bifrons::context<Counter>(ar), &inner);  // the innermost of its type
    EXPECT_EQ(bifrons::context<Interner>(ar), &other);
    // Another thread has its own scopes. (Not under qemu-user: Debian 12's qemu-i386 never
    // returns from creating a thread, even in a program that does nothing else.)
    if constexpr (!emulated) {
      const Counter* seen_elsewhere = &inner;
      std::thread([&] { seen_elsewhere = bifrons::context<Counter>(ar); }).join();
      EXPECT_EQ(seen_elsewhere, nullptr);
    }
  }
  EXPECT_EQ(bifrons::context<Counter>(ar), &outer);
  EXPECT_EQ(bifrons::context<Interner>(ar), nullptr);
  // Without the context, Word's load refuses the index.
  bifrons::context_scope<Interner> none_known(other);
  EXPECT_TRUE(fails_with<Word>(B({0x02, 0x00}), bifrons::errc::invalid_value, 2));
}

}  // namespace
}  // namespace bifrons_test
