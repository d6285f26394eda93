// <bifrons/grpc.hpp> over 127.0.0.1: unary and server-streaming calls, hostile bytes from a raw
// generic client, the service's and the client's read_options, deadlines and metadata, a v1 and a
// v2 of one service calling each other, and protobuf messages in the same program. Every call has
// a deadline, so a fault shows as a failed status, never as a hung test.

#include <bifrons/grpc.hpp>
#include <bifrons/schema.hpp>
#include <bifrons/types/map.hpp>
#include <bifrons/types/string.hpp>
#include <bifrons/types/vector.hpp>
#include <google/protobuf/wrappers.pb.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/impl/codegen/proto_utils.h>  // gRPC's traits for protobuf messages
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <grpcpp/support/client_interceptor.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Order {
  std::int32_t id = 0;
  std::string symbol;
  double price = 0;
};
struct Account {
  std::int32_t id = 0;
  std::string name;
  std::vector<Order> orders;
  bool operator==(const Account& o) const {
    if (id != o.id || name != o.name || orders.size() != o.orders.size()) return false;
    for (std::size_t i = 0; i < orders.size(); ++i)
      if (orders[i].id != o.orders[i].id || orders[i].symbol != o.orders[i].symbol ||
          orders[i].price != o.orders[i].price)
        return false;
    return true;
  }
};
struct Lookup {
  std::int32_t id = 0;
};
struct Range {
  std::int32_t first = 0;
  std::int32_t count = 0;
};

const bifrons::grpc::unary_method<Account, Account> echo{"/test.Accounts/Echo"};
const bifrons::grpc::unary_method<Lookup, Account> lookup{"/test.Accounts/Lookup"};
const bifrons::grpc::server_streaming_method<Range, Order> orders{"/test.Accounts/Orders"};

Account sample_account() { return {42, "Ada", {{1, "AAPL", 189.25}, {2, "MSFT", 411.5}, {3, "GOOG", 140.0}}}; }

std::chrono::system_clock::time_point in(std::chrono::milliseconds ms) { return std::chrono::system_clock::now() + ms; }

// A server on an ephemeral port of 127.0.0.1, shut down (with a deadline) when destroyed.
struct test_server {
  explicit test_server(grpc::CallbackGenericService& service) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterCallbackGenericService(&service);
    server = builder.BuildAndStart();
  }
  ~test_server() { server->Shutdown(in(std::chrono::seconds(5))); }
  std::shared_ptr<grpc::Channel> channel() const {
    return grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
  }
  int port = 0;
  std::unique_ptr<grpc::Server> server;
};

// Every call of these tests waits at most this long.
void set_deadline(grpc::ClientContext& context) { context.set_deadline(in(std::chrono::seconds(10))); }

// Longer than any small-string buffer: each response allocates when read.
std::string symbol_of(std::int32_t id) { return "symbol number " + std::to_string(id) + " of the stream"; }

void add_account_methods(bifrons::grpc::service& service) {
  service.on(echo, [](grpc::CallbackServerContext&, const Account& in, Account& out) {
    out = in;
    return grpc::Status::OK;
  });
  service.on(lookup, [](grpc::CallbackServerContext& context, const Lookup& in, Account& out) {
    if (in.id < 0) return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such account");
    if (in.id == 666) throw std::runtime_error("secret detail");
    if (in.id == 7) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    out = sample_account();
    out.id = in.id;
    // Metadata travels as with generated code.
    const auto& meta = context.client_metadata();
    if (const auto found = meta.find("x-name"); found != meta.end())
      out.name.assign(found->second.data(), found->second.size());
    return grpc::Status::OK;
  });
  service.on(orders, [](grpc::CallbackServerContext&, const Range& in) -> bifrons::grpc::response_stream<Order> {
    if (in.count < 0) return grpc::Status(grpc::StatusCode::OUT_OF_RANGE, "negative count");
    return [next = in.first, end = in.first + in.count]() mutable -> std::optional<Order> {
      if (next == end) return std::nullopt;
      const std::int32_t id = next++;
      return Order{id, symbol_of(id), id * 0.5};
    };
  });
}

// Sends raw bytes to a method, as a hostile client could (gRPC's byte-level generic stub).
grpc::Status call_raw(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                      const std::vector<std::byte>& bytes, grpc::ByteBuffer* reply = nullptr) {
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  set_deadline(context);
  grpc::Slice slice(bytes.data(), bytes.size());
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  const grpc::Status status = bifrons::grpc::detail::wait_for_callback([&](auto done) {
    stub.UnaryCall(&context, method, grpc::StubOptions(), &request, &response, std::move(done));
  });
  if (reply) *reply = response;
  return status;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(GrpcMessage, WritesOneSliceSizedByTheBoundAndReadsItBack) {
  const Account account = sample_account();
  grpc::ByteBuffer buffer;
  ASSERT_TRUE(bifrons::grpc::write_message(account, buffer).ok());
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(buffer.Dump(&slices).ok());
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(buffer.Length(), bifrons::serialized_size(account));
  const std::vector<std::byte> expected = bifrons::to_bytes(account);
  EXPECT_EQ(0, std::memcmp(slices[0].begin(), expected.data(), expected.size()));

  Account copy;
  ASSERT_TRUE(bifrons::grpc::read_message(buffer, copy, {}).ok());
  EXPECT_EQ(copy, account);
}

TEST(GrpcMessage, ReadsAMessageThatArrivedInSeveralSlices) {
  const std::vector<std::byte> bytes = bifrons::to_bytes(sample_account());
  const std::size_t third = bytes.size() / 3;
  const std::array<grpc::Slice, 3> parts{grpc::Slice(bytes.data(), third), grpc::Slice(bytes.data() + third, third),
                                         grpc::Slice(bytes.data() + 2 * third, bytes.size() - 2 * third)};
  const grpc::ByteBuffer buffer(parts.data(), parts.size());
  Account copy;
  ASSERT_TRUE(bifrons::grpc::read_message(buffer, copy, {}).ok());
  EXPECT_EQ(copy, sample_account());
}

TEST(GrpcMessage, BadBytesAreInvalidArgumentWithTheLibrarysTextAndOffset) {
  std::vector<std::byte> bytes = bifrons::to_bytes(sample_account());
  bytes.resize(bytes.size() - 3);
  const grpc::Slice slice(bytes.data(), bytes.size());
  const grpc::ByteBuffer buffer(&slice, 1);
  Account out;
  const grpc::Status status = bifrons::grpc::read_message(buffer, out, {});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const bifrons::result<Account> expected = bifrons::try_from_bytes<Account>(bytes);
  ASSERT_FALSE(expected.has_value());
  EXPECT_EQ(status.error_message(), expected.message());
  EXPECT_TRUE(contains(status.error_message(), "at byte")) << status.error_message();
}

// A payload as an owning vector, and the same message with the payload in a gRPC slice.
struct Blob {
  std::string name;
  std::vector<std::byte> payload;
  std::vector<std::byte> trailer;
  bool operator==(const Blob&) const = default;
};
struct SliceBlob {
  std::string name;
  bifrons::grpc::bytes payload;
  bifrons::grpc::bytes trailer;
};

std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((i * 131 + seed) % 251);
  return bytes;
}
bool same(const bifrons::grpc::bytes& b, const std::vector<std::byte>& v) {
  return b.size() == v.size() && std::equal(b.begin(), b.end(), v.begin());
}
bool inside(const bifrons::grpc::bytes& b, const grpc::Slice& slice) {
  const auto* first = reinterpret_cast<const std::byte*>(slice.begin());
  return b.data() >= first && b.data() + b.size() <= first + slice.size();
}

TEST(GrpcBytes, WritesAsAVectorOfBytes) {
  const Blob blob{"blob", pattern(5000, 1), {}};
  const SliceBlob slice_blob{"blob", bifrons::grpc::bytes(blob.payload), {}};
  EXPECT_EQ(bifrons::to_bytes(slice_blob), bifrons::to_bytes(blob));
  EXPECT_EQ(bifrons::serialized_size(slice_blob), bifrons::serialized_size(blob));
  // Read outside read_message: a copy of the input, which may then go away.
  std::vector<std::byte> encoded = bifrons::to_bytes(blob);
  SliceBlob copy;
  bifrons::from_bytes(encoded, copy);
  const std::vector<std::byte> expected = blob.payload;
  std::fill(encoded.begin(), encoded.end(), std::byte{0});
  EXPECT_TRUE(same(copy.payload, expected));
  EXPECT_EQ(copy.name, "blob");
  EXPECT_TRUE(copy.trailer.empty());
}

TEST(GrpcBytes, ExportsTheSchemaOfAVectorOfBytes) {
  std::string schema = bifrons::schema<SliceBlob>();
  for (std::size_t at; (at = schema.find("SliceBlob")) != std::string::npos;) schema.replace(at, 9, "Blob");
  EXPECT_EQ(schema, bifrons::schema<Blob>());
}

TEST(GrpcBytes, AReadOfOneSliceRefersToItAndOutlivesTheBuffer) {
  const std::vector<std::byte> payload = pattern(200000, 2);
  const std::vector<std::byte> trailer = pattern(3000, 3);
  grpc::ByteBuffer buffer;
  ASSERT_TRUE(bifrons::grpc::write_message(SliceBlob{"one", bifrons::grpc::bytes(payload),
                                                     bifrons::grpc::bytes(trailer)},
                                           buffer)
                  .ok());
  grpc::Slice received;
  ASSERT_TRUE(buffer.TrySingleSlice(&received).ok());
  SliceBlob out;
  ASSERT_TRUE(bifrons::grpc::read_message(buffer, out, {}).ok());
  EXPECT_TRUE(inside(out.payload, received));
  EXPECT_TRUE(inside(out.trailer, received));
  received = grpc::Slice();
  buffer.Clear();  // the fields hold the memory (ASan checks the reads below)
  EXPECT_TRUE(same(out.payload, payload));
  EXPECT_TRUE(same(out.trailer, trailer));
  const SliceBlob shared = out;  // a copy shares the memory
  EXPECT_EQ(shared.payload.data(), out.payload.data());
}

TEST(GrpcBytes, AReadOfSeveralSlicesRefersToTheirJoin) {
  const std::vector<std::byte> payload = pattern(100000, 4);
  const std::vector<std::byte> encoded = bifrons::to_bytes(Blob{"many", payload, {}});
  std::vector<grpc::Slice> parts;
  for (std::size_t at = 0; at < encoded.size(); at += 16384)
    parts.emplace_back(encoded.data() + at, std::min<std::size_t>(16384, encoded.size() - at));
  grpc::ByteBuffer buffer(parts.data(), parts.size());
  SliceBlob out;
  ASSERT_TRUE(bifrons::grpc::read_message(buffer, out, {}).ok());
  for (const grpc::Slice& part : parts) EXPECT_FALSE(inside(out.payload, part));
  buffer.Clear();
  parts.clear();
  EXPECT_TRUE(same(out.payload, payload));
  EXPECT_EQ(out.name, "many");
}

