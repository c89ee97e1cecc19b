// Compositor CPU per input frame, device to client socket: cage 0.1.4 (wlroots 0.15) and
// SeatKit's kiosk read the same `libinput record` recordings from devices emulated under
// umockdev, with wev as the client, in one run. See docs/BENCHMARKS.md ("End to end") and
// Benchmarks/compositor-cpu.sh, which builds and runs this.
//
// For each recording and each compositor, in turn:
//   1. the recording's devices are emulated (SeatKitReplay's EmulatedInputDevices);
//   2. the compositor starts with them (cage: as an unprivileged user, since it refuses
//      root, with the libseat shim preloaded; the kiosk: `kiosk --libinput`), wev maps;
//   3. the recording is written to the devices, looped, at `speed` times its pace, each
//      frame stamped with its due time on that compressed timeline (the same stamps on both
//      sides), never more than a PTY's worth ahead of what the compositor read; the loops
//      are played in segments of about a second, each followed by an idle window as long;
//   4. compositor CPU (the process's CPU-time clock) over the segments, minus the idle rate
//      of the windows between them times the segments' wall time, is divided by the input
//      frames written and by the events wev printed.
import Foundation
import SeatKitReplay

setvbuf(stdout, nil, _IOLBF, 0)

struct Workload {
    var name: String
    var path: String
    var loops: Int
}

struct Options {
    var workloads: [Workload] = []
    var kiosk = ""
    var wlrootsKiosk = ""   // examples/wlroots-kiosk, built: a third side when given
    var libseatShim = ""
    var user = "seatbench"
    var speed = 10.0
    var segmentSeconds = 1.0  // playback between idle windows, wall seconds
    var runs = 5
    var compositors = ["cage", "kiosk"]
    var keep = false
    var callgrind = false
    var callgrindOut = "callgrind"  // a directory: each side's dumps, and the per-function reports
    var callgrindLibraries: String? // LD_LIBRARY_PATH for the wlroots kiosk under valgrind (its .so without DWARF)
    var warmFrom = 2                // under callgrind, the "once warm" figures count segments from this one on
    var perfStat: String?   // a directory: `perf stat` of each side's playback and idle windows goes there
    var perfRecord = false  // `perf record` (cpu-clock samples, user and kernel) instead
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(("compositor-cpu: " + message + "\n").data(using: .utf8)!)
    exit(1)
}

func parseOptions() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    func value() -> String {
        guard args.count >= 2 else { fail("\(args[0]) needs a value") }
        let v = args[1]
        args.removeFirst()
        return v
    }
    while let a = args.first {
        switch a {
        case "--kiosk": o.kiosk = value()
        case "--wlroots-kiosk": o.wlrootsKiosk = value()
        case "--libseat-shim": o.libseatShim = value()
        case "--user": o.user = value()
        case "--speed": o.speed = Double(value()) ?? 10
        case "--segment": o.segmentSeconds = Double(value()) ?? 1
        case "--runs": o.runs = Int(value()) ?? 3
        case "--only": o.compositors = value().split(separator: ",").map(String.init)
        case "--keep": o.keep = true
        case "--callgrind":
            // Every side under callgrind, instrumented from the first segment on, its counts
            // dumped at the end of every playback segment and idle window: instructions per
            // input frame with the idle windows' instructions subtracted, by object file.
            // DIR keeps the dumps and a per-function report per side. Counts, not timings.
            o.callgrind = true
            o.callgrindOut = value()
        case "--callgrind-libraries":
            o.callgrindLibraries = value()
        case "--warm-from":
            // Under callgrind, the "once warm" table counts only the dumps of segments from
            // this one on (play-K, idle-K, ...): every loop of a recording is the same input,
            // so one-time costs (first-use type metadata, lazily made tables, a keymap's first
            // lookups, cage's own first-use work) fall in the first segment and its idle window.
            o.warmFrom = max(1, Int(value()) ?? 2)
        case "--perf-stat":
            // perf stat attached to the compositor, counting during the playback segments and
            // during the idle windows apart (context switches, syscalls, task clock):
            // DIR/SIDE-WORKLOAD-RUN-play.txt and -idle.txt; per frame, idle subtracted.
            o.perfStat = value()
        case "--perf-record":
            // perf record (cpu-clock samples) of the playback instead: DIR/SIDE-WORKLOAD-RUN.data.
            o.perfStat = value()
            o.perfRecord = true
        case "--workload":
            // NAME=PATH*LOOPS
            let spec = value()
            guard let eq = spec.firstIndex(of: "="), let star = spec.lastIndex(of: "*"), eq < star,
                  let loops = Int(spec[spec.index(after: star)...]) else { fail("--workload NAME=PATH*LOOPS, not \(spec)") }
            o.workloads.append(Workload(name: String(spec[..<eq]), path: String(spec[spec.index(after: eq)..<star]), loops: loops))
        default: fail("unknown option \(a)")
        }
        args.removeFirst()
    }
    if !o.wlrootsKiosk.isEmpty, !CommandLine.arguments.contains("--only") {
        o.compositors.append("wlroots-kiosk")
    }
    if o.kiosk.isEmpty || o.libseatShim.isEmpty || o.workloads.isEmpty {
        fail("usage: CompositorCPU --kiosk PATH --libseat-shim PATH --workload NAME=PATH*LOOPS... [--wlroots-kiosk PATH] [--speed 10] [--runs 5] [--segment 1] [--only cage,kiosk,wlroots-kiosk] [--user seatbench] [--perf-stat DIR | --perf-record DIR] [--callgrind DIR [--callgrind-libraries DIR] [--warm-from 2]]")
    }
    return o
}

// MARK: Processes and /proc

func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

