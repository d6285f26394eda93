# Boost.Serialization binary archive (Debian: libboost-serialization-dev).
# Boost::serialization is an imported target, so its headers are SYSTEM.
find_package(Boost QUIET COMPONENTS serialization)
if(NOT TARGET Boost::serialization)
  bench_missing(boost_binary "Boost.Serialization not found (libboost-serialization-dev)")
  return()
endif()
bench_adapter(boost_binary SOURCES adapters/boost_binary.cpp LIBRARIES Boost::serialization)
# The minimal program links the static archive when Debian ships one, as the
# protobuf and Cap'n Proto ones do, so that its size counts the library.
find_library(BENCH_BOOST_SERIALIZATION_STATIC NAMES libboost_serialization.a)
if(BENCH_BOOST_SERIALIZATION_STATIC)
  bench_minimal(boost_binary SOURCES minimal/boost_binary.cpp
    LIBRARIES Boost::headers "${BENCH_BOOST_SERIALIZATION_STATIC}")
else()
  bench_minimal(boost_binary SOURCES minimal/boost_binary.cpp LIBRARIES Boost::serialization)
endif()
