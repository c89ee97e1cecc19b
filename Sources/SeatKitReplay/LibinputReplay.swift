import CReplayWorkerEntry
import SeatKit
import SeatKitLibinput
import SeatKitSystem
#if canImport(Glibc)
import Glibc
#endif

/// How to replay a recording through libinput.
public struct ReplayOptions {
    /// Settings for every device (libinput's defaults when nil). Tap-to-click is off by
    /// default in libinput; `libinput record --with-libinput` turned it on.
    public var configuration: DeviceConfiguration?
    /// A `seatkit` executable to run the worker with its hidden `replay-worker` command.
    /// By default `$SEATKIT_REPLAY_WORKER`, else the running program itself, started again
    /// as the worker: nothing to build or find, never out of date with this library. An
    /// explicit worker from another build of SeatKit fails the first replay at once with an
    /// error that says so (the two check the replay protocol's version).
    public var workerExecutable: String?
    /// Devices to unplug during the replay: (device index in the recording, recording time
    /// in µs). libinput removes the device before the first frame at or after that time.
    public var removals: [(device: Int, time: Int64)]
    /// Called after each batch of frames with (frames written, frames in all).
    public var progress: ((Int, Int) -> Void)?
    /// Apply the quirks each device had on the recording machine (its `quirks:` list), as
    /// `libinput replay` does. On by default.
    public var appliesRecordedQuirks = true
    /// How libinput finds the devices: by path (the default), or through udev on a seat, as
    /// a compositor does (then device numbers follow udev's enumeration order, and removals
    /// are not available).
    public var seat: String?
    /// At most this many consecutive frames of one device go to the worker as one batch,
    /// which it writes with libinput's clock at the batch's last frame. libinput fires due timers by each event's timestamp, so the events it
    /// reports are the same for any value; 1 writes frame by frame (slow).
    public var maximumBatchFrames = 4096
    /// Takes each event libinput reports as it comes, on the replaying thread, instead of
    /// the result's ``LibinputReplayResult/events`` (then empty): for recordings whose events
    /// would not fit in memory. Called only once every device was added, so a replay that is
    /// tried again (see ``LibinputReplay/run()``) never gives an event twice; the device
    /// announcements come first, as in `events`.
    public var eventSink: ((DeviceEvent) -> Void)?

    public init(configuration: DeviceConfiguration? = nil, workerExecutable: String? = nil,
                removals: [(device: Int, time: Int64)] = [], progress: ((Int, Int) -> Void)? = nil) {
        self.configuration = configuration
        self.workerExecutable = workerExecutable
        self.removals = removals
        self.progress = progress
    }
}

/// What libinput made of a recording.
public struct LibinputReplayResult {
    /// libinput's events in order, with times on the recording's timeline (µs). Device
    /// numbers are libinput's order of adding them: device `i` of the recording is `i + 1`.
    public var events: [DeviceEvent]
    public var framesWritten: Int
    public var evdevEventsWritten: Int
    /// Wall-clock seconds the replay took: from its start (for ``LibinputReplay/run()``,
    /// starting the worker and testbed too) to libinput's last event.
    public var seconds: Double
    /// What did not go as recorded (quirks this libinput could not read).
    public var warnings: [String] = []
    /// Writes to an emulated node that the kernel took only in part (then the rest of the
    /// event followed at once). The replay keeps little enough unread that this stays 0.
    public var shortWrites = 0
}

