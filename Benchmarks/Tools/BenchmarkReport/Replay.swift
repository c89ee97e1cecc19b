import Foundation
import RoutingWorkloads
import SeatKit
import SeatKitLibinput
import SeatKitReplay
import ThreadAllocations

// Issue 7, replay: events per second through real libinput under umockdev, start-up time,
// and `libinput record` parse throughput against PyYAML's C loader on the same files; and
// heap growth over a replay of a million libinput events into a router.

/// The shared recordings (`../shared/recordings` from the repository root), or
/// `$SEATKIT_RECORDINGS`.
func recordingsDirectory() -> String {
    if let dir = ProcessInfo.processInfo.environment["SEATKIT_RECORDINGS"] { return dir }
    return "../../shared/recordings"
}

func sharedRecordings() -> [String] {
    let dir = recordingsDirectory()
    guard let names = try? Foundation.FileManager.default.contentsOfDirectory(atPath: dir) else {
        fatalError("no recordings at \(dir): set SEATKIT_RECORDINGS")
    }
    return names.filter { $0.hasSuffix(".yml") }.sorted().map { dir + "/" + $0 }
}

/// A touchscreen recording of `frames` frames: one finger down, moved every frame (10 ms
/// apart), lifted and put down again every 100 frames; libinput reports about two events
/// per frame (the touch event and its frame).
func writeSyntheticTouchRecording(frames: Int, to path: String) {
    typealias E = FrameScript
    var script = FrameScript()
    var trackingID: Int32 = 1
    var i = 0
    while i < frames {
        let phase = i % 100
        let x = Int32(500 + (i % 97) * 30), y = Int32(500 + (i % 89) * 30)
        if phase == 0 {
            script.frame([E.abs(0x2f, 0), E.abs(0x39, trackingID), E.abs(0x35, x), E.abs(0x36, y),
                          E.key(0x14a, 1), E.abs(0, x), E.abs(1, y)])
            trackingID += 1
        } else if phase == 99 {
            script.frame([E.abs(0x39, -1), E.key(0x14a, 0)])
        } else {
            script.frame([E.abs(0x35, x), E.abs(0x36, y), E.abs(0, x), E.abs(1, y)])
        }
        i += 1
    }
    var device = SyntheticDevice.touchscreen()
    device.frames = script.frames
    let text = RecordingWriter.text(of: Recording(source: "synthetic", declaredDeviceCount: 1, devices: [device]))
    guard Foundation.FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
        fatalError("cannot write \(path)")
    }
}