// A hook that reads its own bytes while read_message runs: what bytes reads there lies outside
// the received slice, so it is a copy (the hook's buffer is gone when the test looks; ASan).
struct Nested {
  SliceBlob inner;
  template <class Archive>
  void save(Archive& ar) const {
    ar(bifrons::to_bytes(inner));
  }
  template <class Archive>
  void load(Archive& ar) {
    std::vector<std::byte> encoded;
    ar(encoded);
    bifrons::from_bytes(encoded, inner);
  }
};

TEST(GrpcBytes, BytesAHookReadsFromItsOwnBufferAreCopied) {
  const std::vector<std::byte> payload = pattern(5000, 11);
  grpc::ByteBuffer buffer;
  ASSERT_TRUE(bifrons::grpc::write_message(Nested{{"nested", bifrons::grpc::bytes(payload), {}}}, buffer).ok());
  grpc::Slice received;
  ASSERT_TRUE(buffer.TrySingleSlice(&received).ok());
  Nested out;
  ASSERT_TRUE(bifrons::grpc::read_message(buffer, out, {}).ok());
  EXPECT_FALSE(inside(out.inner.payload, received));
  EXPECT_TRUE(same(out.inner.payload, payload));
}

TEST(GrpcBytes, ABudgetTooSmallForACopyStillReadsInPlace) {
  const std::vector<std::byte> payload = pattern(100000, 5);
  const std::vector<std::byte> encoded = bifrons::to_bytes(Blob{"", payload, {}});
  bifrons::read_options small;
  small.max_alloc_bytes = 1000;
  // A copy is charged to the budget...
  const bifrons::result<SliceBlob> copied = bifrons::try_from_bytes<SliceBlob>(encoded, small);
  ASSERT_FALSE(copied.has_value());
  EXPECT_EQ(copied.code(), bifrons::errc::allocation_limit_exceeded);
  EXPECT_EQ(copied.offset(), bifrons::try_from_bytes<Blob>(encoded, small).offset());
  // ...a reference into the received message allocates nothing.
  const grpc::Slice slice(encoded.data(), encoded.size());
  const grpc::ByteBuffer buffer(&slice, 1);
  SliceBlob out;
  ASSERT_TRUE(bifrons::grpc::read_message(buffer, out, small).ok());
  EXPECT_TRUE(same(out.payload, payload));
}

TEST(GrpcBytes, TruncatedAndEmptyPayloads) {
  std::vector<std::byte> encoded = bifrons::to_bytes(Blob{"cut", pattern(5000, 6), {}});
  encoded.resize(encoded.size() - 1);
  const grpc::Slice slice(encoded.data(), encoded.size());
  const grpc::ByteBuffer buffer(&slice, 1);
  SliceBlob out;
  const grpc::Status status = bifrons::grpc::read_message(buffer, out, {});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), bifrons::try_from_bytes<Blob>(encoded).message());

  grpc::ByteBuffer empty;
  ASSERT_TRUE(bifrons::grpc::write_message(SliceBlob{"empty", {}, {}}, empty).ok());
  SliceBlob read{"x", bifrons::grpc::bytes(pattern(10, 7)), {}};
  ASSERT_TRUE(bifrons::grpc::read_message(empty, read, {}).ok());
  EXPECT_TRUE(read.payload.empty());
  EXPECT_EQ(read.name, "empty");
}

// gRPC's traits for protobuf match every class derived from MessageLite; bifrons' match only
// bifrons::grpc::message<T>. Both in one program: each type goes through its own traits.
TEST(GrpcMessage, LivesBesideProtobufMessages) {
  google::protobuf::StringValue proto;
  proto.set_value("protobuf");
  grpc::ByteBuffer proto_bytes;
  bool own = false;
  ASSERT_TRUE(grpc::SerializationTraits<google::protobuf::StringValue>::Serialize(proto, &proto_bytes, &own).ok());
  google::protobuf::StringValue proto_copy;
  ASSERT_TRUE(grpc::SerializationTraits<google::protobuf::StringValue>::Deserialize(&proto_bytes, &proto_copy).ok());
  EXPECT_EQ(proto_copy.value(), "protobuf");

  Account account = sample_account();
  bifrons::grpc::message<Account> out(account);
  grpc::ByteBuffer bytes;
  ASSERT_TRUE(grpc::SerializationTraits<bifrons::grpc::message<Account>>::Serialize(out, &bytes, &own).ok());
  EXPECT_EQ(bytes.Length(), bifrons::serialized_size(account));
  Account copy;
  bifrons::grpc::message<Account> in(copy);
  ASSERT_TRUE(grpc::SerializationTraits<bifrons::grpc::message<Account>>::Deserialize(&bytes, &in).ok());
  EXPECT_EQ(copy, account);
  EXPECT_TRUE(in.read_status().ok());
}

TEST(GrpcService, UnaryRoundTrip) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());

  grpc::ClientContext context;
  set_deadline(context);
  Account reply;
  const grpc::Status status = client.call(echo, context, sample_account(), reply);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply, sample_account());

  grpc::ClientContext with_metadata;
  set_deadline(with_metadata);
  with_metadata.AddMetadata("x-name", "from metadata");
  ASSERT_TRUE(client.call(lookup, with_metadata, Lookup{5}, reply).ok());
  EXPECT_EQ(reply.id, 5);
  EXPECT_EQ(reply.name, "from metadata");
}

// A client interceptor sees the method's gRPC name and adds metadata, as with generated stubs.
class naming_interceptor final : public grpc::experimental::Interceptor {
 public:
  explicit naming_interceptor(std::string method) : method_(std::move(method)) {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA))
      methods->GetSendInitialMetadata()->emplace("x-name", "intercepted " + method_);
    methods->Proceed();
  }

 private:
  std::string method_;
};
struct naming_interceptor_factory final : grpc::experimental::ClientInterceptorFactoryInterface {
  grpc::experimental::Interceptor* CreateClientInterceptor(grpc::experimental::ClientRpcInfo* info) override {
    return new naming_interceptor(info->method());
  }
};

TEST(GrpcService, ClientInterceptorsSeeTheMethod) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(std::make_unique<naming_interceptor_factory>());
  const bifrons::grpc::client client(grpc::experimental::CreateCustomChannelWithInterceptors(
      "127.0.0.1:" + std::to_string(server.port), grpc::InsecureChannelCredentials(), grpc::ChannelArguments(),
      std::move(interceptors)));
  grpc::ClientContext context;
  set_deadline(context);
  Account reply;
  ASSERT_TRUE(client.call(lookup, context, Lookup{3}, reply).ok());
  EXPECT_EQ(reply.name, "intercepted /test.Accounts/Lookup");
}

TEST(GrpcService, HandlerStatusesDeadlinesAndExceptions) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());

  Account reply{1, "unchanged", {}};
  {
    grpc::ClientContext context;
    set_deadline(context);
    const grpc::Status status = client.call(lookup, context, Lookup{-1}, reply);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
    EXPECT_EQ(status.error_message(), "no such account");
    EXPECT_EQ(reply.name, "unchanged");
  }
  {
    grpc::ClientContext context;
    set_deadline(context);
    const grpc::Status status = client.call(lookup, context, Lookup{666}, reply);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNKNOWN);
    EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
  }
  {
    grpc::ClientContext context;
    context.set_deadline(in(std::chrono::milliseconds(50)));
    const grpc::Status status = client.call(lookup, context, Lookup{7}, reply);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  grpc::ClientContext context;
  set_deadline(context);
  EXPECT_TRUE(client.call(lookup, context, Lookup{1}, reply).ok());
}

TEST(GrpcService, ServerStreaming) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());

  grpc::ClientContext context;
  set_deadline(context);
  auto reader = client.call(orders, context, Range{10, 100});
  Order order;
  std::int32_t expected = 10;
  while (reader.read(order)) {
    EXPECT_EQ(order.id, expected);
    EXPECT_EQ(order.symbol, symbol_of(expected));
    ++expected;
  }
  EXPECT_EQ(expected, 110);
  EXPECT_TRUE(reader.finish().ok());

  // finish() before the end of the stream cancels the rest.
  grpc::ClientContext early_context;
  set_deadline(early_context);
  auto early = client.call(orders, early_context, Range{0, std::numeric_limits<std::int32_t>::max()});
  ASSERT_TRUE(early.read(order));
  EXPECT_EQ(early.finish().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_FALSE(early.read(order));

  grpc::ClientContext empty_context;
  set_deadline(empty_context);
  auto empty = client.call(orders, empty_context, Range{0, 0});
  EXPECT_FALSE(empty.read(order));
  EXPECT_TRUE(empty.finish().ok());

  grpc::ClientContext refused_context;
  set_deadline(refused_context);
  auto refused = client.call(orders, refused_context, Range{0, -1});
  EXPECT_FALSE(refused.read(order));
  EXPECT_EQ(refused.finish().error_code(), grpc::StatusCode::OUT_OF_RANGE);
}

TEST(GrpcService, AClientThatStopsReadingCancelsTheStream) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());
  for (int round = 0; round < 3; ++round) {
    grpc::ClientContext context;
    set_deadline(context);
    // Endless in practice: only the client's cancel ends it.
    auto reader = client.call(orders, context, Range{0, std::numeric_limits<std::int32_t>::max()});
    Order order;
    ASSERT_TRUE(reader.read(order));
    ASSERT_TRUE(reader.read(order));
  }
  grpc::ClientContext context;
  set_deadline(context);
  Account reply;
  EXPECT_TRUE(client.call(echo, context, sample_account(), reply).ok());
}

