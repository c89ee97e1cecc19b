import CReplayWorkerEntry
import SeatKit
import SeatKitLibinput
import SeatKitSystem
#if canImport(Glibc)
import Glibc
#endif

/// The libinput side of a replay: runs in a child process started under the preload
/// (`LD_PRELOAD=<shim>:libumockdev-preload.so.0`; `UMOCKDEV_DIR=<testbed>` comes with the
/// first replay, so that the worker can start while the testbed is built), opens the
/// emulated nodes with a path context, and streams libinput's events to its stdout in
/// `DeviceEvent`'s binary form.
///
/// One worker serves any number of replays, one after another (a ``ReplaySession``).
/// Commands arrive on stdin:
/// - `b` + length (u32 LE) + arguments separated by NUL bytes: begin a replay
///   (`--protocol N [--config TEXT] [--seat NAME] [--quirks PATH] [--context KEY] [--dmi MODALIAS]
///   [--all-system-quirks] NODE=PTY-INDEX...`), sent with the nodes' PTY masters passed along
///   (SCM_RIGHTS, one per node, in order): a libinput context over those nodes (with
///   `--seat`, through udev, the testbed's, instead of by path). `--protocol` comes first: a
///   worker that speaks another ``protocolVersion`` fails at once. A new context with `--dmi`
///   reads the system quirks without other machines' sections (``SystemQuirks``). With `--context`, a path context of an earlier replay is used again when it
///   was made for the same KEY (the DMI and recorded quirks it read when it started: what a
///   context reads once) and no tablet was among its devices (libinput keeps tablet tools,
///   and their pressure offsets, in the context): its devices are gone by then, and the new
///   ones are numbered from 1 and announced at the replay's start time, as in a fresh
///   context. That saves parsing libinput's quirks files again (a third of a short replay).
///   The worker keeps the last ``keptContexts`` such contexts, one per key;
/// - `w` + node index (u32 LE, in the begin command's order) + virtual time (i64 LE, µs) +
///   length (u32 LE, whole `struct input_event`s, at most ``maximumWrite``) + the events:
///   set libinput's clock to that time, write the events to the node's PTY and let libinput
///   read and process them all before the next command;
/// - `r` + device number (u32 LE) + virtual time (i64 LE): set the clock, remove that device;
/// - `e`: end the replay: report what is left, write the end mark, one byte of flags (1:
///   the context was used again; 2: it is new and started with the system quirks for the
///   replay's DMI, ``SystemQuirks``) and the writes the kernel took only in part (u32 LE),
///   then remove the devices (keeping the context for the next replay) or release the
///   context;
/// - end of file: exit.
///
/// The worker writes the frames to the nodes itself: the parent sends a batch in one
/// command and goes on (parsing, routing what comes back) while libinput reads it, and a
/// hand-over between the PTY and libinput is a write and a read in this one process. (It
/// used to be the parent writing and waiting for a mark of how much libinput had read:
/// about 1,400 round trips between the two processes for a 20 s 8 kHz mouse, each a
/// wake-up that waited in the run queue on a loaded machine.) The events go back in 32 KiB
/// pieces, and whenever the worker is about to wait for a command.
///
/// The `seatkit` tool runs this as its hidden `replay-worker` command.
package enum ReplayWorker {
    /// Record tags on the worker's stdout besides `DeviceEvent`s.
    static let endTag: UInt8 = 0xFD
    static let errorTag: UInt8 = 0xFC

    /// Commands on the worker's stdin.
    static let beginCommand = UInt8(ascii: "b")
    static let removeCommand = UInt8(ascii: "r")
    static let endCommand = UInt8(ascii: "e")
    static let writeCommand = UInt8(ascii: "w")

    /// Bytes per write to an emulated node: 170 whole events.
    static let writeChunk = 170 * 24
    /// Bytes written that libinput has not read yet, at most: two writes, about half of what
    /// a raw PTY takes before a write comes back short (15,824 bytes on Linux 6).
    static let maximumOutstanding: UInt64 = 8 * 1024
    /// The most bytes one `w` command carries (whole events).
    static let maximumWrite = 2730 * 24

    /// The version of this command and record language. A worker and its caller from
    /// different builds of SeatKit (an explicit `SEATKIT_REPLAY_WORKER` left from an older
    /// build) must not talk past each other: every begin command names it first, and a worker
    /// that speaks another fails at once and says so. 2: the end mark's byte holds flags.
    /// 3: the worker writes the frames to the nodes itself (`w`), no read marks.
    static let protocolVersion = 3
    /// How a worker from before the protocol check answers the first begin command.
    static let staleWorkerAnswer = "expected NODE=PTY-INDEX, got --protocol"

    /// What one replay asks of the worker.
    struct Setup {
        /// The caller's ``protocolVersion`` (nil: a caller from before the check).
        var protocolVersion: Int? = ReplayWorker.protocolVersion
        var nodes: [String] = []
        var ptys: [Int] = []
        var configuration: DeviceConfiguration?
        var seat: String?
        var quirks: String?
        /// What a path context read when it started (DMI, recorded quirks); a context is used
        /// again only for a replay with the same key. nil: a fresh context.
        var contextKey: String?
        /// The testbed's root (the worker's `UMOCKDEV_DIR`).
        var umockdevDirectory: String?
        /// The DMI modalias in the testbed, which a new context reads when it starts: its
        /// system quirks leave out the sections for other machines (``SystemQuirks``).
        var dmi: String?
        /// Every system quirks section, even those for other machines (what libinput reads
        /// by itself): for the test that compares the two.
        var allSystemQuirks = false

        /// The `b` command's arguments.
        var arguments: [String] {
            var a: [String] = []
            if let protocolVersion { a += ["--protocol", String(protocolVersion)] }
            if let umockdevDirectory { a += ["--umockdev-dir", umockdevDirectory] }
            if let configuration { a += ["--config", configuration.commandLineForm] }
            if let seat { a += ["--seat", seat] }
            if let quirks { a += ["--quirks", quirks] }
            if let contextKey { a += ["--context", contextKey] }
            if let dmi { a += ["--dmi", dmi] }
            if allSystemQuirks { a.append("--all-system-quirks") }
            return a + zip(nodes, ptys).map { "\($0)=\($1)" }
        }

        init() {}

        init(arguments: [String]) throws(ReplayError) {
            protocolVersion = nil
            var i = 0
            while i < arguments.count {
                let a = arguments[i]
                if a == "--all-system-quirks" {
                    allSystemQuirks = true
                    i += 1
                    continue
                }
                if a == "--seat" || a == "--config" || a == "--quirks" || a == "--umockdev-dir" || a == "--context" || a == "--dmi" || a == "--protocol", i + 1 < arguments.count {
                    let value = arguments[i + 1]
                    switch a {
                    case "--protocol": protocolVersion = Int(value) ?? -1
                    case "--seat": seat = value
                    case "--dmi": dmi = value
                    case "--context": contextKey = value
                    case "--umockdev-dir": umockdevDirectory = value
                    case "--quirks": quirks = value
                    default:
                        do {
                            configuration = try DeviceConfiguration(commandLineForm: value)
                        } catch {
                            throw .environment("replay-worker: \(error)")
                        }
                    }
                    i += 2
                    continue
                }
                let parts = a.split(separator: "=")
                guard parts.count == 2, let pty = Int(parts[1]), pty >= 0, pty < PreloadShim.counterCount else {
                    throw .environment("replay-worker: expected NODE=PTY-INDEX, got \(a)")
                }
                nodes.append(String(parts[0]))
                ptys.append(pty)
                i += 1
            }
        }

        /// The `b` command for these arguments.
        var beginCommand: [UInt8] {
            var text: [UInt8] = []
            for (i, a) in arguments.enumerated() {
                if i > 0 { text.append(0) }
                text += Array(a.utf8)
            }
            var command = [ReplayWorker.beginCommand]
            command.appendLittleEndian(UInt32(text.count))
            return command + text
        }
    }

    /// Runs the worker (arguments are ignored; everything comes on stdin). Returns the exit
    /// status.
    package static func run(arguments: [String]) -> Int32 {
        guard let ackPath = getenv("SEATKIT_REPLAY_ACK") else { return fail("replay-worker: SEATKIT_REPLAY_ACK is not set") }
        let ackFd = open(ackPath, O_RDONLY | O_CLOEXEC)
        guard ackFd >= 0, let map = mmap(nil, PreloadShim.counterCount * 8, PROT_READ, MAP_SHARED, ackFd, 0), map != MAP_FAILED else {
            return fail("replay-worker: cannot map \(String(cString: ackPath))")
        }
        close(ackFd)
        let counters = map.bindMemory(to: UInt64.self, capacity: PreloadShim.counterCount)
        // libinput's clock (the shim reads it): set here, before each batch this worker writes.
        var clock: UnsafeMutablePointer<Int64>?
        if let clockPath = getenv("SEATKIT_REPLAY_CLOCK") {
            let clockFd = open(clockPath, O_RDWR | O_CLOEXEC)
            if clockFd >= 0, let page = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, clockFd, 0), page != MAP_FAILED {
                clock = page.bindMemory(to: Int64.self, capacity: 1)
            }
            if clockFd >= 0 { close(clockFd) }
        }

        nonisolated(unsafe) var quirksFailed = false
        LibinputBackend.setLogHandler(minimumPriority: 20) { priority, message in
            // (A byte search: `String.contains` was 6 % of a short replay's instructions.)
            if ReplayWorker.contains(message, "Failed to load the device quirks") { quirksFailed = true }
            // Virtual time runs ahead of the real clock on purpose.
            if ReplayWorker.contains(message, "offset more than") || ReplayWorker.contains(message, "timer") { return }
            // Info and up (see minimumPriority): why a device could not be opened or added is
            // logged at info. The parent shows this output only when the worker fails.
            writeStandardError("libinput: \(message)")
        }

        var input = CommandInput()
        var out: [UInt8] = []
        var one: [UInt8] = []
        func flush() -> Bool {
            var offset = 0
            while offset < out.count {
                let n = out.withUnsafeBytes { seatkit_replay_raw_write(1, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            out.removeAll(keepingCapacity: true)
            return true
        }

        /// Contexts of earlier replays with their devices removed, by the key they were made
        /// for; the most recently used last.
        var kept: [(backend: LibinputBackend, key: String)] = []
        /// libinput's system quirks files, read at the first replay with a DMI.
        var systemQuirks: [SystemQuirks.File]?
        while true {
            // Between replays: wait for the next one, or the end.
            guard input.fill(atLeast: 1) else { return 0 }
            guard input.bytes[input.offset] == beginCommand, input.fill(atLeast: 5) else {
                return fail("replay-worker: expected a replay to begin, got byte \(input.bytes[input.offset])")
            }
            let length = Int(ByteReader.u32(input.bytes, at: input.offset + 1))
            guard input.fill(atLeast: 5 + length) else { return fail("replay-worker: stdin ended inside a command") }
            let text = input.bytes[(input.offset + 5)..<(input.offset + 5 + length)]
            input.consume(5 + length)
            let setup: Setup
            do {
                setup = try Setup(arguments: text.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) })
            } catch {
                if case .environment(let message) = error { return fail(message) }
                return fail("replay-worker: \(error)")
            }
            guard setup.protocolVersion == protocolVersion else {
                let theirs = setup.protocolVersion.map { "protocol \($0)" } ?? "an older protocol"
                return fail("replay-worker: this worker speaks replay protocol \(protocolVersion) and its caller \(theirs): they come from different builds of SeatKit. Rebuild the worker (swift build --product seatkit), or unset SEATKIT_REPLAY_WORKER to use the program itself")
            }
            if let quirks = setup.quirks { setenv("SEATKIT_REPLAY_QUIRKS", quirks, 1) } else { unsetenv("SEATKIT_REPLAY_QUIRKS") }
            // umockdev's preload reads UMOCKDEV_DIR on every call: from here on, libinput
            // sees the testbed.
            if let root = setup.umockdevDirectory { setenv("UMOCKDEV_DIR", root, 1) }
            guard getenv("UMOCKDEV_DIR") != nil else { return fail("replay-worker: UMOCKDEV_DIR is not set; run under umockdev") }
            quirksFailed = false

            var backend: LibinputBackend?
            var reused = false
            var servedQuirks = false
            // A new context reads the system quirks when its first device is added: hand the
            // shim the files for this DMI until then.
            func serveSystemQuirks() {
                guard let dmi = setup.dmi, !setup.allSystemQuirks else { return }
                if systemQuirks == nil { systemQuirks = SystemQuirks.read() ?? [] }
                servedQuirks = SystemQuirks.serve(systemQuirks ?? [], dmi: dmi)
            }
            do {
                if let seat = setup.seat {
                    serveSystemQuirks()
                    backend = try LibinputBackend(seat: seat, opener: DirectDeviceOpener())
                } else if let key = setup.contextKey, let i = kept.firstIndex(where: { $0.key == key }) {
                    let context = kept.remove(at: i).backend
                    // The clock reads the replay's start: the new devices' announcements carry it.
                    context.startOver()
                    for node in setup.nodes { try context.addDevice(path: node) }
                    backend = context
                    reused = true
                } else {
                    serveSystemQuirks()
                    backend = try LibinputBackend(paths: setup.nodes, opener: DirectDeviceOpener())
                }
            } catch {
                return fail("replay-worker: \(error)")
            }
            SystemQuirks.stopServing()
            guard let live = backend else { return 1 }
            if let configuration = setup.configuration { live.configuration = { _ in configuration } } else { live.configuration = nil }
            var sawTablet = false
            if quirksFailed && setup.quirks != nil {
                return fail("replay-worker: libinput rejected the recorded quirks", status: quirksRejectedStatus)
            }

            // The nodes' PTY masters came with the begin command: the worker writes the
            // frames to them itself, so that a hand-over to libinput is a write and a read in
            // this process, not a round trip between two.
            guard input.fds.count >= setup.nodes.count else {
                return fail("replay-worker: the begin command came with \(input.fds.count) PTY masters for \(setup.nodes.count) nodes")
            }
            let masters = Array(input.fds.prefix(setup.nodes.count))
            input.fds.removeFirst(setup.nodes.count)
            defer { for fd in masters { close(fd) } }
            guard let clock else { return fail("replay-worker: SEATKIT_REPLAY_CLOCK is not set or cannot be mapped") }
            var written = [UInt64](repeating: 0, count: setup.nodes.count)
            var shortWrites: UInt32 = 0

            /// Hands libinput what it has to read and gathers its events; they go to the
            /// parent in pieces of 32 KiB or more, and whenever this worker is about to wait
            /// for a command.
            func dispatch() -> Bool {
                live.dispatchEvents { event in
                    if case .deviceAdded(let description) = event.kind,
                       !description.capabilities.isDisjoint(with: [.tabletTool, .tabletPad]) {
                        sawTablet = true
                    }
                    // encode(into:) copies the buffer it appends to: keep that one small.
                    one.removeAll(keepingCapacity: true)
                    event.encode(into: &one)
                    out += one
                }
                return out.count < 32 << 10 || flush()
            }

            /// Waits until libinput's fd has something (then dispatches), at most 30 s.
            func waitForLibinput(_ what: String) -> Bool {
                while true {
                    var p = pollfd(fd: live.fileDescriptor, events: Int16(POLLIN), revents: 0)
                    let r = poll(&p, 1, 30_000)
                    if r < 0 && errno == EINTR { continue }
                    guard r > 0 else {
                        _ = fail("replay-worker: libinput did not read \(what) for 30 s")
                        return false
                    }
                    return dispatch()
                }
            }

            /// Writes `bytes` (whole events) to device `d` and returns once libinput has read
            /// and processed them all. Whole events only, 170 at a time, and never more than
            /// 8 KiB that libinput has not read yet: a raw PTY takes about 15 KiB before a
            /// write comes back short, so every write fits whole and none splits an event.
            /// Should one come back short all the same, the rest of its event goes next,
            /// before libinput reads again (the shim makes a read that ends inside an event
            /// wait for the rest, which only this thread writes).
            func feed(_ bytes: UnsafeRawBufferPointer, device d: Int) -> Bool {
                let fd = masters[d], pty = setup.ptys[d]
                let target = written[d] + UInt64(bytes.count)
                var offset = 0
                while offset < bytes.count || counters[pty] < target {
                    let outstanding = written[d] + UInt64(offset) - counters[pty]
                    let splitEvent = offset % 24 != 0
                    let chunk = splitEvent ? 24 - offset % 24 : min(bytes.count - offset, ReplayWorker.writeChunk)
                    if offset < bytes.count, splitEvent || outstanding + UInt64(chunk) <= ReplayWorker.maximumOutstanding {
                        let n = seatkit_replay_raw_write(fd, bytes.baseAddress! + offset, chunk)
                        if n > 0 {
                            if n < chunk { shortWrites &+= 1 }
                            offset += n
                            continue
                        }
                        if n < 0 && errno != EAGAIN && errno != EINTR {
                            _ = fail("replay-worker: writing to \(setup.nodes[d]) failed: \(String(cString: strerror(errno)))")
                            return false
                        }
                        if splitEvent {
                            // The PTY is full in the middle of an event: wait for room alone.
                            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                            _ = poll(&p, 1, 1000)
                            continue
                        }
                    }
                    guard waitForLibinput(setup.nodes[d]) else { return false }
                }
                written[d] = target
                return true
            }

            guard dispatch(), flush() else { return 1 }
            replay: while true {
                // Every whole command in the input, then wait for more.
                while input.available > 0 {
                    let command = input.bytes[input.offset]
                    if command == writeCommand {
                        guard input.available >= 17 else { break }
                        let device = Int(ByteReader.u32(input.bytes, at: input.offset + 1))
                        let stamp = Int64(bitPattern: ByteReader.u64(input.bytes, at: input.offset + 5))
                        let length = Int(ByteReader.u32(input.bytes, at: input.offset + 13))
                        guard device < masters.count, length % 24 == 0, length <= maximumWrite else {
                            return fail("replay-worker: a bad write command (device \(device) of \(masters.count), \(length) bytes)")
                        }
                        guard input.available >= 17 + length else { break }
                        // libinput's clock reads the time of the batch's last event: never
                        // behind an event it reads, never ahead of what it has been given.
                        clock.pointee = stamp
                        let start = input.offset + 17
                        let fed = input.bytes.withUnsafeBytes { feed(UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)]), device: device) }
                        guard fed else { return 1 }
                        input.consume(17 + length)
                    } else if command == removeCommand {
                        guard input.available >= 13 else { break }
                        let number = ByteReader.u32(input.bytes, at: input.offset + 1)
                        clock.pointee = Int64(bitPattern: ByteReader.u64(input.bytes, at: input.offset + 5))
                        input.consume(13)
                        live.removeDevice(number: number)
                        guard dispatch() else { return 1 }
                    } else if command == endCommand {
                        input.consume(1)
                        guard dispatch() else { return 1 }
                        out.append(endTag)
                        out.append((reused ? 1 : 0) | (servedQuirks ? 2 : 0))
                        out.appendLittleEndian(shortWrites)
                        guard flush() else { return 1 }
                        break replay
                    } else {
                        return fail("replay-worker: unknown command byte \(command)")
                    }
                }
                guard flush() else { return 1 }
                var fds = [pollfd(fd: live.fileDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
                let r = poll(&fds, 2, -1)
                if r < 0 && errno == EINTR { continue }
                if fds[0].revents != 0 {
                    guard dispatch() else { return 1 }
                }
                guard fds[1].revents != 0 else { continue }
                guard input.readMore() else {
                    // The parent went away in the middle of a replay.
                    return 0
                }
            }
            // libinput closes the nodes (removing the devices from a context kept for a later
            // replay, or releasing it) while the parent parks or removes them.
            if let key = setup.contextKey, setup.seat == nil, !sawTablet, live.removeAllDevices() {
                kept.append((live, key))
                if kept.count > keptContexts { kept.removeFirst() }
            }
            backend = nil
        }
    }

    /// Bytes from stdin, read as they come, and the descriptors that came with them.
    struct CommandInput {
        var bytes: [UInt8] = []
        var offset = 0
        var available: Int { bytes.count - offset }
        /// Descriptors passed with the bytes (SCM_RIGHTS), oldest first.
        var fds: [Int32] = []
        private var buffer = [UInt8](repeating: 0, count: 64 << 10)
        private var received = [Int32](repeating: -1, count: 64)

        mutating func consume(_ n: Int) {
            offset += n
            if offset == bytes.count {
                bytes.removeAll(keepingCapacity: true)
                offset = 0
            } else if offset >= 64 << 10 {
                // Commands stream in without a pause: keep what is left, not all that came.
                bytes.removeFirst(offset)
                offset = 0
            }
        }

        /// Reads what stdin has (at least one byte, waiting for it); false at its end.
        mutating func readMore() -> Bool {
            while true {
                var count: Int32 = 0
                let n = buffer.withUnsafeMutableBytes { b in
                    received.withUnsafeMutableBufferPointer { seatkit_replay_receive(0, b.baseAddress, b.count, $0.baseAddress, Int32($0.count), &count) }
                }
                fds += received.prefix(Int(count))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                bytes += buffer[0..<n]
                return true
            }
        }

        /// Waits until `count` bytes are available; false if stdin ends first.
        mutating func fill(atLeast count: Int) -> Bool {
            while available < count {
                guard readMore() else { return false }
            }
            return true
        }
    }

    /// Contexts kept for later replays (a few hundred KB each, most of it libinput's quirks).
    static let keptContexts = 8

    /// Whether `text` contains `needle`, byte for byte.
    static func contains(_ text: String, _ needle: StaticString) -> Bool {
        var text = text
        let n = needle.utf8CodeUnitCount, p = needle.utf8Start
        return text.withUTF8 { t in
            guard n > 0 else { return true }
            guard t.count >= n, let base = t.baseAddress else { return false }
            for i in 0...(t.count - n) where t[i] == p[0] && memcmp(base + i, p, n) == 0 { return true }
            return false
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
    _ = bytes.withUnsafeBytes { seatkit_replay_raw_write(2, $0.baseAddress, $0.count) }
}
