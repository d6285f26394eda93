// A polymorphic scene graph: node classes derived from Node, registered once each; meshes shared
// between nodes (shared_ptr, written once); weak_ptr links back up the tree; raw pointers to
// materials the scene holds by value. Then an older program, which does not know a newer node
// class, reads the newer scene and skips what it does not know.
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
  std::vector<std::shared_ptr<Node>> children;
  std::weak_ptr<Node> parent;  // a weak link: no cycle of owners
  virtual ~Node() = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(name, children, parent);
  }
};

struct Group final : Node {
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Node>(*this));
  }
};

struct Model final : Node {
  std::shared_ptr<const Mesh> mesh;  // meshes are shared between models, written once
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Node>(*this), mesh);
  }
};

struct Light final : Node {
  float intensity = 1.0f;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Node>(*this), intensity);
  }
};

/// A node class that only a newer version of the program has.
struct Camera final : Node {
  float fov = 60.0f;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Node>(*this), fov);
  }
};

struct Scene {
  std::vector<Material> materials;  // written first, so that meshes can point at them
  std::shared_ptr<Node> root;
};

// Raw pointers may point at Materials held by value: they take object ids.
template <>
inline constexpr bool bifrons::enable_identity<Material> = true;

// One line per node class. The names are part of the format; the C++ names are free to change.
BIFRONS_REGISTER(Group, "scene.Group");
BIFRONS_REGISTER(Model, "scene.Model");
BIFRONS_REGISTER(Light, "scene.Light");

namespace {

template <class T>
std::shared_ptr<T> add(const std::shared_ptr<Node>& parent, std::string name) {
  auto node = std::make_shared<T>();
  node->name = std::move(name);
  node->parent = parent;
  parent->children.push_back(node);
  return node;
}

}  // namespace

int main() {
  example_check check;

  Scene scene;
  scene.materials = {{"steel", 0.2f}, {"rubber", 0.9f}};
  auto wheel = std::make_shared<Mesh>(Mesh{"wheel", {0, 1, 2, 3, 4, 5}, &scene.materials[1]});
  scene.root = std::make_shared<Group>();
  scene.root->name = "car";
  const auto body = add<Model>(scene.root, "body");
  body->mesh = std::make_shared<Mesh>(Mesh{"body", {9, 9, 9}, &scene.materials[0]});
  for (const char* corner : {"front-left", "front-right", "rear-left", "rear-right"})
    add<Model>(body, corner)->mesh = wheel;
  add<Light>(scene.root, "headlight")->intensity = 3.5f;

  const std::vector<std::byte> bytes = bifrons::to_bytes(scene);
  const auto back = bifrons::from_bytes<Scene>(bytes);

  const Node& car = *back.root;
  check(dynamic_cast<const Group*>(&car) != nullptr, "the root is a Group again");
  check(car.parent.expired(), "the root has no parent");
  const auto* b = dynamic_cast<const Model*>(car.children.at(0).get());
  check(b != nullptr && b->parent.lock() == back.root, "the body is a Model whose parent is the new root");
  check(b->children.size() == 4, "four wheels");
  const auto& shared_wheel = dynamic_cast<const Model&>(*b->children[0]).mesh;
  bool one_mesh = true;
  for (const auto& w : b->children)
    one_mesh = one_mesh && dynamic_cast<const Model&>(*w).mesh == shared_wheel && w->parent.lock().get() == b;
  check(one_mesh, "the four wheels share one mesh, and each knows its parent");
  check(shared_wheel.use_count() == 4, "the wheel mesh has exactly the four owners it had");
  check(shared_wheel->material == &back.materials[1], "the wheel's material is the new rubber");
  const auto* light = dynamic_cast<const Light*>(car.children.at(1).get());
  check(light != nullptr && light->intensity == 3.5f, "the headlight is a Light");
  std::printf("scene of %zu bytes: each node class's name written once, the wheel mesh once for four nodes\n",
              bytes.size());

  // A newer program adds a Camera. This program (which registers Camera only while it plays the
  // newer one) then reads the newer scene: with unknown_type_policy::null the camera reads as
  // null and everything after it is read as written.
  std::vector<std::byte> newer;
  {
    const bifrons::registration<Camera> newer_program("scene.Camera");
    Scene s = bifrons::from_bytes<Scene>(bytes);
    auto camera = std::make_shared<Camera>();
    camera->name = "dashcam";
    camera->parent = s.root;
    s.root->children.insert(s.root->children.begin() + 1, camera);
    newer = bifrons::to_bytes(s);
  }
  const auto refused = bifrons::try_from_bytes<Scene>(newer);
  check(refused.code() == bifrons::errc::unknown_type, "by default an unknown node class is an error");
  bifrons::read_options lenient;
  lenient.unknown_types = bifrons::unknown_type_policy::null;
  const auto old_view = bifrons::from_bytes<Scene>(newer, lenient);
  const auto& kids = old_view.root->children;
  check(kids.size() == 3 && kids[1] == nullptr, "the camera reads as null");
  check(dynamic_cast<const Light*>(kids[2].get()) != nullptr, "the light after it is read as written");

  // A raw pointer to something the message does not hold cannot be written faithfully.
  Material loose{"glass", 0.0f};
  auto windshield = add<Model>(back.root, "windshield");
  windshield->mesh = std::make_shared<Mesh>(Mesh{"glass", {}, &loose});
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
