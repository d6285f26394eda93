// A scene graph with shared meshes and parent links: shared_ptr for what several owners share,
// weak_ptr back up the tree, a raw pointer to an object the message holds by value.
#include <bifrons/bifrons.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "example_check.hpp"

struct Material {
  std::string name;
  float roughness = 0.5f;
};

struct Mesh {
  std::string name;
  std::vector<float> vertices;
  const Material* material = nullptr;  // does not own: points into Scene::materials
};

struct Node {
  std::string name;
  std::shared_ptr<const Mesh> mesh;  // meshes are shared between nodes, written once
  std::vector<std::shared_ptr<Node>> children;
  std::weak_ptr<Node> parent;  // a weak link: no cycle of owners
};

struct Scene {
  std::vector<Material> materials;  // written first, so that meshes can point at them
  std::shared_ptr<Node> root;
};

// Raw pointers may point at Materials held by value: they take object ids.
template <>
inline constexpr bool bifrons::enable_identity<Material> = true;

namespace {

std::shared_ptr<Node> add(const std::shared_ptr<Node>& parent, std::string name, std::shared_ptr<const Mesh> mesh) {
  auto node = std::make_shared<Node>();
  node->name = std::move(name);
  node->mesh = std::move(mesh);
  node->parent = parent;
  parent->children.push_back(node);
  return node;
}

}  // namespace

int main() {
  Scene scene;
  scene.materials = {{"steel", 0.2f}, {"rubber", 0.9f}};
  auto wheel = std::make_shared<Mesh>(Mesh{"wheel", {0, 1, 2, 3, 4, 5}, &scene.materials[1]});
  scene.root = std::make_shared<Node>();
  scene.root->name = "car";
  const auto body = add(scene.root, "body", std::make_shared<Mesh>(Mesh{"body", {9, 9, 9}, &scene.materials[0]}));
  for (const char* corner : {"front-left", "front-right", "rear-left", "rear-right"}) add(body, corner, wheel);

  const std::vector<std::byte> bytes = bifrons::to_bytes(scene);
  const auto back = bifrons::from_bytes<Scene>(bytes);

  example_check check;
  const Node& car = *back.root;
  check(car.parent.expired(), "the root has no parent");
  const Node& b = *car.children.at(0);
  check(b.parent.lock() == back.root, "body's parent is the new root");
  check(b.children.size() == 4, "four wheels");
  const auto& shared_wheel = b.children[0]->mesh;
  bool one_mesh = true;
  for (const auto& w : b.children) one_mesh = one_mesh && w->mesh == shared_wheel && w->parent.lock().get() == &b;
  check(one_mesh, "the four wheels share one mesh, and each knows its parent");
  check(shared_wheel.use_count() == 4, "the wheel mesh has exactly the four owners it had");
  check(shared_wheel->material == &back.materials[1], "the wheel's material is the new rubber");
  check(b.mesh->material == &back.materials[0] && b.mesh->material->name == "steel", "the body is steel");

  std::printf("scene of %zu bytes: the wheel mesh written once for four nodes\n", bytes.size());

  // A raw pointer to something the message does not hold cannot be written faithfully.
  Material loose{"glass", 0.0f};
  auto windshield = add(back.root, "windshield", std::make_shared<Mesh>(Mesh{"glass", {}, &loose}));
  std::vector<std::byte> out;
  try {
    bifrons::to_bytes(back, out);
    check(false, "a pointer to an unwritten object is refused");
  } catch (const bifrons::error& e) {
    check(e.code() == bifrons::errc::unwritten_pointee, "refused with unwritten_pointee");
    check(out.empty(), "nothing was written");
    std::printf("refused: %s\n", e.what());
  }
  return check.failures;
}