/// Replays a recording through real libinput, with no root and no uinput.
///
/// ```
///  parent (this process)                        child: this program again, in worker mode
///  umockdev testbed: /sys, /dev/input/event1xx  LD_PRELOAD=shim:libumockdev-preload.so.0
///  evdev ioctl answers (a file per node) ─────► the shim answers libevdev's ioctls
///  PTY masters (passed with the begin) ───────► the worker writes each batch to its node
///  batch + its virtual time (stdin socket) ───► clock page ─► libinput's CLOCK_MONOTONIC
///                                               PTY ─► libinput path context ─► DeviceEvent
///        ◄────────────────────────────────────── stdout pipe (binary) ◄──┘
/// ```
///
/// Consecutive frames of one device go out as one batch, stamped with virtual time (a
/// constant start plus the recording's offsets). The worker writes a batch to the node
/// and lets libinput read and process it before it takes the next; the parent sends
/// batches as fast as the worker's socket takes them and reads libinput's events as they
/// come, so neither process waits on the other per write. libinput's clock reads the replay's virtual time
/// and its timerfd never fires on its own, so its timers (tap, debounce, hold) fire by the
/// events' timestamps exactly as on the recording machine, without waiting for them, and
/// the result never depends on the wall clock, the machine's speed or its load. Each replay
/// has its own testbed and temporary directory, so replays may run in parallel. To pay the
/// worker's and testbed's start-up once for many replays, use a ``ReplaySession``.
public final class LibinputReplay {
    public let recording: Recording
    public var options: ReplayOptions

    public init(recording: Recording, options: ReplayOptions = ReplayOptions()) {
        self.recording = recording
        self.options = options
    }

    /// Runs the replay. Two failures are tried once more on a fresh testbed, each leaving a
    /// line in ``LibinputReplayResult/warnings``: libinput cannot read the recorded quirks
    /// (written by a newer libinput: replayed without them), and the worker stops before
    /// libinput has added every device (no frame was written yet, so nothing is lost; the
    /// first try's error, with libinput's log, is in the warning). A second failure throws.
    public func run() throws(ReplayError) -> LibinputReplayResult {
        // A session used once: a fresh worker and testbed, ended when the replay is done.
        let session = ReplaySession(workerExecutable: options.workerExecutable)
        defer { session.close() }
        return try session.replay(recording, options: options)
    }

    /// Runs `attempt`, trying once more after each of the failures ``run()`` describes.
    static func withRetries(recording: Recording, options: ReplayOptions,
                            _ attempt: (ReplayOptions, inout Bool) throws(ReplayError) -> LibinputReplayResult) throws(ReplayError) -> LibinputReplayResult {
        var options = options
        var warnings: [String] = []
        var retriedAdding = false
        while true {
            var devicesAdded = false
            do {
                var result = try attempt(options, &devicesAdded)
                result.warnings = warnings + result.warnings
                return result
            } catch .recordedQuirksRejected where options.appliesRecordedQuirks {
                options.appliesRecordedQuirks = false
                warnings.append("libinput \(recording.libinputVersion.map { "(recorded with \($0))" } ?? "") could not read the recorded quirks; replayed without them")
            } catch .libinput(let message) where !devicesAdded {
                guard !retriedAdding else {
                    let parts = message.split(separator: "\n", maxSplits: 1)
                    throw .libinput("\(recording.namingEmulatedNodes(in: String(parts[0]))) [the same on a second try, on a fresh testbed]" + (parts.count > 1 ? "\n" + parts[1] : ""))
                }
                retriedAdding = true
                warnings.append("libinput did not add every device on the first try; replayed on a fresh testbed (first try: \(message))")
            }
        }
    }

    /// Where virtual time starts: the first frame's stamp and libinput's clock while it adds
    /// the devices. A constant, so that nothing depends on when the replay runs.
    static let virtualBase: Int64 = 1_000_000_000

    /// A libinput quirks file giving each device the quirks recorded with it, matched by
    /// name, vendor and product.
    static func quirksFile(for recording: Recording) -> String {
        var text = ""
        for device in recording.devices where !device.quirks.isEmpty {
            // Quirks section names and MatchName values cannot hold a newline or brackets.
            let name = String(device.name.filter { $0 != "\n" && $0 != "[" && $0 != "]" })
            text += "[seatkit replay \(name)]\n"
            text += "MatchName=\(name)\n"
            text += "MatchVendor=0x\(hex4(device.identity.vendor))\n"
            text += "MatchProduct=0x\(hex4(device.identity.product))\n"
            for quirk in device.quirks where quirk.contains("=") && !quirk.contains("\n") { text += quirk + "\n" }
            text += "\n"
        }
        return text
    }

