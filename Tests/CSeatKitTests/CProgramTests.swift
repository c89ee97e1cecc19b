import Foundation
import Testing

/// The C API as a C compositor gets it: scripts/install.sh puts the header, libseatkit.so and
/// seatkit.pc in a fresh prefix; Tests/CSeatKitProgram/proof.c is built from that prefix
/// alone, once with cc and pkg-config and once with meson's `dependency('seatkit')`; both
/// run with a clean environment (no LD_LIBRARY_PATH) and print exactly the responder calls,
/// filter, spy, recognizer and destroy-signal lines, and log messages of expected.txt.
@Suite(.serialized) struct CProgramTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let programDirectory = packageRoot.appendingPathComponent("Tests/CSeatKitProgram")

    @Test func aCProgramBuiltWithPkgConfigFromTheInstalledPrefixGetsExactlyTheRoutedCalls() throws {
        let prefix = try Self.installedPrefix()
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", "seatkit"],
                            environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        #expect(flags.output.contains("-lseatkit"))
        #expect(!flags.output.contains(".build"), "the flags name the prefix, not the build directory")
        let binary = prefix + "/proof-cc"
        let words = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        let cc = try run("/usr/bin/cc", ["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
                                         "-o", binary, Self.programDirectory.appendingPathComponent("proof.c").path] + words)
        try #require(cc.status == 0, "cc failed:\n\(cc.output)")
        try checkOutput(of: binary)
    }

    @Test func aMesonProjectFindsSeatKitThroughDependencySeatkit() throws {
        let prefix = try Self.installedPrefix()
        let build = prefix + "/meson-build"
        let environment = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"]
        let setup = try run("/usr/bin/meson", ["setup", build, Self.programDirectory.path], environment: environment)
        try #require(setup.status == 0, "meson setup failed:\n\(setup.output)")
        #expect(setup.output.contains("Run-time dependency seatkit found: YES"))
        let compile = try run("/usr/bin/ninja", ["-C", build], environment: environment)
        try #require(compile.status == 0, "ninja failed:\n\(compile.output)")
        try checkOutput(of: build + "/proof")
    }

    private func checkOutput(of binary: String) throws {
        let needed = try run("/usr/bin/readelf", ["-d", binary])
        #expect(needed.output.contains("Shared library: [libseatkit.so.0]"))
        let result = try run(binary, [], environment: [:])
        let expected = try String(contentsOf: Self.programDirectory.appendingPathComponent("expected.txt"), encoding: .utf8)
        #expect(result.status == 0)
        let got = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, line) in want.enumerated() where i >= got.count || got[i] != line {
            Issue.record("line \(i + 1): expected \"\(line)\", got \"\(i < got.count ? got[i] : "<nothing>")\"")
            break
        }
        #expect(got.count == want.count, "\(got.count) lines, expected \(want.count):\n\(result.output)")
    }

    /// One install for every suite that needs it (they run in parallel; a static `let` is
    /// initialized once, thread-safely): scripts/install.sh --prefix TMP --build-dir (the
    /// build directory holding this test binary, libCSeatKit.so and seatkit).
    private static let installation: Result<String, any Error> = Result { try install() }

    static func installedPrefix() throws -> String { try installation.get() }

    /// Builds `Tests/CSeatKitProgram/<source>` strictly (C11, -Wall -Wextra -Werror) with the
    /// flags `pkg-config` gives for `packages` from the installed prefix alone, into
    /// `<prefix>/<name>`, as a C compositor would build against SeatKit; returns its path.
    static func buildProgram(_ source: String, named name: String, packages: [String]) throws -> String {
        let prefix = try installedPrefix()
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs"] + packages,
                            environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        try #require(flags.status == 0, "\(flags.output)")
        let binary = prefix + "/" + name
        // Built under a name of its own, then renamed over `binary`: tests run in parallel (the
        // cases of one parametrized test among them), and a build written straight to `binary`
        // while another test ran the previous one failed with ETXTBSY ("Text file busy"). The
        // rename replaces the name only; a program already running keeps its own file.
        let building = binary + ".building-\(UUID().uuidString)"
        let words = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        let cc = try run("/usr/bin/cc", ["-std=c11", "-Wall", "-Wextra", "-Werror", "-o", building,
                                         programDirectory.appendingPathComponent(source).path] + words)
        try #require(cc.status == 0, "cc failed:\n\(cc.output)")
        try #require(rename(building, binary) == 0, "rename of \(building) failed: errno \(errno)")
        return binary
    }

    private static func install() throws -> String {
        let products = try #require(buildDirectory(), "libCSeatKit.so is not built next to the tests")
        removeInstallationsOfEndedRuns()
        let directory = installDirectory(of: getpid())
        try? FileManager.default.removeItem(atPath: directory)
        // Gone when this run exits (tens of megabytes each: a developer runs the tests often).
        atexit { try? FileManager.default.removeItem(atPath: CProgramTests.installDirectory(of: getpid())) }
        let install = try run(packageRoot.appendingPathComponent("scripts/install.sh").path,
                              ["--prefix", directory, "--build-dir", products])
        try #require(install.status == 0, "install.sh failed:\n\(install.output)")
        // The wlroots bridge too: this machine has wlroots 0.15 (libwlroots-dev), and install.sh
        // builds it with -Wall -Wextra -Werror (a warning fails the install).
        for file in ["include/seatkit/seatkit.h", "include/seatkit/seatkit-delivery.h", "lib/libseatkit.so", "lib/pkgconfig/seatkit.pc",
                     "bin/seatkit", "include/seatkit/seatkit-wlroots.h", "lib/libseatkit-wlroots.so", "lib/pkgconfig/seatkit-wlroots.pc"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file) is not installed")
        }
        return directory
    }

    static func installDirectory(of process: pid_t) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-install-\(process)").path
    }

    /// Removes the installs of runs that ended without their exit handler (a crash, a kill):
    /// those whose process is gone. Another run's live install is left alone.
    private static func removeInstallationsOfEndedRuns() {
        let temporary = FileManager.default.temporaryDirectory.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix("seatkit-install-") {
            guard let process = pid_t(name.dropFirst("seatkit-install-".count)), process != getpid(),
                  kill(process, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: temporary + "/" + name)
        }
    }

    static func buildDirectory() -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("libCSeatKit.so").path) { return dir.path }
            dir.deleteLastPathComponent()
        }
        return nil
    }
}

/// Runs a program to its end, stdout and stderr together. `environment` nil: this process's.
@discardableResult
func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment {
        var env = environment
        env["PATH"] = env["PATH"] ?? (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = env
    }
    // A file, not a pipe: Foundation's reading of a pipe traps when a signal interrupts it.
    let outputPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("seatkit-run-\(getpid())-\(UInt64.random(in: 0...UInt64.max))").path
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let file = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardOutput = file
    process.standardError = file
    try process.run()
    process.waitUntilExit()
    try file.close()
    let data = try Data(contentsOf: URL(fileURLWithPath: outputPath))
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
