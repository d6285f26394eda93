// SPDX-License-Identifier: MIT
#pragma once
// The schema model the tools walk (the checker of bifrons-compat, the decoder of bifrons-inspect):
// bifrons/detail/inspect/schema_model.hpp, which bifrons::to_json uses too, under the tools' names.

#include <bifrons/detail/inspect/schema_model.hpp>

#include "json_read.hpp"

namespace bifrons::tools {

using detail::inspect::block_element;
using detail::inspect::block_width;
using detail::inspect::definition;
using detail::inspect::definition_kind;
using detail::inspect::element_min_size;
using detail::inspect::field;
using detail::inspect::from_hex;
using detail::inspect::is_float;
using detail::inspect::is_integer;
using detail::inspect::is_signed;
using detail::inspect::kind;
using detail::inspect::load_schema;
using detail::inspect::load_schema_text;
using detail::inspect::max_schema_nesting;
using detail::inspect::max_schema_size;
using detail::inspect::min_size;
using detail::inspect::primitive;
using detail::inspect::primitive_name;
using detail::inspect::record_width;
using detail::inspect::schema;
using detail::inspect::schema_error;
using detail::inspect::spell;
using detail::inspect::to_hex;
using detail::inspect::type;

}  // namespace bifrons::tools
