// SPDX-License-Identifier: MIT
#pragma once
// gRPC services whose requests and responses are plain C++ types: no .proto file, no protoc.
// Only programs that include this header need gRPC (grpc++ 1.51 or later); the rest of bifrons
// does not depend on it.
//
//   // Shared by server and client: the methods, named as gRPC names them.
//   inline const bifrons::grpc::unary_method<GetRequest, GetReply> get{"/kv.Store/Get"};
//   inline const bifrons::grpc::server_streaming_method<ScanRequest, Entry> scan{"/kv.Store/Scan"};
//   inline const bifrons::grpc::client_streaming_method<PutRequest, PutReply> put_many{"/kv.Store/PutMany"};
//   inline const bifrons::grpc::bidi_streaming_method<GetRequest, GetReply> get_many{"/kv.Store/GetMany"};
//
//   bifrons::grpc::service service;  // server: handlers by method, read_options for requests
//   service.on(get, [&](grpc::CallbackServerContext&, const GetRequest& in, GetReply& out) {...});
//   service.on(put_many, [&](grpc::CallbackServerContext&) -> request_sink<PutRequest, PutReply> {
//     return {on_request, on_end};  // per request, then the response after the last
//   });
//   builder.RegisterCallbackGenericService(&service);
//
//   bifrons::grpc::client client(channel);  // client: blocking calls, any ClientContext
//   grpc::Status status = client.call(get, context, request, reply);
//   auto writer = client.call(put_many, context);  // writer.write(request)..., writer.finish(reply)
//
//   struct Chunk { std::string name; bifrons::grpc::bytes data; };  // large payloads: read in place
//
// Requests and responses travel through gRPC's generic API (CallbackGenericService on the server,
// TemplatedGenericStub on the client), so deadlines, metadata, compression, interceptors and
// channel options work as with generated code. A message that does not read becomes
// INVALID_ARGUMENT with the library's error text and offset; nothing throws through gRPC.
// Streams hold one message at a time on each side: a server-streaming or bidi handler's next
// response is asked for when gRPC has sent the previous one, a streamed request is read when the
// previous one was handled (and, in a bidi call, answered), and a client's write waits for the
// previous write.

#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/impl/serialization_traits.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/client_callback.h>
#include <grpcpp/support/server_callback.h>
#include <grpcpp/support/slice.h>
#include <grpcpp/support/status.h>

#include <concepts>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core.hpp"
#include "read_options.hpp"
#include "types/views.hpp"

static_assert(BIFRONS_HAS_EXCEPTIONS,
              "bifrons: <bifrons/grpc.hpp> needs exceptions: a user hook's exception becomes a gRPC status");

namespace bifrons::grpc {

/// A message type of this binding: default-constructible, as gRPC's generic API and the server's
/// reactors hold one before they read it.
template <class T>
concept message_type = std::default_initializable<T> && std::movable<T> && !std::is_const_v<T> &&
                       !std::is_reference_v<T>;

/// Bytes held in a gRPC slice, for a message field that carries a large payload. Written exactly
/// like std::vector<std::byte> (the two are interchangeable on the wire, and a peer may use
/// either). Read by read_message it refers to the received bytes instead of copying them: a
/// message that arrived in one slice is not copied at all, and one that arrived in several is
/// copied once, when read_message joins them. Read any other way (from_bytes), it holds a copy.
/// Copies of a bytes share the same immutable memory (a reference count, no byte copied). The
/// referred memory is the whole received message: a small bytes keeps all of it alive (gRPC
/// copies a few bytes, up to its inline size, into the slice object instead).
class bytes {
 public:
  bytes() = default;
  /// A copy of data.
  explicit bytes(std::span<const std::byte> data)
      : slice_(data.empty() ? ::grpc::Slice() : ::grpc::Slice(data.data(), data.size())) {}
  /// The slice itself: no copy.
  explicit bytes(::grpc::Slice slice) noexcept : slice_(std::move(slice)) {}

  [[nodiscard]] const std::byte* data() const noexcept { return reinterpret_cast<const std::byte*>(slice_.begin()); }
  [[nodiscard]] std::size_t size() const noexcept { return slice_.size(); }
  [[nodiscard]] bool empty() const noexcept { return slice_.size() == 0; }
  [[nodiscard]] std::span<const std::byte> view() const noexcept { return {data(), size()}; }
  [[nodiscard]] const std::byte* begin() const noexcept { return data(); }
  [[nodiscard]] const std::byte* end() const noexcept { return data() + size(); }
  [[nodiscard]] const ::grpc::Slice& slice() const noexcept { return slice_; }

  friend bool operator==(const bytes& a, const bytes& b) noexcept {
    return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size()) == 0);
  }

 private:
  ::grpc::Slice slice_;
};

namespace detail {
/// The slice read_message reads from, for the hooks of bytes (through bifrons::context).
struct received_slice {
  const ::grpc::Slice& slice;
};
}  // namespace detail

