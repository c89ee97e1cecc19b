import ArgumentParser
@_spi(SeatKitInternals) import SeatKit
import SeatKitLibinput
import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// `seatkit replay`: a recording through real libinput (under umockdev) into a router, and
/// the routing trace.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a `libinput record` file through real libinput and print where every event went."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "A recording made with `libinput record`.") var recording: String
    @Option(help: "Outputs and surfaces to route onto (see examples/kiosk.layout).") var layout: String?
    @Option(help: "text: the trace, one line per decision; json: a header, one record per input event with its fields and routing, and a summary (docs/replay-trace-schema.md).") var format: Format = .text
    @Option(help: "Device settings, e.g. \"tap=1 natural=1 calibration=1,0,0,0,1,0\".") var config: String?
    @Flag(help: "Use the libinput events stored in a --with-libinput recording instead of running libinput.")
    var recordedEvents = false
    @Flag(help: "On a libinput failure, print libinput's log too.") var verbose = false

    func run() throws {
        var routedAny = false
        // Held in an optional so that the JSON trace can let the recording's frames go once
        // libinput has them.
        var held: Recording? = try parseRecording(recording)
        let duration = held!.duration
        for warning in held!.warnings { writeStandardError("warning: \(warning)\n") }
        let surfaceLayout = try layout.map { path throws in try SurfaceLayout.parse(contentsOf: path) }
        warnAboutTouchMappings(surfaceLayout, held!)
        let harness = ReplayHarness(layout: surfaceLayout)
        var options = ReplayOptions()
        if let config { options.configuration = try DeviceConfiguration(commandLineForm: config) }
        switch format {
        case .text:
            // One line per decision, gathered into 64 KiB writes (print would lock and copy
            // per line).
            let out = OutputBuffer()
            let (libinput, routed) = try routeAsItHappens(harness, held!, options: options) { records, _ in
                for record in records { try out.line(record) }
            }
            if let l = libinput {
                try out.line("# \(l.framesWritten) frames, \(l.evdevEventsWritten) evdev events, \(routed) libinput events in \(formatSeconds(l.seconds)) s; recording lasts \(formatSeconds(duration.seconds)) s")
            }
            try out.flush()
            routedAny = routed > 0
        case .json:
            if !recordedEvents, let spool = OutputSpool.make() {
                // Routed while libinput runs, as the text trace is: this process routes and
                // writes while the worker runs libinput (two cores at work, where the replay
                // used to run first and the routing after it). The header carries libinput's
                // totals, known only at the replay's end, so the events and the summary go to
                // an unlinked temporary file first and follow the header when the replay is done.
                let body = JSONBody(ReplayTraceJSON.Writer(bodyOnly: { spool.write($0) }), surfaces: harness.surfaces)
                let (libinput, routed) = try routeAsItHappens(harness, held!, options: options) { records, pointer in
                    body.add(records: records, pointer: pointer)
                }
                held = nil
                guard body.finish() else { throw CommandFailure(spool.failure ?? "cannot write the output") }
                let header = ReplayTraceJSON.Writer.header(
                    libinput: libinput.map { ($0.framesWritten, $0.evdevEventsWritten, routed) },
                    recording: recording, recordingDuration: duration.microseconds)
                guard header.withUnsafeBytes({ writeStandardOutput($0) }), spool.copy(to: 1) else {
                    throw CommandFailure("cannot write the output: \(String(cString: strerror(errno)))")
                }
                routedAny = routed > 0
                break
            }
            // Stored libinput events (no replay to overlap), or no temporary file to be had:
            // the replay runs first and its events are kept (about 1.5 times the recording's
            // size); the routing is then written out as it happens.
            var events: [DeviceEvent] = []
            var result: LibinputReplayResult?
            if recordedEvents {
                events = try RecordedLibinputEvents.events(of: held!)
            } else {
                var options = options
                let bar = ProgressBar()
                options.progress = { done, total in bar.update(done, of: total) }
                result = try libinputOrExit(harness, held!, options: options, verbose: verbose)
                bar.finish()
                for warning in result!.warnings { writeStandardError("warning: \(warning)\n") }
            }
            held = nil
            // The header takes libinput's totals; then the events are moved out to be routed.
            var writer = ReplayTraceJSON.Writer(libinput: result, recording: recording, recordingDuration: duration.microseconds,
                                                sink: { writeStandardOutput($0) })
            if result != nil { swap(&events, &result!.events) }
            result = nil
            var stream = RoutedEventStream(surfaces: harness.surfaces)
            var written = true
            harness.route(events) { records, pointer in
                stream.add(records: records, pointer: pointer) { e in if written { written = writer.add(e) } }
            }
            stream.finish { e in if written { written = writer.add(e) } }
            written = written && writer.finish()
            guard written else { throw CommandFailure("cannot write the output: \(String(cString: strerror(errno)))") }
            routedAny = !events.isEmpty
        }
        try finishStandardOutput()
        if surfaceLayout == nil && routedAny {
            writeStandardError("note: no --layout, so there were no surfaces and every event went to the compositor delegate; give one (e.g. examples/kiosk.layout) to see hit-testing and responders\n")
        }
    }
}

