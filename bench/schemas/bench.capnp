# Cap'n Proto schema of the benchmark workloads (bench/harness/models.hpp).
# Account follows chronoxor/CppSerialization's schema (Text symbols).
@0xb644b63f3a854264;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("benchcp");

# Workload 1: Breiter & Nowak
struct IntegerClass {
  a @0 :Int32;
  b @1 :Int32;
  c @2 :Int32;
  d @3 :Int32;
  e @4 :Int32;
  f @5 :Int32;
  g @6 :Int32;
  h @7 :Int32;
  i @8 :Int32;
  j @9 :Int32;
}
struct IntegerClasses { items @0 :List(IntegerClass); }
struct Int32s { values @0 :List(Int32); }
struct Floats { values @0 :List(Float32); }
struct Doubles { values @0 :List(Float64); }
# Entries in ascending key order, as std::map iterates.
struct IntMap {
  entries @0 :List(Entry);
  struct Entry {
    key @0 :Int32;
    value @1 :Int32;
  }
}
# A missing child is a null pointer.
struct Node {
  value @0 :Int32;
  left @1 :Node;
  right @2 :Node;
}

# Workload 2: Kelpie
struct KelpieEntry {
  id @0 :UInt64;
  name @1 :Text;
}
struct KelpieMessage {
  op @0 :UInt32;
  tag @1 :UInt32;
  source @2 :UInt32;
  destination @3 :UInt32;
  entries @4 :List(KelpieEntry);
}

# Workload 3: meta-serialization tuple<int, uint64, vector<uint8>, string>
struct MetaTuple {
  first @0 :Int32;
  second @1 :UInt64;
  third @2 :Data;
  fourth @3 :Text;
}

# Workload 4: MusicScience37 survey (vector_int uses Int32s, vector_double Doubles)
struct String { value @0 :Text; }
struct SurveyMixed {
  number @0 :Int32;
  real @1 :Float64;
  text @2 :Text;
}

# Workload 5: chronoxor/CppSerialization
enum OrderSide {
  buy @0;
  sell @1;
}
enum OrderType {
  market @0;
  limit @1;
  stop @2;
}
struct Order {
  id @0 :Int32;
  symbol @1 :Text;
  side @2 :OrderSide;
  type @3 :OrderType;
  price @4 :Float64;
  volume @5 :Float64;
}
struct Balance {
  currency @0 :Text;
  amount @1 :Float64;
}
struct Account {
  id @0 :Int32;
  name @1 :Text;
  wallet @2 :Balance;
  orders @3 :List(Order);
}
