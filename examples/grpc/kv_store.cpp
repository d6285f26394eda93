// A key-value store as a gRPC service whose messages are plain structs: no .proto file, no
// protoc. <bifrons/grpc.hpp>; README, "gRPC services".
//
//   kv_store                      serves on 127.0.0.1, calls itself, checks the answers, exits
//   kv_store --serve SCHEMA_DIR   writes each message's schema into SCHEMA_DIR (for clients in
//                                 other languages: kv_client.py), prints "port N", and serves
//                                 until standard input closes (at most 120 s)
#include <bifrons/grpc.hpp>
#include <bifrons/schema.hpp>
#include <bifrons/types/string.hpp>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

// The service, shared by servers and clients: messages and methods.
namespace kv {
struct PutRequest {
  std::string key;
  std::string value;
};
struct PutReply {
  std::uint64_t version = 0;  // the store's version after the put
};
struct GetRequest {
  std::string key;
};
struct GetReply {
  bool found = false;
  std::string value;
};
struct ScanRequest {
  std::string prefix;
  std::uint32_t limit = 0;  // 0: no limit
};
struct Entry {
  std::string key;
  std::string value;
};

inline const bifrons::grpc::unary_method<PutRequest, PutReply> put{"/kv.Store/Put"};
inline const bifrons::grpc::unary_method<GetRequest, GetReply> get{"/kv.Store/Get"};
inline const bifrons::grpc::server_streaming_method<ScanRequest, Entry> scan{"/kv.Store/Scan"};
inline const bifrons::grpc::client_streaming_method<PutRequest, PutReply> put_many{"/kv.Store/PutMany"};
inline const bifrons::grpc::bidi_streaming_method<GetRequest, GetReply> get_many{"/kv.Store/GetMany"};
}  // namespace kv

// The server's side: the handlers of a store.
class store {
 public:
  void serve(bifrons::grpc::service& service) {
    service.on(kv::put, [this](grpc::CallbackServerContext&, const kv::PutRequest& in, kv::PutReply& out) {
      if (in.key.empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "empty key");
      const std::lock_guard lock(mutex_);
      entries_[in.key] = in.value;
      out.version = ++version_;
      return grpc::Status::OK;
    });
    service.on(kv::get, [this](grpc::CallbackServerContext&, const kv::GetRequest& in, kv::GetReply& out) {
      out = get(in.key);
      return grpc::Status::OK;
    });
    // Puts in a stream, each applied as it arrives; one reply after the last.
    service.on(kv::put_many,
               [this](grpc::CallbackServerContext&) -> bifrons::grpc::request_sink<kv::PutRequest, kv::PutReply> {
                 return {[this](const kv::PutRequest& in) {
                           if (in.key.empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "empty key");
                           const std::lock_guard lock(mutex_);
                           entries_[in.key] = in.value;
                           ++version_;
                           return grpc::Status::OK;
                         },
                         [this](kv::PutReply& out) {
                           const std::lock_guard lock(mutex_);
                           out.version = version_;
                           return grpc::Status::OK;
                         }};
               });
    // Gets in a stream: each answered before the next is read.
    service.on(kv::get_many,
               [this](grpc::CallbackServerContext&) -> bifrons::grpc::request_responder<kv::GetRequest, kv::GetReply> {
                 return {[this](const kv::GetRequest& in) -> bifrons::grpc::response_stream<kv::GetReply> {
                   return get(in.key);
                 }};
               });
    // Each next entry is looked up when gRPC has sent the previous one: after the last key sent,
    // so puts between two responses are seen and nothing dangles.
    service.on(kv::scan, [this](grpc::CallbackServerContext&, const kv::ScanRequest& in) {
      return bifrons::grpc::response_stream<kv::Entry>(
          [this, prefix = in.prefix, left = in.limit == 0 ? UINT32_MAX : in.limit,
           last = std::optional<std::string>()]() mutable -> std::optional<kv::Entry> {
            const std::lock_guard lock(mutex_);
            auto next = last ? entries_.upper_bound(*last) : entries_.lower_bound(prefix);
            if (left == 0 || next == entries_.end() || next->first.compare(0, prefix.size(), prefix) != 0)
              return std::nullopt;
            --left;
            last = next->first;
            return kv::Entry{next->first, next->second};
          });
    });
  }

 private:
  kv::GetReply get(const std::string& key) {
    const std::lock_guard lock(mutex_);
    const auto found = entries_.find(key);
    return found == entries_.end() ? kv::GetReply{} : kv::GetReply{true, found->second};
  }

  std::mutex mutex_;
  std::map<std::string, std::string> entries_;
  std::uint64_t version_ = 0;
};

