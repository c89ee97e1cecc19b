import Testing
@testable import SeatKitReplay
import SeatKitSystem
#if canImport(Glibc)
import Glibc
#endif

/// Whatever path a user names as a recording or a layout, the library and the command line
/// answer in one line that names it: never an abort, a hang or reading without end.
@Suite struct InputPathTests {
    /// A private directory for the test's files.
    final class Scratch {
        let path: String
        init() throws {
            var template = Array("/tmp/seatkit-input-path-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            path = try #require(made.map { String(cString: $0) })
        }
        deinit {
            if let dir = opendir(path) {
                while let entry = readdir(dir) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                    if name != "." && name != ".." { unlink(path + "/" + name); rmdir(path + "/" + name) }
                }
                closedir(dir)
            }
            rmdir(path)
        }
    }

    static func libraryError(_ path: String) -> RecordingError? {
        do {
            _ = try RecordingParser.parse(contentsOf: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aDirectoryIsRefusedByName() throws {
        let scratch = try Scratch()
        let error = try #require(Self.libraryError(scratch.path))
        #expect(error.description == "\(scratch.path): is a directory, not a file")
        #expect(throws: RecordingError.self) { try SurfaceLayout.parse(contentsOf: scratch.path) }
    }

    @Test func aDeviceIsRefusedWithoutReadingIt() throws {
        #expect(Self.libraryError("/dev/zero")?.description == "/dev/zero: is a character device, not a file")
        #expect(Self.libraryError("/dev/null")?.description == "/dev/null: is a character device, not a file")
    }

    @Test func aFIFOWithNoWriterIsEmptyNotAHang() throws {
        let scratch = try Scratch()
        let fifo = scratch.path + "/fifo.yml"
        try #require(mkfifo(fifo, 0o600) == 0)
        let error = try #require(Self.libraryError(fifo))
        #expect(error.file == fifo)
        #expect(error.message.contains("empty"), "\(error)")
    }

    @Test func aPipeIsReadToItsEnd() throws {
        // What `seatkit info <(zcat rec.yml.gz)` names: /dev/fd/N, a pipe.
        let text = Array(RecordingWriter.text(of: try SyntheticRecordings.keyboard()).utf8)
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        // Larger than a pipe's buffer would need a writer thread; the keyboard's text fits.
        try #require(text.count < 60_000)
        #expect(text.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == text.count)
        close(fds[1])
        defer { close(fds[0]) }
        let recording = try RecordingParser.parse(contentsOf: "/dev/fd/\(fds[0])")
        #expect(recording.devices.first?.name == "SeatKit Test Keyboard")
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/big.yml"
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        try #require(fd >= 0)
        // Sparse: no disk is used for the 1 GiB and one byte.
        #expect(ftruncate(fd, off_t(RecordingParser.maximumFileSize + 1)) == 0)
        close(fd)
        let error = try #require(Self.libraryError(path))
        #expect(error.description == "\(path): is 1024 MiB; the limit is 1024 MiB")
    }

    @Test func aReadOverTheLimitStopsAtTheLimit() throws {
        // A pipe has no size to check first: reading stops one byte past the limit.
        let scratch = try Scratch()
        let path = scratch.path + "/ten.yml"
        #expect(writeFile(path, Array(repeating: 0x41, count: 10)))
        switch InputFile.read(path, limit: 4) {
        case .success: Issue.record("a 10-byte file read under a 4-byte limit")
        case .failure(let error): #expect(error.description == "\(path): is 10 bytes; the limit is 4 bytes")
        }
    }

    @Test func anUnreadableFileSaysSo() throws {
        let error = try #require(Self.libraryError("/proc/self/mem"))
        #expect(error.file == "/proc/self/mem")
        #expect(!error.message.isEmpty)
        let missing = try #require(Self.libraryError("/nonexistent/dir/x.yml"))
        #expect(missing.description == "/nonexistent/dir/x.yml: no such file")
    }

    @Test func crOnlyLineEndingsAreNamedNotCalledEmpty() throws {
        let text = RecordingWriter.text(of: try SyntheticRecordings.keyboard()).replacing("\n", with: "\r")
        do {
            _ = try RecordingParser.parse(text, source: "mac.yml")
            Issue.record("a CR-only file parsed")
        } catch {
            #expect(error.description.contains("end in CR alone"), "\(error)")
            #expect(!error.description.contains("empty"))
        }
    }

    /// The command line: one line naming the path, exit status 1, no usage text, for every
    /// subcommand that reads a recording and for `--layout`.
    @Test func theCommandLineRefusesEveryBadPathInOneLine() throws {
        let scratch = try Scratch()
        let tool = SeatkitToolTests.tool
        let layout = SeatkitToolTests.root + "/examples/kiosk.layout"
        let recording = SeatkitToolTests.root + "/examples/kiosk-touch.yml"
        for bad in [scratch.path, "/dev/zero", scratch.path + "/missing.yml"] {
            for arguments in [["info", bad], ["replay", bad, "--layout", layout], ["plot", bad, "--layout", layout, "-o", scratch.path + "/out.svg"],
                              ["replay", recording, "--layout", bad]] {
                let (status, output) = runProcess(tool, arguments)
                #expect(status == 1, "\(arguments)")
                let lines = output.split(separator: "\n")
                #expect(lines.count == 1, "\(arguments): \(output)")
                #expect(output.contains(bad), "\(arguments): \(output)")
                #expect(!output.contains("Usage"), "\(arguments): \(output)")
            }
        }
    }
}

/// The preload shim is the package's built C (the SeatKitUmockdevShim product), found beside
/// the worker, never compiled at run time nor loaded from a shared directory.
@Suite struct PreloadShimLocationTests {
    /// With HOME, XDG_CACHE_HOME and TMPDIR unset or odd, a replay still works: nothing is
    /// built or cached anywhere, and nothing appears under /tmp or a HOME that does not exist.
    @Test(arguments: [
        ["-u", "HOME", "-u", "XDG_CACHE_HOME", "-u", "TMPDIR"],
        ["XDG_CACHE_HOME=", "HOME=/nonexistent/seatkit-home"],
        ["-u", "HOME", "XDG_CACHE_HOME=relative/cache"],
    ])
    func aReplayNeedsNoCacheAndCreatesNothingElsewhere(environment: [String]) throws {
        let root = SeatkitToolTests.root
        let (status, output) = runProcess("/usr/bin/env", environment + [SeatkitToolTests.tool, "replay", root + "/examples/kiosk-touch.yml",
                                                                          "--layout", root + "/examples/kiosk.layout"])
        #expect(status == 0, "\(environment): \(output)")
        #expect(output.contains("touchesEnded -> ok-button"), "\(environment)")
        #expect(access("/nonexistent", F_OK) != 0, "nothing was created under a HOME that does not exist")
        #expect(access(root + "/relative", F_OK) != 0 && access("relative", F_OK) != 0, "a relative XDG_CACHE_HOME is ignored")
    }

    @Test func theShimIsTheBuiltProductBesideTheWorkerNotACompiledCopy() throws {
        let tool = SeatkitToolTests.tool
        let shim = try PreloadShim.libraryPath(worker: tool)
        #expect(shim == PreloadShim.parentDirectory(of: tool) + "/" + PreloadShim.builtName)
        // This test binary's own (worker: nil) is the same build's.
        #expect(try PreloadShim.libraryPath(worker: nil) == shim)
        // Never the old run-time build's copy in a shared or cache directory: the product in
        // this build's own products directory (which may itself be under /tmp, in a clone there).
        #expect(!shim.hasPrefix("/tmp/seatkit") && !shim.contains("/.cache/"))
        #expect(shim.hasPrefix(SeatkitToolTests.root + "/"), "\(shim) is inside the checkout's build")
        // No cache directory of the old run-time build is made any more.
        let (status, _) = runProcess("/usr/bin/env", ["-u", "HOME", "-u", "XDG_CACHE_HOME", "-u", "TMPDIR", tool, "replay",
                                                      SeatkitToolTests.root + "/examples/kiosk-touch.yml"])
        #expect(status == 0)
    }

    /// A shim another user could have written is never loaded, with the reason: a file
    /// writable by others, a symbolic link, a file in a directory others can write (like /tmp).
    @Test func aShimOthersCouldHaveWrittenIsRefused() throws {
        let real = try PreloadShim.libraryPath(worker: nil)
        var template = Array("/tmp/seatkit-shim-test-XXXXXX".utf8CString)
        let dir = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { _ = runProcess("/bin/rm", ["-rf", dir]) }
        let worker = dir + "/bin/seatkit"
        mkdir(dir + "/bin", 0o755)
        #expect(writeFile(worker, Array("#!/bin/sh\n".utf8)))
        let shim = dir + "/bin/" + PreloadShim.builtName
        // Missing beside the worker: an error that says how to build it (never another
        // build's shim: the worker may be built differently, e.g. without a sanitizer).
        #expect(throws: ReplayError.self) { try PreloadShim.libraryPath(worker: worker) }
        do { _ = try PreloadShim.libraryPath(worker: worker) } catch { #expect("\(error)".contains("swift build --product SeatKitUmockdevShim")) }
        // Writable by others: refused, with the reason.
        #expect(writeFile(shim, [0x7f, 0x45, 0x4c, 0x46]))
        chmod(shim, 0o666)
        #expect(PreloadShim.untrustedReason(shim)?.contains("writable by group or others") == true)
        do { _ = try PreloadShim.libraryPath(worker: worker) } catch { #expect("\(error)".contains("not safe to load")) }
        #expect(throws: ReplayError.self) { try PreloadShim.libraryPath(worker: worker) }
        // A symbolic link (even to the real one).
        unlink(shim)
        symlink(real, shim)
        #expect(PreloadShim.untrustedReason(shim)?.contains("not a regular file") == true)
        #expect(throws: ReplayError.self) { try PreloadShim.libraryPath(worker: worker) }
        // A good file in a directory others can write.
        unlink(shim)
        #expect(writeFile(shim, [0x7f, 0x45, 0x4c, 0x46]))
        chmod(shim, 0o644)
        chmod(dir + "/bin", 0o777)
        #expect(PreloadShim.untrustedReason(shim)?.contains("writable by group or others") == true)
        #expect(throws: ReplayError.self) { try PreloadShim.libraryPath(worker: worker) }
        // Owned by this user, nobody else can write it or its directory: the worker's is used.
        chmod(dir + "/bin", 0o755)
        #expect(try PreloadShim.libraryPath(worker: worker) == shim)
    }

    /// The shim's source is no longer text inside Swift: the package's C target is the only copy.
    @Test func theShimSourceIsACTargetOfThePackage() throws {
        let root = SeatkitToolTests.root
        #expect(access(root + "/Sources/SeatKitUmockdevShim/shim.c", R_OK) == 0)
        let swift = try #require(RecordingParser.readBytes(root + "/Sources/SeatKitReplay/PreloadShim.swift"))
        let text = String(decoding: swift, as: UTF8.self)
        #expect(!text.contains("#include <dlfcn.h>") && !text.contains("\"-shared\""))
    }
}