/// Replays `recording` (or, with `--recorded-events`, takes its stored libinput events) and
/// routes each event as it comes, handing `body` its trace records and pointer step (see
/// ``ReplayHarness/route(_:streaming:)``); nothing is kept. Returns libinput's result (nil
/// for stored events) and how many events were routed.
extension ReplayCommand {
    func routeAsItHappens(_ harness: ReplayHarness, _ parsed: Recording, options: ReplayOptions,
                          _ body: @escaping ([TraceRecord], (location: LayoutPoint, focus: String?)?) throws -> Void) throws -> (LibinputReplayResult?, Int) {
        if recordedEvents {
            let events = try RecordedLibinputEvents.events(of: parsed)
            return (nil, try harness.route(events, streaming: body))
        }
        var options = options
        var routed = 0
        let bar = ProgressBar()
        options.progress = { done, total in bar.update(done, of: total) }
        defer { bar.finish() }
        let result = try libinputOrExit(harness, parsed, options: options, verbose: verbose) { records, pointer in
            routed += 1
            try body(records, pointer)
        }
        for warning in result.warnings { writeStandardError("warning: \(warning)\n") }
        return (result, routed)
    }
}

/// Replays and routes, or prints why not on one line (libinput's log too with `verbose`) and
/// exits 1.
func replayOrExit(_ harness: ReplayHarness, _ recording: Recording, options: ReplayOptions, verbose: Bool) throws -> ReplayRun {
    let result = try libinputOrExit(harness, recording, options: options, verbose: verbose)
    return harness.route(result.events, libinputResult: result)
}

/// What libinput reports for `recording`, or why not on one line (libinput's log too with
/// `verbose`) and exit status 1. With `streaming`, each event is routed as it comes
/// (``ReplayHarness/replay(_:options:streaming:)``) and the result holds no events.
func libinputOrExit(_ harness: ReplayHarness, _ recording: Recording, options: ReplayOptions, verbose: Bool,
                    streaming body: (([TraceRecord], (location: LayoutPoint, focus: String?)?) throws -> Void)? = nil) throws -> LibinputReplayResult {
    do {
        if let body { return try harness.replay(recording, options: options, streaming: body) }
        return try harness.libinputEvents(of: recording, options: options)
    } catch let error as ReplayError {
        ProgressBar.clearLine()
        writeStandardError("error: " + (verbose ? error.description : error.summary + (error.description.contains("\n") ? " (--verbose: libinput's log)" : "")) + "\n")
        throw ExitCode(1)
    }
}

/// Warns (on stderr, with the layout's file and line) about `touch` lines of the layout that
/// match none of the recording's devices.
func warnAboutTouchMappings(_ layout: SurfaceLayout?, _ recording: Recording) {
    for warning in layout?.touchMappingsMatchingNothing(deviceNames: recording.devices.map(\.name)) ?? [] {
        writeStandardError("warning: \(warning)\n")
    }
}

/// Parses a recording; a file of 4 MB or more shows its progress on stderr.
func parseRecording(_ path: String) throws -> Recording {
    let bar = ProgressBar(unit: "MB parsed", minimumTotal: 4 << 20, scale: 1 << 20)
    defer { bar.finish() }
    return try RecordingParser.parse(contentsOf: path, progress: { bar.update($0, of: $1) })
}

/// A progress bar on stderr, drawn only when stderr is a terminal (or SEATKIT_PROGRESS=1).
final class ProgressBar {
    private let enabled = isatty(2) == 1 || getenv("SEATKIT_PROGRESS").map { String(cString: $0) == "1" } == true
    private var lastPercent = -1
    private var drawn = false
    let unit: String
    let minimumTotal: Int
    let scale: Int

    init(unit: String = "frames", minimumTotal: Int = 200, scale: Int = 1) {
        self.unit = unit
        self.minimumTotal = minimumTotal
        self.scale = scale
    }

    func update(_ done: Int, of total: Int) {
        guard enabled, total >= minimumTotal, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 40
        let filled = percent * width / 100
        writeStandardError("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)% \(done / scale)/\(total / scale) \(unit)")
        drawn = true
    }

