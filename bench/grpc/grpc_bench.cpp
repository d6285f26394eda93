// One echo service twice over 127.0.0.1: with protoc-generated protobuf messages and with bifrons
// types through <bifrons/grpc.hpp>. The Account model of the benchmark suite and a 1 MiB payload;
// requests per second and p50/p99 latency with one client thread and with 16 concurrent calls;
// the bytes of the 1 MiB payload copied by memcpy/memmove in one round trip (copy_counter.cpp,
// builds without sanitizers). Both servers are callback services in one process, both clients
// call through gRPC's callback API and wait for the answer, and both handlers copy the request
// into the response.
//
//   grpc_bench                    5 s per case
//   grpc_bench --smoke            a few calls per case: every answer checked, no timing worth reading
//   grpc_bench --profile LIBRARY  only 2,000 Account echoes through LIBRARY (protobuf or bifrons),
//                                 one at a time: the program to run under a profiler
#include <bifrons/grpc.hpp>
#include <bifrons/types/array.hpp>
#include <bifrons/types/string.hpp>
#include <bifrons/types/vector.hpp>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../harness/models.hpp"
#include "copy_counter.hpp"
#include "grpc_bench.grpc.pb.h"

namespace model {
using bench::model::Account;
struct Blob {
  std::vector<std::byte> payload;
  friend bool operator==(const Blob&, const Blob&) = default;
};
// The same message with the payload held in a gRPC slice (written identically).
struct SliceBlob {
  bifrons::grpc::bytes payload;
  friend bool operator==(const SliceBlob&, const SliceBlob&) = default;
};
}  // namespace model

namespace {

const bifrons::grpc::unary_method<model::Account, model::Account> echo_account{
    "/bifrons_bench.BifronsEcho/EchoAccount"};
const bifrons::grpc::unary_method<model::Blob, model::Blob> echo_blob{"/bifrons_bench.BifronsEcho/EchoBlob"};
const bifrons::grpc::unary_method<model::SliceBlob, model::SliceBlob> echo_slice_blob{
    "/bifrons_bench.BifronsEcho/EchoSliceBlob"};

constexpr std::size_t payload_size = std::size_t{1} << 20;

// The suite's Account (bench/harness/models.hpp, make_account) as its protobuf message, field for
// field as the suite's protobuf adapter fills it.
benchpb::Account to_proto(const model::Account& account) {
  benchpb::Account a;
  a.set_id(account.id);
  a.set_name(account.name);
  a.mutable_wallet()->set_currency(account.wallet.currency,
                                   strnlen(account.wallet.currency, sizeof account.wallet.currency));
  a.mutable_wallet()->set_amount(account.wallet.amount);
  for (const bench::model::Order& order : account.orders) {
    benchpb::Order* o = a.add_orders();
    o->set_id(order.id);
    o->set_symbol(order.symbol, strnlen(order.symbol, sizeof order.symbol));
    o->set_side(static_cast<benchpb::OrderSide>(order.side));
    o->set_type(static_cast<benchpb::OrderType>(order.type));
    o->set_price(order.price);
    o->set_volume(order.volume);
  }
  return a;
}
std::vector<std::byte> make_payload() {
  std::vector<std::byte> p(payload_size);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::byte>(i * 131 % 251);
  return p;
}

class proto_echo final : public bifrons_grpc_bench::Echo::CallbackService {
  grpc::ServerUnaryReactor* EchoAccount(grpc::CallbackServerContext* context, const benchpb::Account* in,
                                        benchpb::Account* out) override {
    *out = *in;
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
  grpc::ServerUnaryReactor* EchoBlob(grpc::CallbackServerContext* context, const bifrons_grpc_bench::Blob* in,
                                     bifrons_grpc_bench::Blob* out) override {
    *out = *in;
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
};

// The floor of the transport path bifrons takes: gRPC's generic API carrying a message's bytes
// without reading or writing them. The bifrons service answers the floor's method with a reactor
// that echoes the received ByteBuffer as it is (the same server, threads and completion queues).
const std::string floor_path = "/bifrons_bench.Floor/EchoBytes";

class raw_echo final : public grpc::ServerGenericBidiReactor {
 public:
  raw_echo() { StartRead(&buffer_); }
  void OnReadDone(bool ok) override {
    if (!ok) {
      Finish({grpc::StatusCode::INVALID_ARGUMENT, "no request"});
      return;
    }
    StartWriteAndFinish(&buffer_, grpc::WriteOptions(), grpc::Status::OK);
  }
  void OnDone() override { delete this; }

 private:
  grpc::ByteBuffer buffer_;
};

class service_with_floor final : public bifrons::grpc::service {
 public:
  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext* context) override {
    if (context->method() == floor_path) return new raw_echo();
    return bifrons::grpc::service::CreateReactor(context);
  }
};

void set_deadline(grpc::ClientContext& context) {
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
}

// CPU time of the whole process (client and server, every thread), in microseconds.
double process_cpu_us() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto us = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_usec); };
  return us(usage.ru_utime) + us(usage.ru_stime);
}

