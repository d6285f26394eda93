// SPDX-License-Identifier: MIT
#pragma once
// The breaking-change checker of bifrons-compat: compares the schema a type had (old) with the
// one it has now (new) and classifies every difference by the rows of docs/evolution.md.
//
//   compatible  both directions survive: old programs read new data, new programs read old data
//               (some only while values fit, or unless the data holds what the other side cannot
//               hold; the finding says so);
//   breaking    a read fails, or may succeed with wrong values ("No" in docs/evolution.md);
//   silent      reads succeed with wrong values ("Silent" in docs/evolution.md).

#include <cstdint>
#include <string>
#include <vector>

#include "schema_model.hpp"

namespace bifrons::tools {

enum class verdict : std::uint8_t { compatible, breaking, silent };

std::string_view verdict_name(verdict v);

struct finding {
  tools::verdict verdict = verdict::compatible;
  std::string path;     ///< where, from the root: `app::Account.orders[].price`
  std::string rule;     ///< a rule id (rules() lists them with their row of docs/evolution.md)
  std::string message;  ///< what changed, and what it means
};

struct rule_info {
  std::string_view id;
  std::string_view row;  ///< the row of docs/evolution.md (its first column)
};

/// Every rule the checker applies, with its row of docs/evolution.md.
const std::vector<rule_info>& rules();
std::string_view rule_row(std::string_view id);

struct check_options {
  /// The data is written framed (bifrons::to_framed): the frame holds the root type's name, so
  /// renaming the root type breaks it (docs/format.md section 30).
  bool framed = false;
  /// Old programs read with unknown_type_policy::null: a newly registered class is then
  /// compatible (its objects read as null there), not breaking (unknown_type).
  bool old_readers_null = false;
  /// If set, receives how many type comparisons the check made: its work, which grows with the
  /// size of the schemas, not exponentially with their nesting (tests count it).
  std::uint64_t* comparisons = nullptr;
};

/// Every difference between the schemas, in the order of the types' fields.
std::vector<finding> check(const schema& old_schema, const schema& new_schema, const check_options& options = {});

/// The worst verdict of the findings (compatible if none).
verdict worst(const std::vector<finding>& findings);

}  // namespace bifrons::tools
