// SPDX-License-Identifier: MIT
#include "decoder.hpp"

#include <algorithm>
#include <bifrons/frame.hpp>
#include <string>
#include <utility>

namespace bifrons::tools {

bool is_framed(std::span<const std::byte> bytes) {
  return bytes.size() >= frame_magic.size() && std::equal(frame_magic.begin(), frame_magic.end(), bytes.begin());
}

decode_result decode_framed(const std::vector<schema>& schemas, std::span<const std::byte> bytes,
                            const decode_options& options, std::size_t& chosen) {
  decode_result out;
  const result<frame> f = read_frame(bytes);
  if (!f) {
    out.code = f.code();
    out.offset = f.offset();
    out.path = "(frame)";
    return out;
  }
  std::vector<annotation> header;
  if (options.annotate) {
    const std::size_t name_at = frame_magic.size() + 1;
    header.push_back({0, frame_magic.size(), 0, "(frame)", "magic"});
    header.push_back({frame_magic.size(), 1, 0, "(frame)", "format 1"});
    header.push_back({name_at, f->size - name_at, 0, "(frame)", "type " + std::string(f->type_name)});
  }
  for (chosen = 0; chosen < schemas.size(); ++chosen)
    if (spell(schemas[chosen].root) == f->type_name) break;
  if (chosen == schemas.size()) {
    out.code = errc::type_mismatch;
    out.offset = frame_magic.size() + 1;
    out.path = "(frame) " + std::string(f->type_name);
    out.annotations = std::move(header);
    return out;
  }
  const result<std::span<const std::byte>> body = detail::framed_value(bytes, *f);
  if (!body) {
    out.code = body.code();
    out.offset = body.offset();
    out.path = "(frame checksum)";
    out.annotations = std::move(header);
    return out;
  }
  out = decode(schemas[chosen], *body, options);
  out.end += f->size;
  if (!out.ok && out.code != errc::out_of_memory) out.offset += f->size;
  for (annotation& a : out.annotations) a.offset += f->size;
  header.insert(header.end(), out.annotations.begin(), out.annotations.end());
  out.annotations = std::move(header);
  return out;
}

}  // namespace bifrons::tools
