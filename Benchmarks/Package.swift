// swift-tools-version: 6.1
import PackageDescription

// SeatKit's benchmarks, a package of their own so that the library does not depend on the
// benchmark framework. Run from this directory:
//   swift package --disable-sandbox benchmark            (the suites: time and allocations)
//   swift run -c release BenchmarkReport                (side-by-side table, memory, plot)
let package = Package(
    name: "SeatKitBenchmarks",
    dependencies: [
        // Named, because a path dependency is otherwise known by its directory's name.
        .package(name: "SeatKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Rectangle trees and query points from a seed, shared by both sides of the
        // comparison so the trees are identical by construction.
        .target(name: "SceneGenerator", path: "SceneGenerator"),
        .systemLibrary(name: "CWlroots", path: "CWlroots", pkgConfig: "wlroots"),
        .target(
            name: "WlrootsScene",
            dependencies: ["SceneGenerator", "CWlroots"],
            path: "WlrootsScene",
            cSettings: [.define("WLR_USE_UNSTABLE")]
        ),
        .target(
            name: "HitTestWorkloads",
            dependencies: [.product(name: "SeatKit", package: "SeatKit"), "SceneGenerator", "WlrootsScene"],
            path: "HitTestWorkloads",
            // libwlroots' link line otherwise leaves libm out for SeatKit's rounding.
            linkerSettings: [.linkedLibrary("m")]
        ),
        .executableTarget(
            name: "HitTesting",
            dependencies: ["HitTestWorkloads", .product(name: "SeatKit", package: "SeatKit"),
                           .product(name: "Benchmark", package: "benchmark")],
            path: "HitTesting",
            // Benchmark closures capture non-Sendable fixtures; everything runs on one thread.
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EventRouting",
            dependencies: ["RoutingWorkloads", .product(name: "SeatKit", package: "SeatKit"),
                           .product(name: "Benchmark", package: "benchmark")],
            path: "EventRouting",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The bare xkbcommon calls per key, from C: the "raw" side of the key-to-text benchmark.
        .target(name: "XKBDirect", path: "XKBDirect", linkerSettings: [.linkedLibrary("xkbcommon")]),
        .target(
            name: "RoutingWorkloads",
            dependencies: [.product(name: "SeatKit", package: "SeatKit"),
                           .product(name: "SeatKitXKB", package: "SeatKit"), "XKBDirect"],
            path: "RoutingWorkloads"
        ),
        // RoutingScene's tree, recognizers and events through the C API (libCSeatKit.so, the
        // library C compositors link), for the C-API-against-Swift comparison.
        .target(
            name: "CAPIWorkloads",
            dependencies: [.product(name: "CSeatKit", package: "SeatKit")],
            path: "CAPIWorkloads"
        ),
        // Not a benchmark suite (it lives outside a directory named Benchmarks, so the
        // plugin leaves it alone): runs both sides interleaved, prints the tables of
        // docs/BENCHMARKS.md and writes the plot.
        // Not a suite either: cage and SeatKit's kiosk on the same recordings from emulated
        // devices, compositor CPU per input frame (Benchmarks/compositor-cpu.sh runs it).
        .executableTarget(
            name: "CompositorCPU",
            dependencies: [.product(name: "SeatKitReplay", package: "SeatKit")],
            path: "CompositorCPU",
            exclude: ["libseat-shim.c"],
            // A single-threaded command-line driver using C's stdio and globals.
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(name: "ProcessCounters", path: "ProcessCounters"),
        // The root package's per-thread allocation counter (a link to Tests/AllocationCounter):
        // counts only the router's thread, unlike the suites' process-wide interposer. Only
        // the report links it, as it replaces malloc for the whole process.
        .target(name: "ThreadAllocations", path: "ThreadAllocations"),
        .executableTarget(
            name: "BenchmarkReport",
            dependencies: ["HitTestWorkloads", "RoutingWorkloads", "CAPIWorkloads", "ProcessCounters", "ThreadAllocations",
                           .product(name: "SeatKit", package: "SeatKit"),
                           .product(name: "SeatKitLibinput", package: "SeatKit"),
                           .product(name: "SeatKitReplay", package: "SeatKit"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tools/BenchmarkReport"
        ),
    ],
    swiftLanguageModes: [.v6]
)
