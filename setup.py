"""setup.py for colcon's ament_python build; pip reads pyproject.toml."""

from glob import glob

from setuptools import setup

package_name = "map2route"

setup(
    data_files=[
        ("share/ament_index/resource_index/packages", ["resource/" + package_name]),
        ("share/" + package_name, ["package.xml"]),
        ("share/" + package_name + "/launch", glob("launch/*.xml")),
        ("share/" + package_name + "/config", glob("config/*.yaml")),
    ],
)