    private static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - s.count) + s
    }

    /// `/dev/pts/N` → N, for the node the testbed made.
    static func ptyIndex(_ path: String) -> Int? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard target.hasPrefix("/dev/pts/"), let index = Int(target.dropFirst(9)), index < PreloadShim.counterCount else { return nil }
        return index
    }
}

func monotonicMicroseconds() -> Int64 { MonotonicClock.microseconds() }

func writeAll(_ fd: Int32, _ bytes: [UInt8], what: String) throws(ReplayError) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            throw .environment("writing to \(what) failed: \(String(cString: strerror(errno)))")
        }
        offset += n
    }
}

/// Where a replay's scratch files and umockdev's testbed go: `$TMPDIR` when set, else
/// `/dev/shm` (memory) when it is a writable directory, else `/tmp`. A testbed is a few
/// hundred small files made and removed per replay; on a disk that other processes keep
/// busy, that took 5-8 ms of a 20 ms replay (device entries 1.4 ms instead of 0.3, the
/// testbed's removal 1.1 ms instead of 0.25).
let replayTemporaryRoot: String = {
    if let t = getenv("TMPDIR"), t.pointee != 0 { return String(cString: t) }
    var st = stat()
    if stat("/dev/shm", &st) == 0, st.st_mode & S_IFMT == S_IFDIR, access("/dev/shm", W_OK | X_OK) == 0 { return "/dev/shm" }
    return "/tmp"
}()

