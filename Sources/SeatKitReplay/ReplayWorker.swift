import CReplayWorkerEntry
import SeatKit
import SeatKitLibinput
import SeatKitSystem
#if canImport(Glibc)
import Glibc
#endif

/// The libinput side of a replay: runs in a child process started under the preload
/// (`LD_PRELOAD=<shim>:libumockdev-preload.so.0`, `UMOCKDEV_DIR=<testbed>`), opens the
/// emulated nodes with a path context, and streams libinput's events to its stdout in
/// `DeviceEvent`'s binary form.
///
/// After every dispatch it writes a *read mark*: how many bytes libinput has read from each
/// node so far (counted by the shim). The parent writes a frame, then waits for a mark that
/// covers it: lock-step, so frames never pile up in the 4 KiB PTY buffer and events come
/// back in the order of the frames. Commands arrive on stdin: `r` + device number (u32 LE)
/// removes that device; end of file ends the replay.
///
/// The `seatkit` tool runs this as its hidden `replay-worker` command.
package enum ReplayWorker {
    /// Record tags on the worker's stdout besides `DeviceEvent`s.
    static let readMarkTag: UInt8 = 0xFE
    static let endTag: UInt8 = 0xFD
    static let errorTag: UInt8 = 0xFC

    /// Runs the worker. `arguments`: `[--config TEXT] [--seat NAME] [--nodes-from-stdin]
    /// NODE=PTY-INDEX...`; with
    /// `--seat`, libinput finds the nodes through udev (the testbed's) instead of by path.
    /// Returns the exit status.
    package static func run(arguments: [String]) -> Int32 {
        var nodes: [String] = []
        var ptys: [Int] = []
        var configuration: DeviceConfiguration?
        var seat: String?
        var arguments = arguments
        if let flag = arguments.firstIndex(of: "--nodes-from-stdin") {
            // The parent starts this process before the devices exist and sends their nodes
            // (`NODE=PTY-INDEX ...` and a newline) once umockdev has added them.
            arguments.remove(at: flag)
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while true {
                let n = read(0, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                guard n == 1 else { return fail("replay-worker: stdin ended before the list of nodes") }
                if byte == UInt8(ascii: "\n") { break }
                line.append(byte)
            }
            arguments += String(decoding: line, as: UTF8.self).split(separator: " ").map(String.init)
        }
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--seat", i + 1 < arguments.count {
                seat = arguments[i + 1]
                i += 2
                continue
            }
            if a == "--config", i + 1 < arguments.count {
                do {
                    configuration = try DeviceConfiguration(commandLineForm: arguments[i + 1])
                } catch {
                    return fail("replay-worker: \(error)")
                }
                i += 2
                continue
            }
            let parts = a.split(separator: "=")
            guard parts.count == 2, let pty = Int(parts[1]), pty >= 0, pty < PreloadShim.counterCount else {
                return fail("replay-worker: expected NODE=PTY-INDEX, got \(a)")
            }
            nodes.append(String(parts[0]))
            ptys.append(pty)
            i += 1
        }
        guard getenv("UMOCKDEV_DIR") != nil else { return fail("replay-worker: UMOCKDEV_DIR is not set; run under umockdev") }
        guard let ackPath = getenv("SEATKIT_REPLAY_ACK") else { return fail("replay-worker: SEATKIT_REPLAY_ACK is not set") }
        let ackFd = open(ackPath, O_RDONLY | O_CLOEXEC)
        guard ackFd >= 0, let map = mmap(nil, PreloadShim.counterCount * 8, PROT_READ, MAP_SHARED, ackFd, 0), map != MAP_FAILED else {
            return fail("replay-worker: cannot map \(String(cString: ackPath))")
        }
        close(ackFd)
        let counters = map.bindMemory(to: UInt64.self, capacity: PreloadShim.counterCount)

        nonisolated(unsafe) var quirksFailed = false
        LibinputBackend.setLogHandler(minimumPriority: 20) { priority, message in
            if message.contains("Failed to load the device quirks") { quirksFailed = true }
            // Virtual time runs ahead of the real clock on purpose.
            if message.contains("offset more than") || message.contains("timer") { return }
            // Info and up (see minimumPriority): why a device could not be opened or added is
            // logged at info. The parent shows this output only when the worker fails.
            writeStandardError("libinput: \(message)")
        }
        let backend: LibinputBackend
        do {
            if let seat {
                backend = try LibinputBackend(seat: seat, opener: DirectDeviceOpener())
            } else {
                backend = try LibinputBackend(paths: nodes, opener: DirectDeviceOpener())
            }
        } catch {
            return fail("replay-worker: \(error)")
        }
        if let configuration { backend.configuration = { _ in configuration } }
        if quirksFailed && getenv("SEATKIT_REPLAY_QUIRKS") != nil {
            return fail("replay-worker: libinput rejected the recorded quirks", status: quirksRejectedStatus)
        }

        var out: [UInt8] = []
        var one: [UInt8] = []
        func flush() -> Bool {
            var offset = 0
            while offset < out.count {
                let n = out.withUnsafeBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            out.removeAll(keepingCapacity: true)
            return true
        }
        func dispatchAndReport() -> Bool {
            for event in backend.dispatchEvents() {
                // encode(into:) copies the buffer it appends to: keep that one small.
                one.removeAll(keepingCapacity: true)
                event.encode(into: &one)
                out += one
            }
            out.append(readMarkTag)
            out.appendLittleEndian(UInt32(ptys.count))
            for pty in ptys { out.appendLittleEndian(UInt64(counters[pty])) }
            return flush()
        }

        guard dispatchAndReport() else { return 1 }
        var command: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var fds = [pollfd(fd: backend.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
            let r = poll(&fds, 2, -1)
            if r < 0 && errno == EINTR { continue }
            if fds[0].revents != 0 {
                guard dispatchAndReport() else { return 1 }
            }
            if fds[1].revents != 0 {
                let n = read(0, &buffer, buffer.count)
                if n <= 0 {
                    guard dispatchAndReport() else { return 1 }
                    out.append(endTag)
                    return flush() ? 0 : 1
                }
                command += buffer[0..<n]
                while command.count >= 5, command[0] == UInt8(ascii: "r") {
                    let number = ByteReader.u32(command, at: 1)
                    command.removeFirst(5)
                    backend.removeDevice(number: number)
                    guard dispatchAndReport() else { return 1 }
                }
                if let first = command.first, first != UInt8(ascii: "r") {
                    return fail("replay-worker: unknown command byte \(first)")
                }
            }
        }
    }

    /// Exit status when libinput could not parse the recording's quirks.
    static let quirksRejectedStatus: Int32 = 3

    private static func fail(_ message: String, status: Int32 = 2) -> Int32 {
        writeStandardError(message + "\n")
        return status
    }
}

/// The worker's entry when a program linking SeatKitReplay is started as a worker (see
/// CReplayWorkerEntry): its arguments after the program's name.
@_cdecl("seatkit_replay_worker_main")
func seatkitReplayWorkerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var arguments: [String] = []
    for i in 1..<Int(max(argc, 1)) {
        if let a = argv[i] { arguments.append(String(cString: a)) }
    }
    return ReplayWorker.run(arguments: arguments)
}

/// Why a replay could not run.
public enum ReplayError: Error, CustomStringConvertible {
    /// The recording itself is wrong.
    case recording(RecordingError)
    /// Something the replay needs is missing or failed: umockdev, a C compiler, the worker.
    case environment(String)
    /// libinput (in the worker) did something unexpected.
    case libinput(String)
    /// libinput could not read the quirks recorded with the devices (written by a newer
    /// libinput); ``LibinputReplay`` then replays once more without them.
    case recordedQuirksRejected

    /// What starts the worker's log inside a message.
    static let logSeparator = "--- libinput's log (the replay worker's stderr) ---"

    /// The description's first line: what failed, without libinput's log.
    public var summary: String {
        String(description.split(separator: "\n", maxSplits: 1).first ?? "")
    }

    public var description: String {
        switch self {
        case .recording(let e): return e.description
        case .environment(let s): return "replay environment: \(s)"
        case .libinput(let s): return "libinput replay: \(s)"
        case .recordedQuirksRejected: return "libinput replay: libinput could not read the recording's quirks"
        }
    }
}

func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
