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
        .library(name: "SeatKitHeadlessShell", targets: ["SeatKitHeadlessShell"]),
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "seatkit", targets: ["seatkit"]),
        // The C API as a shared library (libCSeatKit.so); scripts/install.sh installs it as
        // libseatkit.so with include/seatkit/seatkit.h and seatkit.pc. Not "seatkit": that
        // name is the command-line tool's, and SwiftPM would build only one of the two.
        .library(name: "CSeatKit", type: .dynamic, targets: ["CSeatKit"]),
        // Replayed recordings from C (libCSeatKitReplay.so; installed as libseatkit-replay.so
        // with seatkit-replay.h and seatkit-replay.pc): umockdev, glib and the replay worker's
        // constructor, for test programs only. It calls libseatkit through C (its private
        // seatkit__player_* entry points), so it carries no second handle table.
        .library(name: "CSeatKitReplay", type: .dynamic, targets: ["CSeatKitReplay"]),
        // The umockdev preload shim (libSeatKitUmockdevShim.so; installed as
        // libseatkit-umockdev-shim.so beside libseatkit-replay.so): C built with the package,
        // warnings as errors, preloaded into replay workers only. Never linked into a program.
        .library(name: "SeatKitUmockdevShim", type: .dynamic, targets: ["SeatKitUmockdevShim"]),
        // The Wayland Conformance Suites' integration module (libSeatKitWLCS.so): run
        // `/usr/lib/x86_64-linux-gnu/wlcs/wlcs .build/debug/libSeatKitWLCS.so`, or scripts/wlcs.sh.
        .library(name: "SeatKitWLCS", type: .dynamic, targets: ["SeatKitWLCS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Where the adapters report environment failures (a keymap file that could not be
        // written, an event-loop timer that could not be made) instead of swallowing them.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation --target SeatKit`: the DocC catalog
        // (Sources/SeatKit/SeatKit.docc) with the guides; CI builds it with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The pure-Swift core: geometry, surfaces, responders, routing. Imports no C module.
        // libm: Double's rounding and square roots call into it, and a binary that links
        // only this module would otherwise fail to link on Linux.
        // Lifetimes: `ResponderContext` is non-escapable, and its internal initializers say so
        // (`@_lifetime`). Users of the library need no flag.
        .target(name: "SeatKit",
                swiftSettings: [.enableExperimentalFeature("Lifetimes")],
                linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // libxkbcommon's headers plus the shims Swift cannot write itself (a variadic log
        // callback, memfd sealing). Only SeatKitXKB's XKBCalls.swift and KeymapFile use it.
        .target(
            name: "CXKBCommon",
            linkerSettings: [.linkedLibrary("xkbcommon")]
        ),
        // Keymaps, keyboard state, compose, key repeat and the keymap file for clients.
        .target(name: "SeatKitXKB", dependencies: ["SeatKit", "CXKBCommon"]),
        // What the adapters share below the public API (package access, not a product): the
        // one reader of CLOCK_MONOTONIC and the little-endian byte reader and writer.
        .target(name: "SeatKitSystem"),
        // libinput and libudev headers, plus the one C function Swift cannot write: a log
        // handler that receives a va_list.
        .target(
            name: "CLibinput",
            linkerSettings: [.linkedLibrary("input"), .linkedLibrary("udev")]
        ),
        // umockdev's C API (the testbed); glib comes through pkg-config.
        .systemLibrary(name: "CUmockdev", pkgConfig: "umockdev-1.0"),
        // Live devices through libinput, and the translation of libinput events into SeatKit's.
        .target(name: "SeatKitLibinput", dependencies: ["SeatKit", "SeatKitSystem", "CLibinput"]),
        // `libinput record` files: parsing, replay through real libinput under umockdev,
        // replay of recorded libinput events, and a harness for tests.
        // Runs any program that links SeatKitReplay as a replay worker when started with
        // SEATKIT_REPLAY_WORKER_MODE=1 (a constructor, before that program's main).
        .target(name: "CReplayWorkerEntry"),
        // The preload shim's C (see PreloadShim.swift for what it does). Strict warnings: it
        // is loaded into libinput's process and answers libc calls.
        .target(name: "SeatKitUmockdevShim",
                cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])],
                linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "SeatKitReplay", dependencies: ["SeatKit", "SeatKitLibinput", "SeatKitSystem", "CUmockdev", "CReplayWorkerEntry"]),
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
        .target(name: "SeededRandom", path: "Tests/SeededRandom"),
        .testTarget(name: "SeatKitTests", dependencies: ["SeatKit", "AllocationCounter", "SeededRandom"]),
        .testTarget(name: "SeatKitXKBTests", dependencies: ["SeatKitXKB", "SeatKit", "AllocationCounter"]),
        .testTarget(name: "SeatKitLibinputTests", dependencies: ["SeatKit", "SeatKitLibinput"]),
        .testTarget(name: "SeatKitReplayTests", dependencies: ["SeatKit", "SeatKitLibinput", "SeatKitReplay", "SeatKitSystem", "SeededRandom"], exclude: ["Fixtures"]),

        // libwayland-server, the protocol code generated from protocols/ (committed; see
        // protocols/generate.sh) and the C shims Swift needs (variadic functions).
        .target(
            name: "CWaylandServer",
            linkerSettings: [.linkedLibrary("wayland-server")]
        ),
        // wl_seat and its devices for real clients, client-surface responders, serials and
        // protocol extensions, on a display SeatKit opens or one a compositor already has.
        // SeatKitXKB gives clients their keymap. No libinput: the compositor feeds the seat.
        .target(name: "SeatKitWayland", dependencies: ["SeatKit", "SeatKitXKB", "SeatKitSystem", "CWaylandServer",
                                                       .product(name: "Logging", package: "swift-log")]),
        // The shell's protocol code (xdg-shell, xdg-decoration, xdg-output), apart from the
        // seat's, so that a compositor with its own xdg-shell can link SeatKitWayland.
        .target(name: "CWaylandShellProtocols", dependencies: ["CWaylandServer"]),
        // A minimal shell for headless kiosks and tests: wl_compositor, wl_subcompositor,
        // wl_shm, xdg_wm_base, wl_data_device_manager, wl_output. A compositor with its own
        // shell does not link it.
        .target(name: "SeatKitHeadlessShell", dependencies: ["SeatKit", "SeatKitWayland", "CWaylandServer", "CWaylandShellProtocols"]),
        // A headless kiosk compositor that real clients connect to: the example to read first.
        .executableTarget(
            name: "kiosk",
            dependencies: ["SeatKit", "SeatKitXKB", "SeatKitLibinput", "SeatKitReplay", "SeatKitWayland", "SeatKitHeadlessShell",
                           "CKioskCallocOverride"],
            path: "examples/kiosk",
            // -z now and -z relro: bound when loaded, as libseatkit.so and the wlroots kiosk are
            // (Debian's hardening, BIND_NOW): lazily, the first touch's calls into libwayland and
            // libinput paid the dynamic linker's look-ups (~64 instructions a frame of the
            // touchscreen recording's playback, `do_lookup_x`, issue 25, sixteenth round).
            linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "-z", "-Xlinker", "relro"])]
        ),
        // calloc through malloc's thread cache before glibc 2.41 (examples/kiosk-calloc/kiosk_calloc.c),
        // and the kiosk's calloc made of it (examples/kiosk-calloc-override), apart so that tests
        // call the first without replacing their own process's calloc.
        .target(name: "CKioskCalloc", path: "examples/kiosk-calloc"),
        .target(name: "CKioskCallocOverride", dependencies: ["CKioskCalloc"], path: "examples/kiosk-calloc-override"),
        // The C API's public header (include/seatkit/seatkit.h, installed as is) and the C
        // shims its implementation needs (a va_list log call, the default stderr log, the
        // per-thread state of the API).
        .target(name: "CSeatKitSupport", linkerSettings: [.linkedLibrary("wayland-server")]),
        // The C API (`seatkit_<object>_<verb>`, @_cdecl functions) over the core, SeatKitXKB
        // and SeatKitLibinput, for compositors written in C. See include/seatkit/seatkit.h.
        // Nothing of replay (no umockdev, glib or worker constructor): CSeatKitReplay.
        // A SONAME, so that programs linked against the library record its name, not the
        // path they were linked with (meson links by path). In the build directory it is the
        // file's name; scripts/install.sh renames the installed copy libseatkit.so.0.
        .target(
            name: "CSeatKit",
            dependencies: ["SeatKit", "SeatKitXKB", "SeatKitLibinput", "SeatKitSystem", "CSeatKitSupport"],
            // -Bsymbolic: the library's code binds to its own definitions, never to a copy of the
            // same Swift module another library in the process exports (libseatkit-replay
            // carries its own SeatKit core, statically). -z now and -z relro: its symbols are
            // bound when it is loaded, not at their first call (Debian's hardening, with which
            // cage and libwlroots are built: BIND_NOW). Lazily, the first touch after the start
            // paid ~22,000 instructions of binding in the wlroots kiosk (docs/BENCHMARKS.md).
            linkerSettings: [.unsafeFlags(["-Xlinker", "-soname=libCSeatKit.so", "-Xlinker", "-Bsymbolic",
                                           "-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "-z", "-Xlinker", "relro"])]
        ),
        // seatkit-replay.h (installed as is) and the declarations of libseatkit's private
        // entry points that libseatkit-replay calls (not installed).
        .target(name: "CSeatKitReplaySupport"),
        // seatkit_replay_*: a recording through real libinput under umockdev (SeatKitReplay),
        // handed to libseatkit's player as SeatKitLibinput's binary events. Does not depend on
        // CSeatKit: in the installed library, libseatkit's symbols come from libseatkit.so.0
        // (install.sh records it as NEEDED); in the test binary, from the CSeatKit target.
        .target(
            name: "CSeatKitReplay",
            dependencies: ["SeatKitReplay", "SeatKitLibinput", "CSeatKitReplaySupport"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-soname=libCSeatKitReplay.so", "-Xlinker", "-Bsymbolic"])]
        ),
        // The C API from Swift (handles, misuse, the event-loop clock, allocations) and the C
        // program of Tests/CSeatKitProgram built from an installed prefix with cc and meson.
        .testTarget(name: "CSeatKitTests", dependencies: ["CSeatKit", "CSeatKitSupport", "CSeatKitReplay", "CSeatKitReplaySupport", "SeatKitReplay", "AllocationCounter", "SeededRandom"]),
        // wlcs's entry points (wlcs_server_integration, its descriptor and devices) and the
        // libwayland calls of the integration (server and client side: wlcs's clients run in
        // the same process). Needs Debian's wlcs package for its headers.
        .target(name: "CSeatKitWLCS",
                linkerSettings: [.linkedLibrary("wayland-server"), .linkedLibrary("wayland-client")]),
        // The server wlcs drives: the seat and headless shell on their own thread, fake
        // pointers and touchscreens injecting through the seat. See docs/CONFORMANCE.md.
        .target(name: "SeatKitWLCS",
                dependencies: ["SeatKit", "SeatKitXKB", "SeatKitWayland", "SeatKitHeadlessShell", "CSeatKitWLCS"]),
        // A Swift compositor with its own shell (C, with its own xdg-shell protocol code) beside
        // SeatKitWayland's seat and data device: it links only because the seat carries none of
        // the shell's protocol code. OwnShellCompositorTests run GTK4 and wev against it.
        .target(name: "COwnShell", path: "Tests/OwnShellCompositor/COwnShell",
                cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])],
                linkerSettings: [.linkedLibrary("wayland-server")]),
        .executableTarget(name: "own-shell-compositor", dependencies: ["SeatKit", "SeatKitXKB", "SeatKitWayland", "COwnShell"],
                          path: "Tests/OwnShellCompositor/Compositor"),
        // End-to-end tests: the kiosk (built as a product) with real Debian clients.
        .testTarget(name: "SeatKitWaylandTests",
                    dependencies: ["SeatKit", "SeatKitReplay", "SeatKitWayland", "SeatKitXKB", "SeatKitHeadlessShell", "CWaylandServer", "CWaylandShellProtocols", "SeatKitWLCS", "AllocationCounter",
                                   "CKioskCalloc", .product(name: "Logging", package: "swift-log")]),
        // The guides' code (Sources/SeatKit/SeatKit.docc/*.md): every ```swift block of a
        // guide stands verbatim in Tests/DocumentationTests/Snippets, which compile (and run
        // where cheap) here, so a guide cannot drift from the API.
        .testTarget(name: "DocumentationTests",
                    dependencies: ["SeatKit", "SeatKitXKB", "SeatKitLibinput", "SeatKitReplay", "SeatKitWayland", "SeatKitHeadlessShell",
                                   "CWaylandServer"],
                    exclude: ["Snippets/Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// CI's AddressSanitizer step runs the core's tests only (the adapters' and end-to-end tests
// preload umockdev or start child processes, which ASan's runtime does not survive).
// `SEATKIT_PACKAGE=core` makes the package the core and its tests alone, so that step does
// not build every adapter, executable and end-to-end test first. Users never set it.
if Context.environment["SEATKIT_PACKAGE"] == "core" {
    let core: Set<String> = ["SeatKit", "AllocationCounter", "SeededRandom", "SeatKitTests"]
    package.products = [.library(name: "SeatKit", targets: ["SeatKit"])]
    package.targets = package.targets.filter { core.contains($0.name) }
    package.dependencies = []
}

// CI's ThreadSanitizer step runs the tests that touch threads: the core's, SeatKitXKB's,
// SeatKitLibinput's, SeatKitReplay's (with the `seatkit` tool beside the test bundle), the
// guides' (DocumentationTests) and the C API's routers on their own threads (CThreadTests), then
// wlcs's server (SeatKitWLCS) with `scripts/wlcs.sh tsan`. `SEATKIT_PACKAGE=threads` makes the
// package those targets alone, with CSeatKitTests cut to CThreadTests and the log capture it
// uses, so that step does not build the end-to-end tests, kiosks and the rest of the C API's
// tests under ThreadSanitizer first. The filtered test IDs are the same as in the whole package.
// Users never set it.
if Context.environment["SEATKIT_PACKAGE"] == "threads" {
    let threads: Set<String> = [
        "SeatKit", "CXKBCommon", "SeatKitXKB", "SeatKitSystem", "CLibinput", "CUmockdev", "SeatKitLibinput",
        "CReplayWorkerEntry", "SeatKitUmockdevShim", "SeatKitReplay", "seatkit", "AllocationCounter", "SeededRandom",
        "SeatKitTests", "SeatKitXKBTests", "SeatKitLibinputTests", "SeatKitReplayTests",
        "CWaylandServer", "SeatKitWayland", "CWaylandShellProtocols", "SeatKitHeadlessShell", "DocumentationTests",
        "CSeatKitSupport", "CSeatKit", "CSeatKitTests", "CSeatKitWLCS", "SeatKitWLCS",
    ]
    package.targets = package.targets.filter { threads.contains($0.name) }
    for target in package.targets where target.name == "CSeatKitTests" {
        target.dependencies = ["CSeatKit", "CSeatKitSupport"]
        target.sources = ["CLogCapture.swift", "CThreadTests.swift"]
    }
    // Every product but the kiosk and libseatkit-replay, whose targets are not in the set.
    package.products = package.products.filter { !["kiosk", "CSeatKitReplay"].contains($0.name) }
}
