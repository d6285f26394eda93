// Appending fields for every hook style: aggregate, member/free serialize, member/free
// save+load, their versioned forms, a base class that evolves independently of the derived
// class, and a family that retires middle fields. For every pair of releases in both directions
// an old reader gets the fields it knows and skips the rest (rule 1), a new reader keeps the
// defaults of the fields the data lacks (rule 2), also when reading into an existing object.

#include "evolution_support.hpp"

namespace evo {

template <class Family>
class AppendedFields : public ::testing::Test {};
TYPED_TEST_SUITE(AppendedFields, AllFamilies, NameOf);

TYPED_TEST(AppendedFields, NewReadsOldAtTopLevel) { check_pairs<AtTopLevel, TypeParam>(direction::new_reads_old); }
TYPED_TEST(AppendedFields, OldReadsNewAtTopLevel) { check_pairs<AtTopLevel, TypeParam>(direction::old_reads_new); }
TYPED_TEST(AppendedFields, NewReadsOldAsStructMember) { check_pairs<AsMember, TypeParam>(direction::new_reads_old); }
TYPED_TEST(AppendedFields, OldReadsNewAsStructMember) { check_pairs<AsMember, TypeParam>(direction::old_reads_new); }
TYPED_TEST(AppendedFields, NewReadsOldInVector) { check_pairs<InVector, TypeParam>(direction::new_reads_old); }
TYPED_TEST(AppendedFields, OldReadsNewInVector) { check_pairs<InVector, TypeParam>(direction::old_reads_new); }

}  // namespace evo
