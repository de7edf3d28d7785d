# Sourced by the build scripts: compile through ccache (Debian's) when it is installed, with paths
# taken relative to this checkout (CCACHE_BASEDIR), so that every clone on one machine shares the
# cache, and without the working directory in the hash of debug builds (CCACHE_NOHASHDIR: the
# sanitizer builds' -g1 objects are then shared too; their debug info names the first clone's
# directory). CCACHE_CMAKE_ARGS: the compiler launcher for cmake's configure step.
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD"
  export CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-10G}"
  CCACHE_CMAKE_ARGS=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
else
  CCACHE_CMAKE_ARGS=()
fi
