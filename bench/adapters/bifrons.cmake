bench_adapter(bifrons SOURCES adapters/bifrons.cpp)
bench_minimal(bifrons SOURCES minimal/bifrons.cpp)