/// Writes value's encoding into out as one slice, allocated once at size_bound(value) bytes.
/// A value the writer refuses (pointers that cannot be written, or a save hook's exception)
/// gives INTERNAL with the library's text: the sender is at fault, not the peer.
template <class T>
[[nodiscard]] ::grpc::Status write_message(const T& value, ::grpc::ByteBuffer& out) noexcept {
  try {
    ::grpc::Slice room(size_bound(value));
    const std::span<std::byte> buffer(reinterpret_cast<std::byte*>(const_cast<std::uint8_t*>(room.begin())),
                                      room.size());
    const std::size_t used = to_bytes(value, buffer);
    // sub() takes a reference to the same memory: no copy.
    ::grpc::Slice message = used == room.size() ? std::move(room) : room.sub(0, used);
    ::grpc::ByteBuffer whole(&message, 1);
    out.Swap(&whole);
    return ::grpc::Status::OK;
  } catch (const std::exception& e) {
    return {::grpc::StatusCode::INTERNAL, e.what()};
  } catch (...) {
    return {::grpc::StatusCode::INTERNAL, "bifrons: a save hook threw an exception that is not a std::exception"};
  }
}

/// Reads one T from in, under options, into out (reusing its storage). A single slice is read
/// where it lies; a message gRPC received in several slices is joined first (one copy, which a
/// bytes field then refers to instead of copying again). Bad bytes, or a user hook's exception,
/// give INVALID_ARGUMENT with the library's text (the code, the byte offset); running out of
/// memory gives RESOURCE_EXHAUSTED. Never throws.
template <class T>
[[nodiscard]] ::grpc::Status read_message(const ::grpc::ByteBuffer& in, T& out, const read_options& options) noexcept {
  try {
    ::grpc::Slice whole;
    if (!in.TrySingleSlice(&whole).ok()) {
      const ::grpc::Status joined = in.DumpToSingleSlice(&whole);
      if (!joined.ok()) return {::grpc::StatusCode::INVALID_ARGUMENT, "bifrons: no message: " + joined.error_message()};
    }
    detail::received_slice received{whole};
    const context_scope<detail::received_slice> scope(received);
    from_bytes(std::span<const std::byte>(reinterpret_cast<const std::byte*>(whole.begin()), whole.size()), out,
               options);
    return ::grpc::Status::OK;
  } catch (const std::bad_alloc&) {
    return {::grpc::StatusCode::RESOURCE_EXHAUSTED, "bifrons: out of memory reading the message"};
  } catch (const std::exception& e) {
    return {::grpc::StatusCode::INVALID_ARGUMENT, e.what()};
  } catch (...) {
    return {::grpc::StatusCode::INVALID_ARGUMENT,
            "bifrons: a load hook threw an exception that is not a std::exception"};
  }
}

/// A T as a request or response type of gRPC's own templates (TemplatedGenericStub, the callback
/// and async reactors): grpc::SerializationTraits<message<T>> writes *value and reads into it
/// with options. A wrapper rather than a trait for every bifrons type: gRPC's traits for protobuf
/// messages match every class derived from MessageLite, and a wrapper can never match both.
/// It refers to the caller's T and options, which must outlive the call.
template <class T>
class message {
 public:
  explicit message(T& value, const read_options& options = bifrons::detail::default_read_options) noexcept
      : value_(&value), options_(&options) {}
  [[nodiscard]] T& value() const noexcept { return *value_; }
  [[nodiscard]] const read_options& options() const noexcept { return *options_; }
  /// The outcome of the last read into this message. gRPC replaces a failed read's status by its
  /// own on the client ("failed to deserialize"); this one keeps the library's text and offset.
  [[nodiscard]] const ::grpc::Status& read_status() const noexcept { return read_status_; }
  void set_read_status(::grpc::Status status) noexcept { read_status_ = std::move(status); }

 private:
  T* value_;
  const read_options* options_;
  ::grpc::Status read_status_;
};

/// A method whose call carries one request and one response.
template <message_type Request, message_type Response>
struct unary_method {
  /// "/package.Service/Method", as gRPC names methods (and as a .proto file would).
  std::string path;
};
/// A method whose call carries one request and a stream of responses.
template <message_type Request, message_type Response>
struct server_streaming_method {
  std::string path;
};
/// A method whose call carries a stream of requests and one response.
template <message_type Request, message_type Response>
struct client_streaming_method {
  std::string path;
};
/// A method whose call carries a stream of requests and a stream of responses.
template <message_type Request, message_type Response>
struct bidi_streaming_method {
  std::string path;
};

/// What a server-streaming handler returns: a status to end the call with at once, or a
/// function called for each next response (std::nullopt ends the stream with OK). The service
/// calls it when gRPC has sent the previous response, so at most one response is in memory
/// however slowly the client reads. A bidi-streaming method's request_responder returns one for
/// each request, where a single response (a T) is the common case.
template <message_type T>
class response_stream {
 public:
  using next_function = std::function<std::optional<T>()>;
  response_stream(::grpc::Status status) : status_(std::move(status)) {}  // NOLINT: a handler returns a status
  template <class Next>
    requires std::is_invocable_r_v<std::optional<T>, Next&> && (!std::is_convertible_v<Next, ::grpc::Status>)
  response_stream(Next next) : next_(std::move(next)) {}  // NOLINT: a handler returns a function
  /// One response.
  response_stream(T only)  // NOLINT: a handler returns a response
    requires std::copy_constructible<T>  // std::function holds copyable functions only
      : next_([only = std::optional<T>(std::move(only))]() mutable { return std::exchange(only, std::nullopt); }) {}

  [[nodiscard]] const ::grpc::Status& status() const noexcept { return status_; }
  [[nodiscard]] next_function& next() noexcept { return next_; }

 private:
  ::grpc::Status status_;
  next_function next_;
};

