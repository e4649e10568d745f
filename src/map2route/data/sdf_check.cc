// sdf_check: load SDF files with the SDFormat library, as Gazebo does, and print every error.
// Built by map2route.gazebo.check (c++ and pkg-config sdformatN); used by `map2route gazebo
// export --check` and the tests. Strict: warnings, deprecated and unrecognized elements are
// errors, except elements named with --allow (Gazebo extensions the spec lacks, such as
// gz_frame_id that gz-sensors reads). No URI is resolved (no model://, no Fuel): a world that
// needs a lookup fails. Exit status: 0 all files load, 1 some file has errors, 2 usage.
#include <sdf/sdf.hh>

#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

bool allowed(const std::string &message, const std::set<std::string> &allow) {
  for (const auto &name : allow) {
    if (message.find("Element[" + name + "]") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char **argv) {
  std::set<std::string> allow;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--allow" && i + 1 < argc) {
      allow.insert(argv[++i]);
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: sdf_check [--allow ELEMENT]... FILE.sdf...\n";
    return 2;
  }
  sdf::ParserConfig config;
  config.SetWarningsPolicy(sdf::EnforcementPolicy::ERR);
  config.SetDeprecatedElementsPolicy(sdf::EnforcementPolicy::ERR);
  config.SetUnrecognizedElementsPolicy(sdf::EnforcementPolicy::ERR);
  config.SetFindCallback([](const std::string &) { return std::string(); });
  int failed = 0;
  for (const auto &file : files) {
    sdf::Root root;
    const sdf::Errors errors = root.Load(file, config);
    int count = 0;
    for (const auto &e : errors) {
      if (allowed(e.Message(), allow)) continue;
      std::cout << file << ": " << e.Message() << "\n";
      ++count;
    }
    if (count == 0 && root.WorldCount() == 0 && root.Model() == nullptr) {
      std::cout << file << ": holds neither a world nor a model\n";
      ++count;
    }
    if (count > 0) ++failed;
  }
  return failed > 0 ? 1 : 0;
}
