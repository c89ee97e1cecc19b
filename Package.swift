// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SeatKit",
    products: [
        .library(name: "SeatKit", targets: ["SeatKit"]),
        .library(name: "SeatKitXKB", targets: ["SeatKitXKB"]),
        .library(name: "SeatKitLibinput", targets: ["SeatKitLibinput"]),
        .library(name: "SeatKitReplay", targets: ["SeatKitReplay"]),
        .library(name: "SeatKitWayland", targets: ["SeatKitWayland"]),
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "seatkit", targets: ["seatkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The pure-Swift core: geometry, surfaces, responders, routing. Imports no C module.
        // libm: Double's rounding and square roots call into it, and a binary that links
        // only this module would otherwise fail to link on Linux.
        .target(name: "SeatKit", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // libxkbcommon's headers plus the shims Swift cannot write itself (a variadic log
        // callback, memfd sealing). Only SeatKitXKB's XKBCalls.swift and KeymapFile use it.
        .target(
            name: "CXKBCommon",
            linkerSettings: [.linkedLibrary("xkbcommon")]
        ),
        // Keymaps, keyboard state, compose, key repeat and the keymap file for clients.
        .target(name: "SeatKitXKB", dependencies: ["SeatKit", "CXKBCommon"]),
        // libinput and libudev headers, plus the one C function Swift cannot write: a log
        // handler that receives a va_list.
        .target(
            name: "CLibinput",
            linkerSettings: [.linkedLibrary("input"), .linkedLibrary("udev")]
        ),
        // umockdev's C API (the testbed); glib comes through pkg-config.
        .systemLibrary(name: "CUmockdev", pkgConfig: "umockdev-1.0"),
        // Live devices through libinput, and the translation of libinput events into SeatKit's.
        .target(name: "SeatKitLibinput", dependencies: ["SeatKit", "CLibinput"]),
        // `libinput record` files: parsing, replay through real libinput under umockdev,
        // replay of recorded libinput events, and a harness for tests.
        // Runs any program that links SeatKitReplay as a replay worker when started with
        // SEATKIT_REPLAY_WORKER_MODE=1 (a constructor, before that program's main).
        .target(name: "CReplayWorkerEntry"),
        .target(name: "SeatKitReplay", dependencies: ["SeatKit", "SeatKitLibinput", "CUmockdev", "CReplayWorkerEntry"]),
        .executableTarget(
            name: "seatkit",
            dependencies: [
                "SeatKit",
                "SeatKitLibinput",
                "SeatKitReplay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Counts this thread's heap allocations, for tests that pin "allocates nothing".
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .testTarget(name: "SeatKitTests", dependencies: ["SeatKit", "AllocationCounter"]),
        .testTarget(name: "SeatKitXKBTests", dependencies: ["SeatKitXKB", "SeatKit", "AllocationCounter"]),
        .testTarget(name: "SeatKitLibinputTests", dependencies: ["SeatKit", "SeatKitLibinput"]),
        .testTarget(name: "SeatKitReplayTests", dependencies: ["SeatKit", "SeatKitLibinput", "SeatKitReplay"], exclude: ["Fixtures"]),

        // libwayland-server, the protocol code generated from protocols/ (committed; see
        // protocols/generate.sh) and the C shims Swift needs (variadic functions).
        .target(
            name: "CWaylandServer",
            linkerSettings: [.linkedLibrary("wayland-server")]
        ),
        // wl_seat and its devices for real clients, client-surface responders, serials,
        // protocol extensions, and a minimal headless shell (wl_compositor, xdg_wm_base).
        // SeatKitXKB gives clients their keymap; SeatKitLibinput's fd joins the event loop.
        .target(name: "SeatKitWayland", dependencies: ["SeatKit", "SeatKitXKB", "SeatKitLibinput", "CWaylandServer"]),
        // A headless kiosk compositor that real clients connect to: the example to read first.
        .executableTarget(
            name: "kiosk",
            dependencies: ["SeatKit", "SeatKitXKB", "SeatKitLibinput", "SeatKitReplay", "SeatKitWayland"],
            path: "examples/kiosk"
        ),
        // End-to-end tests: the kiosk (built as a product) with real Debian clients.
        .testTarget(name: "SeatKitWaylandTests", dependencies: ["SeatKit", "SeatKitReplay", "SeatKitWayland"]),
    ],
    swiftLanguageModes: [.v6]
)