TEST(GrpcService, ConcurrentCallsFromManyThreads) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (std::int32_t t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (std::int32_t i = 0; i < 20; ++i) {
        grpc::ClientContext context;
        set_deadline(context);
        Account reply;
        if (!client.call(lookup, context, Lookup{t * 100 + i}, reply).ok() || reply.id != t * 100 + i) ++failures;
        grpc::ClientContext stream_context;
        set_deadline(stream_context);
        auto reader = client.call(orders, stream_context, Range{t, 10});
        std::int32_t expected = t;
        for (Order order; reader.read(order); ++expected)
          if (order.id != expected) ++failures;
        if (!reader.finish().ok() || expected != t + 10) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(GrpcService, HostileBytesAreInvalidArgumentAndTheServerKeepsServing) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  const auto channel = server.channel();

  const std::vector<std::byte> valid = bifrons::to_bytes(sample_account());
  std::vector<std::byte> truncated(valid.begin(), valid.end() - 1);
  grpc::Status status = call_raw(channel, echo.path, truncated);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), bifrons::try_from_bytes<Account>(truncated).message());
  EXPECT_TRUE(contains(status.error_message(), "bifrons: ")) << status.error_message();

  // A count of 2^60 orders: refused before anything is allocated.
  const std::vector<std::byte> huge_count{std::byte{1},    std::byte{0},    std::byte{0xff}, std::byte{0xff},
                                          std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xff},
                                          std::byte{0xff}, std::byte{0x0f}};
  EXPECT_EQ(call_raw(channel, echo.path, huge_count).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  // Random corruptions of a valid message: each is answered, with the echo of what the
  // library reads or INVALID_ARGUMENT, and the same answer as a local read.
  std::mt19937 random(36);
  for (int i = 0; i < 200; ++i) {
    std::vector<std::byte> bytes = valid;
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int f = 0; f < flips; ++f) bytes[random() % bytes.size()] = static_cast<std::byte>(random() & 0xff);
    if (random() % 4 == 0) bytes.resize(random() % bytes.size());
    grpc::ByteBuffer reply;
    status = call_raw(channel, echo.path, bytes, &reply);
    const bifrons::result<Account> local = bifrons::try_from_bytes<Account>(bytes);
    if (local.has_value()) {
      ASSERT_TRUE(status.ok()) << status.error_message();
      Account echoed;
      ASSERT_TRUE(bifrons::grpc::read_message(reply, echoed, {}).ok());
      EXPECT_EQ(echoed, *local);
    } else {
      ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_EQ(status.error_message(), local.message());
    }
  }
  // No bytes at all: the server answers as the library reads them.
  status = call_raw(channel, echo.path, {});
  const bifrons::result<Account> empty = bifrons::try_from_bytes<Account>(std::vector<std::byte>{});
  EXPECT_EQ(status.ok(), empty.has_value());
  if (!empty.has_value()) {
    EXPECT_EQ(status.error_message(), empty.message());
  }

  const bifrons::grpc::client client(channel);
  grpc::ClientContext context;
  set_deadline(context);
  Account reply;
  EXPECT_TRUE(client.call(echo, context, sample_account(), reply).ok());
  EXPECT_EQ(reply, sample_account());
}

// A call that ends without a request (a raw client that only half-closes).
grpc::Status call_without_request(const std::shared_ptr<grpc::Channel>& channel, const std::string& method) {
  class reactor final : public grpc::ClientBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
   public:
    void OnDone(const grpc::Status& s) override {
      std::lock_guard lock(mutex);
      status = s;
      done = true;
      done_changed.notify_one();
    }
    std::mutex mutex;
    std::condition_variable done_changed;
    bool done = false;
    grpc::Status status;
  } call;
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  set_deadline(context);
  stub.PrepareBidiStreamingCall(&context, method, grpc::StubOptions(), &call);
  call.StartWritesDone();
  call.StartCall();
  std::unique_lock lock(call.mutex);
  call.done_changed.wait(lock, [&] { return call.done; });
  return call.status;
}

TEST(GrpcService, ACallWithoutARequestOrWithBadBytesOnAStreamIsRefused) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  const auto channel = server.channel();
  grpc::Status status = call_without_request(channel, echo.path);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(contains(status.error_message(), "before its request")) << status.error_message();
  EXPECT_EQ(call_without_request(channel, orders.path).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  const std::vector<std::byte> bad{std::byte{0x7f}, std::byte{1}};
  status = call_raw(channel, orders.path, bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), bifrons::try_from_bytes<Range>(bad).message());
}

// gRPC's own generic stub with message<T> on both sides (the async and reactor APIs take the
// same types), beside bifrons::grpc::client.
TEST(GrpcService, GrpcsTemplatedGenericStubTakesMessages) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  grpc::TemplatedGenericStub<bifrons::grpc::message<const Account>, bifrons::grpc::message<Account>> stub(
      server.channel());
  const Account request = sample_account();
  Account reply;
  const bifrons::grpc::message<const Account> out(request);
  bifrons::grpc::message<Account> in(reply);
  grpc::ClientContext context;
  set_deadline(context);
  const grpc::Status status = bifrons::grpc::detail::wait_for_callback([&](auto done) {
    stub.UnaryCall(&context, echo.path, grpc::StubOptions(), &out, &in, std::move(done));
  });
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply, request);
  EXPECT_TRUE(in.read_status().ok());
}

// gRPC's own services beside a bifrons service on one server: the health check answers (an empty
// HealthCheckRequest is zero bytes; SERVING is field 1 = 1, the bytes 08 01).
TEST(GrpcService, LivesBesideGrpcsHealthService) {
  grpc::EnableDefaultHealthCheckService(true);
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  grpc::EnableDefaultHealthCheckService(false);
  grpc::ByteBuffer reply;
  ASSERT_TRUE(call_raw(server.channel(), "/grpc.health.v1.Health/Check", {}, &reply).ok());
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(reply.Dump(&slices).ok());
  std::string bytes;
  for (const grpc::Slice& slice : slices) bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  EXPECT_EQ(bytes, std::string("\x08\x01", 2));
  grpc::ClientContext context;
  set_deadline(context);
  Account echoed;
  EXPECT_TRUE(bifrons::grpc::client(server.channel()).call(echo, context, sample_account(), echoed).ok());
}

// Mutated messages, in one slice and in several: bytes reads exactly what a vector reads, and
// what it refers to lies inside the received message.
TEST(GrpcBytes, MutatedMessagesReadAsTheVectorsDo) {
  const std::vector<std::byte> original = bifrons::to_bytes(Blob{"fuzz", pattern(300, 9), pattern(40, 10)});
  std::mt19937 random(36);
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::byte> bytes = original;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % bytes.size();
      switch (random() % 3) {
        case 0: bytes[at] = static_cast<std::byte>(random()); break;
        case 1: bytes.resize(at); break;
        default: bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::byte>(random()));
      }
      if (bytes.empty()) bytes.push_back(std::byte{0});
    }
    const bifrons::result<Blob> expected = bifrons::try_from_bytes<Blob>(bytes);
    const grpc::Slice whole(bytes.data(), bytes.size());
    const std::size_t cut = bytes.size() / 2;
    const std::array<grpc::Slice, 2> halves{grpc::Slice(bytes.data(), cut),
                                            grpc::Slice(bytes.data() + cut, bytes.size() - cut)};
    for (const grpc::ByteBuffer& buffer : {grpc::ByteBuffer(&whole, 1), grpc::ByteBuffer(halves.data(), 2)}) {
      SliceBlob out;
      const grpc::Status status = bifrons::grpc::read_message(buffer, out, {});
      ASSERT_EQ(status.ok(), expected.has_value()) << round << ": " << status.error_message();
      if (!status.ok()) continue;
      EXPECT_EQ(out.name, expected->name);
      EXPECT_TRUE(same(out.payload, expected->payload));
      EXPECT_TRUE(same(out.trailer, expected->trailer));
      // (gRPC copies a sub-slice of a few bytes into the slice object itself.)
      grpc::Slice received;
      if (buffer.TrySingleSlice(&received).ok() && out.payload.size() > 64) {
        EXPECT_TRUE(inside(out.payload, received));
      }
    }
  }
}

// A vector on one side, bytes on the other, over the network: a 1 MiB payload arrives in many
// slices.
TEST(GrpcBytes, VectorAndBytesPeersCallEachOther) {
  const bifrons::grpc::unary_method<SliceBlob, SliceBlob> echo_bytes{"/test.Blobs/Echo"};
  const bifrons::grpc::unary_method<Blob, Blob> echo_vector{"/test.Blobs/Echo"};
  bifrons::grpc::service service;
  service.on(echo_bytes, [](grpc::CallbackServerContext&, const SliceBlob& in, SliceBlob& out) {
    out = in;
    out.name += " echoed";
    return grpc::Status::OK;
  });
  const test_server server(service);
  const bifrons::grpc::client client(server.channel());
  const Blob blob{"big", pattern(std::size_t{1} << 20, 8), {}};
  grpc::ClientContext context;
  set_deadline(context);
  Blob reply;
  ASSERT_TRUE(client.call(echo_vector, context, blob, reply).ok());
  EXPECT_EQ(reply.name, "big echoed");
  EXPECT_EQ(reply.payload, blob.payload);
}

