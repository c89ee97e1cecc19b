#!/usr/bin/env bash
# Installs the Debian packages SeatKit needs (only those missing), then builds.
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: no Swift toolchain (swift is not on PATH). Install Swift 6 from swift.org first:" >&2
  echo "setup: see README.md, section Prerequisites (swiftly, or the debian12 / debian12-aarch64 tarball)." >&2
  exit 1
fi

packages=(
  pkg-config
  libinput-dev libudev-dev libevdev-dev   # SeatKitLibinput
  libxkbcommon-dev xkb-data               # SeatKitXKB, with the system's layouts
  libx11-data                             # SeatKitXKB: compose tables (/usr/share/X11/locale)
  umockdev libumockdev-dev gcc            # SeatKitReplay: real libinput with no root (gcc: the C test programs)
  libwayland-dev wayland-protocols        # SeatKitWayland, wayland-scanner
  wev weston foot wtype                   # real clients for end-to-end tests (foot binds no wl_touch)
  grim                                    # the wlroots kiosk's wlr-screencopy (a screenshot of the app)
  xvfb xdotool x11-utils                  # the wlroots kiosk on its x11 backend: an X server, keys and mouse from xdotool
  wvkbd squeekboard dbus-daemon           # on-screen keyboards (layer shell) for both kiosks: virtual-keyboard-v1; input-method-v2 (with a session bus)
  fonts-dejavu-core                       # foot and GTK4 need a font to start
  python3-gi gir1.2-gtk-4.0               # a GTK4 app for end-to-end tests (popups, entries)
  gir1.2-gtk-3.0 gir1.2-gtklayershell-0.1 # a GTK3 layer-shell bar that picks its output (the wlroots kiosk's panels)
  libwlroots-dev                          # the peer in the hit-testing benchmark
  meson ninja-build patchelf              # the C API: install.sh (patchelf), a meson project linking it
  libinih-dev                             # the wlroots kiosk's --config file (inih)
  wlr-randr                               # the wlroots kiosk's rotation at run time (wlr-output-management)
  swaylock libpam-wrapper                 # session lock: swaylock, its PAM through pam_wrapper's pam_matrix (no account needed)
  swayidle wl-clipboard                   # idle notification (swayidle) and data control (wl-copy, wl-paste)
  wlcs                                    # the Wayland Conformance Suites: SeatKitWLCS's headers, scripts/wlcs.sh's runners
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

swift build --build-tests