/// CPU time of a process (all its threads), in seconds, with nanosecond resolution: the
/// kernel's sum_exec_runtime, read through the process's CPU-time clock.
func cpuSeconds(_ pid: Int32) -> Double? {
    var clock = clockid_t()
    guard clock_getcpuclockid(pid, &clock) == 0 else { return statSeconds(pid) }
    var ts = timespec()
    guard clock_gettime(clock, &ts) == 0 else { return statSeconds(pid) }
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// utime + stime of /proc/PID/stat (all threads), in seconds: clock ticks, 10 ms here.
func statSeconds(_ pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
    // After the command: state is field 3; utime and stime are fields 14 and 15.
    guard fields.count > 13, let u = Double(fields[11]), let s = Double(fields[12]) else { return nil }
    return (u + s) / ticksPerSecond
}

final class Child {
    let process = Process()
    init(_ path: String, _ arguments: [String], environment: [String: String], output: String, errors: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        func file(_ path: String) throws -> FileHandle {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        let out = try file(output)
        process.standardOutput = out
        process.standardError = try errors.map(file) ?? out
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }
    var pid: Int32 { process.processIdentifier }
    func stop() {
        guard process.isRunning else { return }
        // Its children first (cage's wev), so none outlives it.
        for child in children(of: pid) { kill(child, SIGTERM) }
        kill(pid, SIGTERM)
        let deadline = monotonic() + 3
        while process.isRunning, monotonic() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Processes whose parent is `pid`.
func children(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { child in
        guard let text = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return false }
        let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
        return fields.count > 1 && Int32(fields[1]) == pid
    }
}

func trace(_ message: String) {
    if getenv("COMPOSITOR_CPU_TRACE") != nil { FileHandle.standardError.write((message + "\n").data(using: .utf8)!) }
}

func run(_ path: String, _ arguments: [String]) -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    try? p.run()
    p.waitUntilExit()
    return p.terminationStatus
}

func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

/// Waits up to `seconds` for `predicate` on the file's text.
func waitFor(_ path: String, seconds: Double, _ predicate: (String) -> Bool) -> Bool {
    let deadline = monotonic() + seconds
    while monotonic() < deadline {
        if predicate(contents(path)) { return true }
        usleep(20_000)
    }
    return predicate(contents(path))
}

/// Waits until the file stops growing for `quiet` seconds (at most `seconds`).
func waitQuiet(_ path: String, quiet: Double, seconds: Double) {
    let deadline = monotonic() + seconds
    var size = -1
    var since = monotonic()
    while monotonic() < deadline {
        let now = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if now != size {
            size = now
            since = monotonic()
        } else if monotonic() - since >= quiet {
            return
        }
        usleep(10_000)
    }
}

// MARK: What wev printed

/// Input events wev printed after `offset` (bytes): "interface.event" -> count. Keymap and
/// repeat_info (sent when a keyboard is created) are not input.
func wevEvents(_ path: String, from offset: Int) -> [String: Int] {
    let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
    let text = String(decoding: data.dropFirst(offset), as: UTF8.self)
    var counts: [String: Int] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("[") {
        guard let close = line.firstIndex(of: "]") else { continue }
        let interface = line[line.index(after: line.startIndex)..<close].split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? ""
        guard interface == "wl_pointer" || interface == "wl_keyboard" || interface == "wl_touch" else { continue }
        let rest = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
        let event = String(rest.prefix { $0 != ":" && $0 != " " })
        if event == "keymap" || event == "repeat_info" { continue }
        counts["\(interface).\(event)", default: 0] += 1
    }
    return counts
}

// MARK: callgrind and perf

/// valgrind's callgrind in front of a compositor's command: nothing counted until the
/// driver switches instrumentation on; each `vgdb dump` writes FILE.N.
/// valgrind's FIFOs for vgdb go beside FILE (`--vgdb-prefix`), not among /tmp's entries.
/// CALLGRIND_DUMP_INSTR=1 in the environment: counts by instruction address too
/// (`--dump-instr=yes`), to read a function's costs against its disassembly.
func valgrind(_ file: String) -> [String] {
    ["/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file=\(file)", "--instr-atstart=no", "--vgdb-prefix=\(file).vgdb"]
        + (ProcessInfo.processInfo.environment["CALLGRIND_DUMP_INSTR"] == "1" ? ["--dump-instr=yes"] : [])
}

/// A callgrind monitor command (`vgdb --pid=PID instrumentation on`, `dump LABEL`); vgdb
/// returns once the command is done, the dump written.
/// vgdb must run as valgrind's user (as root it never gets an answer from cage's valgrind,
/// which runs as the benchmark user): `user` runs it through setpriv.
func monitor(_ pid: Int32, file: String, user: String?, _ words: [String]) {
    let p = Process()
    let vgdb = ["/usr/bin/vgdb", "--vgdb-prefix=\(file).vgdb", "--pid=\(pid)"] + words
    let command = (user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []) + vgdb
    p.executableURL = URL(fileURLWithPath: command[0])
    p.arguments = Array(command.dropFirst())
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try? p.run()
    p.waitUntilExit()
}

/// Instructions (Ir) of one or more callgrind dumps: in all, by object file, by function
/// (self cost, "function [object]"), and calls made to each function.
struct Profile {
    var total = 0
    var byObject: [String: Int] = [:]
    var byFunction: [String: Int] = [:]
    var calls: [String: Int] = [:]
    var label = ""

    static func + (a: Profile, b: Profile) -> Profile {
        var r = a
        r.total += b.total
        r.byObject.merge(b.byObject, uniquingKeysWith: +)
        r.byFunction.merge(b.byFunction, uniquingKeysWith: +)
        r.calls.merge(b.calls, uniquingKeysWith: +)
        return r
    }

    /// Parses a callgrind output file (format version 1, positions: line, events: Ir, names
    /// compressed or not). A cost line right after `calls=` is the call's inclusive cost and
    /// is not the caller's own.
    init() {}
    init(callgrind path: String) {
        var objects: [String: String] = [:], functions: [String: String] = [:]
        func name(_ value: Substring, _ table: inout [String: String]) -> String {
            // "(12) name" defines 12, "(12)" refers to it, "name" is uncompressed.
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else { return String(value) }
            let id = String(value[value.index(after: value.startIndex)..<close])
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if !rest.isEmpty { table[id] = String(rest) }
            return table[id] ?? id
        }
        var object = "", function = "", callee = ""
        var skipNext = false
        let text = contents(path)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let c = line.first else { continue }
            if c.isNumber || c == "+" || c == "-" || c == "*" {
                if skipNext { skipNext = false; continue }
                let fields = line.split(separator: " ")
                guard fields.count >= 2, let ir = Int(fields[fields.count - 1]) else { continue }  // the last: Ir after the positions (line, or instr and line)
                total += ir
                byObject[object, default: 0] += ir
                byFunction["\(function) [\(object)]", default: 0] += ir
                continue
            }
            skipNext = false
            if line.hasPrefix("ob=") { object = (name(line.dropFirst(3), &objects) as NSString).lastPathComponent }
            else if line.hasPrefix("cob=") { _ = name(line.dropFirst(4), &objects) }
            else if line.hasPrefix("fn=") { function = name(line.dropFirst(3), &functions) }
            else if line.hasPrefix("cfn=") { callee = name(line.dropFirst(4), &functions) }
            else if line.hasPrefix("calls=") {
                let count = Int(line.dropFirst(6).split(separator: " ").first ?? "") ?? 0
                calls[callee, default: 0] += count
                skipNext = true
            } else if line.hasPrefix("desc: Trigger: dump ") {
                label = String(line.dropFirst("desc: Trigger: dump ".count))
            }
        }
    }
}

/// perf stat attached to a process with its counters disabled, enabled and disabled by the
/// driver through a control FIFO (`--control fifo:CTL,ACK`, `--delay -1`): it counts over
/// the windows it is enabled for only, exactly.
final class WindowCounter {
    let process = Process()
    let control: Int32
    let acknowledge: Int32
    let output: String

    init(pid: Int32, output: String, directory: String) throws {
        self.output = output
        let ctl = directory + "/perf-ctl-\(UUID().uuidString.prefix(8))", ack = ctl + "-ack"
        guard mkfifo(ctl, 0o600) == 0, mkfifo(ack, 0o600) == 0 else { throw BenchError("mkfifo \(ctl) failed") }
        // Read-write on this side, so neither open waits for perf.
        control = open(ctl, O_RDWR)
        acknowledge = open(ack, O_RDWR)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perf")
        process.arguments = ["stat", "-x", ",", "--delay", "-1", "--control", "fifo:\(ctl),\(ack)",
                             "-e", "raw_syscalls:sys_enter,context-switches,task-clock", "-o", output, "-p", "\(pid)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(300_000)  // attached and listening
    }

    /// Sends `enable` or `disable` and waits for perf's acknowledgement.
    func send(_ command: String) {
        _ = (command + "\n").withCString { write(control, $0, strlen($0)) }
        var buffer = [UInt8](repeating: 0, count: 16)
        var pollfd = pollfd(fd: acknowledge, events: Int16(POLLIN), revents: 0)
        if poll(&pollfd, 1, 2_000) > 0 { _ = read(acknowledge, &buffer, buffer.count) }
    }

    /// Stops perf; its counts: event name -> value.
    func finish() -> [String: Double] {
        if process.isRunning {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
        }
        close(control)
        close(acknowledge)
        var counts: [String: Double] = [:]
        for line in contents(output).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 2, let value = Double(fields[0]) else { continue }
            counts[String(fields[2])] = value
        }
        return counts
    }
}

/// Voluntary and involuntary context switches of all a process's threads (/proc/PID/task/*/status).
func contextSwitches(_ pid: Int32) -> (voluntary: Double, involuntary: Double) {
    var v = 0.0, n = 0.0
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    for task in tasks {
        for line in contents("/proc/\(pid)/task/\(task)/status").split(separator: "\n") {
            if line.hasPrefix("voluntary_ctxt_switches:") { v += Double(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0 }
            if line.hasPrefix("nonvoluntary_ctxt_switches:") { n += Double(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0 }
        }
    }
    return (v, n)
}

/// What the kernel counted for a side, in the playback segments and in the idle windows.
struct KernelCounts {
    var play: [String: Double] = [:]
    var idle: [String: Double] = [:]
    var playWall = 0.0
    var idleWall = 0.0
    /// Per input frame, the idle windows' rate times the playback's wall time subtracted.
    func perFrame(_ key: String, frames: Int) -> Double {
        let p = play[key] ?? 0, i = idle[key] ?? 0
        return (p - i / max(idleWall, 1e-9) * playWall) / Double(max(1, frames))
    }
}

/// What callgrind counted for a side: the playback segments' dumps and the idle windows'.
struct Instructions {
    var play = Profile()
    var idle = Profile()
    var playWall = 0.0
    var idleWall = 0.0
    /// Output frames (`wlr_output_send_frame` calls: cage and the wlroots kiosk composite on
    /// every one), in the playback and in the idle windows.
    var playOutputFrames: Int { play.calls["wlr_output_send_frame"] ?? 0 }
    var idleOutputFrames: Int { idle.calls["wlr_output_send_frame"] ?? 0 }
    /// The idle windows' share to subtract from the playback: scaled by output frames when the
    /// side composites (idle instructions are per output frame), by wall time otherwise.
    var idleScale: Double {
        idleOutputFrames > 0 ? Double(playOutputFrames) / Double(idleOutputFrames) : playWall / max(idleWall, 1e-9)
    }
    /// The same, scaled by wall time whatever the side: the CPU method's subtraction.
    var idleScaleByWall: Double { playWall / max(idleWall, 1e-9) }
}

// MARK: One measured run

struct Measurement {
    var frames = 0
    var cpu = 0.0          // seconds, idle subtracted
    var statCPU = 0.0      // the same from /proc/PID/stat (10 ms ticks), idle subtracted
    var grossCPU = 0.0     // seconds, before the idle subtraction
    var idleRate = 0.0     // CPU seconds per wall second
    var wall = 0.0
    /// Per segment: CPU per frame, less the idle rate of the idle window right after it.
    var segments: [Double] = []
    var events: [String: Int] = [:]
    var delivered: Int { events.values.reduce(0, +) }
    var instructions: Instructions?
    /// The same from segment `--warm-from` on only, over `warmFrames` input frames.
    var warm: Instructions?
    var warmFrames = 0
    var kernel: KernelCounts?
}

func makeDirectory(owner: String?) -> String {
    var template = Array("/tmp/compositor-cpu-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { fail("mkdtemp failed") }
    let path = String(cString: dir)
    if let owner { _ = run("/bin/chown", [owner, path]) }
    chmod(path, 0o700)
    return path
}

/// One compositor with its emulated devices and wev, started and ready for input: the
/// pointer over wev. Segments of the recording are played to it one at a time, so that the
/// sides of a run take turns, second by second, and share the machine's changing load.
final class Side {
    let compositor: String
    let workload: Workload
    let recording: Recording
    let o: Options
    let devices: EmulatedInputDevices
    let counters: AckCounters
    let work: String
    var cleanups: [String] = []
    let wevLog: String
    var child: Child!
    var wev: Child?
    var offset = 0
    var written: UInt64 = 0
    var count = 0
    var active = (wall: 0.0, cpu: 0.0, stat: 0.0)
    var idle = (wall: 0.0, cpu: 0.0, stat: 0.0)
    var perf: Process?
    var callgrindFile = ""
    var vgdbUser: String? { compositor == "cage" && getuid() == 0 ? o.user : nil }
    var marks: [String: (start: Double, end: Double)] = [:]  // callgrind dump label -> its window
    var lastMark = 0.0
    var windows: (play: WindowCounter, idle: WindowCounter)?
    var switches = (play: (voluntary: 0.0, involuntary: 0.0), idle: (voluntary: 0.0, involuntary: 0.0))
    var lastSegment = (wall: 0.0, cpu: 0.0, frames: 0)
    var segmentFrames: [Int] = []  // input frames written in each segment, in order
    var segments: [Double] = []
    var pid: Int32 { child.pid }

    func sample() -> (Double, Double, Double) { (monotonic(), cpuSeconds(pid) ?? 0, statSeconds(pid) ?? 0) }

    init(_ compositor: String, _ workload: Workload, _ recording: Recording, _ o: Options) throws {
    self.compositor = compositor
    self.workload = workload
    self.recording = recording
    self.o = o

    // One more device, a mouse, places the pointer over wev before playback on both sides:
    // cage gives pointer focus only on motion, and a touchpad recording has none.
    devices = try EmulatedInputDevices(recording.devices + [SyntheticDevice.mouse(node: "/dev/input/event99")], dmi: recording.dmi)
    let placer = recording.devices.count
    var environment = try devices.environment()
    let testbed = environment["UMOCKDEV_DIR"]!
    work = makeDirectory(owner: nil)
    chmod(work, 0o755)
    cleanups = [work]
    counters = AckCounters(path: environment["SEATKIT_REPLAY_ACK"]!)
    // The preloads where an unprivileged user can read them.
    var preloads: [String] = []
    for lib in environment["LD_PRELOAD"]!.split(separator: ":").map(String.init) {
        if lib.hasPrefix("/") {
            let copy = work + "/" + (lib as NSString).lastPathComponent
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: lib, toPath: copy)
            chmod(copy, 0o755)
            preloads.append(copy)
        } else {
            preloads.append(lib)
        }
    }
    wevLog = work + "/wev.log"
    let compositorLog = work + "/compositor.log"
    let base = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "UMOCKDEV_DIR": testbed,
                "SEATKIT_REPLAY_ACK": environment["SEATKIT_REPLAY_ACK"]!]
    let stdbuf = "/usr/bin/stdbuf"
    if compositor == "cage" {
        // cage refuses root: run it as `user`, who needs the testbed, the counters and the PTYs.
        _ = run("/bin/chmod", ["-R", "a+rwX", testbed])
        let ack = environment["SEATKIT_REPLAY_ACK"]!
        _ = run("/bin/chmod", ["a+rx", (ack as NSString).deletingLastPathComponent])
        chmod(ack, 0o666)
        for node in devices.nodes {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: testbed + node)) ?? ""
            if target.hasPrefix("/dev/pts/") { chmod(target, 0o666) }
        }
        let runtime = makeDirectory(owner: getuid() == 0 ? o.user : nil)
        cleanups.append(runtime)
        let shim = work + "/libseat-shim.so"
        try FileManager.default.copyItem(atPath: o.libseatShim, toPath: shim)
        chmod(shim, 0o755)
        environment = base.merging([
            "XDG_RUNTIME_DIR": runtime,
            "LD_PRELOAD": ([shim] + preloads).joined(separator: ":"),
            "WLR_BACKENDS": "headless,libinput",
            "WLR_RENDERER": "pixman",
            "HOME": runtime,
        ]) { $1 }
        var cage = ["/usr/bin/cage", "--", stdbuf, "-oL", "/usr/bin/wev"]
        if o.callgrind {
            // valgrind runs as cage's user, so its dumps go where that user can write.
            callgrindFile = runtime + "/callgrind.out"
            cage = valgrind(callgrindFile) + cage
        }
        // setpriv execs cage itself: the pid measured is cage's.
        let asUser = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=\(o.user)", "--regid=\(o.user)", "--clear-groups"] : []
        // wev's output (cage's stdout) apart from cage's log: cage logs a failed output test
        // 50 times a second once the cursor is shown.
        child = try Child((asUser + cage)[0], Array((asUser + cage).dropFirst()), environment: environment, output: wevLog,
                          errors: compositorLog)
    } else if compositor == "wlroots-kiosk" {
        // SeatKit's C API on wlroots 0.15 (examples/wlroots-kiosk): wlroots renders with
        // pixman on a headless output, as cage's does; SeatKit reads libinput (`--libinput`)
        // and routes; the bridge delivers through wlr_seat. It picks its own socket.
        let runtime = makeDirectory(owner: nil)
        cleanups.append(runtime)
        environment = base.merging(["XDG_RUNTIME_DIR": runtime, "LD_PRELOAD": preloads.joined(separator: ":"),
                                    "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman"]) { $1 }
        var command = [o.wlrootsKiosk, "--size", "1280x720", "--libinput", "--seat", "seat0"]
        if o.callgrind {
            callgrindFile = work + "/callgrind.out"
            command = valgrind(callgrindFile) + command
            if let libraries = o.callgrindLibraries { environment["LD_LIBRARY_PATH"] = libraries }
        }
        child = try Child(command[0], Array(command.dropFirst()), environment: environment, output: compositorLog)
        guard waitFor(compositorLog, seconds: o.callgrind ? 300 : 30, { $0.contains("listening on ") }),
              let line = contents(compositorLog).split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) else {
            stop()
            throw BenchError("the wlroots kiosk did not start: \(contents(compositorLog).suffix(800))")
        }
        let socket = String(line.dropFirst("listening on ".count))
        wev = try Child(stdbuf, ["-oL", "/usr/bin/wev"],
                        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                        output: wevLog)
    } else {
        let runtime = makeDirectory(owner: nil)
        cleanups.append(runtime)
        let socket = "compositor-cpu-\(getpid())"
        environment = base.merging(["XDG_RUNTIME_DIR": runtime, "LD_PRELOAD": preloads.joined(separator: ":")]) { $1 }
        var command = [o.kiosk, "--socket", socket, "--size", "1280x720", "--libinput", "--seat", "seat0"]
        if o.callgrind {
            callgrindFile = work + "/callgrind.out"
            command = valgrind(callgrindFile) + command
        }
        child = try Child(command[0], Array(command.dropFirst()), environment: environment, output: compositorLog)
        guard waitFor(compositorLog, seconds: o.callgrind ? 300 : 30, { $0.contains("listening on") }) else {
            stop()
            throw BenchError("the kiosk did not start: \(contents(compositorLog))")
        }
        wev = try Child(stdbuf, ["-oL", "/usr/bin/wev"],
                        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                        output: wevLog)
    }
    // wev is up: its toplevel configured to the output's size and its keyboard entered.
    guard waitFor(wevLog, seconds: o.callgrind ? 120 : 30, { $0.contains("xdg_surface] configure") }) else {
        stop()
        throw BenchError("wev never mapped: \(contents(wevLog).suffix(800)) \(contents(compositorLog).suffix(800))")
    }
    waitQuiet(wevLog, quiet: 0.5, seconds: 5)
    trace("\(compositor): wev mapped")
    try devices.write([FrameScript.rel(0, 20), FrameScript.rel(1, 20)], toDevice: placer)
    guard waitFor(wevLog, seconds: o.callgrind ? 60 : 10, { $0.contains("wl_pointer] enter") }) else {
        stop()
        throw BenchError("wev never got the pointer: \(contents(wevLog).suffix(800))")
    }
    waitQuiet(wevLog, quiet: 0.3, seconds: 5)

    offset = (try? FileManager.default.attributesOfItem(atPath: wevLog)[.size] as? Int) ?? 0
    written = counters.total()
    }

    func stop() {
        if let perf, perf.isRunning {
            kill(perf.processIdentifier, SIGINT)
            perf.waitUntilExit()
        }
        if let windows { _ = windows.play.finish(); _ = windows.idle.finish() }
        wev?.stop()
        child?.stop()
        if o.keep { print("  kept \(work)") } else { for dir in cleanups { try? FileManager.default.removeItem(atPath: dir) } }
    }

    /// perf or callgrind attached for the playback, when asked for.
    func attachProfilers(run perfRun: Int) throws {
        if o.callgrind {
            monitor(pid, file: callgrindFile, user: vgdbUser, ["instrumentation", "on"])
            mark("start")
        }
        if let dir = o.perfStat, !o.perfRecord {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let name = "\(dir)/\(compositor)-\(workload.name)-\(perfRun)"
            windows = (try WindowCounter(pid: pid, output: name + "-play.txt", directory: work),
                       try WindowCounter(pid: pid, output: name + "-idle.txt", directory: work))
        } else if let dir = o.perfStat {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/perf")
            let name = "\(dir)/\(compositor)-\(workload.name)-\(perfRun)"
            p.arguments = ["record", "-q", "-e", "cpu-clock", "-F", "10000", "-o", name + ".data", "-p", "\(pid)"]
            try p.run()
            perf = p
            usleep(200_000)  // perf attached before the first frame
        }
    }

    /// Dumps callgrind's counts since the last mark as LABEL (play-N, idle-N, or gap-N for
    /// what the side did during the other sides' turns, which counts nowhere).
    func mark(_ label: String) {
        guard o.callgrind else { return }
        monitor(pid, file: callgrindFile, user: vgdbUser, ["dump", label])
        let now = monotonic()
        marks[label] = (lastMark, now)
        lastMark = now
    }

    /// The start or end of a playback segment or idle window, for the kernel's counters.
    func window(_ kind: String, enable: Bool) {
        guard let windows else { return }
        (kind == "play" ? windows.play : windows.idle).send(enable ? "enable" : "disable")
    }

    var span: Double {
        guard let first = recording.mergedFrames.first?.frame.time, let last = recording.mergedFrames.last?.frame.time else { return 0.1 }
        return Double(last - first) / 1e6 + 0.1
    }

    /// Plays loops `range` of the recording at `speed` times its pace, each frame stamped with
    /// its due time on that compressed timeline (the same stamps on every side, so libinput's
    /// timing-dependent decisions, scroll and debounce, are the same), never more than a PTY's
    /// worth ahead of what the compositor read; until the compositor read it all. Adds the
    /// wall and CPU time to `active`; returns the wall time.
    func play(_ range: Range<Int>) throws -> Double {
        let frames = recording.mergedFrames
        guard let first = frames.first?.frame.time else { return 0 }
        let span = self.span
        let framesBefore = count
        window("play", enable: true)
        let switchesBefore = contextSwitches(pid)
        let start = sample()
        for loop in range {
            for (device, frame) in frames {
                let due = start.0 + (Double(loop - range.lowerBound) * span + Double(frame.time - first) / 1e6) / o.speed
                let wait = due - monotonic()
                if wait > 0 { usleep(UInt32(wait * 1e6)) }
                let events = Array(frame.events.filter { !$0.isSynReport })
                guard events.count < 170 else { continue }
                let bytes = UInt64((events.count + 1) * 24)
                var spins = 0
                while written - counters.total() + bytes > 3_800 {
                    usleep(100)
                    spins += 1
                    if spins > 50_000 { throw BenchError("\(compositor) stopped reading its devices") }
                }
                try devices.write(events, toDevice: device, time: Int64(due * 1e6))
                written += bytes
                count += 1
            }
        }
        // Until the compositor read everything (the shim's count may end an event short of
        // what was written, which libinput read anyway: stop waiting once the count has not
        // moved for 0.1 s), then a moment for the messages to go out.
        let drainDeadline = monotonic() + 20
        var lastRead = counters.total(), lastChange = monotonic()
        while counters.total() < written, monotonic() < drainDeadline, monotonic() - lastChange < 0.1 {
            usleep(1_000)
            if counters.total() != lastRead { lastRead = counters.total(); lastChange = monotonic() }
        }
        usleep(20_000)
        let end = sample()
        let switchesAfter = contextSwitches(pid)
        window("play", enable: false)
        switches.play.voluntary += switchesAfter.voluntary - switchesBefore.voluntary
        switches.play.involuntary += switchesAfter.involuntary - switchesBefore.involuntary
        active.wall += end.0 - start.0
        active.cpu += end.1 - start.1
        active.stat += end.2 - start.2
        lastSegment = (wall: end.0 - start.0, cpu: end.1 - start.1, frames: count - framesBefore)
        segmentFrames.append(count - framesBefore)
        return end.0 - start.0
    }

    /// The result, once every segment was played: CPU over the segments minus the idle rate
    /// of the idle windows times the segments' wall time.
    var perfRun = 0
    func finish() -> Measurement {
        trace("\(compositor): written \(count) frames, read \(counters.total()) of \(written) bytes")
        waitQuiet(wevLog, quiet: 0.3, seconds: 20)
        var m = Measurement()
        m.frames = count
        m.wall = active.wall
        m.idleRate = idle.cpu / max(idle.wall, 1e-9)
        m.grossCPU = active.cpu
        m.cpu = active.cpu - m.idleRate * active.wall
        m.statCPU = active.stat - idle.stat / max(idle.wall, 1e-9) * active.wall
        m.segments = segments
        m.events = wevEvents(wevLog, from: offset)
        if let windows {
            var k = KernelCounts()
            k.play = windows.play.finish()
            k.idle = windows.idle.finish()
            self.windows = nil
            k.play["voluntary"] = switches.play.voluntary
            k.play["involuntary"] = switches.play.involuntary
            k.idle["voluntary"] = switches.idle.voluntary
            k.idle["involuntary"] = switches.idle.involuntary
            k.playWall = active.wall
            k.idleWall = idle.wall
            m.kernel = k
        }
        if o.callgrind {
            // The dumps FILE.1, FILE.2, ... each say which mark wrote them.
            var instructions = Instructions(), warm = Instructions()
            let directory = (callgrindFile as NSString).deletingLastPathComponent
            let base = (callgrindFile as NSString).lastPathComponent
            try? FileManager.default.createDirectory(atPath: o.callgrindOut, withIntermediateDirectories: true)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasPrefix(base + ".") {
                let profile = Profile(callgrind: directory + "/" + file)
                guard let window = marks[profile.label] else { continue }
                let wall = window.end - window.start
                if profile.label.hasPrefix("play-") { instructions.play = instructions.play + profile; instructions.playWall += wall }
                if profile.label.hasPrefix("idle-") { instructions.idle = instructions.idle + profile; instructions.idleWall += wall }
                if let segment = segmentOf(profile.label), segment >= o.warmFrom {
                    if profile.label.hasPrefix("play-") { warm.play = warm.play + profile; warm.playWall += wall }
                    if profile.label.hasPrefix("idle-") { warm.idle = warm.idle + profile; warm.idleWall += wall }
                }
                let keep = "\(o.callgrindOut)/\(compositor)-\(workload.name)-\(perfRun).\(profile.label)"
                try? FileManager.default.removeItem(atPath: keep)
                try? FileManager.default.copyItem(atPath: directory + "/" + file, toPath: keep)
            }
            m.instructions = instructions
            m.warmFrames = segmentFrames.dropFirst(o.warmFrom - 1).reduce(0, +)
            if m.warmFrames > 0 { m.warm = warm }
            writeFunctionReport(instructions, frames: count, to: "\(o.callgrindOut)/\(compositor)-\(workload.name)-\(perfRun).functions.txt")
            // Input frames per segment, for Benchmarks/callgrind-modules.py --warm.
            let lines = segmentFrames.enumerated().map { "\($0.offset + 1) \($0.element)\n" }.joined()
            try? lines.write(toFile: "\(o.callgrindOut)/\(compositor)-\(workload.name)-\(perfRun).segments", atomically: true, encoding: .utf8)
        }
        return m
    }
}

