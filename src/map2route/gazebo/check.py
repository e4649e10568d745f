"""Check SDF files with the real SDFormat library (the parser Gazebo itself loads worlds with).

SDFormat has no Python bindings on Debian 12, so a small C++ checker
(``map2route/data/sdf_check.cc``) is compiled once against the installed ``libsdformat``
(found with ``pkg-config``) into a cache folder, and run on the files. It loads each file with
``sdf::Root::Load`` as Gazebo does, strictly: warnings, deprecated and unknown elements are
errors (except :data:`ALLOWED_ELEMENTS`), and no URI is resolved, so a file that needs a
``model://`` or Fuel lookup fails.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from map2route.gazebo.errors import GazeboError
from map2route.paths import data_dir

#: The checker's C++ source.
CHECKER_SOURCE = data_dir() / "sdf_check.cc"
#: SDFormat major versions tried, newest first (Gazebo Harmonic: 14; Debian 12: 12).
SDFORMAT_PACKAGES = ("sdformat14", "sdformat13", "sdformat12")
#: Elements Gazebo reads that the SDF spec lacks (SDFormat copies them, with a warning).
ALLOWED_ELEMENTS = ("gz_frame_id",)
#: A bound on one checker run (44 worlds take about a second each on one core).
CHECK_TIMEOUT_S = 600.0
#: Terminal colour codes SDFormat's console puts around its messages.
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
INSTALL_HINT = ("install the SDFormat library and a C++ compiler (Debian: apt-get install "
                "libsdformat-dev pkg-config build-essential; or `make debian-deps`)")


def cache_dir() -> Path:
    """Where the compiled checker is kept (``MAP2ROUTE_CACHE``, else ``~/.cache/map2route``)."""
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "map2route"
    return Path(os.environ.get("MAP2ROUTE_CACHE", default))


def _pkg_config(*args: str) -> str:
    run = subprocess.run(["pkg-config", *args], capture_output=True, text=True, timeout=30,
                         check=False)
    if run.returncode != 0:
        raise GazeboError(f"pkg-config {' '.join(args)} failed: {run.stderr.strip()}")
    return run.stdout.strip()


def sdformat_package() -> str:
    """The ``pkg-config`` name of the newest installed SDFormat.

    Raises:
        GazeboError: no SDFormat (or no pkg-config) is installed; says what to install.
    """
    if shutil.which("pkg-config") is None:
        raise GazeboError(f"pkg-config is missing; {INSTALL_HINT}")
    for name in SDFORMAT_PACKAGES:
        if subprocess.run(["pkg-config", "--exists", name], timeout=30, check=False).returncode == 0:
            return name
    raise GazeboError(f"no SDFormat library found ({', '.join(SDFORMAT_PACKAGES)}); {INSTALL_HINT}")


def build_checker(folder: Path | None = None) -> Path:
    """The checker executable, compiled into ``folder`` (default :func:`cache_dir`) when missing.

    Its name carries a hash of the source and the library version, so an edit or an upgrade
    rebuilds it.

    Raises:
        GazeboError: no compiler or library, or the compile failed (with the compiler's output).
    """
    package = sdformat_package()
    compiler = shutil.which("c++")
    if compiler is None:
        raise GazeboError(f"no C++ compiler (c++); {INSTALL_HINT}")
    version = _pkg_config("--modversion", package)
    source = CHECKER_SOURCE.read_bytes()
    tag = hashlib.sha256(source + package.encode() + version.encode()).hexdigest()[:12]
    exe = (folder or cache_dir()) / f"sdf_check-{tag}"
    if exe.is_file():
        return exe
    exe.parent.mkdir(parents=True, exist_ok=True)
    tmp = exe.with_name(exe.name + f".tmp{os.getpid()}")
    flags = _pkg_config("--cflags", "--libs", package).split()
    cmd = [compiler, "-std=c++17", "-O1", str(CHECKER_SOURCE), *flags, "-o", str(tmp)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    if run.returncode != 0:
        raise GazeboError(f"compiling the SDF checker against {package} {version} failed:\n"
                          f"{run.stderr.strip()[-2000:]}")
    tmp.replace(exe)
    return exe


def check_sdf(paths: list[Path], *, checker: Path | None = None) -> dict[Path, list[str]]:
    """Load each file with SDFormat; map each file that failed to its error lines.

    An empty result means every file loaded without errors. Files are checked by one run per
    core; a failed file is rerun alone so its lines include what the library printed (a value out
    of its range, for one).

    Raises:
        GazeboError: the checker cannot be built or run.
    """
    if not paths:
        return {}
    exe = checker or build_checker()
    allow = [a for name in ALLOWED_ELEMENTS for a in ("--allow", name)]

    def run(files: list[Path]) -> subprocess.CompletedProcess[str]:
        try:
            return subprocess.run([str(exe), *allow, *map(str, files)], capture_output=True,
                                  text=True, timeout=CHECK_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise GazeboError(f"the SDF checker {exe} did not run: {err}") from err

    # One checker process per core, each on an interleaved share of the files.
    jobs = max(1, min(os.cpu_count() or 1, 8, len(paths)))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = list(pool.map(run, [paths[k::jobs] for k in range(jobs)]))
    failed: set[Path] = set()
    for first in runs:
        if first.returncode not in (0, 1):
            msg = f"the SDF checker failed ({first.returncode}): {first.stderr.strip()}"
            raise GazeboError(msg)
        failed |= {Path(line.split(": ", 1)[0]) for line in first.stdout.splitlines()
                   if ": " in line}
    out: dict[Path, list[str]] = {}
    for path in paths:
        if path not in failed:
            continue
        alone = run([path])
        lines = [line.removeprefix(f"{path}: ") for line in alone.stdout.splitlines()]
        lines += [ANSI_ESCAPE.sub("", line) for line in alone.stderr.splitlines()]
        out[path] = [line for line in lines if line.strip()] or ["failed with no message"]
    return out