namespace detail {
/// The per-call functions of a method whose requests stream (request_sink, request_responder):
/// a status that ends the call at once, or the function for each request and the one for the
/// end of the requests (which may be left out).
template <class RequestSignature, class EndSignature>
class request_functions {
 public:
  using request_function = std::function<RequestSignature>;
  using end_function = std::function<EndSignature>;
  request_functions(::grpc::Status status) : status_(std::move(status)) {}  // NOLINT: a handler returns a status
  request_functions(request_function on_request, end_function on_end = {})  // NOLINT: a handler returns them
      : on_request_(std::move(on_request)), on_end_(std::move(on_end)) {}

  [[nodiscard]] const ::grpc::Status& status() const noexcept { return status_; }
  [[nodiscard]] request_function& on_request() noexcept { return on_request_; }
  [[nodiscard]] end_function& on_end() noexcept { return on_end_; }

 private:
  ::grpc::Status status_;
  request_function on_request_;
  end_function on_end_;
};
}  // namespace detail

/// What a client-streaming handler returns for one call: an error status that refuses the call
/// at once, or two functions. on_request(const Request&) -> grpc::Status is called for each
/// request as it arrives (a status other than OK ends the call with it, and no more requests
/// are read); on_end(Response&) -> grpc::Status after the client's last request (the response is
/// sent only with OK; left out, the response is Response{}). One request is in memory at a time:
/// the next is read once on_request returned. Per-call state the two functions share lives in
/// what they capture.
template <message_type Request, message_type Response>
using request_sink = detail::request_functions<::grpc::Status(const Request&), ::grpc::Status(Response&)>;

/// What a bidi-streaming handler returns for one call: a status that ends the call at once, or
/// on_request(const Request&) -> response_stream<Response>, called for each request as it
/// arrives. The responses of one request are sent one at a time (the request stays valid until
/// the last), then the next request is read: one request and one response are in memory per
/// call, and a client that writes without reading waits until it reads. A response_stream whose
/// status is not OK ends the call with it; OK without a function sends nothing for that request.
/// on_end() -> grpc::Status, after the client's last request, gives the call's status (OK if
/// left out).
template <message_type Request, message_type Response>
using request_responder = detail::request_functions<response_stream<Response>(const Request&), ::grpc::Status()>;

namespace detail {

inline bool valid_method_path(std::string_view path) {
  // "/package.Service/Method": two non-empty names after the two slashes.
  if (path.size() < 4 || path.front() != '/') return false;
  const auto slash = path.find('/', 1);
  return slash != std::string_view::npos && slash > 1 && slash + 1 < path.size() &&
         path.find('/', slash + 1) == std::string_view::npos;
}

/// Starts a callback call with start(on_completion) and waits until gRPC calls on_completion: the
/// blocking form of gRPC's callback API (which gRPC's generic stub offers alone). Waits as long as
/// the call's deadline lets it run.
template <class Start>
::grpc::Status wait_for_callback(Start start) {
  std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
  ::grpc::Status status;
  start(std::function<void(::grpc::Status)>([&](::grpc::Status s) {
    // Notified under the lock: the waiter cannot return and destroy these before it is done.
    std::lock_guard lock(mutex);
    status = std::move(s);
    done = true;
    done_changed.notify_one();
  }));
  std::unique_lock lock(mutex);
  done_changed.wait(lock, [&] { return done; });
  return status;
}

inline ::grpc::Status handler_threw() {
  // What gRPC's own synchronous server answers when a handler throws: the exception's text may
  // hold what the client should not see.
  return {::grpc::StatusCode::UNKNOWN, "Unexpected error in RPC handling"};
}

/// A call that ends at once with status: one whose reactor could not be made.
class refused_call final : public ::grpc::ServerGenericBidiReactor {
 public:
  explicit refused_call(const ::grpc::Status& status) { Finish(status); }
  void OnDone() override { delete this; }
};

/// One call of a method on the server, for all four kinds: reads requests one at a time and
/// hands each to on_request(); sends responses one at a time from a response_stream. At most one
/// operation is outstanding at any moment (a read, or a write, or the finish), so the reactions
/// never run concurrently and need no lock; OnDone, gRPC's last reaction, deletes the call.
template <class Request, class Response>
class server_call : public ::grpc::ServerGenericBidiReactor {
 public:
  server_call(::grpc::CallbackServerContext& context, const read_options& options)
      : context_(context), options_(options) {}
  /// Called once by the service, right after construction (the first operations of a call may
  /// start before gRPC takes the reactor: gRPC holds them until then).
  virtual void begin() { read_next(); }

  void OnReadDone(bool ok) final {
    if (!ok) {
      // The client half-closed, or the call was cancelled (by the client, or by its deadline).
      if (context_.IsCancelled())
        finish({::grpc::StatusCode::CANCELLED, "bifrons: the call was cancelled"});
      else
        on_end();
      return;
    }
    ::grpc::Status status = read_message(in_, request_, options_);
    in_.Clear();
    if (!status.ok()) {
      finish(std::move(status));
      return;
    }
    on_request();
  }
  void OnWriteDone(bool ok) final {
    if (!ok) {
      // The client is gone or cancelled: no more writes, and Finish ends the call.
      finish({::grpc::StatusCode::CANCELLED, "bifrons: the client stopped reading"});
      return;
    }
    send_next();
  }
  void OnDone() final { delete this; }

