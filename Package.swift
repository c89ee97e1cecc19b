// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SeatKit",
    products: [
        .library(name: "SeatKit", targets: ["SeatKit"]),
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
    ],
    swiftLanguageModes: [.v6]
)
