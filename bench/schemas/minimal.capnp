# The minimal save+load program's record (bench/minimal/capnp.cpp).
@0xd694c103a17eae85;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("minimalcp");

struct Record {
  id @0 :Int32;
  name @1 :Text;
  values @2 :List(Float64);
}