    func finish() {
        if drawn { writeStandardError("\r\u{1B}[K") }
    }

    static func clearLine() {
        if isatty(2) == 1 { writeStandardError("\r\u{1B}[K") }
    }
}

/// The JSON trace's events and summary as the replay routes them (a class: the routing
/// closure escapes, and the writer is not copyable).
final class JSONBody {
    private var writer: ReplayTraceJSON.Writer
    private var stream: RoutedEventStream
    private var written = true

    init(_ writer: consuming ReplayTraceJSON.Writer, surfaces: [String: Surface]) {
        self.writer = writer
        stream = RoutedEventStream(surfaces: surfaces)
    }

    func add(records: [TraceRecord], pointer: (location: LayoutPoint, focus: String?)?) {
        stream.add(records: records, pointer: pointer) { e in if written { written = writer.add(e) } }
    }

    /// The last events and the summary; false if a piece could not be written.
    func finish() -> Bool {
        stream.finish { e in if written { written = writer.add(e) } }
        written = written && writer.finish()
        return written
    }
}

/// An unlinked temporary file (in `$TMPDIR`, else /tmp; never in memory: a long replay's
/// JSON trace is several times the recording's size) that takes bytes now and copies them to
/// another file descriptor later. Nothing is left behind, even if the process is killed.
final class OutputSpool {
    private let fd: Int32
    private let directory: String
    /// Why a write failed, once one did.
    private(set) var failure: String?

    /// A spool in `$TMPDIR` (else /tmp), or nil when none can be made there (the JSON
    /// replay then runs in two phases, as before, and needs no file).
    static func make() -> OutputSpool? { try? OutputSpool() }

    private init() throws {
        let tmp = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        directory = tmp
        var fd = open(tmp, 0o20_000_000 | O_DIRECTORY | O_RDWR | O_EXCL | O_CLOEXEC, 0o600)  // O_TMPFILE
        if fd < 0 {
            // A file system without O_TMPFILE: a named file, unlinked at once.
            var template = Array((tmp + "/seatkit-trace-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        guard fd >= 0 else {
            throw CommandFailure("cannot create a temporary file for the JSON trace in \(tmp) (TMPDIR): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends `bytes`; false (and ``failure`` set) if the file refused them (a full disk).
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failure = "cannot write the JSON trace's temporary file in \(directory) (TMPDIR): \(String(cString: n < 0 ? strerror(errno) : strerror(ENOSPC)))"
                return false
            }
            done += n
        }
        return true
    }

    /// Copies everything written to `out` (the kernel copies it where it can); false if
    /// `out` refused a piece.
    func copy(to out: Int32) -> Bool {
        let size = lseek(fd, 0, SEEK_END)
        guard size >= 0 else { return false }
        var offset: off_t = 0
        while offset < size {
            let n = sendfile(out, fd, &offset, Int(min(size - offset, 1 << 30)))
            if n > 0 { continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EINVAL || errno == ENOSYS) { return copyByReading(to: out, from: offset, size: size) }
            return false
        }
        return true
    }

    private func copyByReading(to out: Int32, from start: off_t, size: off_t) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = start
        while offset < size {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            guard buffer.withUnsafeBytes({ writeStandardOutputFd(out, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) else { return false }
            offset += off_t(n)
        }
        return true
    }
}

/// Lines for standard output, written in 64 KiB pieces; a piece the output refuses is a
/// ``CommandFailure``.
final class OutputBuffer {
    private var text = TraceText(capacity: 64 << 10 + 4096)

    func line(_ line: String) throws {
        text.append(line)
        try endLine()
    }

    /// The record's line, as its description gives it, written in place.
    func line(_ record: TraceRecord) throws {
        text.append(record, indented: true)
        try endLine()
    }

    private func endLine() throws {
        text.append(byte: UInt8(ascii: "\n"))
        if text.count >= 64 << 10 { try flush() }
    }

    func flush() throws {
        defer { text.removeAll() }
        guard text.withBytes({ writeStandardOutput($0) }) else {
            throw CommandFailure("cannot write the output: \(String(cString: strerror(errno)))")
        }
    }
}

/// Writes all of `bytes` to standard output (fd 1, below stdio's buffer: call it only where
/// nothing else prints); false if the output refused them.
func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) -> Bool { writeStandardOutputFd(1, bytes) }

/// Writes all of `bytes` to `fd`; false if it refused them.
func writeStandardOutputFd(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var done = 0
    while done < bytes.count {
        let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        done += n
    }
    return true
}

func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func formatSeconds(_ s: Double) -> String {
    let scaled = (s * 1000).rounded() / 1000
    return "\(scaled)"
}