TEST(GrpcService, UnknownMethodIsUnimplemented) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  EXPECT_EQ(call_raw(server.channel(), "/test.Accounts/Missing", {}).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(call_raw(server.channel(), "/other.Service/Echo", {}).error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

TEST(GrpcService, RequestsMeetTheServicesReadOptions) {
  bifrons::read_options strict;
  strict.max_elements = 4;
  bifrons::grpc::service service(strict);
  add_account_methods(service);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());

  Account account = sample_account();
  account.orders.resize(4);
  Account reply;
  {
    grpc::ClientContext context;
    set_deadline(context);
    EXPECT_TRUE(client.call(echo, context, account, reply).ok());
  }
  account.orders.resize(5);
  grpc::ClientContext context;
  set_deadline(context);
  const grpc::Status status = client.call(echo, context, account, reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(contains(status.error_message(), "container element limit exceeded")) << status.error_message();
}

TEST(GrpcService, ResponsesMeetTheClientsReadOptions) {
  bifrons::grpc::service service;
  add_account_methods(service);
  test_server server(service);
  bifrons::read_options strict;
  strict.max_alloc_bytes = 64;
  const bifrons::grpc::client client(server.channel(), strict);

  Account reply;
  grpc::ClientContext context;
  set_deadline(context);
  const grpc::Status status = client.call(lookup, context, Lookup{1}, reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(contains(status.error_message(), "allocation budget exceeded")) << status.error_message();

  bifrons::read_options few;
  few.max_alloc_bytes = 4;
  const bifrons::grpc::client stream_client(server.channel(), few);
  grpc::ClientContext stream_context;
  set_deadline(stream_context);
  auto reader = stream_client.call(orders, stream_context, Range{0, 1000});
  // The first response is refused: the call ends there, with the library's text.
  Order order;
  EXPECT_FALSE(reader.read(order));
  const grpc::Status stream_status = reader.finish();
  EXPECT_EQ(stream_status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(contains(stream_status.error_message(), "allocation budget exceeded")) << stream_status.error_message();
}

// A server that answers every call with the same bytes, whatever they are, `count` times (gRPC's
// byte-level generic service): what a client meets from a broken or hostile peer.
class raw_server final : public grpc::CallbackGenericService {
 public:
  raw_server(std::vector<std::byte> answer, int count) : answer_(std::move(answer)), count_(count) {}
  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext*) override {
    class reactor final : public grpc::ServerGenericBidiReactor {
     public:
      reactor(const std::vector<std::byte>& answer, int count) : count_(count) {
        const grpc::Slice slice(answer.data(), answer.size());
        out_ = grpc::ByteBuffer(&slice, 1);
        StartRead(&in_);
      }
      void OnReadDone(bool) override {
        for (int i = 0; i < count_; ++i) pending_.push_back(out_);
        write_next();
      }
      void OnWriteDone(bool ok) override {
        if (ok)
          write_next();
        else
          Finish(grpc::Status::CANCELLED);
      }
      void OnDone() override { delete this; }

     private:
      void write_next() {
        if (pending_.empty()) {
          Finish(grpc::Status::OK);
          return;
        }
        current_ = pending_.back();
        pending_.pop_back();
        StartWrite(&current_);
      }
      int count_;
      grpc::ByteBuffer in_, out_, current_;
      std::vector<grpc::ByteBuffer> pending_;
    };
    return new reactor(answer_, count_);
  }

 private:
  std::vector<std::byte> answer_;
  int count_;
};

TEST(GrpcClient, BadResponsesAreInvalidArgumentWithTheLibrarysText) {
  std::vector<std::byte> bytes = bifrons::to_bytes(sample_account());
  bytes.resize(bytes.size() / 2);
  const std::string expected = bifrons::try_from_bytes<Account>(bytes).message();
  raw_server answers_once(bytes, 1);
  const test_server server(answers_once);
  grpc::ClientContext context;
  set_deadline(context);
  Account reply{9, "unchanged", {}};
  // A unary call answered with a message that does not read: the library's text.
  const auto started = std::chrono::steady_clock::now();
  grpc::Status status = bifrons::grpc::client(server.channel()).call(echo, context, sample_account(), reply);
  // Not by the deadline: the call ended when the answer failed.
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), expected);
  EXPECT_EQ(reply.name, "unchanged");

  raw_server answers_thrice(bytes, 3);
  const test_server stream_server(answers_thrice);
  const bifrons::grpc::server_streaming_method<Range, Account> accounts{"/test.Accounts/Stream"};
  grpc::ClientContext stream_context;
  set_deadline(stream_context);
  const auto stream_started = std::chrono::steady_clock::now();
  auto reader = bifrons::grpc::client(stream_server.channel()).call(accounts, stream_context, Range{0, 3});
  EXPECT_FALSE(reader.read(reply));
  status = reader.finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), expected);
  EXPECT_LT(std::chrono::steady_clock::now() - stream_started, std::chrono::seconds(5));
}

// Methods whose requests stream. sum adds numbers (client streaming); expand answers a number n
// with n orders (bidi). A number's value selects a fault: negative is refused with OUT_OF_RANGE,
// 666 throws from on_request, 667 from on_end (sum) or from the next function (expand), 0 as
// expand's last request makes on_end refuse the call.
struct Number {
  std::int64_t value = 0;
};
struct Total {
  std::int64_t sum = 0;
  std::int64_t count = 0;
};
const bifrons::grpc::client_streaming_method<Number, Total> sum{"/test.Numbers/Sum"};
const bifrons::grpc::bidi_streaming_method<Number, Order> expand{"/test.Numbers/Expand"};

std::int32_t order_id(std::int64_t request, std::int64_t index) {
  return static_cast<std::int32_t>(request * 1000 + index);
}

// What the server's calls did: the per-call states alive (each call's state is destroyed with
// its reactor, in OnDone), and how many calls reached on_end.
struct call_counts {
  std::atomic<int> alive{0};
  std::atomic<int> ended{0};
  // Waits (at most 5 s) until every call's state was destroyed.
  bool all_gone() const {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (alive.load() != 0 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return alive.load() == 0;
  }
};
struct call_state {
  explicit call_state(call_counts& c) : counts(c) { ++counts.alive; }
  call_state(const call_state&) = delete;
  call_state& operator=(const call_state&) = delete;
  ~call_state() { --counts.alive; }
  call_counts& counts;
  Total total;
  std::int64_t last = -1;
};

void add_number_methods(bifrons::grpc::service& service, call_counts& counts) {
  service.on(sum, [&counts](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<Number, Total> {
    auto state = std::make_shared<call_state>(counts);
    return {[state](const Number& n) {
              if (n.value < 0) return grpc::Status(grpc::StatusCode::OUT_OF_RANGE, "negative number");
              if (n.value == 666) throw std::runtime_error("secret detail");
              state->total.sum += n.value;
              ++state->total.count;
              state->last = n.value;
              return grpc::Status::OK;
            },
            [state](Total& out) {
              ++state->counts.ended;
              if (state->last == 667) throw std::runtime_error("secret detail");
              out = state->total;
              return grpc::Status::OK;
            }};
  });
  service.on(expand, [&counts](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<Number, Order> {
    auto state = std::make_shared<call_state>(counts);
    return {[state](const Number& n) -> bifrons::grpc::response_stream<Order> {
              if (n.value < 0) return grpc::Status(grpc::StatusCode::OUT_OF_RANGE, "negative number");
              if (n.value == 666) throw std::runtime_error("secret detail");
              state->last = n.value;
              // Refers to the request: it stays valid until its last response was sent.
              return [&n, i = std::int64_t{0}]() mutable -> std::optional<Order> {
                if (n.value == 667) throw std::runtime_error("secret detail");
                if (i == n.value) return std::nullopt;
                const std::int32_t id = order_id(n.value, i++);
                return Order{id, symbol_of(id), 0.5};
              };
            },
            [state] {
              ++state->counts.ended;
              if (state->last == 0) return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "ended on zero");
              return grpc::Status::OK;
            }};
  });
}

// Reads the n responses expand answers to n; false at the first that differs or is missing.
bool read_expansion(bifrons::grpc::bidi_stream<Number, Order>& stream, std::int64_t n) {
  Order order;
  for (std::int64_t i = 0; i < n; ++i)
    if (!stream.read(order) || order.id != order_id(n, i) || order.symbol != symbol_of(order.id)) return false;
  return true;
}

// A server of sum and expand on 127.0.0.1 (the methods added before it starts).
struct number_server {
  number_server() {
    add_number_methods(service, counts);
    server.emplace(service);
  }
  bifrons::grpc::client client() const { return bifrons::grpc::client(server->channel()); }
  call_counts counts;
  bifrons::grpc::service service;
  std::optional<test_server> server;
};

TEST(GrpcClientStreaming, SumsTheStream) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();

  grpc::ClientContext context;
  set_deadline(context);
  auto writer = client.call(sum, context);
  for (std::int64_t i = 1; i <= 100; ++i) ASSERT_TRUE(writer.write(Number{i}));
  Total total;
  const grpc::Status status = writer.finish(total);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(total.sum, 5050);
  EXPECT_EQ(total.count, 100);

  grpc::ClientContext empty_context;
  set_deadline(empty_context);
  auto empty = client.call(sum, empty_context);
  Total none{9, 9};
  ASSERT_TRUE(empty.finish(none).ok());
  EXPECT_EQ(none.sum, 0);
  EXPECT_EQ(none.count, 0);
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_EQ(numbers.counts.ended.load(), 2);
}

TEST(GrpcClientStreaming, HandlerStatusesAndExceptionsEndTheCall) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();
  const auto call = [&](std::vector<std::int64_t> values) {
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = client.call(sum, context);
    for (const std::int64_t value : values) (void)writer.write(Number{value});
    Total total{-5, -5};
    grpc::Status status = writer.finish(total);
    EXPECT_EQ(total.sum, -5);  // replaced only with OK
    return status;
  };
  grpc::Status status = call({1, 2, -1, 4});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::OUT_OF_RANGE);
  EXPECT_EQ(status.error_message(), "negative number");
  status = call({1, 666, 3});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNKNOWN);
  EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
  EXPECT_EQ(call({1, 667}).error_code(), grpc::StatusCode::UNKNOWN);
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_EQ(numbers.counts.ended.load(), 1);  // only the last call reached on_end
}

TEST(GrpcStreaming, HandlersThatRefuseOrThrowBeforeTheFirstRequest) {
  const bifrons::grpc::client_streaming_method<Number, Total> refuses{"/test.Refusals/Refuses"};
  const bifrons::grpc::client_streaming_method<Number, Total> empty_ok{"/test.Refusals/EmptyOk"};
  const bifrons::grpc::bidi_streaming_method<Number, Order> throws{"/test.Refusals/Throws"};
  const bifrons::grpc::bidi_streaming_method<Number, Order> ends_at_once{"/test.Refusals/EndsAtOnce"};
  bifrons::grpc::service service;
  service.on(refuses, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<Number, Total> {
    return grpc::Status(grpc::StatusCode::PERMISSION_DENIED, "not you");
  });
  service.on(empty_ok, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<Number, Total> {
    return grpc::Status::OK;
  });
  service.on(throws, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<Number, Order> {
    throw std::runtime_error("secret detail");
  });
  service.on(ends_at_once, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<Number, Order> {
    return grpc::Status::OK;
  });
  test_server server(service);
  const bifrons::grpc::client client(server.channel());
  const auto sum_status = [&](const bifrons::grpc::client_streaming_method<Number, Total>& method) {
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = client.call(method, context);
    Total total;
    return writer.finish(total);
  };
  grpc::Status status = sum_status(refuses);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(), "not you");
  status = sum_status(empty_ok);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_TRUE(contains(status.error_message(), "request_sink")) << status.error_message();
  {
    grpc::ClientContext context;
    set_deadline(context);
    auto stream = client.call(throws, context);
    Order order;
    EXPECT_FALSE(stream.read(order));
    status = stream.finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNKNOWN);
    EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
  }
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = client.call(ends_at_once, context);
  Order order;
  EXPECT_FALSE(stream.read(order));
  EXPECT_TRUE(stream.finish().ok());
  EXPECT_FALSE(stream.write(Number{1}));  // the call ended
}

