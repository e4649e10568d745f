"""The core never imports rclpy; only map2route.ros does."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_core_does_not_import_rclpy() -> None:
    code = (
        "import sys, importlib, pkgutil, map2route\n"
        "for m in pkgutil.walk_packages(map2route.__path__, 'map2route.'):\n"
        "    if m.name.startswith('map2route.ros'):\n"
        "        continue\n"
        "    importlib.import_module(m.name)\n"
        "print('rclpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