 protected:
  /// request_ holds the request just read.
  virtual void on_request() = 0;
  /// After the client's last request.
  virtual void on_end() {
    finish({::grpc::StatusCode::INVALID_ARGUMENT, "bifrons: the call ended before its request"});
  }
  /// After the last response of a response_stream.
  virtual void on_responses_sent() { finish(::grpc::Status::OK); }

  void read_next() { StartRead(&in_); }
  void finish(::grpc::Status status) { Finish(std::move(status)); }

  /// Runs a user function; an exception ends the call with UNKNOWN, and the result is then empty.
  template <class Function>
  auto guarded(Function&& function) -> std::optional<std::invoke_result_t<Function&>> {
    try {
      return std::optional<std::invoke_result_t<Function&>>(function());
    } catch (...) {
      finish(handler_threw());
      return std::nullopt;
    }
  }

  /// Runs a user function that returns a status: true if it returned OK; otherwise the call
  /// ended, with that status or (if it threw) UNKNOWN.
  template <class Function>
  bool proceeds(Function&& function) {
    const std::optional<::grpc::Status> status = guarded([&] { return ::grpc::Status(function()); });
    if (status && !status->ok()) finish(*status);
    return status && status->ok();
  }

  /// Sends the responses of stream one at a time, then on_responses_sent().
  void send(response_stream<Response>& stream) {
    if (!stream.status().ok()) {
      finish(stream.status());
      return;
    }
    if (!stream.next()) {
      on_responses_sent();
      return;
    }
    next_ = std::move(stream.next());
    send_next();
  }
  /// Sends response as the call's last message, with OK.
  void send_last(const Response& response) {
    if (!write_response(response)) return;
    StartWriteAndFinish(&out_, ::grpc::WriteOptions(), ::grpc::Status::OK);
  }

  ::grpc::CallbackServerContext& context_;
  Request request_{};

 private:
  void send_next() {
    std::optional<std::optional<Response>> response = guarded(next_);
    if (!response) return;
    if (!*response) {
      next_ = nullptr;
      on_responses_sent();
      return;
    }
    if (!write_response(**response)) return;
    StartWrite(&out_);
  }
  /// response's bytes into out_; false if it cannot be written, and then the call ended with
  /// INTERNAL and a text of its own: the writer's (a save hook's exception, the type names of the
  /// library's) is the server's business, as a handler's exception is (handler_threw).
  bool write_response(const Response& response) {
    if (write_message(response, out_).ok()) return true;
    finish({::grpc::StatusCode::INTERNAL, "bifrons: the server could not write its response"});
    return false;
  }

  const read_options& options_;
  ::grpc::ByteBuffer in_;
  ::grpc::ByteBuffer out_;
  typename response_stream<Response>::next_function next_;
};

template <class Request, class Response, class Handler>
class unary_call final : public server_call<Request, Response> {
 public:
  unary_call(::grpc::CallbackServerContext& context, const read_options& options, Handler& handler)
      : server_call<Request, Response>(context, options), handler_(handler) {}

 private:
  void on_request() override {
    // Made inside the guard: its constructor is the user's code too.
    std::optional<Response> response;
    if (this->proceeds([&] { return handler_(this->context_, std::as_const(this->request_), response.emplace()); }))
      this->send_last(*response);
  }
  Handler& handler_;
};

template <class Request, class Response, class Handler>
class streaming_call final : public server_call<Request, Response> {
 public:
  streaming_call(::grpc::CallbackServerContext& context, const read_options& options, Handler& handler)
      : server_call<Request, Response>(context, options), handler_(handler) {}

 private:
  void on_request() override {
    std::optional<response_stream<Response>> stream = this->guarded([&] {
      return response_stream<Response>(handler_(this->context_, std::as_const(this->request_)));
    });
    if (stream) this->send(*stream);
  }
  Handler& handler_;
};

/// The calls of the two methods whose requests stream: the handler gives a per-call object
/// (request_sink or request_responder) before the first request is read.
template <class Request, class Response, class PerCall, class Handler>
class request_stream_call : public server_call<Request, Response> {
 public:
  request_stream_call(::grpc::CallbackServerContext& context, const read_options& options, Handler& handler)
      : server_call<Request, Response>(context, options), handler_(handler) {}
  void begin() final {
    std::optional<PerCall> per_call = this->guarded([&] { return PerCall(handler_(this->context_)); });
    if (!per_call) return;
    if (!per_call->status().ok() || !per_call->on_request()) {
      this->finish(refused(per_call->status()));
      return;
    }
    per_call_.emplace(std::move(*per_call));
    this->read_next();
  }

 protected:
  /// The status a handler refuses a call with.
  virtual ::grpc::Status refused(const ::grpc::Status& status) { return status; }
  PerCall& per_call() { return *per_call_; }

