import Foundation
import Testing

/// A running kiosk (the `kiosk` product, built next to this test bundle) on a fresh
/// XDG_RUNTIME_DIR and a unique socket, fed input through its stdin or a replay, and the real clients
/// started against it. Every wait is bounded and returns as soon as what it waits for shows
/// up in a process's output: no fixed sleeps.
final class KioskSession {
    let runtimeDirectory: String
    let socket: String
    private let kiosk: Process
    private let input: FileHandle
    let log: OutputWatcher
    private var clients: [ClientProcess] = []

    /// The timeout of every wait, generous for a loaded two-core machine.
    static let timeout: Duration = .seconds(20)

    /// Starts the kiosk with `inputOptions` (its input-source options): by default the script on its
    /// stdin, which ``send(_:)`` writes to.
    /// `environment` is added to the kiosk's (emulated devices' LD_PRELOAD and UMOCKDEV_DIR).
    /// `windowOptions` are the kiosk's window options: by default `--side-by-side`, which the
    /// tests of several clients need; `[]` gives the kiosk's default, windows fullscreen.
    /// `executable` is the compositor to run, a product of this package that takes the
    /// kiosk's `--socket` and scripted input (the own-shell compositor does).
    init(executable: String = "kiosk", inputOptions: [String] = ["--script", "-"], windowOptions: [String] = ["--side-by-side"],
         environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var template = Array("/tmp/seatkit-kiosk-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw SessionError("mkdtemp failed") }
        runtimeDirectory = String(cString: dir)
        socket = "seatkit-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        let binary = try #require(KioskSession.builtExecutable(executable), "the \(executable) product is not built next to the tests",
                                  sourceLocation: sourceLocation)
        let arguments = ["--socket", socket] + windowOptions + inputOptions
        kiosk = Process()
        kiosk.executableURL = URL(fileURLWithPath: binary)
        kiosk.arguments = arguments
        kiosk.environment = ["XDG_RUNTIME_DIR": runtimeDirectory, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
            .merging(environment) { _, added in added }
        let stdin = Pipe()
        let stdout = Pipe()
        kiosk.standardInput = stdin
        kiosk.standardOutput = stdout
        kiosk.standardError = stdout
        try kiosk.run()
        input = stdin.fileHandleForWriting
        log = OutputWatcher(stdout.fileHandleForReading, name: "kiosk")
        try log.require({ $0.contains("listening on \(socket)") }, "the kiosk did not start", sourceLocation: sourceLocation)
    }

    deinit {
        for client in clients { client.stop() }
        // SIGKILL: children of the test runner inherit its blocked signals, SIGTERM included.
        if kiosk.isRunning {
            kill(kiosk.processIdentifier, SIGKILL)
            kiosk.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// True while the kiosk process runs (it never exits on its own).
    var kioskIsRunning: Bool { kiosk.isRunning }

    /// Sends input lines (ScriptedInputSource's JSON) to the kiosk.
    func send(_ lines: [String]) {
        input.write((lines.joined(separator: "\n") + "\n").data(using: .utf8)!)
    }

    /// Announces a keyboard, a mouse and a touchscreen, and waits until the seat has them.
    func addDevices(sourceLocation: SourceLocation = #_sourceLocation) throws {
        send([
            #"{"type": "device-added", "device": 1, "name": "keyboard", "capabilities": ["keyboard"]}"#,
            #"{"type": "device-added", "device": 2, "name": "mouse", "capabilities": ["pointer"]}"#,
            #"{"type": "device-added", "device": 3, "name": "touchscreen", "capabilities": ["touch"]}"#,
        ])
        try log.require({ $0.contains("capabilities keyboard,pointer,touch") }, "the seat did not get the devices",
                        sourceLocation: sourceLocation)
    }

    /// Starts a client from PATH with its stdout line-buffered (stdbuf), against this kiosk.
    /// `debug` sets WAYLAND_DEBUG=1: libwayland-client then prints every event it receives.
    func launch(_ name: String, _ arguments: [String] = [], debug: Bool = false, environment extra: [String: String] = [:],
                sourceLocation: SourceLocation = #_sourceLocation) throws -> ClientProcess {
        let found = name.hasPrefix("/") ? (access(name, X_OK) == 0 ? name : nil) : KioskSession.which(name)
        let path = try #require(found, "\(name) is not installed (scripts/setup.sh installs it)",
                                sourceLocation: sourceLocation)
        let stdbuf = try #require(KioskSession.which("stdbuf"), "stdbuf (coreutils) is missing", sourceLocation: sourceLocation)
        var environment = ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socket, "LANG": "C.UTF-8",
                           "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        if debug { environment["WAYLAND_DEBUG"] = "1" }
        environment.merge(extra) { _, added in added }
        let client = try ClientProcess(stdbuf, ["-oL", path] + arguments, environment: environment, name: name)
        clients.append(client)
        return client
    }

    /// Waits for the kiosk to map the `nth` window (1-based) of `name` (app id or title) and
    /// returns where it went: a client has mapped when it committed a buffer on its
    /// xdg_toplevel after acknowledging the first configure.
    func waitForWindow(_ name: String, nth: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) throws -> Window {
        // "mapped wev[4242] at 640,0 size 640x480": app id (or title), the client's pid.
        let prefix = "mapped \(name)["
        func matches(_ line: Substring) -> Bool { line.hasPrefix(prefix) && line.contains("] at ") }
        try log.require({ text in text.split(separator: "\n").filter(matches).count >= nth },
                        "\(name) never mapped a window", sourceLocation: sourceLocation)
        let line = log.text.split(separator: "\n").filter(matches)[nth - 1]
        let pid = Int32(line.dropFirst(prefix.count).prefix { $0 != "]" }) ?? 0
        let fields = line[line.range(of: "] at ")!.upperBound...].split(separator: " ")
        let origin = fields[0].split(separator: ",").compactMap { Double($0) }
        let size = fields[2].split(separator: "x").compactMap { Double($0) }
        return Window(x: origin[0], y: origin[1], width: size[0], height: size[1], pid: pid)
    }

    struct Window {
        var x, y, width, height: Double
        /// The pid of the client, as the kiosk logged it.
        var pid: Int32 = 0
    }

    private static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    static func kioskBinary() -> String? { builtExecutable("kiosk") }

    /// An executable of this package, built beside the test binary.
    static func builtExecutable(_ name: String) -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // macOS-style bundles nest the executable; on Linux the test binary sits in the build dir.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if access(candidate, X_OK) == 0 { return candidate }
            dir.deleteLastPathComponent()
        }
        return nil
    }
}

