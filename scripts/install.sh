#!/usr/bin/env bash
# Installs SeatKit's C API where C builds find it:
#   PREFIX/include/seatkit/seatkit.h, seatkit-delivery.h
#   PREFIX/lib/libseatkit.so.0         (SONAME libseatkit.so.0; libseatkit.so links to it)
#   PREFIX/lib/pkgconfig/seatkit.pc    (pkg-config --cflags --libs seatkit; meson dependency('seatkit'))
# and, when pkg-config finds wlroots 0.15 (Debian: libwlroots-dev), the wlroots bridge built
# from wlroots/ against it (with -Wall -Wextra -Werror):
#   PREFIX/include/seatkit/seatkit-wlroots.h
#   PREFIX/lib/libseatkit-wlroots.so.0 (SONAME libseatkit-wlroots.so.0; libseatkit-wlroots.so links to it)
#   PREFIX/lib/pkgconfig/seatkit-wlroots.pc (meson dependency('seatkit-wlroots'); its
#                                       cflags carry -DWLR_USE_UNSTABLE)
# and, for test programs only (replayed recordings; links umockdev and glib):
#   PREFIX/include/seatkit/seatkit-replay.h
#   PREFIX/lib/libseatkit-replay.so.0  (SONAME libseatkit-replay.so.0, NEEDED libseatkit.so.0)
#   PREFIX/lib/libseatkit-umockdev-shim.so (preloaded into replay workers, never linked)
#   PREFIX/lib/pkgconfig/seatkit-replay.pc
#   PREFIX/bin/seatkit                 (the command-line tool; seatkit_replay_create runs it as
#                                       its libinput worker)
#
# Usage: scripts/install.sh --prefix DIR [--libdir DIR] [--build-dir DIR]
#   --prefix DIR     where to install (default /usr/local)
#   --libdir DIR     the library directory (default PREFIX/lib)
#   --build-dir DIR  install the libCSeatKit.so, libCSeatKitReplay.so, libSeatKitUmockdevShim.so
#                    and seatkit already built in DIR instead of building them (swift build -c
#                    release --product CSeatKit / CSeatKitReplay / SeatKitUmockdevShim / seatkit)
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
    -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
libdir="${libdir:-$prefix/lib}"

if [ -z "$build_dir" ]; then
  (cd "$root" && for product in CSeatKit CSeatKitReplay SeatKitUmockdevShim seatkit; do swift build -c release --product "$product"; done)
  build_dir="$(cd "$root" && swift build -c release --show-bin-path)"
fi
library="$build_dir/libCSeatKit.so"
replay_library="$build_dir/libCSeatKitReplay.so"
shim="$build_dir/libSeatKitUmockdevShim.so"
for file in "$library" "$replay_library" "$shim"; do
  [ -f "$file" ] || { echo "install.sh: $file not found (build the CSeatKit, CSeatKitReplay and SeatKitUmockdevShim products first)" >&2; exit 1; }
done

