// The static library's one object file: registrations only, which nothing else refers to.
#include "shapes.hpp"

BIFRONS_REGISTER(static_shapes::Hexagon, "static.Hexagon");
BIFRONS_REGISTRATIONS(static_shapes);