/// A directory under ``replayTemporaryRoot`` removed with everything in it when released.
final class TemporaryDirectory {
    let path: String
    init() throws(ReplayError) {
        var template = Array((replayTemporaryRoot + "/seatkit-replay-XXXXXX").utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .environment("cannot create a temporary directory in \(replayTemporaryRoot)")
        }
        path = String(cString: p)
    }
    deinit {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = DirectoryEntry.name(entry)
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

/// The worker process and its pipes.
final class ChildProcess {
    let pid: pid_t
    let executable: String
    private(set) var stdinFd: Int32
    let stdoutFd: Int32
    let stderrPath: String
    private var exitStatus: Int32?

    /// `environment` is added to this process's (and wins); variables named in `unset` are left out.
    init(executable: String, arguments: [String], environment: [String: String], unset: Set<String> = [], stderrPath: String) throws(ReplayError) {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        let piped = processEnvironmentLock.withLock { _ -> Bool in
            // Commands go over a socket rather than a pipe, so that writing to a worker that
            // has died fails with EPIPE instead of raising SIGPIPE in this process (a
            // session's worker lives across replays).
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &toChild) == 0, pipe(&fromChild) == 0 else { return false }
            // Close-on-exec, so that replays running in parallel do not leak pipes into each
            // other's workers (a leaked write end would keep a pipe open forever).
            for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard piped else {
            throw .environment("pipe failed: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status: Int32 = processEnvironmentLock.withLock { _ in
            var env: [UnsafeMutablePointer<CChar>?] = []
            var index = 0
            while let entry = environ[index] {
                let text = String(cString: entry)
                let key = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if environment[key] == nil && !unset.contains(key) { env.append(strdup(entry)) }
                index += 1
            }
            for (k, v) in environment { env.append(strdup("\(k)=\(v)")) }
            env.append(nil)
            defer { env.forEach { free($0) } }
            return posix_spawn(&pid, executable, &actions, nil, argv, env)
        }
        posix_spawn_file_actions_destroy(&actions)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw .environment("cannot start the replay worker \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        self.executable = executable
        self.stdinFd = toChild[1]
        self.stdoutFd = fromChild[0]
        self.stderrPath = stderrPath
    }

    /// Stops the worker without waiting for it to finish.
    func kill() {
        if exitStatus == nil {
            _ = Glibc.kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// Whether the worker has ended (collecting its status if so), without waiting.
    var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r < 0 && errno == ECHILD {
            // Collected by someone else: gone all the same.
            exitStatus = 128 + SIGKILL
            return true
        }
        guard r == pid else { return false }
        exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return true
    }

    /// Writes a command to the worker's stdin with `fds` passed along (SCM_RIGHTS, with its
    /// first byte); an error (not SIGPIPE) if the worker is gone. Waits while the socket is
    /// full: only for a command the worker reads before it writes anything.
    func send(_ bytes: [UInt8], passing fds: [Int32]) throws(ReplayError) {
        var offset = 0
        var pass = fds
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { b in
                pass.withUnsafeBufferPointer { seatkit_replay_send_with_fds(stdinFd, b.baseAddress! + offset, b.count - offset, $0.baseAddress, Int32($0.count)) }
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var p = pollfd(fd: stdinFd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 1000)
                    continue
                }
                throw failure("the replay worker is gone (writing to it failed: \(String(cString: strerror(errno))))")
            }
            offset += n
            pass = []
        }
    }

    /// Writes a command to the worker's stdin; an error (not SIGPIPE) if the worker is gone.
    func send(_ bytes: [UInt8]) throws(ReplayError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(stdinFd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw failure("the replay worker is gone (writing to it failed: \(String(cString: strerror(errno))))")
            }
            offset += n
        }
    }

    func closeStdin() {
        if stdinFd >= 0 {
            close(stdinFd)
            stdinFd = -1
        }
    }

    func wait() -> Int32 {
        if let s = exitStatus { return s }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let result = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = result
        return result
    }

    /// The error for a worker that ended: `what` and its reason, or, for a worker from an
    /// older build of SeatKit (it rejected the protocol argument), what to do about it.
    func failure(_ what: String) -> ReplayError {
        let output = errorOutput()
        if output.contains(ReplayWorker.staleWorkerAnswer) {
            return .environment("the replay worker \(executable) comes from an older build of SeatKit than this library (it does not know the replay protocol): rebuild it (swift build --product seatkit), or unset SEATKIT_REPLAY_WORKER to use the program itself")
        }
        return .libinput("\(what): \(output)")
    }

    /// The worker's reason on the first line (its last `replay-worker:` line, or a crash's),
    /// then libinput's log after a line of its own: ``ReplayError/summary`` shows the first.
    func errorOutput() -> String {
        let text = RecordingParser.readFile(stderrPath) ?? ""
        guard !text.isEmpty else { return "(no message)" }
        let lines = text.split(separator: "\n")
        let reason = lines.last { $0.hasPrefix("replay-worker: ") }.map { String($0.dropFirst(15)) }
            ?? lines.first { $0.contains("overflow") || $0.contains("Program crashed") }.map(String.init)
            ?? lines.last.map(String.init) ?? ""
        return reason + "\n" + ReplayError.logSeparator + "\n" + String(text.suffix(4000))
    }

    deinit {
        closeStdin()
        close(stdoutFd)
        kill()
    }
}

/// Reads and decodes what the worker writes.
struct WorkerStream {
    let child: ChildProcess
    var buffer: [UInt8] = []
    var chunk: [UInt8] = []
    var offset = 0
    var events: [DeviceEvent] = []
    /// Where decoded events go instead of ``events``, when set.
    var deliver: ((DeviceEvent) -> Void)?
    var added: Set<UInt32> = []
    var removed: Set<UInt32> = []
    var ended = false
    /// The worker used the last replay's libinput context again (told with the end mark).
    var reusedContext = false
    /// The worker's new context started with the system quirks for the replay's DMI
    /// (``SystemQuirks``; told with the end mark).
    var servedFilteredQuirks = false
    /// Writes to the nodes that the kernel took only in part (told with the end mark).
    var shortWrites = 0

    init(child: ChildProcess, deviceCount: Int) {
        self.child = child
    }

    /// Reads until `condition` holds.
    mutating func readUntil(_ condition: (WorkerStream) -> Bool) throws(ReplayError) {
        while !condition(self) { try pump(waitingToWrite: nil) }
    }

    /// Writes `bytes` (those in `range`) to the worker's stdin, reading what the worker reports whenever the
    /// socket is full (the worker may be waiting for room on its stdout).
    mutating func send(_ bytes: [UInt8], _ range: Range<Int>? = nil) throws(ReplayError) {
        let range = range ?? 0..<bytes.count
        var offset = range.lowerBound
        while offset < range.upperBound {
            let n = bytes.withUnsafeBytes { Glibc.send(child.stdinFd, $0.baseAddress! + offset, range.upperBound - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n >= 0 {
                offset += n
                continue
            }
            if errno == EINTR { continue }
            guard errno == EAGAIN else {
                throw child.failure("the replay worker is gone (writing to it failed: \(String(cString: strerror(errno))))")
            }
            try pump(waitingToWrite: child.stdinFd)
        }
    }

    /// Waits until the worker has written something (then reads and decodes it) or, when
    /// `fd` is given, until `fd` can take more bytes. The worker answers within
    /// milliseconds; a worker silent for 30 s is stuck, and the replay fails rather than hang.
    mutating func pump(waitingToWrite fd: Int32?) throws(ReplayError) {
        if ended { throw .libinput("the worker ended before libinput had read every frame") }
        var fds = [pollfd(fd: child.stdoutFd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: fd ?? -1, events: Int16(POLLOUT), revents: 0)]
        let ready = poll(&fds, 2, 30_000)
        if ready < 0 && errno == EINTR { return }
        guard ready > 0 else {
            throw .libinput("libinput did not answer for 30 s (added \(added.count) devices so far): \(child.errorOutput())")
        }
        guard fds[0].revents != 0 else { return }
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 65536) }
        let n = chunk.withUnsafeMutableBytes { read(child.stdoutFd, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return }
        if n <= 0 {
            let status = child.wait()
            if status == ReplayWorker.quirksRejectedStatus { throw .recordedQuirksRejected }
            throw child.failure("the replay worker stopped (status \(status)) before it was done")
        }
        buffer += chunk[0..<n]
        try decodeAvailable()
    }

    private mutating func decodeAvailable() throws(ReplayError) {
        while offset < buffer.count {
            let tag = buffer[offset]
            if tag == ReplayWorker.endTag {
                guard offset + 6 <= buffer.count else { break }
                ended = true
                reusedContext = buffer[offset + 1] & 1 != 0
                servedFilteredQuirks = buffer[offset + 1] & 2 != 0
                shortWrites = Int(ByteReader.u32(buffer, at: offset + 2))
                offset += 6
                continue
            }
            var position = offset
            let decoded: DeviceEvent?
            do {
                decoded = try DeviceEvent.decode(buffer, at: &position)
            } catch {
                throw .libinput("corrupt event stream from the worker: \(error)")
            }
            guard let event = decoded else { break }
            offset = position
            switch event.kind {
            case .deviceAdded: added.insert(event.device)
            case .deviceRemoved: removed.insert(event.device)
            default: break
            }
            if let deliver { deliver(event) } else { events.append(event) }
        }
        if offset > 65536 {
            buffer.removeFirst(offset)
            offset = 0
        }
    }
}

extension Recording {
    /// `text` with each emulated node (`/dev/input/event100` is the first device, as
    /// ``EmulatedInputDevices`` numbers them) followed by the device it stands for: its name,
    /// the recording and the line of its `- node:`, so a refusal points into the file.
    func namingEmulatedNodes(in text: String) -> String {
        var result = text
        for (index, device) in devices.enumerated().reversed() {
            let node = "/dev/input/event\(100 + index)"
            guard result.contains(node) else { continue }
            let place = device.line > 0 ? "\(source):\(device.line)" : source
            result = result.replacing(node, with: "\(node) (\(place): device \(index), \"\(device.name)\")")
        }
        return result
    }
}