TEST(GrpcBidiStreaming, SeveralResponsesPerRequest) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();

  // In turns from one thread: a request, then its responses.
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = client.call(expand, context);
  for (std::int64_t n : {3, 1, 0, 5}) {
    ASSERT_TRUE(stream.write(Number{n}));
    ASSERT_TRUE(read_expansion(stream, n)) << n;
  }
  ASSERT_TRUE(stream.write(Number{2}));
  stream.writes_done();
  EXPECT_FALSE(stream.write(Number{2}));  // after writes_done
  EXPECT_TRUE(read_expansion(stream, 2));
  Order order;
  EXPECT_FALSE(stream.read(order));
  const grpc::Status status = stream.finish();
  ASSERT_TRUE(status.ok()) << status.error_message();

  // Writes from one thread, reads from another.
  grpc::ClientContext both_context;
  set_deadline(both_context);
  auto both = client.call(expand, both_context);
  std::thread writer([&] {
    for (std::int64_t n = 1; n <= 30; ++n)
      if (!both.write(Number{n})) break;
    both.writes_done();
  });
  std::int64_t complete = 0;
  for (std::int64_t n = 1; n <= 30 && read_expansion(both, n); ++n) complete = n;
  writer.join();
  EXPECT_EQ(complete, 30);
  EXPECT_FALSE(both.read(order));
  EXPECT_TRUE(both.finish().ok());

  // on_end's status is the call's.
  grpc::ClientContext zero_context;
  set_deadline(zero_context);
  auto zero = client.call(expand, zero_context);
  ASSERT_TRUE(zero.write(Number{0}));
  zero.writes_done();
  EXPECT_FALSE(zero.read(order));
  EXPECT_EQ(zero.finish().error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_EQ(numbers.counts.ended.load(), 3);
}

TEST(GrpcBidiStreaming, HandlerStatusesAndExceptionsEndTheCall) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();
  for (const std::int64_t fault : {-1, 666, 667}) {
    grpc::ClientContext context;
    set_deadline(context);
    auto stream = client.call(expand, context);
    ASSERT_TRUE(stream.write(Number{2}));
    ASSERT_TRUE(read_expansion(stream, 2));
    ASSERT_TRUE(stream.write(Number{fault}));
    Order order;
    EXPECT_FALSE(stream.read(order));
    const grpc::Status status = stream.finish();
    EXPECT_EQ(status.error_code(), fault < 0 ? grpc::StatusCode::OUT_OF_RANGE : grpc::StatusCode::UNKNOWN) << fault;
    EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
  }
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_EQ(numbers.counts.ended.load(), 0);
}

// A raw client (gRPC's byte-level generic stub) that writes each of requests in turn, then
// half-closes, and counts the responses.
struct raw_stream_result {
  grpc::Status status;
  int responses = 0;
};
raw_stream_result call_raw_stream(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                                  const std::vector<std::vector<std::byte>>& requests) {
  class reactor final : public grpc::ClientBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
   public:
    explicit reactor(const std::vector<std::vector<std::byte>>& requests) : requests_(requests) {}
    void begin() {
      StartRead(&in_);
      write_next();
      StartCall();
    }
    void OnWriteDone(bool ok) override {
      if (ok) write_next();  // a failed write: the call ended, OnDone tells how
    }
    void OnReadDone(bool ok) override {
      if (!ok) return;
      ++result.responses;
      StartRead(&in_);
    }
    void OnDone(const grpc::Status& s) override {
      std::lock_guard lock(mutex);
      result.status = s;
      done = true;
      done_changed.notify_one();
    }
    std::mutex mutex;
    std::condition_variable done_changed;
    bool done = false;
    raw_stream_result result;

   private:
    void write_next() {
      if (next_ == requests_.size()) {
        StartWritesDone();
        return;
      }
      const std::vector<std::byte>& bytes = requests_[next_++];
      const grpc::Slice slice(bytes.data(), bytes.size());
      out_ = grpc::ByteBuffer(&slice, 1);
      StartWrite(&out_);
    }
    const std::vector<std::vector<std::byte>>& requests_;
    std::size_t next_ = 0;
    grpc::ByteBuffer in_, out_;
  } call(requests);
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  set_deadline(context);
  stub.PrepareBidiStreamingCall(&context, method, grpc::StubOptions(), &call);
  call.begin();
  std::unique_lock lock(call.mutex);
  call.done_changed.wait(lock, [&] { return call.done; });
  return call.result;
}

