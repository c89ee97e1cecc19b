import Foundation
import Testing

/// The installed libraries as a compositor and a test program get them (scripts/install.sh):
/// libseatkit.so.0 is production only (no umockdev, no glib, no constructor of ours), and
/// replay is libseatkit-replay.so.0, which a test program links to replay recordings from C,
/// with the umockdev shim installed beside it.
@Suite(.serialized) struct CLibrarySplitTests {
    static var prefix: String { get throws { try CProgramTests.installedPrefix() } }

    @Test func theProductionLibraryLoadsNoUmockdevNoGlibAndNoReplayCode() throws {
        let library = try Self.prefix + "/lib/libseatkit.so.0"
        let ldd = try run("/usr/bin/ldd", [library])
        try #require(ldd.status == 0, "\(ldd.output)")
        #expect(ldd.output.contains("libinput.so") && ldd.output.contains("libxkbcommon.so") && ldd.output.contains("libwayland-server.so"))
        #expect(!ldd.output.contains("umockdev"), "\(ldd.output)")
        // glib: not ours. Debian's libinput links libwacom, which links glib; SeatKit's own
        // dependencies (NEEDED) name none, and glib comes exactly when libinput brings it.
        let needed = try run("/usr/bin/readelf", ["-d", library])
        let direct = needed.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!direct.isEmpty && !direct.contains { $0.contains("glib") || $0.contains("gobject") || $0.contains("umockdev") }, "\(direct)")
        let libinput = try run("/usr/bin/ldd", ["/usr/lib/x86_64-linux-gnu/libinput.so.10"])
        #expect(ldd.output.contains("libglib") == libinput.output.contains("libglib"), "glib only through libinput: \(libinput.output)")
        let symbols = try run("/usr/bin/nm", ["-D", "--defined-only", library])
        #expect(!symbols.output.contains("seatkit_replay_"), "replay's API is libseatkit-replay's")
        #expect(!symbols.output.contains("umockdev") && !symbols.output.contains("SeatKitReplay"))
        // The replay library is the one with umockdev (the control: ldd tells them apart).
        let replayLdd = try run("/usr/bin/ldd", [try Self.prefix + "/lib/libseatkit-replay.so.0"])
        #expect(replayLdd.output.contains("libumockdev"))
    }

    /// No constructor of SeatKit's in the production library: its .init_array holds only the
    /// toolchain's (crtbegin's frame_dummy and the Swift runtime's image registration). The
    /// replay worker's hook (which runs a program as a worker when SEATKIT_REPLAY_WORKER_MODE=1)
    /// is in libseatkit-replay only.
    @Test func theProductionLibraryHasNoConstructorOfOurs() throws {
        let production = try Self.constructors(of: Self.prefix + "/lib/libseatkit.so.0")
        #expect(!production.isEmpty, "the .init_array was read")
        #expect(Set(production).isSubset(of: ["frame_dummy", "_ZL23swift_image_constructorv"]), "\(production)")
        let replay = try Self.constructors(of: Self.prefix + "/lib/libseatkit-replay.so.0")
        #expect(replay.contains("seatkit_replay_worker_hook"), "\(replay)")
        // A production program started with the worker variable set runs its own main.
        let program = try Self.prefix + "/proof-env"
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", "seatkit"],
                            environment: ["PKG_CONFIG_PATH": Self.prefix + "/lib/pkgconfig"])
        let source = try Self.prefix + "/main-only.c"
        try "#include <seatkit/seatkit.h>\n#include <stdio.h>\nint main(void) { struct seatkit_router *r = seatkit_router_create_virtual(0); printf(\"main ran\\n\"); seatkit_router_destroy(r); return 0; }\n"
            .write(toFile: source, atomically: true, encoding: .utf8)
        let cc = try run("/usr/bin/cc", ["-o", program, source] + flags.output.split(whereSeparator: \.isWhitespace).map(String.init))
        try #require(cc.status == 0, "\(cc.output)")
        let result = try run(program, [], environment: ["SEATKIT_REPLAY_WORKER_MODE": "1"])
        #expect(result.status == 0 && result.output == "main ran\n", "\(result.output)")
    }

    @Test func theLibrariesCarryVersionedSonamesAndReplayNeedsTheProductionOne() throws {
        let lib = try Self.prefix + "/lib"
        let production = try run("/usr/bin/readelf", ["-d", lib + "/libseatkit.so.0"])
        #expect(production.output.contains("Library soname: [libseatkit.so.0]"))
        let replay = try run("/usr/bin/readelf", ["-d", lib + "/libseatkit-replay.so.0"])
        #expect(replay.output.contains("Library soname: [libseatkit-replay.so.0]"))
        #expect(replay.output.contains("Shared library: [libseatkit.so.0]"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: lib + "/libseatkit.so") == "libseatkit.so.0")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: lib + "/libseatkit-replay.so") == "libseatkit-replay.so.0")
        #expect(FileManager.default.fileExists(atPath: lib + "/libseatkit-umockdev-shim.so"))
        #expect(FileManager.default.fileExists(atPath: try Self.prefix + "/include/seatkit/seatkit-replay.h"))
    }

    /// A test program built from the prefix with seatkit-replay.pc replays the shipped
    /// recording: the worker is the installed bin/seatkit, the preload shim the one installed
    /// beside libseatkit-replay; and the same program is its own worker (the library's
    /// constructor) when given no installed tool.
    @Test func aTestProgramReplaysARecordingThroughTheInstalledReplayLibrary() throws {
        let binary = try Self.replayProgram()
        let recording = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
        let result = try run(binary, [recording], environment: [:])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "events 80\ntouches began 5 ended 5\nfinished\n", "\(result.output)")
        // With no installed tool beside the library, the program is its own worker (restarted
        // with SEATKIT_REPLAY_WORKER_MODE=1: libseatkit-replay's constructor): the libraries
        // and the shim in a lib directory with no bin/seatkit beside it.
        let own = try Self.prefix + "/own"
        try? FileManager.default.createDirectory(atPath: own + "/lib", withIntermediateDirectories: true)
        for library in ["libseatkit.so.0", "libseatkit-replay.so.0", "libseatkit-umockdev-shim.so"] {
            _ = try run("/bin/cp", [try Self.prefix + "/lib/" + library, own + "/lib/"])
        }
        #expect(!FileManager.default.fileExists(atPath: own + "/bin/seatkit"))
        let itself = try run(binary, [recording], environment: ["LD_LIBRARY_PATH": own + "/lib"])
        #expect(itself.status == 0 && itself.output.contains("touches began 5 ended 5\nfinished"), "\(itself.output)")
    }

    /// Replay from C under valgrind: no "uninitialised value" errors (there were 93 per replay,
    /// all from temporary-directory cleanup copying whole `dirent`s). Optimized code shows them
    /// (the debug build's does not): CI's release run installs the release libraries here,
    /// where the old cleanup gave "ERROR SUMMARY: 93 errors from 80 contexts" and the new one
    /// 0. valgrind 3.19 cannot read the DWARF 5 of Swift 6.3 libraries: the libraries are
    /// loaded from copies without debug information.
    @Test func aReplayFromCIsValgrindClean() throws {
        let binary = try Self.replayProgram()
        let prefix = try Self.prefix
        let libraries = prefix + "/stripped"
        try? FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        for library in ["libseatkit.so.0", "libseatkit-replay.so.0"] {
            let strip = try run("/usr/bin/strip", ["--strip-debug", "-o", libraries + "/" + library, prefix + "/lib/" + library])
            try #require(strip.status == 0, "\(strip.output)")
        }
        // The shim is looked for beside the library that was loaded: the stripped copy's.
        _ = try run("/bin/cp", [prefix + "/lib/libseatkit-umockdev-shim.so", libraries + "/"])
        let recording = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
        let log = prefix + "/valgrind-replay.log"
        let result = try run("/usr/bin/valgrind", ["--leak-check=no", "--log-file=" + log, binary, recording, prefix + "/bin/seatkit"],
                             environment: ["LD_LIBRARY_PATH": libraries])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("finished"), "\(result.output)")
        let summary = try String(contentsOfFile: log, encoding: .utf8)
        let reports = ValgrindLog.reports(summary)
        #expect(!reports.isEmpty || summary.contains("ERROR SUMMARY: 0 errors from 0 contexts"), "\(summary.suffix(6000))")
        let others = reports.filter { !ValgrindLog.isEnumTagRead($0) }
        #expect(others.isEmpty, "\(others.prefix(3).joined(separator: "\n\n"))")
        // The cleanup that copied whole dirents (the 93 reports): nothing from it, whatever the kind.
        #expect(!reports.contains { $0.contains("DirectoryEntry") || $0.contains("dirent") })
    }

    /// The replay program of Tests/CSeatKitProgram, built once with cc and seatkit-replay.pc.
    static func replayProgram() throws -> String {
        try replayBuild.get()
    }

    private static let replayBuild: Result<String, any Error> = Result {
        let prefix = try CProgramTests.installedPrefix()
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", "seatkit-replay"],
                            environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        try #require(flags.status == 0, "\(flags.output)")
        #expect(flags.output.contains("-lseatkit-replay") && flags.output.contains("-lseatkit"))
        let binary = prefix + "/replay-c"
        let source = CProgramTests.programDirectory.appendingPathComponent("replay.c").path
        let cc = try run("/usr/bin/cc", ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o", binary, source]
                         + flags.output.split(whereSeparator: \.isWhitespace).map(String.init))
        try #require(cc.status == 0, "cc failed:\n\(cc.output)")
        return binary
    }

    /// The functions an ELF file's .init_array points at, by name.
    static func constructors(of file: String) throws -> [String] {
        let dump = try run("/usr/bin/objdump", ["-s", "-j", ".init_array", file])
        var bytes: [UInt8] = []
        var inSection = false
        for line in dump.output.split(separator: "\n") {
            if line.hasPrefix("Contents of section .init_array") { inSection = true; continue }
            guard inSection else { continue }
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            for word in words.dropFirst().prefix(4) where word.count == 8 && word.allSatisfy(\.isHexDigit) {
                var i = word.startIndex
                while i < word.endIndex {
                    let next = word.index(i, offsetBy: 2)
                    bytes.append(UInt8(word[i..<next], radix: 16)!)
                    i = next
                }
            }
        }
        var addresses: [UInt64] = []
        for start in stride(from: 0, to: bytes.count - 7, by: 8) {
            addresses.append((0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (8 * UInt64($1)) })
        }
        let symbols = try run("/usr/bin/nm", [file])
        var names: [UInt64: String] = [:]
        for line in symbols.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 3, let address = UInt64(parts[0], radix: 16), parts[1] == "t" || parts[1] == "T" { names[address] = String(parts[2]) }
        }
        return addresses.map { names[$0] ?? String($0, radix: 16) }
    }
}
