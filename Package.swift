// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SeatKit",
    products: [
        .library(name: "SeatKit", targets: ["SeatKit"]),
        .library(name: "SeatKitWayland", targets: ["SeatKitWayland"]),
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "seatkit", targets: ["seatkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The pure-Swift core: geometry, surfaces, responders, routing. Imports no C module.
        .target(name: "SeatKit"),
        .executableTarget(
            name: "seatkit",
            dependencies: [
                "SeatKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Counts this thread's heap allocations, for tests that pin "allocates nothing".
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .testTarget(name: "SeatKitTests", dependencies: ["SeatKit", "AllocationCounter"]),

        // libwayland-server, the protocol code generated from protocols/ (committed; see
        // protocols/generate.sh) and the C shims Swift needs (variadic functions).
        .target(
            name: "CWaylandServer",
            linkerSettings: [.linkedLibrary("wayland-server")]
        ),
        // wl_seat and its devices for real clients, client-surface responders, serials,
        // protocol extensions, and a minimal headless shell (wl_compositor, xdg_wm_base).
        .target(name: "SeatKitWayland", dependencies: ["SeatKit", "CWaylandServer"]),
        // A headless kiosk compositor that real clients connect to: the example to read first.
        .executableTarget(name: "kiosk", dependencies: ["SeatKit", "SeatKitWayland"], path: "examples/kiosk"),
        // End-to-end tests: the kiosk (built as a product) with real Debian clients.
        .testTarget(name: "SeatKitWaylandTests", dependencies: ["SeatKit", "SeatKitWayland"]),
    ],
    swiftLanguageModes: [.v6]
)
