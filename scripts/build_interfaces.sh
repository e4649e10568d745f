#!/usr/bin/env bash
# Build the map2route_interfaces ament_cmake package from the ROS 2 Jazzy PyPI wheels and
# install it into the virtual environment, so `import map2route_interfaces.msg` works with no
# sourcing. First, the Jazzy interface packages that are not on PyPI (interfaces/ros_deps/:
# tf2_msgs, nav2_msgs, composition_interfaces) are built the same way, each only when the
# venv cannot import it already. On a machine with a full ROS 2 install use colcon instead
# (see docs/ros.md).
#
# Usage: scripts/build_interfaces.sh [VENV]   (default: .venv; needs cmake, make and a C/C++
# compiler, and the `rosbuild` extra of pyproject.toml installed into VENV)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$(cd "${1:-$ROOT/.venv}" && pwd)"
PY="$VENV/bin/python"

for tool in cmake make cc c++; do
  command -v "$tool" >/dev/null || {
    echo "build_interfaces: '$tool' is missing; install it (Debian: apt-get install cmake build-essential)" >&2
    exit 1
  }
done
"$PY" -c "import ament_package, catkin_pkg, rosidl_pycommon" 2>/dev/null || {
  echo "build_interfaces: the ROS build wheels are missing from $VENV; run: $VENV/bin/pip install -e '.[rosbuild]'" >&2
  exit 1
}

# The wheels' exported CMake files name the wheel builder's Python (/opt/python/cp311-cp311/...);
# point them at this interpreter's headers and this numpy, or find_package() fails.
"$PY" - "$VENV" <<'PYEOF'
import pathlib, re, sys, sysconfig
import numpy
venv = pathlib.Path(sys.argv[1])
py_inc = sysconfig.get_paths()["include"]
np_inc = numpy.get_include()
rules = [(re.compile(r"/opt/python/cp3\d+-cp3\d+/lib/python3\.\d+/site-packages/numpy/_core/include"), np_inc),
         (re.compile(r"/opt/python/cp3\d+-cp3\d+/include/python3\.\d+"), py_inc)]
fixed = 0
for path in (venv / "share").glob("*/cmake/*.cmake"):
    text = path.read_text()
    new = text
    for pattern, repl in rules:
        new = pattern.sub(repl, new)
    if new != text:
        path.write_text(new)
        fixed += 1
print(f"build_interfaces: rewrote builder paths in {fixed} CMake files")
PYEOF

export AMENT_PREFIX_PATH="$VENV${AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}"
export CMAKE_PREFIX_PATH="$VENV${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export PATH="$VENV/bin:$PATH"

build_one() {  # build_one NAME SOURCE_DIR: configure, build and install one package into VENV
  local name="$1" pkg="$2" build="$ROOT/build/$1"
  mkdir -p "$(dirname "$build")"
  cmake -S "$pkg" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$VENV" \
    -DCMAKE_INSTALL_RPATH="$VENV/lib" \
    -DCMAKE_INSTALL_RPATH_USE_LINK_PATH=ON \
    -DPython3_EXECUTABLE="$PY" \
    -DBUILD_TESTING=OFF > "$build.configure.log" 2>&1 || {
      tail -40 "$build.configure.log" >&2
      echo "build_interfaces: cmake configure of $name failed; full log: $build.configure.log" >&2; exit 1; }
  cmake --build "$build" -j "$(nproc)" > "$build.build.log" 2>&1 || {
      tail -40 "$build.build.log" >&2
      echo "build_interfaces: build of $name failed; full log: $build.build.log" >&2; exit 1; }
  cmake --install "$build" > "$build.install.log" 2>&1
  "$PY" -c "import $name" || {
    echo "build_interfaces: installed, but 'import $name' fails in $PY" >&2; exit 1; }
  echo "build_interfaces: $name installed into $VENV"
}

for dep in tf2_msgs nav2_msgs composition_interfaces; do
  if "$PY" -c "import $dep" 2>/dev/null; then
    echo "build_interfaces: $dep is already importable; not building it"
  else
    build_one "$dep" "$ROOT/interfaces/ros_deps/$dep"
  fi
done
build_one map2route_interfaces "$ROOT/interfaces/map2route_interfaces"
"$PY" -c "import map2route_interfaces.msg, map2route_interfaces.srv, map2route_interfaces.action" || {
  echo "build_interfaces: installed, but 'import map2route_interfaces' fails in $PY" >&2; exit 1; }
