#!/usr/bin/env bash
# End to end: compositor CPU per input frame, from the device to the client's socket, for
# cage 0.1.4 (wlroots 0.15, Debian's package), SeatKit's kiosk and the wlroots kiosk of the C
# API (examples/wlroots-kiosk), side by side on the same
# `libinput record` recordings read from devices emulated under umockdev, with wev as the
# client. Prints the table of docs/BENCHMARKS.md ("End to end against cage").
#
# Run as root (cage refuses root, so it runs as the user $BENCH_USER, created when missing;
# root is needed to hand it the emulated devices) or as an ordinary user (everything runs
# as that user). Needs cage, xwayland (cage 0.1.4 aborts when it cannot find Xwayland, even
# lazily), wev and umockdev; as root the missing ones are installed.
#   Benchmarks/compositor-cpu.sh                  five runs, the sides taking turns segment by segment
#   RUNS=1 SPEED=10 Benchmarks/compositor-cpu.sh  options: RUNS, SPEED, SEGMENT (seconds of playback between idle windows)
#   Benchmarks/compositor-cpu.sh --only kiosk     extra options go to the driver
#   WLROOTS=0 Benchmarks/compositor-cpu.sh        without the wlroots kiosk (the third side)
#   CALLGRIND=DIR Benchmarks/compositor-cpu.sh    user-space instructions per input frame instead
#       (every side under callgrind, fewer loops, the same frames per side; dumps in DIR)
#       Under callgrind the driver also prints the figures "once warm": only the dumps of
#       segment WARM_FROM (2 unless given) on, over their frames. Each loop of a recording is
#       the same input, so the one-time costs (first-use type metadata, a keymap's first
#       lookups, lazily made tables; cage's own alike) fall in the first segment (the
#       keyboard's first 5 of its 10 loops at SPEED=10) and the idle window after it; the
#       rest is the per-frame cost once warm, for every side alike. The Swift kiosk's split
#       by module once warm: Benchmarks/callgrind-modules.py --warm DIR/kiosk-keyboard-1
#       (the driver writes DIR/SIDE-WORKLOAD-RUN.segments, the frames of each segment).
#   WORKLOADS=keyboard,mouse Benchmarks/compositor-cpu.sh   only those of the four recordings
#   PERF_STAT=DIR Benchmarks/compositor-cpu.sh    syscalls and context switches per input frame too
# The recordings: ../shared/recordings beside the repository, or $SEATKIT_RECORDINGS.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
recordings="${SEATKIT_RECORDINGS:-$root/../shared/recordings}"
user="${BENCH_USER:-seatbench}"

missing=()
for tool in cage Xwayland wev umockdev-run stdbuf cc; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "compositor-cpu: installing cage xwayland wev umockdev"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends cage xwayland wev umockdev libumockdev-dev gcc coreutils >/dev/null
  else
    echo "compositor-cpu: missing ${missing[*]} (apt-get install cage xwayland wev umockdev gcc)" >&2
    exit 1
  fi
fi
if [ "$(id -u)" -eq 0 ] && ! id "$user" >/dev/null 2>&1; then
  useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
fi

swift build -c release --product kiosk >/dev/null
# The driver loads the umockdev preload shim from beside itself.
(cd Benchmarks && swift build -c release --product CompositorCPU >/dev/null && swift build -c release --product SeatKitUmockdevShim >/dev/null)
shim="$root/Benchmarks/.build/libseat-shim.so"
cc -shared -fPIC -O2 -o "$shim" Benchmarks/CompositorCPU/libseat-shim.c

# The third side: examples/wlroots-kiosk (SeatKit's C API on wlroots 0.15, pixman on a
# headless output, as cage), built against the C API installed into Benchmarks/.build
# (meson, ninja, libwlroots-dev and patchelf: scripts/setup.sh installs them). WLROOTS=0 skips it.
wlroots=()
if [ "${WLROOTS:-1}" != 0 ]; then
  prefix="$root/Benchmarks/.build/seatkit-prefix"
  scripts/install.sh --prefix "$prefix" >/dev/null
  build="$root/Benchmarks/.build/wlroots-kiosk"
  [ -f "$build/build.ninja" ] || PKG_CONFIG_PATH="$prefix/lib/pkgconfig" meson setup --buildtype=release "$build" examples/wlroots-kiosk >/dev/null
  ninja -C "$build" >/dev/null
  wlroots=(--wlroots-kiosk "$build/wlroots-kiosk")
fi

# The recordings played: WORKLOADS=keyboard,mouse,touchscreen,touchpad picks among them.
workloads() {  # LOOPS for keyboard, mouse, touchscreen, touchpad
  local names=(keyboard mouse touchscreen touchpad) loops=("$@") i
  local paths=("$recordings/keyboard-at-ibus-test.yml" "$recordings/mouse-dell-ms116-move.yml"
               "$root/examples/kiosk-touch.yml" "$recordings/touchpad-ite-2fg-scroll-li1.12.yml")
  for i in 0 1 2 3; do
    case ",${WORKLOADS:-keyboard,mouse,touchscreen,touchpad}," in
      *",${names[$i]},"*) printf -- '--workload\n%s=%s*%s\n' "${names[$i]}" "${paths[$i]}" "${loops[$i]}" ;;
    esac
  done
}

kiosk="$root/.build/release/kiosk"
if [ -n "${CALLGRIND:-}" ]; then
  # valgrind 3.19 cannot read the DWARF 5 of Swift 6.3 binaries: copies without debug info,
  # the kiosk beside the original (its libraries are found the same way), the wlroots
  # kiosk's libseatkit.so first on LD_LIBRARY_PATH (the example's RUNPATH allows it).
  strip --strip-debug -o "$root/.build/release/kiosk-nodebug" "$kiosk"
  kiosk="$root/.build/release/kiosk-nodebug"
  mapfile -t played < <(workloads 10 2 4 10)
  if [ ${#wlroots[@]} -gt 0 ]; then
    # By their SONAMEs, which the kiosk asks for (it links seatkit-replay too, for --replay).
    mkdir -p "$root/Benchmarks/.build/seatkit-nodebug"
    for library in libseatkit.so.0 libseatkit-replay.so.0; do
      strip --strip-debug -o "$root/Benchmarks/.build/seatkit-nodebug/$library" "$prefix/lib/$library"
    done
    wlroots+=(--callgrind-libraries "$root/Benchmarks/.build/seatkit-nodebug")
  fi
  exec Benchmarks/.build/release/CompositorCPU \
    --kiosk "$kiosk" --libseat-shim "$shim" --user "$user" "${wlroots[@]}" --callgrind "$CALLGRIND" \
    --runs "${RUNS:-5}" --speed "${SPEED:-10}" --segment "${SEGMENT:-1}" --warm-from "${WARM_FROM:-2}" \
    "${played[@]}" \
    "$@"
fi
mapfile -t played < <(workloads 100 40 40 300)
perf=()
[ -n "${PERF_STAT:-}" ] && perf=(--perf-stat "$PERF_STAT")

exec Benchmarks/.build/release/CompositorCPU "${perf[@]}" \
  --kiosk "$kiosk" --libseat-shim "$shim" --user "$user" "${wlroots[@]}" \
  --runs "${RUNS:-5}" --speed "${SPEED:-10}" --segment "${SEGMENT:-1}" \
  "${played[@]}" \
  "$@"
