// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "KioskTests",
    dependencies: [
        // `name:` makes the package's name "SeatKit" whatever its checkout folder is called
        // (without it, SwiftPM names a path dependency after its folder). From git instead:
        // .package(url: "<SeatKit's git URL>", branch: "main"), named after the URL's last part.
        .package(name: "SeatKit", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "KioskTests",
            dependencies: [
                .product(name: "SeatKit", package: "SeatKit"),
                .product(name: "SeatKitReplay", package: "SeatKit"),
            ],
            // Recordings and layouts beside the tests are read by path (#filePath), not
            // bundled: excluding them keeps SwiftPM from warning about unhandled files.
            exclude: ["Fixtures"]
        ),
    ]
)