# The directory of the Swift runtime libraries (libswiftCore.so) of this toolchain.
swift_runtime="$(swift -print-target-info | sed -n '/"runtimeLibraryPaths"/,/\]/p' | grep -o '"/[^"]*"' | head -n 1 | tr -d '"')"
if [ -z "$swift_runtime" ] || [ ! -f "$swift_runtime/libswiftCore.so" ]; then
  swift_runtime="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux"
  swift_runtime="$(cd "$swift_runtime" && pwd)"
fi

install -d "$prefix/include/seatkit" "$libdir/pkgconfig" "$prefix/bin"
install -m 644 "$root/Sources/CSeatKitSupport/include/seatkit/seatkit.h" "$prefix/include/seatkit/seatkit.h"
install -m 644 "$root/Sources/CSeatKitSupport/include/seatkit/seatkit-delivery.h" "$prefix/include/seatkit/seatkit-delivery.h"
install -m 644 "$root/Sources/CSeatKitReplaySupport/include/seatkit/seatkit-replay.h" "$prefix/include/seatkit/seatkit-replay.h"
# Version policy (seatkit.h, "ABI"): the SONAME's number changes only with a change that breaks
# compiled callers; additions keep it. The build's SONAME is its file name (libCSeatKit.so);
# programs linked against the installed copy must record the installed name, whether they link
# with -lseatkit or by path (meson).
install -m 755 "$library" "$libdir/libseatkit.so.0"
patchelf --set-soname libseatkit.so.0 "$libdir/libseatkit.so.0"
ln -sfn libseatkit.so.0 "$libdir/libseatkit.so"
# The replay library calls libseatkit's (private) entry points: it needs libseatkit.so.0, found
# beside it ($ORIGIN) or through the program's own run path.
install -m 755 "$replay_library" "$libdir/libseatkit-replay.so.0"
patchelf --set-soname libseatkit-replay.so.0 "$libdir/libseatkit-replay.so.0"
patchelf --add-needed libseatkit.so.0 "$libdir/libseatkit-replay.so.0"
ln -sfn libseatkit-replay.so.0 "$libdir/libseatkit-replay.so"
# Found by the replay code beside libseatkit-replay.so.0 (or beside bin/seatkit, in ../lib);
# never by a search path.
install -m 755 "$shim" "$libdir/libseatkit-umockdev-shim.so"
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

cat > "$libdir/pkgconfig/seatkit-replay.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include
libdir=$libdir

Name: seatkit-replay
Description: SeatKit replayed recordings for test programs (libinput under umockdev; not for production)
Version: 0.1.0
Requires: seatkit
Cflags: -I\${includedir}
Libs: -L\${libdir} -lseatkit-replay -Wl,-rpath,\${libdir}
PC

# The wlroots bridge: built here against the system's wlroots, so that it matches it.
bridge=
if [ "$wlroots" = auto ] && pkg-config --exists 'wlroots >= 0.15' 'wlroots < 0.16' 2>/dev/null; then
  cc="${CC:-cc}"
  # The protocols wlroots 0.15 has no helper for (wlroots/seatkit-wlroots-protocols.c), generated
  # here: Debian 12's staging XML, cursor-shape-v1 from protocols/ (wayland-protocols 1.32), and
  # tablet-unstable-v2 only for the zwp_tablet_tool_v2 interface cursor-shape names. The
  # interfaces are private (hidden) to the library.
  generated=$(mktemp -d)
  trap 'rm -rf "$generated"' EXIT
  wp=$(pkg-config --variable=pkgdatadir wayland-protocols)
  generated_c=
  for xml in "$wp/staging/ext-idle-notify/ext-idle-notify-v1.xml" \
             "$wp/staging/ext-session-lock/ext-session-lock-v1.xml" \
             "$root/protocols/cursor-shape-v1.xml" \
             "$wp/unstable/tablet/tablet-unstable-v2.xml"; do
    base=$(basename "$xml" .xml)
    wayland-scanner server-header "$xml" "$generated/$base-protocol.h"
    wayland-scanner private-code "$xml" "$generated/$base-protocol.c"
    generated_c="$generated_c $generated/$base-protocol.c"
  done
  # -z now, -z relro: bound at load, as Debian builds libwlroots (and libseatkit.so, Package.swift).
  # -fno-plt: bound at load, a call into libwayland or libseatkit goes through its GOT entry
  # itself, not through a PLT stub that jumps there (an instruction a call; ~5 a touch frame).
  # shellcheck disable=SC2046,SC2086
  "$cc" -std=c11 -O2 -g -fno-plt -Wall -Wextra -Werror -fPIC -shared -DWLR_USE_UNSTABLE \
    -I"$prefix/include" -I"$root/wlroots/include" -I"$generated" $(pkg-config --cflags wlroots wayland-server xkbcommon pixman-1) \
    -o "$libdir/libseatkit-wlroots.so.0" "$root/wlroots/seatkit-wlroots.c" \
    "$root/wlroots/seatkit-wlroots-protocols.c" $generated_c \
    -Wl,-soname,libseatkit-wlroots.so.0 -Wl,-z,now -Wl,-z,relro -L"$libdir" -lseatkit -Wl,-rpath,"$libdir" -Wl,-rpath,"$swift_runtime" \
    $(pkg-config --libs wlroots wayland-server xkbcommon) -lm
  ln -sfn libseatkit-wlroots.so.0 "$libdir/libseatkit-wlroots.so"
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
echo "  $libdir/libseatkit.so.0 (and libseatkit.so)"
echo "  $libdir/pkgconfig/seatkit.pc (Swift runtime: $swift_runtime)"
echo "  $prefix/include/seatkit/seatkit-replay.h, $libdir/libseatkit-replay.so.0, $libdir/libseatkit-umockdev-shim.so,"
echo "  $libdir/pkgconfig/seatkit-replay.pc (test programs only)"
if [ -x "$prefix/bin/seatkit" ]; then echo "  $prefix/bin/seatkit"; fi
if [ -n "$bridge" ]; then
  echo "  $prefix/include/seatkit/seatkit-wlroots.h"
  echo "  $libdir/libseatkit-wlroots.so.0 (and libseatkit-wlroots.so)"
  echo "  $libdir/pkgconfig/seatkit-wlroots.pc"
fi