namespace {

std::chrono::system_clock::time_point seconds_from_now(int s) {
  return std::chrono::system_clock::now() + std::chrono::seconds(s);
}

int check(bool ok, const char* what) {
  if (!ok) std::printf("FAILED: %s\n", what);
  return ok ? 0 : 1;
}

// The client's side: a few calls, each with a deadline, checked.
int call_store(const std::shared_ptr<grpc::Channel>& channel) {
  const bifrons::grpc::client client(channel);
  int failures = 0;
  for (const auto& [key, value] : std::map<std::string, std::string>{
           {"fruit/apple", "red"}, {"fruit/banana", "yellow"}, {"fruit/cherry", "dark red"}, {"veg/leek", "green"}}) {
    grpc::ClientContext context;
    context.set_deadline(seconds_from_now(10));
    kv::PutReply reply;
    failures += check(client.call(kv::put, context, kv::PutRequest{key, value}, reply).ok(), "put");
  }

  grpc::ClientContext get_context;
  get_context.set_deadline(seconds_from_now(10));
  kv::GetReply got;
  const grpc::Status status = client.call(kv::get, get_context, kv::GetRequest{"fruit/banana"}, got);
  failures += check(status.ok() && got.found && got.value == "yellow", "get fruit/banana");

  grpc::ClientContext scan_context;
  scan_context.set_deadline(seconds_from_now(10));
  auto entries = client.call(kv::scan, scan_context, kv::ScanRequest{"fruit/", 0});
  std::string keys;
  for (kv::Entry entry; entries.read(entry);) keys += entry.key + " ";
  failures += check(entries.finish().ok() && keys == "fruit/apple fruit/banana fruit/cherry ", "scan fruit/");
  std::printf("scan fruit/: %s\n", keys.c_str());

  grpc::ClientContext put_context;
  put_context.set_deadline(seconds_from_now(10));
  auto puts = client.call(kv::put_many, put_context);
  for (const char* key : {"nut/almond", "nut/pecan"})
    if (!puts.write(kv::PutRequest{key, "brown"})) break;
  kv::PutReply put_reply;
  failures += check(puts.finish(put_reply).ok() && put_reply.version == 6, "put_many");

  grpc::ClientContext get_many_context;
  get_many_context.set_deadline(seconds_from_now(10));
  auto gets = client.call(kv::get_many, get_many_context);
  std::string values;
  for (const char* key : {"nut/pecan", "veg/leek", "nothing"}) {
    kv::GetReply reply;
    if (!gets.write(kv::GetRequest{key}) || !gets.read(reply)) break;
    values += (reply.found ? reply.value : "-") + " ";
  }
  gets.writes_done();
  kv::GetReply after_last;  // none: read() returns false at the end of the responses
  failures += check(!gets.read(after_last) && gets.finish().ok() && values == "brown green - ", "get_many");
  std::printf("get_many: %s\n", values.c_str());
  return failures;
}

template <class T>
void write_schema(const std::string& dir, const char* name) {
  std::ofstream(dir + "/" + name + ".schema.json") << bifrons::schema<T>();
}

}  // namespace

int main(int argc, char** argv) {
  const bool serve_only = argc == 3 && std::string(argv[1]) == "--serve";
  if (serve_only) {
    write_schema<kv::PutRequest>(argv[2], "PutRequest");
    write_schema<kv::PutReply>(argv[2], "PutReply");
    write_schema<kv::GetRequest>(argv[2], "GetRequest");
    write_schema<kv::GetReply>(argv[2], "GetReply");
    write_schema<kv::ScanRequest>(argv[2], "ScanRequest");
    write_schema<kv::Entry>(argv[2], "Entry");
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--serve SCHEMA_DIR]\n", argv[0]);
    return 2;
  }

  // Requests from clients meet these limits (the defaults are finite too; a store wants less).
  bifrons::read_options limits;
  limits.max_alloc_bytes = std::size_t{1} << 20;
  bifrons::grpc::service service(limits);
  store kv_store;
  kv_store.serve(service);

  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterCallbackGenericService(&service);
  const std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) return 1;

  int failures = 0;
  if (serve_only) {
    std::printf("port %d\n", port);
    std::fflush(stdout);
    // Until standard input closes, at most 120 s: the reading thread is left behind when the
    // time runs out.
    auto closed = std::make_shared<std::pair<std::mutex, std::condition_variable>>();
    auto is_closed = std::make_shared<bool>(false);
    std::thread([closed, is_closed] {
      for (std::string line; std::getline(std::cin, line);) {
      }
      const std::lock_guard lock(closed->first);
      *is_closed = true;
      closed->second.notify_one();
    }).detach();
    std::unique_lock lock(closed->first);
    closed->second.wait_for(lock, std::chrono::seconds(120), [&] { return *is_closed; });
  } else {
    failures = call_store(grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  }
  server->Shutdown(seconds_from_now(5));
  return failures == 0 ? 0 : 1;
}
