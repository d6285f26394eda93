# bifrons_record: bifrons with the record models (IntegerClass, Order,
# Balance) declared records; header-only like bifrons, so no minimal program
# of its own.
bench_adapter(bifrons_record SOURCES adapters/bifrons_record.cpp)