struct SessionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A real client process and what it printed.
final class ClientProcess {
    private let process: Process
    let output: OutputWatcher

    init(_ executable: String, _ arguments: [String], environment: [String: String], name: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        output = OutputWatcher(pipe.fileHandleForReading, name: name)
    }

    var isRunning: Bool { process.isRunning }
    /// stdbuf execs the client: this is the client's pid.
    var pid: Int32 { process.processIdentifier }

    /// Kills the client at once (SIGKILL): it cannot say goodbye, as a crashing client.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() { kill() }
}

/// Collects a process's output and waits, with poll(2) and a deadline, until it shows
/// something.
final class OutputWatcher {
    private let fd: Int32
    private let handle: FileHandle
    let name: String
    private(set) var text = ""
    private var pending = Data()

    init(_ handle: FileHandle, name: String) {
        self.handle = handle
        self.fd = handle.fileDescriptor
        self.name = name
    }

    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Reads what is available within `timeout`, then returns whether `predicate` holds of
    /// everything read so far; returns as soon as it does.
    func wait(timeout: Duration = KioskSession.timeout, for predicate: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !predicate(text) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&pfd, 1, max(ms, 1)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return predicate(text) }  // the process closed its output
            pending.append(contentsOf: buffer[0..<n])
            text += String(decoding: pending, as: UTF8.self)
            pending.removeAll()
        }
        return true
    }

    /// Waits like ``wait(timeout:for:)`` and records a failure, with the output, if it times out.
    func require(_ predicate: (String) -> Bool, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ok = wait(for: predicate)
        try #require(ok, "\(message); \(name) printed:\n\(text)", sourceLocation: sourceLocation)
    }

    /// Waits until `fragment` appears after `offset` characters of output.
    func require(_ fragment: String, after offset: String.Index? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try require({ text in
            let start = offset ?? text.startIndex
            return text[start...].contains(fragment)
        }, "\"\(fragment)\" never came", sourceLocation: sourceLocation)
    }

    /// The end of what was read so far: a mark to look only at later output.
    var mark: String.Index { text.endIndex }
}