func fileSize(_ path: String) -> Int {
    ((try? Foundation.FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// PyYAML's C loader in a long-lived python3, asked for one timed sample at a time.
final class PyYAMLPeer {
    let process = Process()
    let input = Pipe(), output = Pipe()
    var pending = Data()

    init() {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "yaml-parse-peer.py"]
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { fatalError("python3: \(error)") }
    }

    /// Seconds per load of `path`, over `repeats` loads.
    func secondsPerLoad(_ path: String, repeats: Int) -> Double {
        input.fileHandleForWriting.write(Data("\(path) \(repeats)\n".utf8))
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[(newline + 1)...])
                guard let seconds = Double(line) else { fatalError("PyYAML peer said \(line)") }
                return seconds
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { fatalError("PyYAML peer ended") }
            pending.append(chunk)
        }
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

func secondsNow() -> Double { Double(nanoseconds()) / 1e9 }

func printReplayTables(rounds: Int) {
    let scratch = NSTemporaryDirectory() + "seatkit-bench-\(getpid())"
    try? Foundation.FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? Foundation.FileManager.default.removeItem(atPath: scratch) }
    let longPath = scratch + "/synthetic-touch-10000.yml"
    writeSyntheticTouchRecording(frames: 10_000, to: longPath)
    let files = sharedRecordings() + [longPath]

    // Parse throughput, interleaved: one Swift sample, one PyYAML sample, per round.
    let parseRounds = max(5, rounds / 3)
    let peer = PyYAMLPeer()
    print("Parse: `RecordingParser.parse(text)` (a validated Recording) against `yaml.load(text, Loader=yaml.CSafeLoader)` (plain dicts and lists) on the same text in memory; \(parseRounds) samples per side (3 for files over 1 MB), interleaved, medians. PyYAML runs in a python3 kept alive beside the report, timed with time.perf_counter, so interpreter start-up is excluded.\n")
    print("| recording | size (KB) | SeatKit ms/parse | SeatKit MB/s | PyYAML C ms/load | PyYAML MB/s | SeatKit ÷ PyYAML (throughput) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    var totalBytes = 0.0, totalSeatKit = 0.0, totalPyYAML = 0.0
    for path in files {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fatalError("cannot read \(path)") }
        let bytes = Double(text.utf8.count)
        let repeats = max(1, Int(2_000_000 / bytes))
        var seatKitSamples: [Double] = [], pyyamlSamples: [Double] = []
        // PyYAML takes seconds per load of the long synthetic file: fewer samples there.
        for round in 0..<(bytes > 1_000_000 ? 3 : parseRounds) {
            for side in (round & 1 == 0 ? [0, 1] : [1, 0]) {
                if side == 0 {
                    let start = secondsNow()
                    for _ in 0..<repeats {
                        do { sink &+= try RecordingParser.parse(text, source: path).devices.count } catch { fatalError("\(error)") }
                    }
                    seatKitSamples.append((secondsNow() - start) / Double(repeats))
                } else {
                    pyyamlSamples.append(peer.secondsPerLoad(path, repeats: max(1, repeats / 4)))
                }
            }
        }
        let s = median(seatKitSamples), p = median(pyyamlSamples)
        totalBytes += bytes; totalSeatKit += s; totalPyYAML += p
        let name = path.split(separator: "/").last.map(String.init) ?? path
        print("| \(name) | \(format(bytes / 1024)) | \(format(s * 1e3)) | \(format(bytes / s / 1e6)) | \(format(p * 1e3)) | \(format(bytes / p / 1e6)) | \(format(p / s))× |")
    }
    print("| all of the above | \(format(totalBytes / 1024)) | \(format(totalSeatKit * 1e3)) | \(format(totalBytes / totalSeatKit / 1e6)) | \(format(totalPyYAML * 1e3)) | \(format(totalBytes / totalPyYAML / 1e6)) | \(format(totalPyYAML / totalSeatKit))× |")
    peer.close()

    // Replay through libinput: start-up (from run() to libinput having read the first frame)
    // and events per second, medians over a few replays of each file.
    let replayRounds = max(3, rounds / 10)
    print("\nReplay: `LibinputReplay(recording:).run()`, a fresh umockdev testbed and replay-worker each time; \(replayRounds) replays per file, medians. Start-up: from run() to libinput having read the first frame. Events/s: libinput events delivered over the whole run, and over the run after start-up.\n")
    print("| recording | frames | libinput events | start-up (ms) | whole replay (ms) | events/s, whole | events/s after start-up |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for path in files {
        let recording: Recording
        do { recording = try RecordingParser.parse(contentsOf: path) } catch { fatalError("\(error)") }
        var startups: [Double] = [], totals: [Double] = []
        var events = 0, frames = 0
        for _ in 0..<replayRounds {
            var firstFrame: Double?
            let options = ReplayOptions(progress: { done, _ in if done == 1 { firstFrame = secondsNow() } })
            let start = secondsNow()
            let result: LibinputReplayResult
            do { result = try LibinputReplay(recording: recording, options: options).run() } catch { fatalError("\(path): \(error)") }
            let end = secondsNow()
            startups.append((firstFrame ?? end) - start)
            totals.append(end - start)
            events = result.events.count
            frames = result.framesWritten
        }
        let startup = median(startups), total = median(totals)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        print("| \(name) | \(frames) | \(events) | \(format(startup * 1e3)) | \(format(total * 1e3)) | \(Int(Double(events) / total)) | \(Int(Double(events) / (total - startup))) |")
    }
}

/// A synthetic recording that libinput turns into about a million events, replayed through
/// libinput and routed into a router; the heap in use (glibc's count) after the first tenth
/// of the events and after all of them, and allocations on the router's thread in between.
func printReplayMemoryTable() {
    let scratch = NSTemporaryDirectory() + "seatkit-bench-\(getpid())"
    try? Foundation.FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? Foundation.FileManager.default.removeItem(atPath: scratch) }
    let path = scratch + "/synthetic-touch-million.yml"
    let frames = 505_000
    writeSyntheticTouchRecording(frames: frames, to: path)
    let size = fileSize(path)
    let parseStart = secondsNow()
    let recording: Recording
    do { recording = try RecordingParser.parse(contentsOf: path) } catch { fatalError("\(error)") }
    let parseSeconds = secondsNow() - parseStart
    let replayStart = secondsNow()
    let result: LibinputReplayResult
    do { result = try LibinputReplay(recording: recording).run() } catch { fatalError("\(error)") }
    let replaySeconds = secondsNow() - replayStart

    let scene = RoutingScene()
    let translator = DeviceEventTranslator()
    let events = result.events
    let tenth = events.count / 10
    let heapBefore = heapInUse()
    let routeStart = secondsNow()
    var i = 0
    while i < tenth {
        let input = translator.translate(events[i], router: scene.router)
        scene.clock.advance(to: input.time)
        scene.router.inject(input)
        i += 1
    }
    let heapWarm = heapInUse()
    let allocationsBefore = seatkit_thread_allocations()
    while i < events.count {
        let input = translator.translate(events[i], router: scene.router)
        scene.clock.advance(to: input.time)
        scene.router.inject(input)
        i += 1
    }
    let allocations = seatkit_thread_allocations() - allocationsBefore
    let routeSeconds = secondsNow() - routeStart
    let heapAfter = heapInUse()
    print("Synthetic touchscreen recording: \(frames) frames, \(size / 1_000_000) MB; parsed in \(format(parseSeconds)) s, replayed through libinput in \(format(replaySeconds)) s (\(Int(Double(events.count) / replaySeconds)) events/s), \(events.count) libinput events routed into a RoutingScene router in \(format(routeSeconds)) s.\n")
    print("| measure | value |")
    print("|---|---:|")
    print("| libinput events routed | \(events.count) |")
    print("| heap growth over the first tenth (\(tenth) events: warm-up) | \(heapWarm - heapBefore) bytes |")
    print("| heap growth over the other \(events.count - tenth) events | \(heapAfter - heapWarm) bytes |")
    print("| allocations on the router's thread over those events (translation + routing) | \(allocations) |")
    sink &+= scene.delegate.drops
}