TEST(GrpcStreaming, ABadRequestInTheMiddleIsInvalidArgumentWithTheOffset) {
  const number_server numbers;
  const auto channel = numbers.server->channel();
  const std::vector<std::byte> two = bifrons::to_bytes(Number{2});
  const std::vector<std::byte> bad{std::byte{0x7f}, std::byte{1}};
  const std::string expected = bifrons::try_from_bytes<Number>(bad).message();
  ASSERT_TRUE(contains(expected, "at byte")) << expected;

  raw_stream_result result = call_raw_stream(channel, sum.path, {two, two, bad, two});
  EXPECT_EQ(result.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(result.status.error_message(), expected);
  EXPECT_EQ(result.responses, 0);

  result = call_raw_stream(channel, expand.path, {two, bad, two});
  EXPECT_EQ(result.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(result.status.error_message(), expected);
  EXPECT_EQ(result.responses, 2);  // the answers to the first request

  // Random corruptions of the second request: answered as the library reads it.
  std::mt19937 random(36);
  const std::vector<std::byte> valid = bifrons::to_bytes(Number{3});
  for (int round = 0; round < 50; ++round) {
    std::vector<std::byte> bytes = valid;
    bytes[random() % bytes.size()] = static_cast<std::byte>(random());
    if (random() % 3 == 0) bytes.resize(random() % bytes.size());
    const bifrons::result<Number> local = bifrons::try_from_bytes<Number>(bytes);
    // The request last, then first; and first in a bidi call (answers to a valid value could
    // be endless: only the refused ones are sent there).
    result = call_raw_stream(channel, sum.path, {two, bytes});
    if (!local.has_value() || local->value != 667) {  // 667 last makes on_end throw
      const raw_stream_result first = call_raw_stream(channel, sum.path, {bytes, two});
      EXPECT_EQ(first.status.error_code(), result.status.error_code()) << first.status.error_message();
      EXPECT_EQ(first.status.error_message(), result.status.error_message());
    }
    if (!local.has_value()) {
      const raw_stream_result bidi = call_raw_stream(channel, expand.path, {bytes, two});
      EXPECT_EQ(bidi.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_EQ(bidi.status.error_message(), local.message());
      EXPECT_EQ(bidi.responses, 0);
    }
    if (local.has_value() && local->value >= 0 && local->value != 666 && local->value != 667) {
      EXPECT_TRUE(result.status.ok()) << result.status.error_message();
      EXPECT_EQ(result.responses, 1);
    } else if (!local.has_value()) {
      EXPECT_EQ(result.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_EQ(result.status.error_message(), local.message());
    }
  }
  EXPECT_TRUE(numbers.counts.all_gone());
}

// Messages of no bytes, in every position of a stream, both ways: not a value of any bifrons
// type, so each is refused with the library's text for an empty input.
TEST(GrpcStreaming, EmptyMessagesAreInvalidArgumentWherever) {
  const number_server numbers;
  const auto channel = numbers.server->channel();
  const std::vector<std::byte> two = bifrons::to_bytes(Number{2});
  const std::vector<std::byte> empty;
  const std::string expected = bifrons::try_from_bytes<Number>(empty).message();
  for (const auto& requests :
       std::vector<std::vector<std::vector<std::byte>>>{{empty}, {empty, two}, {two, empty}, {two, empty, two}}) {
    for (const std::string& path : {sum.path, expand.path}) {
      const raw_stream_result result = call_raw_stream(channel, path, requests);
      EXPECT_EQ(result.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << path;
      EXPECT_EQ(result.status.error_message(), expected) << path;
    }
  }
  for (const int count : {1, 2}) {
    raw_server empties(empty, count);
    const test_server server(empties);
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = bifrons::grpc::client(server.channel()).call(sum, context);
    (void)writer.write(Number{1});
    Total total{-5, -5};
    const grpc::Status status = writer.finish(total);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(status.error_message(), bifrons::try_from_bytes<Total>(empty).message());
    EXPECT_EQ(total.sum, -5);
    grpc::ClientContext stream_context;
    set_deadline(stream_context);
    auto stream = bifrons::grpc::client(server.channel()).call(expand, stream_context);
    (void)stream.write(Number{1});
    Order order;
    EXPECT_FALSE(stream.read(order));
    const grpc::Status stream_status = stream.finish();
    EXPECT_EQ(stream_status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(stream_status.error_message(), bifrons::try_from_bytes<Order>(empty).message());
  }
  EXPECT_TRUE(numbers.counts.all_gone());
}

// The read_options' budget is each message's, in a stream of requests and of responses: a call of
// many messages each within it reads them all, and one message over it ends the call.
struct Text {
  std::string text;
};
TEST(GrpcStreaming, TheBudgetIsEachMessagesNotTheStreams) {
  const bifrons::grpc::client_streaming_method<Text, Total> count{"/test.Budget/Count"};
  const bifrons::grpc::bidi_streaming_method<Text, Text> echo_texts{"/test.Budget/Echo"};
  bifrons::read_options options;
  options.max_alloc_bytes = 1000;
  bifrons::grpc::service service(options);
  service.on(count, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<Text, Total> {
    auto total = std::make_shared<Total>();
    return {[total](const Text& t) {
              total->sum += static_cast<std::int64_t>(t.text.size());
              ++total->count;
              return grpc::Status::OK;
            },
            [total](Total& out) {
              out = *total;
              return grpc::Status::OK;
            }};
  });
  service.on(echo_texts, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<Text, Text> {
    return {[](const Text& t) -> bifrons::grpc::response_stream<Text> { return Text{t.text + t.text}; }};
  });
  const test_server server(service);
  const bifrons::grpc::client client(server.channel(), options);
  const std::string within(800, 'w');
  {
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = client.call(count, context);
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(writer.write(Text{within}));
    Total total;
    ASSERT_TRUE(writer.finish(total).ok());
    EXPECT_EQ(total.sum, 50 * 800);
    EXPECT_EQ(total.count, 50);
  }
  {
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = client.call(count, context);
    ASSERT_TRUE(writer.write(Text{within}));
    (void)writer.write(Text{std::string(1200, 'o')});
    Total total;
    const grpc::Status status = writer.finish(total);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_TRUE(contains(status.error_message(), "allocation budget exceeded")) << status.error_message();
  }
  // Responses twice the request: 400 bytes read back 50 times; then 600, whose answer is over.
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = client.call(echo_texts, context);
  Text answer;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(stream.write(Text{std::string(400, 'e')}));
    ASSERT_TRUE(stream.read(answer));
    EXPECT_EQ(answer.text.size(), 800u);
  }
  ASSERT_TRUE(stream.write(Text{std::string(600, 'e')}));
  EXPECT_FALSE(stream.read(answer));
  const grpc::Status status = stream.finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(contains(status.error_message(), "allocation budget exceeded")) << status.error_message();
}

// A stream goes on after the client and the channel that started it are gone (the call holds the
// channel); finish() from one thread ends a read() blocked in another (the server sends nothing
// for 0); a stream destroyed with a read outstanding elsewhere is not tested: that is the
// caller's error, as destroying any object in use is.
TEST(GrpcBidiStreaming, AStreamOutlivesItsClientAndFinishEndsABlockedRead) {
  const number_server numbers;
  {
    grpc::ClientContext context;
    set_deadline(context);
    std::optional<bifrons::grpc::bidi_stream<Number, Order>> stream;
    {
      const std::shared_ptr<grpc::Channel> channel = numbers.server->channel();
      const bifrons::grpc::client client(channel);
      stream.emplace(client.call(expand, context));
    }
    ASSERT_TRUE(stream->write(Number{3}));
    EXPECT_TRUE(read_expansion(*stream, 3));
    stream->writes_done();
    Order order;
    EXPECT_FALSE(stream->read(order));
    EXPECT_TRUE(stream->finish().ok());
  }
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = numbers.client().call(expand, context);
  ASSERT_TRUE(stream.write(Number{0}));
  std::atomic<bool> read_returned{false};
  bool read = true;
  std::thread reader([&] {
    Order order;
    read = stream.read(order);
    read_returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(read_returned.load());  // nothing to read yet
  const grpc::Status status = stream.finish();
  reader.join();
  EXPECT_FALSE(read);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::CANCELLED) << status.error_message();
  EXPECT_FALSE(stream.write(Number{1}));
  EXPECT_TRUE(numbers.counts.all_gone());
}

// A server shut down (at once) while a client-streaming and a bidi call wait for requests, and a
// server-streaming call for its client to read: each ends on both sides, no on_end runs, and
// the calls' states are destroyed (AddressSanitizer: nothing used after).
TEST(GrpcStreaming, AServerShutDownMidStreamEndsItsCalls) {
  call_counts counts;
  bifrons::grpc::service service;
  add_number_methods(service, counts);
  add_account_methods(service);
  const test_server server(service);
  const bifrons::grpc::client client(server.channel());
  grpc::ClientContext sum_context, expand_context, orders_context;
  for (grpc::ClientContext* context : {&sum_context, &expand_context, &orders_context}) set_deadline(*context);
  auto writer = client.call(sum, sum_context);
  ASSERT_TRUE(writer.write(Number{1}));
  auto stream = client.call(expand, expand_context);
  ASSERT_TRUE(stream.write(Number{2}));
  EXPECT_TRUE(read_expansion(stream, 2));
  auto reader = client.call(orders, orders_context, Range{0, 1000000});
  Order order;
  ASSERT_TRUE(reader.read(order));

  const auto start = std::chrono::steady_clock::now();
  server.server->Shutdown(in(std::chrono::milliseconds(0)));
  EXPECT_FALSE(stream.read(order));
  EXPECT_FALSE(stream.finish().ok());
  Total total{-5, -5};
  EXPECT_FALSE(writer.finish(total).ok());
  EXPECT_EQ(total.sum, -5);
  while (reader.read(order)) {
  }
  EXPECT_FALSE(reader.finish().ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));  // not the deadline
  EXPECT_TRUE(counts.all_gone());
  EXPECT_EQ(counts.ended.load(), 0);
}

// A writer thread, a reader thread and finish() from a third at a random moment, on one bidi
// stream, many times (AddressSanitizer and UndefinedBehaviorSanitizer watch): every call ends
// with OK or CANCELLED, each thread's operations return, and no server call is left.
TEST(GrpcBidiStreaming, FinishRacingAWriterAndAReader) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();
  std::mt19937 random(42);
  int cancelled = 0;
  for (int round = 0; round < 60; ++round) {
    grpc::ClientContext context;
    set_deadline(context);
    auto stream = client.call(expand, context);
    const int requests = static_cast<int>(random() % 20);
    const auto wait = std::chrono::microseconds(random() % 3000);
    std::thread writer([&] {
      for (int i = 0; i < requests; ++i)
        if (!stream.write(Number{i % 3 + 1})) break;
      stream.writes_done();
    });
    std::thread reader([&] {
      Order order;
      while (stream.read(order)) {
      }
    });
    std::this_thread::sleep_for(wait);
    const grpc::Status status = stream.finish();
    writer.join();
    reader.join();
    EXPECT_TRUE(status.ok() || status.error_code() == grpc::StatusCode::CANCELLED) << status.error_message();
    if (!status.ok()) ++cancelled;
  }
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_GT(cancelled, 0);  // finish() met calls still running
}

TEST(GrpcStreaming, AClientThatCancelsOrGoesAwayEndsTheServersCall) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();
  for (int round = 0; round < 3; ++round) {
    {
      grpc::ClientContext context;
      set_deadline(context);
      auto writer = client.call(sum, context);
      ASSERT_TRUE(writer.write(Number{1}));
      ASSERT_TRUE(writer.write(Number{2}));
    }  // destroyed unfinished: cancelled
    {
      grpc::ClientContext context;
      set_deadline(context);
      auto writer = client.call(sum, context);
      ASSERT_TRUE(writer.write(Number{1}));
      context.TryCancel();
      EXPECT_FALSE(writer.write(Number{2}));
      Total total{-5, -5};
      EXPECT_EQ(writer.finish(total).error_code(), grpc::StatusCode::CANCELLED);
      EXPECT_EQ(total.sum, -5);
    }
    {
      grpc::ClientContext context;
      set_deadline(context);
      auto stream = client.call(expand, context);
      // Endless in practice: only the client ends it, after two responses.
      ASSERT_TRUE(stream.write(Number{std::numeric_limits<std::int32_t>::max()}));
      Order order;
      ASSERT_TRUE(stream.read(order));
      ASSERT_TRUE(stream.read(order));
      if (round == 1) {
        EXPECT_EQ(stream.finish().error_code(), grpc::StatusCode::CANCELLED);
        EXPECT_FALSE(stream.read(order));
        EXPECT_FALSE(stream.write(Number{1}));
      }
    }
  }
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_EQ(numbers.counts.ended.load(), 0);
  grpc::ClientContext context;
  set_deadline(context);
  auto writer = client.call(sum, context);
  ASSERT_TRUE(writer.write(Number{4}));
  Total total;
  ASSERT_TRUE(writer.finish(total).ok());
  EXPECT_EQ(total.sum, 4);
}

TEST(GrpcStreaming, ADeadlineEndsACallWhoseServerWaitsForRequests) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();
  {
    grpc::ClientContext context;
    context.set_deadline(in(std::chrono::milliseconds(200)));
    auto writer = client.call(sum, context);
    ASSERT_TRUE(writer.write(Number{1}));
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    EXPECT_FALSE(writer.write(Number{2}));
    Total total;
    EXPECT_EQ(writer.finish(total).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  {
    grpc::ClientContext context;
    context.set_deadline(in(std::chrono::milliseconds(200)));
    auto stream = client.call(expand, context);
    ASSERT_TRUE(stream.write(Number{1}));
    ASSERT_TRUE(read_expansion(stream, 1));
    // Waits for a response the server will send only after a request: the deadline ends it.
    Order order;
    const auto started = std::chrono::steady_clock::now();
    EXPECT_FALSE(stream.read(order));
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    EXPECT_EQ(stream.finish().error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_EQ(numbers.counts.ended.load(), 0);
}

TEST(GrpcStreaming, UnknownStreamingMethodsAreUnimplemented) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();
  {
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = client.call(bifrons::grpc::client_streaming_method<Number, Total>{"/test.Numbers/Missing"}, context);
    (void)writer.write(Number{1});
    Total total;
    EXPECT_EQ(writer.finish(total).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  }
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = client.call(bifrons::grpc::bidi_streaming_method<Number, Order>{"/other.Numbers/Expand"}, context);
  (void)stream.write(Number{1});
  Order order;
  EXPECT_FALSE(stream.read(order));
  EXPECT_EQ(stream.finish().error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

TEST(GrpcStreaming, ConcurrentStreamsFromManyThreads) {
  const number_server numbers;
  const bifrons::grpc::client client = numbers.client();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (std::int64_t t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (std::int64_t round = 0; round < 10; ++round) {
        grpc::ClientContext context;
        set_deadline(context);
        auto writer = client.call(sum, context);
        for (std::int64_t i = 1; i <= 20; ++i) (void)writer.write(Number{t * i});
        Total total;
        if (!writer.finish(total).ok() || total.sum != t * 210 || total.count != 20) ++failures;

        grpc::ClientContext stream_context;
        set_deadline(stream_context);
        auto stream = client.call(expand, stream_context);
        for (std::int64_t n = 1; n <= 4; ++n)
          if (!stream.write(Number{t + n}) || !read_expansion(stream, t + n)) ++failures;
        stream.writes_done();
        Order order;
        if (stream.read(order) || !stream.finish().ok()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_TRUE(numbers.counts.all_gone());
  EXPECT_EQ(numbers.counts.ended.load(), 8 * 10 * 2);
}

// A request whose save hook refuses a negative value: the client cannot write it.
struct Refusable {
  std::int64_t value = 0;
  template <class Archive>
  void save(Archive& ar) const {
    if (value < 0) throw std::runtime_error("refused by its save hook");
    ar(value);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(value);
  }
};

TEST(GrpcStreaming, ARequestTheClientCannotWriteEndsTheCall) {
  const bifrons::grpc::client_streaming_method<Refusable, Total> count{"/test.Refusable/Count"};
  std::atomic<int> ended{0};
  bifrons::grpc::service service;
  service.on(count, [&ended](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<Refusable, Total> {
    return {[](const Refusable&) { return grpc::Status::OK; },
            [&ended](Total&) {
              ++ended;
              return grpc::Status::OK;
            }};
  });
  const test_server server(service);
  grpc::ClientContext context;
  set_deadline(context);
  auto writer = bifrons::grpc::client(server.channel()).call(count, context);
  ASSERT_TRUE(writer.write(Refusable{1}));
  EXPECT_FALSE(writer.write(Refusable{-1}));
  EXPECT_FALSE(writer.write(Refusable{2}));  // the call ended
  Total total;
  const grpc::Status status = writer.finish(total);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_TRUE(contains(status.error_message(), "refused by its save hook")) << status.error_message();
  EXPECT_EQ(ended.load(), 0);  // cancelled, not ended
}

// A response whose save hook throws (Refusable{-1}), from a method of each kind: the client sees
// INTERNAL and not the hook's text, which is the server's business like a handler's exception.
TEST(GrpcService, AResponseTheServerCannotWriteDoesNotShowTheClientWhy) {
  const bifrons::grpc::unary_method<Number, Refusable> one{"/test.Unwritable/One"};
  const bifrons::grpc::server_streaming_method<Number, Refusable> many{"/test.Unwritable/Many"};
  const bifrons::grpc::client_streaming_method<Number, Refusable> gather{"/test.Unwritable/Gather"};
  const bifrons::grpc::bidi_streaming_method<Number, Refusable> each{"/test.Unwritable/Each"};
  bifrons::grpc::service service;
  service.on(one, [](grpc::CallbackServerContext&, const Number& n, Refusable& out) {
    out.value = n.value;
    return grpc::Status::OK;
  });
  // The responses n - 1 down to -1: the last cannot be written.
  service.on(many, [](grpc::CallbackServerContext&, const Number& n) -> bifrons::grpc::response_stream<Refusable> {
    return [next = n.value - 1]() mutable { return std::optional<Refusable>(Refusable{next--}); };
  });
  service.on(gather, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<Number, Refusable> {
    return {[](const Number&) { return grpc::Status::OK; },
            [](Refusable& out) {
              out.value = -1;
              return grpc::Status::OK;
            }};
  });
  service.on(each, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<Number, Refusable> {
    return {[](const Number& n) -> bifrons::grpc::response_stream<Refusable> { return Refusable{n.value}; }};
  });
  const test_server server(service);
  const bifrons::grpc::client client(server.channel());
  const auto expect_hidden = [](const grpc::Status& status) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
    EXPECT_FALSE(contains(status.error_message(), "refused by its save hook")) << status.error_message();
    EXPECT_TRUE(contains(status.error_message(), "could not write its response")) << status.error_message();
  };
  {
    grpc::ClientContext context;
    set_deadline(context);
    Refusable out{5};
    expect_hidden(client.call(one, context, Number{-1}, out));
    EXPECT_EQ(out.value, 5);
  }
  {
    grpc::ClientContext context;
    set_deadline(context);
    auto reader = client.call(many, context, Number{2});
    Refusable out;
    ASSERT_TRUE(reader.read(out));
    EXPECT_EQ(out.value, 1);
    ASSERT_TRUE(reader.read(out));
    EXPECT_EQ(out.value, 0);
    EXPECT_FALSE(reader.read(out));
    expect_hidden(reader.finish());
  }
  {
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = client.call(gather, context);
    ASSERT_TRUE(writer.write(Number{1}));
    Refusable out{5};
    expect_hidden(writer.finish(out));
    EXPECT_EQ(out.value, 5);
  }
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = client.call(each, context);
  ASSERT_TRUE(stream.write(Number{3}));
  Refusable out;
  ASSERT_TRUE(stream.read(out));
  EXPECT_EQ(out.value, 3);
  (void)stream.write(Number{-1});
  EXPECT_FALSE(stream.read(out));
  expect_hidden(stream.finish());
}

// A request whose save hook, the first time it runs, waits (at most 3 s) until another thread's
// read() on the same stream returned, and records whether it did.
struct read_gate {
  std::mutex mutex;
  std::condition_variable changed;
  bool hook_entered = false;
  bool read_returned = false;
  bool read_returned_during_hook = false;
};
struct Gated {
  std::int64_t value = 0;
  read_gate* gate = nullptr;  // not on the wire
  template <class Archive>
  void save(Archive& ar) const {
    if (gate) {
      std::unique_lock lock(gate->mutex);
      if (!std::exchange(gate->hook_entered, true)) {
        gate->changed.notify_all();
        gate->read_returned_during_hook = gate->changed.wait_for(lock, std::chrono::seconds(3),
                                                                 [&] { return gate->read_returned; });
      }
    }
    ar(value);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(value);
  }
};

// The client writes a request (running its save hooks) without holding the stream's lock: a read
// from another thread starts and completes meanwhile.
TEST(GrpcBidiStreaming, AReadCompletesWhileAWriteRunsTheRequestsSaveHook) {
  const bifrons::grpc::bidi_streaming_method<Gated, Number> echo{"/test.Gated/Echo"};
  bifrons::grpc::service service;
  service.on(echo, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<Gated, Number> {
    return {[](const Gated& g) -> bifrons::grpc::response_stream<Number> { return Number{g.value}; }};
  });
  const test_server server(service);
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = bifrons::grpc::client(server.channel()).call(echo, context);
  ASSERT_TRUE(stream.write(Gated{1}));
  read_gate gate;
  std::thread reader([&] {
    {
      std::unique_lock lock(gate.mutex);
      gate.changed.wait_for(lock, std::chrono::seconds(5), [&] { return gate.hook_entered; });
    }
    Number number;
    const bool read = stream.read(number);
    const std::lock_guard lock(gate.mutex);
    gate.read_returned = read && number.value == 1;
    gate.changed.notify_all();
  });
  EXPECT_TRUE(stream.write(Gated{2, &gate}));
  reader.join();
  EXPECT_TRUE(gate.read_returned_during_hook);
  stream.writes_done();
  Number number;
  ASSERT_TRUE(stream.read(number));
  EXPECT_EQ(number.value, 2);
  EXPECT_FALSE(stream.read(number));
  EXPECT_TRUE(stream.finish().ok());
}

// A message whose default constructor throws off the test's own thread: on the server, where a
// call's request, a unary handler's response and a client-streaming on_end's response are made.
struct Touchy {
  static inline std::thread::id client_thread;
  Touchy() {
    if (std::this_thread::get_id() != client_thread) throw std::runtime_error("secret detail");
  }
  std::int64_t value = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value);
  }
};

TEST(GrpcStreaming, AMessageWhoseConstructorThrowsOnTheServerEndsTheCallWithUnknown) {
  Touchy::client_thread = std::this_thread::get_id();
  const bifrons::grpc::unary_method<Number, Touchy> one{"/test.Touchy/One"};
  const bifrons::grpc::client_streaming_method<Number, Touchy> gather{"/test.Touchy/Gather"};
  std::atomic<int> ended{0};
  bifrons::grpc::service service;
  service.on(one, [](grpc::CallbackServerContext&, const Number&, Touchy&) { return grpc::Status::OK; });
  service.on(gather, [&ended](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<Number, Touchy> {
    return {[](const Number&) { return grpc::Status::OK; },
            [&ended](Touchy&) {
              ++ended;
              return grpc::Status::OK;
            }};
  });
  const test_server server(service);
  const bifrons::grpc::client client(server.channel());
  for (int round = 0; round < 2; ++round) {  // the server goes on serving
    grpc::ClientContext context;
    set_deadline(context);
    Touchy out;
    grpc::Status status = client.call(one, context, Number{1}, out);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNKNOWN);
    EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
    grpc::ClientContext stream_context;
    set_deadline(stream_context);
    auto writer = client.call(gather, stream_context);
    ASSERT_TRUE(writer.write(Number{1}));
    status = writer.finish(out);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNKNOWN);
    EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
  }
  EXPECT_EQ(ended.load(), 0);

  // As a request: the server makes one for each call, before the handler runs.
  const bifrons::grpc::unary_method<Touchy, Number> take{"/test.Touchy/Take"};
  const bifrons::grpc::bidi_streaming_method<Touchy, Number> take_many{"/test.Touchy/TakeMany"};
  bifrons::grpc::service requests;
  requests.on(take, [](grpc::CallbackServerContext&, const Touchy&, Number&) { return grpc::Status::OK; });
  requests.on(take_many, [](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<Touchy, Number> {
    return {[](const Touchy&) -> bifrons::grpc::response_stream<Number> { return Number{1}; }};
  });
  const test_server request_server(requests);
  const bifrons::grpc::client request_client(request_server.channel());
  for (int round = 0; round < 2; ++round) {
    grpc::ClientContext context;
    set_deadline(context);
    Number out;
    grpc::Status status = request_client.call(take, context, Touchy{}, out);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNKNOWN);
    EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
    grpc::ClientContext stream_context;
    set_deadline(stream_context);
    auto stream = request_client.call(take_many, stream_context);
    (void)stream.write(Touchy{});
    EXPECT_FALSE(stream.read(out));
    status = stream.finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNKNOWN);
    EXPECT_FALSE(contains(status.error_message(), "secret")) << status.error_message();
  }
}

// Servers that answer a stream of requests badly (raw_server: the same bytes, count times).
TEST(GrpcStreaming, BadAnswersToStreamsOfRequestsAreReported) {
  std::vector<std::byte> truncated = bifrons::to_bytes(Total{1000, 2000});
  truncated.pop_back();
  const std::string expected = bifrons::try_from_bytes<Total>(truncated).message();
  const auto finish_sum = [](raw_server& raw, Total& total) {
    const test_server server(raw);
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = bifrons::grpc::client(server.channel()).call(sum, context);
    (void)writer.write(Number{1});
    return writer.finish(total);
  };
  Total total{-5, -5};
  raw_server bad(truncated, 1);
  grpc::Status status = finish_sum(bad, total);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), expected);
  raw_server twice(bifrons::to_bytes(Total{7, 1}), 2);
  status = finish_sum(twice, total);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_TRUE(contains(status.error_message(), "more than one response")) << status.error_message();
  raw_server never(bifrons::to_bytes(Total{7, 1}), 0);
  status = finish_sum(never, total);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_TRUE(contains(status.error_message(), "no response")) << status.error_message();
  EXPECT_EQ(total.sum, -5);
  raw_server once(bifrons::to_bytes(Total{7, 1}), 1);
  ASSERT_TRUE(finish_sum(once, total).ok());
  EXPECT_EQ(total.sum, 7);

  std::vector<std::byte> bad_order = bifrons::to_bytes(Order{1, "one", 1.0});
  bad_order.pop_back();
  raw_server bad_orders(bad_order, 3);
  const test_server server(bad_orders);
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = bifrons::grpc::client(server.channel()).call(expand, context);
  (void)stream.write(Number{1});
  Order order;
  EXPECT_FALSE(stream.read(order));
  EXPECT_FALSE(stream.read(order));  // the call ended at the first bad answer
  status = stream.finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), bifrons::try_from_bytes<Order>(bad_order).message());
}

TEST(GrpcService, RefusesMalformedAndDuplicateMethodPaths) {
  bifrons::grpc::service service;
  auto handler = [](grpc::CallbackServerContext&, const Lookup&, Lookup&) { return grpc::Status::OK; };
  EXPECT_THROW(service.on(bifrons::grpc::unary_method<Lookup, Lookup>{"test.Accounts/Echo"}, handler),
               std::invalid_argument);
  EXPECT_THROW(service.on(bifrons::grpc::unary_method<Lookup, Lookup>{"/test.Accounts/"}, handler),
               std::invalid_argument);
  EXPECT_THROW(service.on(bifrons::grpc::unary_method<Lookup, Lookup>{"/a/b/c"}, handler), std::invalid_argument);
  service.on(bifrons::grpc::unary_method<Lookup, Lookup>{"/test.Accounts/Echo"}, handler);
  EXPECT_THROW(service.on(bifrons::grpc::unary_method<Lookup, Lookup>{"/test.Accounts/Echo"}, handler),
               std::invalid_argument);
}

// Two deployments of one service: v2 appends a field to the request and to the response, and
// adds a method. Old and new clients and servers call each other.
namespace v1 {
struct GetRequest {
  std::string key;
};
struct GetReply {
  std::string value;
};
struct PutRequest {
  std::string key;
  std::string value;
};
struct PutReply {
  std::int64_t count = 0;
};
const bifrons::grpc::unary_method<GetRequest, GetReply> get{"/kv.Store/Get"};
const bifrons::grpc::client_streaming_method<PutRequest, PutReply> put_many{"/kv.Store/PutMany"};
const bifrons::grpc::bidi_streaming_method<GetRequest, GetReply> get_many{"/kv.Store/GetMany"};

void serve(bifrons::grpc::service& service, std::map<std::string, std::string>& store) {
  service.on(get, [&store](grpc::CallbackServerContext&, const GetRequest& in, GetReply& out) {
    const auto found = store.find(in.key);
    if (found == store.end()) return grpc::Status(grpc::StatusCode::NOT_FOUND, in.key);
    out.value = found->second;
    return grpc::Status::OK;
  });
  service.on(put_many, [&store](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<PutRequest, PutReply> {
    auto count = std::make_shared<std::int64_t>(0);
    return {[&store, count](const PutRequest& in) {
              store[in.key] = in.value;
              ++*count;
              return grpc::Status::OK;
            },
            [count](PutReply& out) {
              out.count = *count;
              return grpc::Status::OK;
            }};
  });
  service.on(get_many,
             [&store](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<GetRequest, GetReply> {
               // One response per request.
               return {[&store](const GetRequest& in) -> bifrons::grpc::response_stream<GetReply> {
                 return GetReply{store[in.key]};
               }};
             });
}
}  // namespace v1

namespace v2 {
struct GetRequest {
  std::string key;
  bool upper_case = false;  // appended in v2
};
struct GetReply {
  std::string value;
  std::int64_t version = -1;  // appended in v2
};
struct DeleteRequest {
  std::string key;
};
struct DeleteReply {
  bool deleted = false;
};
struct PutRequest {
  std::string key;
  std::string value;
  bool upper_case = false;  // appended in v2
};
struct PutReply {
  std::int64_t count = 0;
  std::int64_t version = -1;  // appended in v2
};
const bifrons::grpc::unary_method<GetRequest, GetReply> get{"/kv.Store/Get"};
const bifrons::grpc::unary_method<DeleteRequest, DeleteReply> remove{"/kv.Store/Delete"};
const bifrons::grpc::client_streaming_method<PutRequest, PutReply> put_many{"/kv.Store/PutMany"};
const bifrons::grpc::bidi_streaming_method<GetRequest, GetReply> get_many{"/kv.Store/GetMany"};

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return text;
}

void serve(bifrons::grpc::service& service, std::map<std::string, std::string>& store) {
  service.on(get, [&store](grpc::CallbackServerContext&, const GetRequest& in, GetReply& out) {
    const auto found = store.find(in.key);
    if (found == store.end()) return grpc::Status(grpc::StatusCode::NOT_FOUND, in.key);
    out.value = in.upper_case ? upper(found->second) : found->second;
    out.version = 2;
    return grpc::Status::OK;
  });
  service.on(remove, [&store](grpc::CallbackServerContext&, const DeleteRequest& in, DeleteReply& out) {
    out.deleted = store.erase(in.key) == 1;
    return grpc::Status::OK;
  });
  service.on(put_many, [&store](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<PutRequest, PutReply> {
    auto count = std::make_shared<std::int64_t>(0);
    return {[&store, count](const PutRequest& in) {
              store[in.key] = in.upper_case ? upper(in.value) : in.value;
              ++*count;
              return grpc::Status::OK;
            },
            [count](PutReply& out) {
              out.count = *count;
              out.version = 2;
              return grpc::Status::OK;
            }};
  });
  service.on(get_many,
             [&store](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<GetRequest, GetReply> {
               return {[&store](const GetRequest& in) -> bifrons::grpc::response_stream<GetReply> {
                 const std::string& value = store[in.key];
                 return GetReply{in.upper_case ? upper(value) : value, 2};
               }};
             });
}
}  // namespace v2

TEST(GrpcEvolution, V1ClientCallsV2Server) {
  std::map<std::string, std::string> store{{"k", "value"}};
  bifrons::grpc::service service;
  v2::serve(service, store);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());

  grpc::ClientContext context;
  set_deadline(context);
  v1::GetReply reply;
  // The v2 server reads the v1 request with upper_case at its default, and the v1 client skips
  // the version it does not know.
  const grpc::Status status = client.call(v1::get, context, v1::GetRequest{"k"}, reply);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply.value, "value");
}

TEST(GrpcEvolution, V2ClientCallsV1Server) {
  std::map<std::string, std::string> store{{"k", "value"}};
  bifrons::grpc::service service;
  v1::serve(service, store);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());

  v2::GetReply reply;
  {
    grpc::ClientContext context;
    set_deadline(context);
    // The v1 server skips upper_case; the v2 client reads no version: its default stays.
    const grpc::Status status = client.call(v2::get, context, v2::GetRequest{"k", true}, reply);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(reply.value, "value");
    EXPECT_EQ(reply.version, -1);
  }
  grpc::ClientContext context;
  set_deadline(context);
  v2::DeleteReply deleted;
  EXPECT_EQ(client.call(v2::remove, context, v2::DeleteRequest{"k"}, deleted).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(store.size(), 1u);
}

TEST(GrpcEvolution, V2ClientCallsV2Server) {
  std::map<std::string, std::string> store{{"k", "value"}};
  bifrons::grpc::service service;
  v2::serve(service, store);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());
  v2::GetReply reply;
  {
    grpc::ClientContext context;
    set_deadline(context);
    ASSERT_TRUE(client.call(v2::get, context, v2::GetRequest{"k", true}, reply).ok());
    EXPECT_EQ(reply.value, "VALUE");
    EXPECT_EQ(reply.version, 2);
  }
  grpc::ClientContext context;
  set_deadline(context);
  v2::DeleteReply deleted;
  ASSERT_TRUE(client.call(v2::remove, context, v2::DeleteRequest{"k"}, deleted).ok());
  EXPECT_TRUE(deleted.deleted);
}

// The streaming methods of the two deployments: each side reads what it understands.
TEST(GrpcEvolution, V1StreamingClientCallsV2Server) {
  std::map<std::string, std::string> store;
  bifrons::grpc::service service;
  v2::serve(service, store);
  test_server server(service);
  const bifrons::grpc::client client(server.channel());
  {
    grpc::ClientContext context;
    set_deadline(context);
    auto writer = client.call(v1::put_many, context);
    ASSERT_TRUE(writer.write(v1::PutRequest{"a", "apple"}));
    ASSERT_TRUE(writer.write(v1::PutRequest{"b", "banana"}));
    v1::PutReply reply;
    const grpc::Status status = writer.finish(reply);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(reply.count, 2);  // and the v1 client skipped the version
  }
  EXPECT_EQ(store["a"], "apple");  // the v2 server read upper_case at its default
  // A v2 request then a v1 request on one stream: the server reads each into the same object,
  // and the second's missing field is its default, not the first's value.
  const raw_stream_result mixed = call_raw_stream(server.channel(), v2::put_many.path,
                                                  {bifrons::to_bytes(v2::PutRequest{"c", "cherry", true}),
                                                   bifrons::to_bytes(v1::PutRequest{"d", "date"})});
  ASSERT_TRUE(mixed.status.ok()) << mixed.status.error_message();
  EXPECT_EQ(store["c"], "CHERRY");
  EXPECT_EQ(store["d"], "date");
  grpc::ClientContext context;
  set_deadline(context);
  auto stream = client.call(v1::get_many, context);
  v1::GetReply reply;
  for (const char* key : {"b", "a"}) {
    ASSERT_TRUE(stream.write(v1::GetRequest{key}));
    ASSERT_TRUE(stream.read(reply));
    EXPECT_EQ(reply.value, store[key]);
  }
  stream.writes_done();
  EXPECT_FALSE(stream.read(reply));
  EXPECT_TRUE(stream.finish().ok());
}

TEST(GrpcEvolution, V2StreamingClientCallsV1AndV2Servers) {
  for (const bool new_server : {false, true}) {
    std::map<std::string, std::string> store;
    bifrons::grpc::service service;
    if (new_server)
      v2::serve(service, store);
    else
      v1::serve(service, store);
    test_server server(service);
    const bifrons::grpc::client client(server.channel());
    {
      grpc::ClientContext context;
      set_deadline(context);
      auto writer = client.call(v2::put_many, context);
      ASSERT_TRUE(writer.write(v2::PutRequest{"a", "apple", true}));
      v2::PutReply reply;
      const grpc::Status status = writer.finish(reply);
      ASSERT_TRUE(status.ok()) << status.error_message();
      EXPECT_EQ(reply.count, 1);
      // A v1 server sends no version (its default stays) and skips upper_case.
      EXPECT_EQ(reply.version, new_server ? 2 : -1);
    }
    EXPECT_EQ(store["a"], new_server ? "APPLE" : "apple");
    grpc::ClientContext context;
    set_deadline(context);
    auto stream = client.call(v2::get_many, context);
    ASSERT_TRUE(stream.write(v2::GetRequest{"a", false}));
    v2::GetReply reply;
    ASSERT_TRUE(stream.read(reply));
    EXPECT_EQ(reply.value, store["a"]);
    EXPECT_EQ(reply.version, new_server ? 2 : -1);
    stream.writes_done();
    EXPECT_FALSE(stream.read(reply));
    EXPECT_TRUE(stream.finish().ok());
  }
}

}  // namespace