/// One run of `workload`: every side started, then the loops played in segments of about
/// `segment` seconds, each side in turn, then an idle window as long as the longest segment
/// just played, measured on every side at once. The idle CPU subtracted (cage composites
/// ~60 times a second whether input arrives or not) is thus measured over about as much
/// wall time as the playback, interleaved with it, and the sides take turns second by
/// second: a change of the machine's load during a run hits them alike.
func measureRun(_ sides: [String], _ workload: Workload, _ recording: Recording, _ o: Options, run perfRun: Int) throws -> [String: Measurement] {
    var started: [Side] = []
    defer { for side in started { side.stop() } }
    for compositor in sides {
        started.append(try Side(compositor, workload, recording, o))
        trace("\(compositor): ready")
    }
    for side in started {
        side.perfRun = perfRun
        try side.attachProfilers(run: perfRun)
    }
    let loopsPerSegment = max(1, Int((o.segmentSeconds * o.speed / started[0].span).rounded(.up)))
    var segmentStart = 0
    var segment = 0
    while segmentStart < workload.loops {
        let range = segmentStart..<min(workload.loops, segmentStart + loopsPerSegment)
        segment += 1
        var longest = 0.0
        for side in started {
            // Under callgrind each side's playback is dumped apart; what it did meanwhile
            // (the other sides' turns) is a gap, counted nowhere.
            if started.count > 1 { side.mark("gap-play-\(segment)") }
            longest = max(longest, try side.play(range))
            side.mark("play-\(segment)")
        }
        if started.count > 1 { for side in started { side.mark("gap-idle-\(segment)") } }
        for side in started { side.window("idle", enable: true) }
        let idleSwitches = started.map { contextSwitches($0.pid) }
        let idleStart = started.map { $0.sample() }
        usleep(UInt32(longest * 1e6))
        for (i, (side, before)) in zip(started, idleStart).enumerated() {
            let after = side.sample()
            let switches = contextSwitches(side.pid)
            side.window("idle", enable: false)
            side.mark("idle-\(segment)")
            side.switches.idle.voluntary += switches.voluntary - idleSwitches[i].voluntary
            side.switches.idle.involuntary += switches.involuntary - idleSwitches[i].involuntary
            side.idle.wall += after.0 - before.0
            side.idle.cpu += after.1 - before.1
            side.idle.stat += after.2 - before.2
            let rate = (after.1 - before.1) / max(after.0 - before.0, 1e-9)
            let last = side.lastSegment
            side.segments.append((last.cpu - rate * last.wall) / Double(max(1, last.frames)))
        }
        segmentStart = range.upperBound
    }
    var results: [String: Measurement] = [:]
    for side in started { results[side.compositor] = side.finish() }
    return results
}