 private:
  Handler& handler_;
  std::optional<PerCall> per_call_;
};

template <class Request, class Response, class Handler>
class client_streaming_call final
    : public request_stream_call<Request, Response, request_sink<Request, Response>, Handler> {
  using base = request_stream_call<Request, Response, request_sink<Request, Response>, Handler>;

 public:
  using base::base;

 private:
  ::grpc::Status refused(const ::grpc::Status& status) override {
    // OK without functions would end the call without its response.
    if (status.ok())
      return {::grpc::StatusCode::INTERNAL,
              "bifrons: a client-streaming handler returned a request_sink with OK and no on_request"};
    return status;
  }
  void on_request() override {
    if (this->proceeds([&] { return this->per_call().on_request()(std::as_const(this->request_)); })) this->read_next();
  }
  void on_end() override {
    std::optional<Response> response;  // made inside the guard, as unary_call's
    if (this->proceeds([&] {
          Response& out = response.emplace();
          auto& on_end = this->per_call().on_end();
          return on_end ? on_end(out) : ::grpc::Status::OK;
        }))
      this->send_last(*response);
  }
};

template <class Request, class Response, class Handler>
class bidi_streaming_call final
    : public request_stream_call<Request, Response, request_responder<Request, Response>, Handler> {
  using base = request_stream_call<Request, Response, request_responder<Request, Response>, Handler>;

 public:
  using base::base;

 private:
  void on_request() override {
    std::optional<response_stream<Response>> stream =
        this->guarded([&] { return this->per_call().on_request()(std::as_const(this->request_)); });
    if (stream) this->send(*stream);
  }
  void on_responses_sent() override { this->read_next(); }
  void on_end() override {
    const std::optional<::grpc::Status> status = this->guarded([&] {
      auto& on_end = this->per_call().on_end();
      return on_end ? on_end() : ::grpc::Status::OK;
    });
    if (status) this->finish(*status);
  }
};

}  // namespace detail

/// A gRPC service of bifrons methods, registered with
/// grpc::ServerBuilder::RegisterCallbackGenericService. Methods are added with on() before the
/// server starts; a call to any other method ends with UNIMPLEMENTED. Requests are read with the
/// read_options given here: a client that gRPC lets in still meets the library's limits (gRPC's
/// own limit on a message's size, 4 MiB by default, applies before). Handlers run on gRPC's
/// callback threads, like every callback service's: they should not block for long, and one handler
/// may run for several calls at once.
class service : public ::grpc::CallbackGenericService {
 public:
  explicit service(const read_options& options = {}) : options_(options) {}

  /// handler(grpc::CallbackServerContext&, const Request&, Response&) -> grpc::Status. The
  /// response is sent only with OK; an exception from the handler ends the call with UNKNOWN.
  template <class Request, class Response, class Handler>
    requires std::is_invocable_r_v<::grpc::Status, Handler&, ::grpc::CallbackServerContext&, const Request&, Response&>
  service& on(const unary_method<Request, Response>& method, Handler handler) {
    return add<detail::unary_call<Request, Response, Handler>>(method.path, std::move(handler));
  }

  /// handler(grpc::CallbackServerContext&, const Request&) -> response_stream<Response>.
  template <class Request, class Response, class Handler>
    requires std::is_invocable_r_v<response_stream<Response>, Handler&, ::grpc::CallbackServerContext&, const Request&>
  service& on(const server_streaming_method<Request, Response>& method, Handler handler) {
    return add<detail::streaming_call<Request, Response, Handler>>(method.path, std::move(handler));
  }

  /// handler(grpc::CallbackServerContext&) -> request_sink<Request, Response>, called when the
  /// call starts, before its first request.
  template <class Request, class Response, class Handler>
    requires std::is_invocable_r_v<request_sink<Request, Response>, Handler&, ::grpc::CallbackServerContext&>
  service& on(const client_streaming_method<Request, Response>& method, Handler handler) {
    return add<detail::client_streaming_call<Request, Response, Handler>>(method.path, std::move(handler));
  }

  /// handler(grpc::CallbackServerContext&) -> request_responder<Request, Response>, called when
  /// the call starts, before its first request.
  template <class Request, class Response, class Handler>
    requires std::is_invocable_r_v<request_responder<Request, Response>, Handler&, ::grpc::CallbackServerContext&>
  service& on(const bidi_streaming_method<Request, Response>& method, Handler handler) {
    return add<detail::bidi_streaming_call<Request, Response, Handler>>(method.path, std::move(handler));
  }

  /// Any other method or handler: refused at compile time, with what each kind of method takes.
  template <class Method, class Handler>
  service& on(const Method&, Handler) {
    static_assert(bifrons::detail::always_false<Method>,
                  "bifrons: service::on: this handler does not fit the method. A unary_method takes "
                  "(grpc::CallbackServerContext&, const Request&, Response&) -> grpc::Status, a "
                  "server_streaming_method (grpc::CallbackServerContext&, const Request&) -> "
                  "response_stream<Response>, a client_streaming_method (grpc::CallbackServerContext&) -> "
                  "request_sink<Request, Response>, a bidi_streaming_method (grpc::CallbackServerContext&) -> "
                  "request_responder<Request, Response>");
    return *this;
  }

  [[nodiscard]] const read_options& options() const noexcept { return options_; }

  ::grpc::ServerGenericBidiReactor* CreateReactor(::grpc::GenericCallbackServerContext* context) override {
    const auto found = methods_.find(context->method());
    if (found == methods_.end()) return ::grpc::CallbackGenericService::CreateReactor(context);
    return found->second->start(*context, options_);
  }

 private:
  struct entry {
    virtual ~entry() = default;
    virtual ::grpc::ServerGenericBidiReactor* start(::grpc::CallbackServerContext& context,
                                                    const read_options& options) = 0;
  };
  template <class Handler, class Call>
  struct method_entry final : entry {
    explicit method_entry(Handler h) : handler(std::move(h)) {}
    ::grpc::ServerGenericBidiReactor* start(::grpc::CallbackServerContext& context,
                                            const read_options& options) override {
      Call* call = nullptr;
      try {
        call = new Call(context, options, handler);  // makes a Request: the user's code
      } catch (...) {
        return new detail::refused_call(detail::handler_threw());
      }
      call->begin();
      return call;
    }
    Handler handler;
  };