struct result {
  double cpu_us_per_call = 0;  // less sensitive than requests/s to what else the machine runs
  double rps = 0;
  double p50_us = 0;
  double p99_us = 0;
  bool ok = true;
};

// Runs call() on `threads` threads, each until the time is up (or `calls` times in smoke mode).
result measure(const std::function<bool()>& call, int threads, std::chrono::milliseconds duration, int calls) {
  std::vector<std::vector<double>> latencies(static_cast<std::size_t>(threads));
  std::atomic<bool> ok{true};
  const double cpu_before = process_cpu_us();
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + duration;
  std::vector<std::thread> workers;
  for (std::size_t t = 0; t < latencies.size(); ++t) {
    workers.emplace_back([&, t] {
      for (int i = 0; calls > 0 ? i < calls : std::chrono::steady_clock::now() < end; ++i) {
        const auto before = std::chrono::steady_clock::now();
        if (!call()) ok = false;
        latencies[t].push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - before).count());
      }
    });
  }
  for (std::thread& w : workers) w.join();
  const double cpu_us = process_cpu_us() - cpu_before;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  result r;
  r.ok = ok && !all.empty();
  if (all.empty()) return r;
  r.rps = static_cast<double>(all.size()) / seconds;
  r.cpu_us_per_call = cpu_us / static_cast<double>(all.size());
  r.p50_us = all[all.size() / 2];
  r.p99_us = all[std::min(all.size() - 1, all.size() * 99 / 100)];
  return r;
}

// Payload copies (bytes copied by memcpy/memmove in calls of 1 KiB or more, over the payload's
// size) while f runs.
template <class F>
double payload_copies(F&& f) {
  bench_copies::start();
  f();
  return static_cast<double>(bench_copies::stop()) / static_cast<double>(payload_size);
}

// buffer's bytes as gRPC hands over a large received message: many slices (here 16 KiB each, one
// HTTP/2 frame's worth), referring to the same memory.
grpc::ByteBuffer in_slices(const grpc::ByteBuffer& buffer) {
  grpc::Slice whole;
  if (!buffer.DumpToSingleSlice(&whole).ok()) return {};
  std::vector<grpc::Slice> pieces;
  for (std::size_t at = 0; at < whole.size(); at += 16384)
    pieces.push_back(whole.sub(at, std::min(whole.size(), at + 16384)));
  return grpc::ByteBuffer(pieces.data(), pieces.size());
}

struct step_copies {
  double write = 0;       // the sender's serialization into gRPC's slices
  double read_one = 0;    // reading a message that arrived in one slice
  double read_many = 0;   // reading a message that arrived in 16 KiB slices
  double handler = 0;     // the echo handler's `out = in`
};

