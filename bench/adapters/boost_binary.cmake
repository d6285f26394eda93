# Boost.Serialization binary archive (Debian: libboost-serialization-dev).
# Boost::serialization is an imported target, so its headers are SYSTEM.
find_package(Boost QUIET COMPONENTS serialization)
if(NOT TARGET Boost::serialization)
  bench_missing(boost_binary "Boost.Serialization not found (libboost-serialization-dev)")
  return()
endif()
bench_adapter(boost_binary SOURCES adapters/boost_binary.cpp LIBRARIES Boost::serialization)
bench_minimal(boost_binary SOURCES minimal/boost_binary.cpp LIBRARIES Boost::serialization)
