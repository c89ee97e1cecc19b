// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SeatKit",
    products: [
        .library(name: "SeatKit", targets: ["SeatKit"]),
        .library(name: "SeatKitXKB", targets: ["SeatKitXKB"]),
        .executable(name: "seatkit", targets: ["seatkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The pure-Swift core: geometry, surfaces, responders, routing. Imports no C module.
        .target(name: "SeatKit"),
        // libxkbcommon's headers plus the shims Swift cannot write itself (a variadic log
        // callback, memfd sealing). Only SeatKitXKB's XKBCalls.swift and KeymapFile use it.
        .target(
            name: "CXKBCommon",
            linkerSettings: [.linkedLibrary("xkbcommon")]
        ),
        // Keymaps, keyboard state, compose, key repeat and the keymap file for clients.
        .target(name: "SeatKitXKB", dependencies: ["SeatKit", "CXKBCommon"]),
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
        .testTarget(name: "SeatKitXKBTests", dependencies: ["SeatKitXKB", "SeatKit", "AllocationCounter"]),
    ],
    swiftLanguageModes: [.v6]
)