// The copies of each step for message type M, through gRPC's serialization traits for Wire (M
// itself, or bifrons::grpc::message<M>).
template <class Wire, class M>
step_copies count_steps(const M& value, const std::function<bool(const M&, const M&)>& equal) {
  using traits = grpc::SerializationTraits<Wire>;
  const auto wire = [](M& m) -> decltype(auto) {
    if constexpr (std::is_same_v<Wire, M>)
      return (m);
    else
      return Wire(m);
  };
  step_copies c;
  M source = value;
  grpc::ByteBuffer written;
  bool own = false;
  c.write = payload_copies([&] { (void)traits::Serialize(wire(source), &written, &own); });
  grpc::ByteBuffer one = written;  // a reference to the same slices
  grpc::ByteBuffer many = in_slices(written);
  M read_one;
  M read_many;
  c.read_one = payload_copies([&] {
    decltype(auto) w = wire(read_one);
    (void)traits::Deserialize(&one, &w);
  });
  c.read_many = payload_copies([&] {
    decltype(auto) w = wire(read_many);
    (void)traits::Deserialize(&many, &w);
  });
  if (!equal(read_one, value) || !equal(read_many, value)) c.write = -1;  // a wrong read fails the check
  M out;
  c.handler = payload_copies([&] { out = read_one; });
  return c;
}

// Prints the copy counts and checks them: bifrons with a bifrons::grpc::bytes payload copies the
// payload no more often than protobuf, in one echo and in each step; with std::vector<std::byte>
// it pays one more copy per message that arrives in several slices (the join), no more.
bool check_copies(const std::function<bool()>& proto_call, const std::function<bool()>& vector_call,
                  const std::function<bool()>& slice_call, const bifrons_grpc_bench::Blob& proto_blob,
                  const model::Blob& blob, const model::SliceBlob& slice_blob) {
  bool ok = proto_call() && vector_call() && slice_call();  // warm-up
  const double echo[3] = {payload_copies([&] { ok = proto_call() && ok; }),
                          payload_copies([&] { ok = vector_call() && ok; }),
                          payload_copies([&] { ok = slice_call() && ok; })};
  const step_copies steps[3] = {
      count_steps<bifrons_grpc_bench::Blob>(proto_blob, std::function([](const bifrons_grpc_bench::Blob& a,
                                                                         const bifrons_grpc_bench::Blob& b) {
                                              return a.payload() == b.payload();
                                            })),
      count_steps<bifrons::grpc::message<model::Blob>>(blob, std::function(std::equal_to<model::Blob>())),
      count_steps<bifrons::grpc::message<model::SliceBlob>>(slice_blob,
                                                            std::function(std::equal_to<model::SliceBlob>()))};
  std::printf(
      "\n| payload copies, 1 MiB | protobuf | bifrons, std::vector<std::byte> | bifrons, grpc::bytes |\n"
      "|---|---|---|---|\n");
  std::printf("| one echo over loopback | %.2f | %.2f | %.2f |\n", echo[0], echo[1], echo[2]);
  const auto row = [&](const char* name, double step_copies::* field) {
    std::printf("| %s | %.2f | %.2f | %.2f |\n", name, steps[0].*field, steps[1].*field, steps[2].*field);
  };
  row("write (serialize)", &step_copies::write);
  row("read, one slice", &step_copies::read_one);
  row("read, 16 KiB slices", &step_copies::read_many);
  row("handler's out = in", &step_copies::handler);
  const auto near = [](double got, double want) { return got > want - 0.01 && got < want + 0.01; };
  const step_copies& p = steps[0];
  const step_copies& v = steps[1];
  const step_copies& b = steps[2];
  const bool counted = near(p.write, 1) && near(p.read_one, 1) && near(p.read_many, 1) && near(p.handler, 1) &&
                       near(v.write, 1) && near(v.read_one, 1) && near(v.read_many, 2) && near(v.handler, 1) &&
                       near(b.write, 1) && near(b.read_one, 0) && near(b.read_many, 1) && near(b.handler, 0) &&
                       echo[2] <= echo[0] && echo[1] <= echo[0] + 2.01;
  if (!counted) std::printf("FAILED: the payload copies are not the expected ones\n");
  return ok && counted;
}
}  // namespace

