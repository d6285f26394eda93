// expect: bifrons: service::on: this handler does not fit the method
// A client-streaming handler written as a unary one (it takes the request): refused with what each
// kind of method takes, not with a list of overloads whose constraints failed.
#include <bifrons/grpc.hpp>

struct Number {
  long value = 0;
};

int main() {
  const bifrons::grpc::client_streaming_method<Number, Number> sum{"/test.Numbers/Sum"};
  bifrons::grpc::service service;
  service.on(sum, [](grpc::CallbackServerContext&, const Number&, Number&) { return grpc::Status::OK; });
}
