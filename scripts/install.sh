#!/usr/bin/env bash
# Installs SeatKit's C API where C builds find it:
#   PREFIX/include/seatkit/seatkit.h
#   PREFIX/lib/libseatkit.so
#   PREFIX/lib/pkgconfig/seatkit.pc    (pkg-config --cflags --libs seatkit; meson dependency('seatkit'))
#   PREFIX/bin/seatkit                 (the command-line tool; seatkit_replay_create runs it as
#                                       its libinput worker)
#
# Usage: scripts/install.sh --prefix DIR [--libdir DIR] [--build-dir DIR]
#   --prefix DIR     where to install (default /usr/local)
#   --libdir DIR     the library directory (default PREFIX/lib)
#   --build-dir DIR  install the libCSeatKit.so (and seatkit) already built in DIR instead of
#                    building them (swift build -c release --product CSeatKit / seatkit)
#
# The library needs the Swift runtime of the toolchain that built it at run time: both the
# library (SwiftPM's RUNPATH) and the link flags of seatkit.pc carry an rpath to it, found
# with `swift -print-target-info`, so programs linked with the .pc run with no
# LD_LIBRARY_PATH. Then add PKG_CONFIG_PATH=PREFIX/lib/pkgconfig unless PREFIX is a
# directory pkg-config already searches (/usr/local and /usr are).
set -euo pipefail
command -v patchelf >/dev/null || { echo "install.sh: needs patchelf (apt-get install patchelf; scripts/setup.sh installs it)" >&2; exit 1; }

prefix=/usr/local
libdir=
build_dir=
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --libdir) libdir="$2"; shift 2 ;;
    --libdir=*) libdir="${1#*=}"; shift ;;
    --build-dir) build_dir="$2"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
libdir="${libdir:-$prefix/lib}"

if [ -z "$build_dir" ]; then
  (cd "$root" && swift build -c release --product CSeatKit && swift build -c release --product seatkit)
  build_dir="$(cd "$root" && swift build -c release --show-bin-path)"
fi
library="$build_dir/libCSeatKit.so"
[ -f "$library" ] || { echo "install.sh: $library not found (build the CSeatKit product first)" >&2; exit 1; }

# The directory of the Swift runtime libraries (libswiftCore.so) of this toolchain.
swift_runtime="$(swift -print-target-info | sed -n '/"runtimeLibraryPaths"/,/\]/p' | grep -o '"/[^"]*"' | head -n 1 | tr -d '"')"
if [ -z "$swift_runtime" ] || [ ! -f "$swift_runtime/libswiftCore.so" ]; then
  swift_runtime="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux"
  swift_runtime="$(cd "$swift_runtime" && pwd)"
fi

install -d "$prefix/include/seatkit" "$libdir/pkgconfig" "$prefix/bin"
install -m 644 "$root/Sources/CSeatKitSupport/include/seatkit/seatkit.h" "$prefix/include/seatkit/seatkit.h"
install -m 755 "$library" "$libdir/libseatkit.so"
# The build's SONAME is its file name (libCSeatKit.so); programs linked against the installed
# copy must record the installed name, whether they link with -lseatkit or by path (meson).
patchelf --set-soname libseatkit.so "$libdir/libseatkit.so"
if [ -x "$build_dir/seatkit" ]; then
  install -m 755 "$build_dir/seatkit" "$prefix/bin/seatkit"
else
  echo "install.sh: $build_dir/seatkit not found: seatkit_replay_create will need its worker path" >&2
fi

cat > "$libdir/pkgconfig/seatkit.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include
libdir=$libdir
swift_runtime=$swift_runtime

Name: seatkit
Description: SeatKit input routing for Wayland compositors (C API)
Version: 0.1.0
Requires: wayland-server
Cflags: -I\${includedir}
Libs: -L\${libdir} -lseatkit -Wl,-rpath,\${libdir} -Wl,-rpath,\${swift_runtime}
PC

echo "installed SeatKit's C API in $prefix:"
echo "  $prefix/include/seatkit/seatkit.h"
echo "  $libdir/libseatkit.so"
echo "  $libdir/pkgconfig/seatkit.pc (Swift runtime: $swift_runtime)"
if [ -x "$prefix/bin/seatkit" ]; then echo "  $prefix/bin/seatkit"; fi