  template <class Call, class Handler>
  service& add(const std::string& path, Handler handler) {
    if (!detail::valid_method_path(path))
      throw std::invalid_argument("bifrons: gRPC method path \"" + path + "\" is not /package.Service/Method");
    if (!methods_.emplace(path, std::make_unique<method_entry<Handler, Call>>(std::move(handler))).second)
      throw std::invalid_argument("bifrons: gRPC method \"" + path + "\" is already in this service");
    return *this;
  }

  read_options options_;
  std::map<std::string, std::unique_ptr<entry>, std::less<>> methods_;
};

namespace detail {

/// The client's side of a call whose requests or responses stream: gRPC's bidi reactor, driven
/// from the caller's threads. Each operation starts gRPC's and waits for its reaction; one read
/// and one write may be outstanding at once (from two threads), as gRPC allows. A hold keeps gRPC
/// from ending the call (OnDone) while the caller may still start operations: finish() releases it
/// once none is outstanding, and then waits for OnDone.
template <class Response>
class client_stream final : public ::grpc::ClientBidiReactor<::grpc::ByteBuffer, message<Response>> {
 public:
  using stub_type = ::grpc::TemplatedGenericStub<::grpc::ByteBuffer, message<Response>>;
  client_stream(::grpc::ClientContext& context, const read_options& options) : context_(context), options_(options) {}

  /// Starts the call. only_request, when given, is written as the call's one request.
  void start(stub_type& stub, const std::string& path, ::grpc::ByteBuffer* only_request) {
    stub.PrepareBidiStreamingCall(&context_, path, ::grpc::StubOptions(), this);
    if (only_request) {
      out_ = std::move(*only_request);
      writing_ = true;
      writes_closed_ = true;
      this->StartWriteLast(&out_, ::grpc::WriteOptions());
    }
    this->AddHold();
    held_ = true;
    this->StartCall();
  }

  /// A call that never started: its request could not be written.
  void refuse(::grpc::Status status) {
    status_ = std::move(status);
    done_ = true;
  }

  /// Waits for the previous write, then writes request; false once the call ended or writes
  /// were closed. A request that cannot be written ends the call with the writer's status.
  template <class Request>
  bool write(const Request& request) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !writing_; });
    if (writes_closed_ || write_failed_ || !open()) return false;
    // The write is taken before the request is written, outside the lock: the user's save hooks
    // then hold up no reaction (a read completing on gRPC's thread, for another thread's read()).
    writing_ = true;
    lock.unlock();
    if (::grpc::Status written = write_message(request, out_); !written.ok()) {
      fail(std::move(written));  // first: finish(), waiting for the write, returns this failure
      write_completed(false);
      return false;
    }
    this->StartWrite(&out_);
    lock.lock();
    changed_.wait(lock, [&] { return !writing_; });
    return !write_failed_;
  }

  /// Tells the server no request follows (once).
  void writes_done() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !writing_; });
    if (writes_closed_ || !open()) return;
    writes_closed_ = true;
    writing_ = true;
    lock.unlock();
    this->StartWritesDone();
    lock.lock();
    changed_.wait(lock, [&] { return !writing_; });
  }

  /// The next response into out; false at the end of the responses or when the call failed.
  bool read(Response& out) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !reading_; });
    if (reads_ended_ || !open()) return false;
    message<Response> incoming(out, options_);
    reading_ = true;
    lock.unlock();
    this->StartRead(&incoming);
    lock.lock();
    changed_.wait(lock, [&] { return !reading_; });
    if (incoming.read_status().ok()) return !reads_ended_;
    lock.unlock();
    fail(incoming.read_status());
    return false;
  }

  /// Ends the call on the client's side with status (the first such failure is what finish()
  /// returns): gRPC is told to cancel it.
  void fail(::grpc::Status status) {
    {
      std::lock_guard lock(mutex_);
      if (failure_.ok()) failure_ = std::move(status);
      reads_ended_ = true;
    }
    context_.TryCancel();
  }

  /// The call's status, once it ended; called before the responses ended, it cancels the call.
  ::grpc::Status finish() {
    std::unique_lock lock(mutex_);
    if (!finishing_) {
      finishing_ = true;
      if (!reads_ended_ && !done_) {
        lock.unlock();
        context_.TryCancel();
        lock.lock();
      }
      changed_.wait(lock, [&] { return !reading_ && !writing_; });
      if (std::exchange(held_, false)) {
        lock.unlock();
        this->RemoveHold();
        lock.lock();
      }
    }
    changed_.wait(lock, [&] { return done_; });
    return failure_.ok() ? status_ : failure_;
  }

  void OnReadDone(bool ok) override {
    std::lock_guard lock(mutex_);
    if (!ok) reads_ended_ = true;
    reading_ = false;
    changed_.notify_all();
  }
  void OnWriteDone(bool ok) override { write_completed(ok); }
  void OnWritesDoneDone(bool ok) override { write_completed(ok); }
  void OnDone(const ::grpc::Status& status) override {
    std::lock_guard lock(mutex_);
    status_ = status;
    done_ = true;
    changed_.notify_all();
  }

 private:
  // Whether an operation may start: the hold is still there (guarded by mutex_).
  [[nodiscard]] bool open() const { return !finishing_ && !done_; }
  void write_completed(bool ok) {
    std::lock_guard lock(mutex_);
    if (!ok) write_failed_ = true;
    writing_ = false;
    changed_.notify_all();
  }

  ::grpc::ClientContext& context_;
  // A copy: the stream may outlive the client that started the call.
  const read_options options_;
  ::grpc::ByteBuffer out_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool held_ = false;
  bool reading_ = false;
  bool writing_ = false;
  bool writes_closed_ = false;
  bool write_failed_ = false;
  bool reads_ended_ = false;
  bool finishing_ = false;
  bool done_ = false;
  ::grpc::Status status_;
  ::grpc::Status failure_;
};

