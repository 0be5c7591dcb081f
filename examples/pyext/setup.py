# setup.py -- a Python extension whose CUDA kernels are compiled the way
# CuPy's build compiles them: setuptools' build_ext runs $NVCC once per
# .cu, with CuPy's kind of command (several --generate-code entries, a
# PTX-only one and an f family arch, -t2, a define holding extern "C"),
# then links the objects into the module with the host compiler.
# NVCC="cugen nvcc" gives it cugen's per-arch build, cache and shards.
import os
import shlex
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CUDA = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME") or "/usr/local/cuda"
GENCODE = [
    "--generate-code=arch=compute_75,code=sm_75",
    "--generate-code=arch=compute_80,code=sm_80",
    "--generate-code=arch=compute_100f,code=sm_100",
    "--generate-code=arch=compute_120,code=compute_120",
]
CU_SOURCES = ["kernels/scale.cu", "kernels/fill.cu"]


class CudaBuildExt(build_ext):
    def build_extension(self, ext):
        nvcc = shlex.split(os.environ.get("NVCC", os.path.join(CUDA, "bin", "nvcc")))
        os.makedirs(self.build_temp, exist_ok=True)
        objects = []
        for src in CU_SOURCES:
            obj = os.path.join(self.build_temp, os.path.basename(src) + ".o")
            cmd = nvcc + GENCODE + ["-O2", "--std=c++17", "-Xcompiler", "-fPIC", "-t2",
                                    '-DCYTHON_EXTERN_C=extern "C"', "-Iinclude",
                                    "-c", src, "-o", obj]
            subprocess.check_call(cmd)
            objects.append(obj)
        ext.extra_objects = objects
        super().build_extension(ext)


setup(
    name="pyext",
    version="1.0.0",
    ext_modules=[Extension(
        "pyext",
        sources=["module.c"],
        include_dirs=["include"],
        library_dirs=[os.path.join(CUDA, "lib64")],
        libraries=["cudart_static", "rt", "pthread", "dl", "stdc++"],
    )],
    cmdclass={"build_ext": CudaBuildExt},
)
