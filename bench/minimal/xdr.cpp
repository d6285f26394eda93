// Minimal save+load program: its size is XDR's (libtirpc xdrmem) footprint
// in an executable. The routine is hand-written, as in the adapter.
#include <rpc/xdr.h>

#include <cstdint>
#include <string>
#include <vector>

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};

static bool xdr_record(XDR* x, Record& r) {
  u_int n = static_cast<u_int>(r.name.size());
  if (!xdr_int32_t(x, &r.id) || !xdr_u_int(x, &n)) return false;
  if (x->x_op == XDR_DECODE) r.name.resize(n);
  if (!xdr_opaque(x, r.name.data(), n)) return false;
  n = static_cast<u_int>(r.values.size());
  if (!xdr_u_int(x, &n)) return false;
  if (x->x_op == XDR_DECODE) r.values.resize(n);
  for (double& v : r.values) {
    if (!xdr_double(x, &v)) return false;
  }
  return true;
}

int main() {
  Record in{7, "minimal", {1.5, 2.5}};
  char buffer[256];
  XDR x;
  xdrmem_create(&x, buffer, sizeof buffer, XDR_ENCODE);
  if (!xdr_record(&x, in)) return 1;
  xdr_destroy(&x);
  Record out{};
  xdrmem_create(&x, buffer, sizeof buffer, XDR_DECODE);
  if (!xdr_record(&x, out)) return 1;
  xdr_destroy(&x);
  return out == in ? 0 : 1;
}
