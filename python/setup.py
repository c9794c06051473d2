"""Packages `attnlab`: the Python part (attnlab/), the compiled module attnlab._core and the
presets. The module is C++ built by the repository's CMake (target attnlab_python), offline:
  - ATTNLAB_BUILD_DIR=BUILD: copied from a build already made
    (cmake --build BUILD --target attnlab_python), the quick way;
  - otherwise CMake configures and builds that one target into python/build-cmake/ (minutes).
ATTNLAB_SOURCE_DIR names the repository when this folder is built from a copy of it."""
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPOSITORY = Path(os.environ.get("ATTNLAB_SOURCE_DIR", HERE.parent)).resolve()
MODULE = "attnlab._core"


def cmake_build():
    """Builds the module with CMake into python/build-cmake/ and returns that build folder."""
    build = HERE / "build-cmake"
    configure = ["cmake", "-S", str(REPOSITORY), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 "-DATTNLAB_BUILD_GUI=OFF", "-DBUILD_TESTING=OFF",
                 f"-DPython3_EXECUTABLE={sys.executable}"]
    if shutil.which("ccache"):
        configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    subprocess.run(configure, check=True)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
    subprocess.run(["cmake", "--build", str(build), "--target", "attnlab_python", "-j", jobs],
                   check=True)
    return build


class CMakeModule(build_ext):
    """attnlab._core from a CMake build instead of setuptools' compiler."""

    def build_extension(self, ext):
        given = os.environ.get("ATTNLAB_BUILD_DIR")
        build = Path(given).resolve() if given else cmake_build()
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        found = glob.glob(str(build / "python" / "attnlab" / ("_core" + suffix)))
        if not found:
            raise SystemExit(f"setup.py: no {'_core' + suffix} in {build}/python/attnlab: build "
                             f"it first (cmake --build {build} --target attnlab_python), with "
                             f"pybind11-dev installed, for this Python ({sys.executable})")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(found[0], target)


class WithPresets(build_py):
    """The presets ride along (attnlab/assets/presets/), so a wheel works on a machine without
    the repository: attnlab/__init__.py points the core at them."""

    def run(self):
        super().run()
        presets = Path(self.build_lib) / "attnlab" / "assets" / "presets"
        presets.mkdir(parents=True, exist_ok=True)
        for preset in sorted((REPOSITORY / "assets" / "presets").glob("*.json")):
            shutil.copyfile(preset, presets / preset.name)


setup(
    packages=["attnlab"],
    ext_modules=[Extension(MODULE, sources=[])],
    cmdclass={"build_ext": CMakeModule, "build_py": WithPresets},
    zip_safe=False,
)
