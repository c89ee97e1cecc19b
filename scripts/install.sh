#!/usr/bin/env bash
# Installs SeatKit's C API where C builds find it:
#   PREFIX/include/seatkit/seatkit.h, seatkit-delivery.h
#   PREFIX/lib/libseatkit.so
#   PREFIX/lib/pkgconfig/seatkit.pc    (pkg-config --cflags --libs seatkit; meson dependency('seatkit'))
# and, when pkg-config finds wlroots 0.15 (Debian: libwlroots-dev), the wlroots bridge built
# from wlroots/ against it (with -Wall -Wextra -Werror):
#   PREFIX/include/seatkit/seatkit-wlroots.h
#   PREFIX/lib/libseatkit-wlroots.so
#   PREFIX/lib/pkgconfig/seatkit-wlroots.pc (meson dependency('seatkit-wlroots'); its
#                                       cflags carry -DWLR_USE_UNSTABLE)
#   PREFIX/bin/seatkit                 (the command-line tool; seatkit_replay_create runs it as
#                                       its libinput worker)
#
# Usage: scripts/install.sh --prefix DIR [--libdir DIR] [--build-dir DIR]
#   --prefix DIR     where to install (default /usr/local)
#   --libdir DIR     the library directory (default PREFIX/lib)
#   --build-dir DIR  install the libCSeatKit.so (and seatkit) already built in DIR instead of
#                    building them (swift build -c release --product CSeatKit / seatkit)
#   --no-wlroots     do not build the wlroots bridge even if wlroots is found
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
wlroots=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --libdir) libdir="$2"; shift 2 ;;
    --libdir=*) libdir="${1#*=}"; shift ;;
    --build-dir) build_dir="$2"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    --no-wlroots) wlroots=no; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
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
install -m 644 "$root/Sources/CSeatKitSupport/include/seatkit/seatkit-delivery.h" "$prefix/include/seatkit/seatkit-delivery.h"
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

# The wlroots bridge: built here against the system's wlroots, so that it matches it.
bridge=
if [ "$wlroots" = auto ] && pkg-config --exists 'wlroots >= 0.15' 'wlroots < 0.16' 2>/dev/null; then
  cc="${CC:-cc}"
  # shellcheck disable=SC2046
  "$cc" -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -DWLR_USE_UNSTABLE \
    -I"$prefix/include" -I"$root/wlroots/include" $(pkg-config --cflags wlroots wayland-server xkbcommon pixman-1) \
    -o "$libdir/libseatkit-wlroots.so" "$root/wlroots/seatkit-wlroots.c" \
    -Wl,-soname,libseatkit-wlroots.so -L"$libdir" -lseatkit -Wl,-rpath,"$libdir" -Wl,-rpath,"$swift_runtime" \
    $(pkg-config --libs wlroots wayland-server xkbcommon) -lm
  install -m 644 "$root/wlroots/include/seatkit/seatkit-wlroots.h" "$prefix/include/seatkit/seatkit-wlroots.h"
  cat > "$libdir/pkgconfig/seatkit-wlroots.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include
libdir=$libdir

Name: seatkit-wlroots
Description: SeatKit's bridge to wlroots 0.15's wlr_seat (C API)
Version: 0.1.0
Requires: seatkit wlroots >= 0.15 wlroots < 0.16 wayland-server xkbcommon pixman-1
Cflags: -I\${includedir} -DWLR_USE_UNSTABLE
Libs: -L\${libdir} -lseatkit-wlroots -Wl,-rpath,\${libdir}
PC
  bridge=yes
elif [ "$wlroots" = auto ]; then
  echo "install.sh: wlroots 0.15 not found by pkg-config: the wlroots bridge is not built (apt-get install libwlroots-dev)" >&2
fi

echo "installed SeatKit's C API in $prefix:"
echo "  $prefix/include/seatkit/seatkit.h, seatkit-delivery.h"
echo "  $libdir/libseatkit.so"
echo "  $libdir/pkgconfig/seatkit.pc (Swift runtime: $swift_runtime)"
if [ -x "$prefix/bin/seatkit" ]; then echo "  $prefix/bin/seatkit"; fi
if [ -n "$bridge" ]; then
  echo "  $prefix/include/seatkit/seatkit-wlroots.h"
  echo "  $libdir/libseatkit-wlroots.so"
  echo "  $libdir/pkgconfig/seatkit-wlroots.pc"
fi