/// The shared file where SeatKitReplay's shim counts the bytes read from each PTY.
final class AckCounters {
    let base: UnsafeMutablePointer<UInt64>
    init(path: String) {
        let fd = open(path, O_RDONLY)
        let m = mmap(nil, 4096 * 8, PROT_READ, MAP_SHARED, fd, 0)
        close(fd)
        guard let m, m != MAP_FAILED else { fail("cannot map \(path)") }
        base = m.assumingMemoryBound(to: UInt64.self)
    }
    func total() -> UInt64 {
        var sum: UInt64 = 0
        for i in 0..<4096 { sum &+= base[i] }
        return sum
    }
}

// MARK: Report

/// Instructions per input frame by function (self cost), the idle windows' subtracted.
func writeFunctionReport(_ i: Instructions, frames: Int, to path: String) {
    let scale = i.idleScale
    var rows: [(String, Double, Int, Int)] = []
    for key in Set(i.play.byFunction.keys).union(i.idle.byFunction.keys) {
        let p = i.play.byFunction[key] ?? 0, q = i.idle.byFunction[key] ?? 0
        rows.append((key, (Double(p) - Double(q) * scale) / Double(max(1, frames)), p, q))
    }
    rows.sort { abs($0.1) > abs($1.1) }
    var text = "instructions per input frame by function (self), \(frames) frames; playback \(i.play.total) Ir over \(String(format: "%.2f", i.playWall)) s, \(i.playOutputFrames) output frames; idle \(i.idle.total) Ir over \(String(format: "%.2f", i.idleWall)) s, \(i.idleOutputFrames) output frames; idle scaled by \(String(format: "%.4f", scale))\n"
    text += "per frame, net | playback Ir | idle Ir | function [object]\n"
    for row in rows.prefix(400) {
        text += String(format: "%10.1f %12d %12d  ", row.1, row.2, row.3) + row.0 + "\n"
    }
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// The median over runs.
/// The segment a callgrind dump's label belongs to (play-3, idle-3, gap-play-3, gap-idle-3:
/// 3); nil for `start`.
func segmentOf(_ label: String) -> Int? {
    guard let dash = label.lastIndex(of: "-") else { return nil }
    return Int(label[label.index(after: dash)...])
}

func medianOf(_ ms: [Measurement], _ f: (Measurement) -> Double?) -> Double? {
    let xs = ms.compactMap(f)
    return xs.isEmpty ? nil : median(xs)
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    if s.isEmpty { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func us(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }

let o = parseOptions()
print("compositor CPU per input frame, device to client socket (wev); speed ×\(o.speed), \(o.runs) runs, the sides taking turns")
print("segment by segment (~\(o.segmentSeconds) s each); CPU per frame: the median over all segments of all runs;")
print("CPU: the process's CPU-time clock (ns); idle CPU, measured in windows as long as the playback's segments and interleaved with them, subtracted")
print("")
struct Row {
    var workload: Workload
    var results: [String: [Measurement]] = [:]
}
var rows: [Row] = []
for workload in o.workloads {
    let recording: Recording
    do { recording = try RecordingParser.parse(contentsOf: workload.path) } catch { fail("\(workload.path): \(error)") }
    var row = Row(workload: workload)
    for run in 0..<o.runs {
        // Alternate which side goes first in each segment, so neither always runs on a warmer machine.
        let order = run % 2 == 0 ? o.compositors : o.compositors.reversed()
        do {
            let results = try measureRun(order, workload, recording, o, run: run + 1)
            for compositor in o.compositors {
                guard let m = results[compositor] else { continue }
                row.results[compositor, default: []].append(m)
                print(String(format: "  %@ %@ run %d: %d frames, CPU %.4f s (gross %.4f s, idle %.4f s/s subtracted over %.1f s; stat: %.2f s), %.1f µs/frame, median of %d segments %.1f µs/frame, %d events to wev",
                             workload.name, compositor, run + 1, m.frames, m.cpu, m.grossCPU, m.idleRate, m.wall, m.statCPU,
                             m.cpu / Double(max(1, m.frames)) * 1e6, m.segments.count, median(m.segments) * 1e6, m.delivered))
                if let i = m.instructions {
                    print(String(format: "    instructions: playback %d over %.2f s (%d output frames), idle %d over %.2f s (%d output frames); per input frame %.0f (idle scaled by output frames when composited), %.0f (idle scaled by wall time)",
                                 i.play.total, i.playWall, i.playOutputFrames, i.idle.total, i.idleWall, i.idleOutputFrames,
                                 (Double(i.play.total) - Double(i.idle.total) * i.idleScale) / Double(max(1, m.frames)),
                                 (Double(i.play.total) - Double(i.idle.total) * i.idleScaleByWall) / Double(max(1, m.frames))))
                }
                if let k = m.kernel {
                    print(String(format: "    kernel: playback %.2f s: %.0f syscalls, %.0f context switches (%.0f voluntary, %.0f involuntary); idle %.2f s: %.0f syscalls, %.0f context switches (%.0f voluntary); per input frame, idle subtracted: %.2f syscalls, %.2f context switches, %.2f voluntary",
                                 k.playWall, k.play["raw_syscalls:sys_enter"] ?? 0, k.play["context-switches"] ?? 0, k.play["voluntary"] ?? 0, k.play["involuntary"] ?? 0,
                                 k.idleWall, k.idle["raw_syscalls:sys_enter"] ?? 0, k.idle["context-switches"] ?? 0, k.idle["voluntary"] ?? 0,
                                 k.perFrame("raw_syscalls:sys_enter", frames: m.frames), k.perFrame("context-switches", frames: m.frames), k.perFrame("voluntary", frames: m.frames)))
                }
            }
        } catch {
            print("  \(workload.name) run \(run + 1) failed: \(error)")
        }
    }
    rows.append(row)
}

print("")
let others = o.compositors.filter { $0 != "cage" }
var heading = "| recording | frames | events to wev, cage |"
var rule = "|---|---:|---:|"
for side in others { heading += " events to wev, \(side) |"; rule += "---:|" }
heading += " cage CPU / frame |"; rule += "---:|"
for side in others { heading += " \(side) CPU / frame | \(side) ÷ cage |"; rule += "---:|---:|" }
heading += " cage CPU / event |"; rule += "---:|"
for side in others { heading += " \(side) CPU / event |"; rule += "---:|" }
print(heading)
print(rule)
for row in rows {
    let cage = row.results["cage"] ?? []
    let frames = row.results.values.first { !$0.isEmpty }?.first?.frames ?? 0
    // The median over every segment of every run: a segment that shared the machine with a
    // burst of other work is an outlier, not a tenth of the result.
    func perFrame(_ ms: [Measurement]) -> Double { median(ms.flatMap(\.segments)) }
    func perEvent(_ ms: [Measurement]) -> String {
        let delivered = ms.filter { $0.delivered > 0 }
        return delivered.isEmpty ? "–" : us(median(delivered.map { $0.cpu / Double($0.delivered) }))
    }
    func events(_ ms: [Measurement]) -> String { ms.isEmpty ? "–" : "\(Int(median(ms.map { Double($0.delivered) })))" }
    var line = "| \(row.workload.name) ×\(row.workload.loops) | \(frames) | \(events(cage)) |"
    for side in others { line += " \(events(row.results[side] ?? [])) |" }
    line += " \(cage.isEmpty ? "–" : us(perFrame(cage))) |"
    for side in others {
        let ms = row.results[side] ?? []
        let ratio = perFrame(cage) > 0 && !ms.isEmpty ? String(format: "%.2f×", perFrame(ms) / perFrame(cage)) : "–"
        line += " \(ms.isEmpty ? "–" : us(perFrame(ms))) | \(ratio) |"
    }
    line += " \(perEvent(cage)) |"
    for side in others { line += " \(perEvent(row.results[side] ?? [])) |" }
    print(line)
}
print("")
print("Events wev printed, by kind (median run):")
for row in rows {
    for side in o.compositors {
        guard let ms = row.results[side], !ms.isEmpty else { continue }
        let m = ms.sorted { $0.delivered < $1.delivered }[ms.count / 2]
        let kinds = m.events.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("  \(row.workload.name), \(side): \(kinds)")
    }
}

print("")
print("Spread over the runs (each run's median segment, CPU per frame: min–max, and (max − min) ÷ median; the runs' ratios):")
for row in rows {
    func perFrames(_ ms: [Measurement]) -> [Double] { ms.map { median($0.segments) } }
    var line = "  \(row.workload.name):"
    for side in o.compositors {
        let xs = perFrames(row.results[side] ?? [])
        guard let lo = xs.min(), let hi = xs.max() else { continue }
        line += String(format: " %@ %.1f–%.1f µs (%.0f%%);", side, lo * 1e6, hi * 1e6, (hi - lo) / max(median(xs), 1e-12) * 100)
    }
    let cage = perFrames(row.results["cage"] ?? [])
    for side in others {
        let ratios = zip(perFrames(row.results[side] ?? []), cage).map { $0 / $1 }
        guard !ratios.isEmpty else { continue }
        line += " \(side) ÷ cage " + ratios.map { String(format: "%.2f×", $0) }.joined(separator: ", ") + ";"
    }
    print(line)
}

/// A results table's first two lines: recording, frames, then one column per title.
func printTableHeading(_ sides: [String], _ ratios: [String], numeric: Bool) {
    var heading = "| recording | frames |", rule = "|---|---:|"
    for title in sides + ratios { heading += " \(title) |"; rule += numeric ? "---:|" : "---|" }
    print(heading); print(rule)
}

/// One choice of callgrind dumps (the whole playback, or once warm) as a per-frame table and
/// by-object lines: `counts` picks a measurement's dumps and `frames` their input frames;
/// `framesColumn` adds a column of those frames (the warm table's).
func printInstructions(_ rows: [Row], compositors: [String], others: [String],
                       _ title: String, byObjectTitle: String, framesColumn: String?,
                       counts: (Measurement) -> Instructions?, frames: (Measurement) -> Int) {
    func perFrame(_ m: Measurement, _ pick: (Profile) -> Double) -> Double? {
        counts(m).map { (pick($0.play) - pick($0.idle) * $0.idleScale) / Double(max(1, frames(m))) }
    }
    print("")
    print(title)
    printTableHeading(compositors + (framesColumn.map { [$0] } ?? []), others.map { "\($0) ÷ cage" }, numeric: true)
    for row in rows {
        let first = row.results.values.first { !$0.isEmpty }?.first
        func total(_ side: String) -> Double? {
            medianOf(row.results[side] ?? []) { perFrame($0) { Double($0.total) } }
        }
        var line = "| \(row.workload.name) ×\(row.workload.loops) | \(first?.frames ?? 0) |"
        for side in compositors { line += total(side).map { String(format: " %.0f |", $0) } ?? " – |" }
        if framesColumn != nil { line += " \(first.map(frames) ?? 0) |" }
        for side in others {
            if let a = total(side), let c = total("cage"), c > 0 { line += String(format: " %.2f× |", a / c) } else { line += " – |" }
        }
        print(line)
    }
    print("")
    print(byObjectTitle)
    for row in rows {
        for side in compositors {
            let ms = (row.results[side] ?? []).filter { counts($0) != nil }
            guard !ms.isEmpty else { continue }
            let keys = Set(ms.flatMap { Array(counts($0)!.play.byObject.keys) + Array(counts($0)!.idle.byObject.keys) })
            let objects = keys.map { key in
                (key, medianOf(ms) { perFrame($0) { Double($0.byObject[key] ?? 0) } } ?? 0)
            }.sorted { $0.1 > $1.1 }
            print("  \(row.workload.name), \(side): " + objects.filter { abs($0.1) >= 0.5 }.map { String(format: "%@ %.0f", $0.0, $0.1) }.joined(separator: ", "))
        }
    }
}

if o.callgrind {
    printInstructions(rows, compositors: o.compositors, others: others,
                      "User-space instructions per input frame (callgrind, idle windows subtracted: by output frames where the side composites, else by wall time; median over runs):",
                      byObjectTitle: "By object file, instructions per input frame (idle subtracted as above; median over runs):",
                      framesColumn: nil, counts: { $0.instructions }, frames: { $0.frames })
    printInstructions(rows, compositors: o.compositors, others: others,
                      "Once warm: the same from segment \(o.warmFrom) on only (its dumps and frames; the first segments' one-time costs left out; median over runs):",
                      byObjectTitle: "Once warm, by object file, instructions per input frame (median over runs):",
                      framesColumn: "frames warm", counts: { $0.warm }, frames: { $0.warmFrames })
}

if o.perfStat != nil, !o.perfRecord {
    print("")
    print("Kernel work per input frame (perf stat over the playback segments and over the idle windows apart, idle rate × playback wall subtracted; context switches by kind from /proc/PID/task/*/status; median over runs):")
    printTableHeading(o.compositors.map { "\($0): syscalls, context switches, voluntary" },
                      others.map { "\($0) ÷ cage: syscalls, switches, voluntary" }, numeric: false)
    for row in rows {
        let frames = row.results.values.first { !$0.isEmpty }?.first?.frames ?? 0
        func value(_ side: String, _ key: String) -> Double? {
            medianOf(row.results[side] ?? []) { m in m.kernel.map { $0.perFrame(key, frames: m.frames) } }
        }
        let keys = ["raw_syscalls:sys_enter", "context-switches", "voluntary"]
        var line = "| \(row.workload.name) ×\(row.workload.loops) | \(frames) |"
        for side in o.compositors { line += " " + keys.map { value(side, $0).map { String(format: "%.2f", $0) } ?? "–" }.joined(separator: ", ") + " |" }
        for side in others {
            line += " " + keys.map { key -> String in
                guard let a = value(side, key), let c = value("cage", key), c != 0 else { return "–" }
                return String(format: "%.2f×", a / c)
            }.joined(separator: ", ") + " |"
        }
        print(line)
    }
}