/// What the client's stream types share: the call, cancelled and waited for if destroyed before
/// it was finished.
template <class Response>
class client_stream_owner {
 public:
  client_stream_owner(client_stream_owner&&) noexcept = default;
  client_stream_owner& operator=(client_stream_owner&&) = delete;
  ~client_stream_owner() {
    if (call_) (void)call_->finish();
  }

 protected:
  explicit client_stream_owner(std::unique_ptr<client_stream<Response>> call) : call_(std::move(call)) {}
  std::unique_ptr<client_stream<Response>> call_;
};

/// What the client's two stream types with streaming requests share.
template <class Request, class Response>
class request_stream_owner : public client_stream_owner<Response> {
 public:
  /// Sends request once gRPC took the previous one (so a slow server cannot make the client's
  /// memory grow); false once the call ended (finish() tells how) or the requests were closed.
  /// Waits no longer than the call's deadline.
  bool write(const Request& request) { return this->call_->write(request); }

 protected:
  using client_stream_owner<Response>::client_stream_owner;
};

}  // namespace detail

/// The responses of a server-streaming call, read one at a time (the next is asked of gRPC only
/// when read() is called, so a fast server cannot fill the client's memory). Destroying it before
/// the stream ended cancels the call and waits for gRPC to let go of it. The call's ClientContext
/// must outlive the reader; the client that started it need not.
template <message_type Response>
class response_reader : detail::client_stream_owner<Response> {
 public:
  /// The next response into out; false at the end of the stream or when the call failed
  /// (finish() tells which). Waits no longer than the call's deadline.
  bool read(Response& out) { return this->call_->read(out); }
  /// The status of the call, once it ended (waits at most its deadline); a response that did not
  /// read is INVALID_ARGUMENT with the library's text. Called before read() returned false, it
  /// cancels the rest of the stream (CANCELLED): gRPC delivers a call's status only after its
  /// messages.
  ::grpc::Status finish() { return this->call_->finish(); }

 private:
  friend class client;
  using detail::client_stream_owner<Response>::client_stream_owner;
};

/// The requests of a client-streaming call, written one at a time with write(), then finish().
/// Destroying it unfinished cancels the call and waits for gRPC to let go of it. The call's
/// ClientContext must outlive the writer; the client that started it need not.
template <message_type Request, message_type Response>
class request_writer : public detail::request_stream_owner<Request, Response> {
 public:
  /// Tells the server the requests ended and waits for its status (at most the deadline). The
  /// response is replaced only with OK; one that does not read is INVALID_ARGUMENT with the
  /// library's text. Called once.
  ::grpc::Status finish(Response& response) {
    this->call_->writes_done();
    Response value{};
    const bool answered = this->call_->read(value);
    if (Response extra{}; answered && this->call_->read(extra))
      this->call_->fail({::grpc::StatusCode::INTERNAL, "bifrons: the server sent more than one response"});
    const ::grpc::Status status = this->call_->finish();
    if (!status.ok()) return status;
    if (!answered) return {::grpc::StatusCode::INTERNAL, "bifrons: the server ended the call with OK but no response"};
    response = std::move(value);
    return status;
  }

 private:
  friend class client;
  using detail::request_stream_owner<Request, Response>::request_stream_owner;
};

/// Both streams of a bidi-streaming call: write() and writes_done() from one thread, read() from
/// the same or another, then finish(). One write and one read are outstanding at most; a server of
/// this binding answers a request before it reads the next, so a client that writes many requests
/// without reading may wait until it reads. Destroying it unfinished cancels the call and waits
/// for gRPC to let go of it. The call's ClientContext must outlive it.
template <message_type Request, message_type Response>
class bidi_stream : public detail::request_stream_owner<Request, Response> {
 public:
  /// Tells the server no request follows.
  void writes_done() { this->call_->writes_done(); }
  /// The next response into out; false at the end of the responses or when the call failed.
  bool read(Response& out) { return this->call_->read(out); }
  /// The status of the call, once it ended (waits at most its deadline). Call it once read()
  /// returned false: called before, it cancels the call (CANCELLED, unless the server's status
  /// arrived first), as gRPC delivers a call's status only after its responses.
  ::grpc::Status finish() { return this->call_->finish(); }

 private:
  friend class client;
  using detail::request_stream_owner<Request, Response>::request_stream_owner;
};

/// Calls bifrons methods over a channel. Responses are read with the read_options given here
/// (a server is a peer too). Each call takes the caller's grpc::ClientContext, for deadlines,
/// metadata and cancellation, and waits at most until its deadline. The calls block the calling
/// thread (as gRPC's synchronous stubs do): a handler that calls another service through a client
/// holds one of gRPC's callback threads meanwhile.
class client {
 public:
  explicit client(std::shared_ptr<::grpc::ChannelInterface> channel, const read_options& options = {})
      : channel_(std::move(channel)), options_(options) {}