int main(int argc, char** argv) {
  const bool smoke = argc == 2 && std::string(argv[1]) == "--smoke";
  const std::string profiled = argc == 3 && std::string(argv[1]) == "--profile" ? argv[2] : "";
  if (argc > 1 && !smoke && profiled != "protobuf" && profiled != "bifrons") {
    std::fprintf(stderr, "usage: %s [--smoke | --profile protobuf|bifrons]\n", argv[0]);
    return 2;
  }
  const std::chrono::milliseconds duration(smoke ? 0 : 5000);  // per case, over all rounds

  service_with_floor bifrons_service;
  bifrons_service.on(echo_account, [](grpc::CallbackServerContext&, const model::Account& in, model::Account& out) {
    out = in;
    return grpc::Status::OK;
  });
  bifrons_service.on(echo_blob, [](grpc::CallbackServerContext&, const model::Blob& in, model::Blob& out) {
    out = in;
    return grpc::Status::OK;
  });
  bifrons_service.on(echo_slice_blob,
                     [](grpc::CallbackServerContext&, const model::SliceBlob& in, model::SliceBlob& out) {
                       out = in;
                       return grpc::Status::OK;
                     });
  proto_echo proto_service;
  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.SetMaxReceiveMessageSize(4 * static_cast<int>(payload_size));
  builder.RegisterService(&proto_service);
  builder.RegisterCallbackGenericService(&bifrons_service);
  const std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) return 1;
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(4 * static_cast<int>(payload_size));
  const auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port),
                                                 grpc::InsecureChannelCredentials(), arguments);
  const bifrons::grpc::client client(channel);
  const auto stub = bifrons_grpc_bench::Echo::NewStub(channel);

  const model::Account account = bench::model::make_account();
  const benchpb::Account proto_account = to_proto(account);
  model::Blob blob{make_payload()};
  bifrons_grpc_bench::Blob proto_blob;
  proto_blob.set_payload(reinterpret_cast<const char*>(blob.payload.data()), blob.payload.size());

  const std::function<bool()> bifrons_account_call = [&] {
    grpc::ClientContext context;
    set_deadline(context);
    model::Account reply;
    return client.call(echo_account, context, account, reply).ok() && reply == account;
  };
  const std::function<bool()> proto_account_call = [&] {
    grpc::ClientContext context;
    set_deadline(context);
    benchpb::Account reply;
    const grpc::Status status = bifrons::grpc::detail::wait_for_callback([&](auto done) {
      stub->async()->EchoAccount(&context, &proto_account, &reply, done);
    });
    return status.ok() && reply.orders_size() == 3 && reply.orders(2).price() == 1.5;
  };
  const std::function<bool()> bifrons_blob_call = [&] {
    grpc::ClientContext context;
    set_deadline(context);
    model::Blob reply;
    return client.call(echo_blob, context, blob, reply).ok() && reply.payload.size() == payload_size;
  };
  const model::SliceBlob slice_blob{bifrons::grpc::bytes(blob.payload)};
  const std::function<bool()> bifrons_slice_blob_call = [&] {
    grpc::ClientContext context;
    set_deadline(context);
    model::SliceBlob reply;
    return client.call(echo_slice_blob, context, slice_blob, reply).ok() && reply == slice_blob;
  };
  const std::function<bool()> proto_blob_call = [&] {
    grpc::ClientContext context;
    set_deadline(context);
    bifrons_grpc_bench::Blob reply;
    const grpc::Status status = bifrons::grpc::detail::wait_for_callback([&](auto done) {
      stub->async()->EchoBlob(&context, &proto_blob, &reply, done);
    });
    return status.ok() && reply.payload().size() == payload_size;
  };

  // The floor: the same messages' bytes (bifrons' encoding) through the generic API, echoed as
  // they arrived, neither written nor read.
  grpc::TemplatedGenericStub<grpc::ByteBuffer, grpc::ByteBuffer> raw_stub(channel);
  const auto floor_call = [&](const auto& value) {
    grpc::ByteBuffer request;
    (void)bifrons::grpc::write_message(value, request);
    const std::size_t size = request.Length();
    return [&raw_stub, request, size] {
      grpc::ClientContext context;
      set_deadline(context);
      grpc::ByteBuffer reply;
      const grpc::Status status = bifrons::grpc::detail::wait_for_callback([&](auto done) {
        raw_stub.UnaryCall(&context, floor_path, grpc::StubOptions(), &request, &reply, done);
      });
      return status.ok() && reply.Length() == size;
    };
  };
  const std::function<bool()> floor_account_call = floor_call(account);
  const std::function<bool()> floor_blob_call = floor_call(blob);

  struct bench_case {
    const char* message;
    const char* library;
    const std::function<bool()>* call;
  };
  constexpr std::size_t per_message = 3;  // protobuf, bifrons, and the floor of bifrons' transport path
  const bench_case cases[] = {{"Account", "protobuf", &proto_account_call},
                              {"Account", "bifrons", &bifrons_account_call},
                              {"Account", "generic API, bytes only (floor)", &floor_account_call},
                              {"1 MiB", "protobuf", &proto_blob_call},
                              {"1 MiB", "bifrons", &bifrons_blob_call},
                              {"1 MiB", "generic API, bytes only (floor)", &floor_blob_call}};
  if (!profiled.empty()) {
    const std::function<bool()>& call = profiled == "bifrons" ? bifrons_account_call : proto_account_call;
    bool all_ok = true;
    for (int i = 0; i < 2000; ++i) all_ok = call() && all_ok;
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    return all_ok ? 0 : 1;
  }

  bool ok = true;
  // Rounds alternate between the libraries, so that a neighbour's load on the machine falls on
  // both; each row is the median round (by requests per second).
  const int rounds = smoke ? 1 : 5;
  std::printf(
      "| message | library | threads | requests/s | p50 (us) | p99 (us) | CPU us per call |\n"
      "|---|---|---|---|---|---|---|\n");
  for (const int threads : {1, 16}) {
    for (std::size_t group = 0; group < std::size(cases); group += per_message) {
      std::vector<result> runs[per_message];
      for (int round = 0; round < rounds; ++round)
        for (std::size_t i = 0; i < per_message; ++i)
          runs[i].push_back(measure(*cases[group + i].call, threads, duration / rounds, smoke ? 3 : 0));
      for (std::size_t i = 0; i < per_message; ++i) {
        std::sort(runs[i].begin(), runs[i].end(), [](const result& a, const result& b) { return a.rps < b.rps; });
        for (const result& r : runs[i]) ok = ok && r.ok;
        const result& r = runs[i][runs[i].size() / 2];
        const bench_case& c = cases[group + i];
        std::printf("| %s | %s | %d | %.0f | %.1f | %.1f | %.1f |%s\n", c.message, c.library, threads, r.rps, r.p50_us,
                    r.p99_us, r.cpu_us_per_call, r.ok ? "" : " FAILED");
      }
    }
  }

  // Copies of the payload in one echo (client write, server read, handler copy, server write,
  // client read), counted after a warm-up call; then each step alone, without the network.
  if (!bench_copies::available()) {
    std::printf("\ncopies not counted (a sanitizer owns memcpy in this build)\n");
    ok = proto_blob_call() && bifrons_blob_call() && bifrons_slice_blob_call() && ok;
  } else {
    ok = check_copies(proto_blob_call, bifrons_blob_call, bifrons_slice_blob_call, proto_blob, blob, slice_blob) && ok;
  }
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (!ok) std::printf("FAILED: a call failed or answered wrong\n");
  return ok ? 0 : 1;
}