  /// A unary call: response is replaced only when the status is OK.
  template <class Request, class Response>
  ::grpc::Status call(const unary_method<Request, Response>& method, ::grpc::ClientContext& context,
                      const Request& request, Response& response) const {
    ::grpc::ByteBuffer out;
    if (::grpc::Status written = write_message(request, out); !written.ok()) return written;
    Response value{};
    message<Response> incoming(value, options_);
    ::grpc::TemplatedGenericStub<::grpc::ByteBuffer, message<Response>> stub(channel_);
    const ::grpc::Status status = detail::wait_for_callback([&](std::function<void(::grpc::Status)> done) {
      stub.UnaryCall(&context, method.path, ::grpc::StubOptions(), &out, &incoming, std::move(done));
    });
    if (!incoming.read_status().ok()) return incoming.read_status();
    if (status.ok()) response = std::move(value);
    return status;
  }

  /// A server-streaming call: the responses through the reader, then its finish().
  template <class Request, class Response>
  response_reader<Response> call(const server_streaming_method<Request, Response>& method,
                                 ::grpc::ClientContext& context, const Request& request) const {
    ::grpc::ByteBuffer out;
    if (::grpc::Status written = write_message(request, out); !written.ok()) {
      auto refused = std::make_unique<detail::client_stream<Response>>(context, options_);
      refused->refuse(std::move(written));
      return response_reader<Response>(std::move(refused));
    }
    return response_reader<Response>(start<Response>(method.path, context, &out));
  }

  /// A client-streaming call: the requests through the writer, then its finish().
  template <class Request, class Response>
  request_writer<Request, Response> call(const client_streaming_method<Request, Response>& method,
                                         ::grpc::ClientContext& context) const {
    return request_writer<Request, Response>(start<Response>(method.path, context, nullptr));
  }

  /// A bidi-streaming call: requests and responses through the stream, then its finish().
  template <class Request, class Response>
  bidi_stream<Request, Response> call(const bidi_streaming_method<Request, Response>& method,
                                      ::grpc::ClientContext& context) const {
    return bidi_stream<Request, Response>(start<Response>(method.path, context, nullptr));
  }

 private:
  template <class Response>
  std::unique_ptr<detail::client_stream<Response>> start(const std::string& path, ::grpc::ClientContext& context,
                                                         ::grpc::ByteBuffer* only_request) const {
    auto call = std::make_unique<detail::client_stream<Response>>(context, options_);
    typename detail::client_stream<Response>::stub_type stub(channel_);
    call->start(stub, path, only_request);
    return call;
  }

  std::shared_ptr<::grpc::ChannelInterface> channel_;
  read_options options_;
};

}  // namespace bifrons::grpc

namespace grpc {
/// bifrons messages in gRPC's generic and reactor APIs (see bifrons::grpc::message).
template <class T>
class SerializationTraits<bifrons::grpc::message<T>, void> {
 public:
  static Status Serialize(const bifrons::grpc::message<T>& message, ByteBuffer* buffer, bool* own_buffer) {
    *own_buffer = true;
    return bifrons::grpc::write_message(std::as_const(message.value()), *buffer);
  }
  static Status Deserialize(ByteBuffer* buffer, bifrons::grpc::message<T>* message) {
    static_assert(!std::is_const_v<T>, "bifrons: message<const T> can be sent, not received: receive a message<T>");
    Status status = bifrons::grpc::read_message(*buffer, message->value(), message->options());
    buffer->Clear();
    message->set_read_status(status);
    return status;
  }
};
}  // namespace grpc

namespace bifrons {
/// bifrons::grpc::bytes on the wire: as std::vector<std::byte>.
template <>
struct codec<grpc::bytes> {
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const grpc::bytes& b) { return codec<std::span<const std::byte>>::size(b.view()); }
  static std::byte* write(std::byte* out, const grpc::bytes& b) {
    return codec<std::span<const std::byte>>::write(out, b.view());
  }
  static void read(detail::source& in, grpc::bytes& b) {
    const std::byte* start = in.position();
    const std::size_t n = in.read_count(1, 0);
    if (in.failed()) return;
    if (n == 0) {
      b = grpc::bytes();
      return;
    }
    const std::byte* p = in.take(n);
    if (!p) return;
    // By address, as integers: p may lie in other bytes than the slice (a hook's own from_bytes).
    const grpc::detail::received_slice* received = context<grpc::detail::received_slice>(in);
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const auto first = received ? reinterpret_cast<std::uintptr_t>(received->slice.begin()) : 0;
    if (received && at >= first && n <= received->slice.size() && at - first <= received->slice.size() - n) {
      // A reference into the received slice: nothing allocated, nothing charged.
      const auto offset = static_cast<std::size_t>(at - first);
      b = grpc::bytes(received->slice.sub(offset, offset + n));
    } else if (in.charge(start, n, 1)) {  // a copy, charged to the budget as a vector's bytes are
      b = grpc::bytes(std::span<const std::byte>(p, n));
    }
  }
};
namespace detail {
template <class T>
struct describer;
/// In exported schemas (bifrons/schema.hpp), bytes is what it is on the wire: a vector of bytes.
template <>
struct describer<grpc::bytes> {
  static auto describe(auto& builder) { return builder.template describe<std::vector<std::byte>>(); }
};
}  // namespace detail
}  // namespace bifrons
