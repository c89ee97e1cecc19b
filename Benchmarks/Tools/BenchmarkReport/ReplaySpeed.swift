import Foundation
import SeatKit
import SeatKitLibinput
import SeatKitReplay

// Issue 14, replay speed: × real time (the recording's own duration, what `libinput replay`
// takes, over the replay's wall time), start-up, and parse throughput and its linearity.

/// A mouse moving one count right every `1 / hz` seconds for `seconds`, clicking every second.
func syntheticMouseText(hz: Int, seconds: Int) -> String {
    var script = FrameScript()
    let step = Int64(1_000_000 / hz)
    for i in 0..<(hz * seconds) {
        if i % hz == hz / 2 {
            script.frame([EvdevEvent(type: 4, code: 4, value: 0x90001), FrameScript.key(0x110, 1)], advance: step)
        } else if i % hz == hz / 2 + hz / 10 {
            script.frame([EvdevEvent(type: 4, code: 4, value: 0x90001), FrameScript.key(0x110, 0)], advance: step)
        } else {
            script.frame([FrameScript.rel(0, 1), FrameScript.rel(1, i % 3 == 0 ? 1 : 0)], advance: step)
        }
    }
    var device = SyntheticDevice.mouse()
    device.frames = script.frames
    return RecordingWriter.text(of: Recording(source: "synthetic", declaredDeviceCount: 1, devices: [device]))
}

func printReplaySpeedTable(rounds: Int) {
    var inputs: [(name: String, bytes: [UInt8])] = []
    for path in sharedRecordings() {
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        inputs.append((path.split(separator: "/").last.map(String.init) ?? path, [UInt8](data)))
    }
    inputs.append(("synthetic mouse, 1 kHz, 60 s", Array(syntheticMouseText(hz: 1000, seconds: 60).utf8)))
    inputs.append(("synthetic mouse, 8 kHz, 6 s", Array(syntheticMouseText(hz: 8000, seconds: 6).utf8)))
    let replayRounds = max(3, rounds / 10)

    print("Release build. Per recording, \(replayRounds) runs, medians. *Parse*: `RecordingParser.parse(bytes:source:)` from bytes in memory to a checked `Recording`. *Cold replay*: `LibinputReplay(recording:).run()` (a fresh umockdev testbed and worker process, libinput's events back in this process), wall time. *Warm replay*: `ReplaySession.replay` on a session that has replayed before (one worker and testbed for every replay of this table; devices added and removed around each replay). *× real time*: the recording's duration (first to last frame, what `libinput replay` takes) over the replay's wall time. *Start-up*: the same cold replay of only each device's first frame. Every warm replay's events are checked equal to the cold replay's.\n")
    print("| recording | size (KB) | parse (ms) | parse MB/s | frames | duration (s) | cold replay (ms) | cold × real time | warm replay (ms) | warm × real time | start-up (ms) | libinput events |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    let session = ReplaySession()
    defer { session.close() }
    var fastest: [(name: String, duration: Double, cold: Double, warm: Double, startup: Double)] = []
    for input in inputs {
        var parseSamples: [Double] = []
        var recording: Recording?
        let repeats = max(1, 2_000_000 / max(1, input.bytes.count))
        for _ in 0..<replayRounds {
            let start = secondsNow()
            for _ in 0..<repeats {
                do { recording = try RecordingParser.parse(bytes: input.bytes, source: input.name) } catch { fatalError("\(error)") }
            }
            parseSamples.append((secondsNow() - start) / Double(repeats))
        }
        guard let recording else { fatalError() }
        var first = recording
        for i in first.devices.indices { first.devices[i].frames = Array(first.devices[i].frames.prefix(1)) }
        var replaySamples: [Double] = [], startupSamples: [Double] = [], warmSamples: [Double] = []
        var events = 0
        // The session's first replay of all starts its worker: not counted.
        if session.statistics.replays == 0 {
            do { _ = try session.replay(first) } catch { fatalError("\(input.name): \(error)") }
        }
        for _ in 0..<replayRounds {
            var start = secondsNow()
            let cold: [DeviceEvent]
            do { cold = try LibinputReplay(recording: recording).run().events } catch { fatalError("\(input.name): \(error)") }
            events = cold.count
            replaySamples.append(secondsNow() - start)
            start = secondsNow()
            let warm: [DeviceEvent]
            do { warm = try session.replay(recording).events } catch { fatalError("\(input.name): \(error)") }
            warmSamples.append(secondsNow() - start)
            guard warm == cold else { fatalError("\(input.name): the warm session's events differ from a fresh worker's") }
            start = secondsNow()
            do { _ = try LibinputReplay(recording: first).run() } catch { fatalError("\(input.name): \(error)") }
            startupSamples.append(secondsNow() - start)
        }
        let parse = median(parseSamples), replay = median(replaySamples), startup = median(startupSamples), warm = median(warmSamples)
        fastest.append((input.name, recording.duration.seconds, replaySamples.min()!, warmSamples.min()!, startupSamples.min()!))
        let frames = recording.devices.reduce(0) { $0 + $1.frames.count }
        let duration = recording.duration.seconds
        print("| \(input.name) | \(format(Double(input.bytes.count) / 1024)) | \(format(parse * 1e3)) | \(format(Double(input.bytes.count) / parse / 1e6)) | \(frames) | \(format(duration)) | \(format(replay * 1e3)) | \(format(duration / replay))× | \(format(warm * 1e3)) | \(format(duration / warm))× | \(format(startup * 1e3)) | \(events) |")
    }

    let stats = session.statistics
    print("\nWarm session: \(stats.replays) replays on \(stats.workersStarted) worker process(es).")
    // On a shared machine the median carries other processes' load; the fastest of the runs
    // is what the replay itself costs.
    print("\nFastest of the \(replayRounds) runs:\n")
    print("| recording | cold replay (ms) | cold × real time | warm replay (ms) | warm × real time | start-up (ms) |")
    print("|---|---:|---:|---:|---:|---:|")
    for f in fastest {
        print("| \(f.name) | \(format(f.cold * 1e3)) | \(format(f.duration / f.cold))× | \(format(f.warm * 1e3)) | \(format(f.duration / f.warm))× | \(format(f.startup * 1e3)) |")
    }

    // Linear: the same mouse at 1, 4 and 16 times the length parses at the same rate.
    print("\nParse throughput against size (synthetic 1 kHz mouse):\n")
    print("| recording | size (MB) | parse (ms) | MB/s |")
    print("|---|---:|---:|---:|")
    for seconds in [15, 60, 240] {
        let bytes = Array(syntheticMouseText(hz: 1000, seconds: seconds).utf8)
        var samples: [Double] = []
        for _ in 0..<3 {
            let start = secondsNow()
            do { sink &+= try RecordingParser.parse(bytes: bytes, source: "mouse").devices.count } catch { fatalError("\(error)") }
            samples.append(secondsNow() - start)
        }
        let t = median(samples)
        print("| 1 kHz mouse, \(seconds) s | \(format(Double(bytes.count) / 1e6)) | \(format(t * 1e3)) | \(format(Double(bytes.count) / t / 1e6)) |")
    }
}

/// Warm replays only: every shared recording through one `ReplaySession`, round-robin for
/// `rounds` rounds (after one unmeasured replay of each), medians and the fastest. Each warm
/// replay's events are checked equal to the session's first replay of that recording.
func printWarmReplayTable(rounds: Int) {
    var recordings: [(name: String, recording: Recording)] = []
    // SEATKIT_WARM_ONLY=touchpad-ite: only the recordings whose file name contains it (for profiling).
    let only = getenv("SEATKIT_WARM_ONLY").map { String(cString: $0) }
    for path in sharedRecordings() {
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let only, !name.contains(only) { continue }
        do { recordings.append((name, try RecordingParser.parse(bytes: [UInt8](data), source: name))) } catch { fatalError("\(error)") }
    }
    let session = ReplaySession()
    defer { session.close() }
    var reference: [[DeviceEvent]] = []
    for r in recordings {
        do { reference.append(try session.replay(r.recording).events) } catch { fatalError("\(r.name): \(error)") }
    }
    var samples = [[Double]](repeating: [], count: recordings.count)
    for _ in 0..<rounds {
        for (i, r) in recordings.enumerated() {
            let start = secondsNow()
            let events: [DeviceEvent]
            do { events = try session.replay(r.recording).events } catch { fatalError("\(r.name): \(error)") }
            samples[i].append(secondsNow() - start)
            guard events == reference[i] else { fatalError("\(r.name): a warm replay's events differ from the session's first") }
        }
    }
    print("| recording | duration (s) | warm replay median (ms) | × real time | fastest (ms) | × real time |")
    print("|---|---:|---:|---:|---:|---:|")
    for (i, r) in recordings.enumerated() {
        let d = r.recording.duration.seconds, m = median(samples[i]), f = samples[i].min()!
        print("| \(r.name) | \(format(d)) | \(format(m * 1e3)) | \(format(d / m))× | \(format(f * 1e3)) | \(format(d / f))× |")
    }
    let stats = session.statistics
    print("\nWarm session: \(stats.replays) replays on \(stats.workersStarted) worker process(es), \(rounds) rounds.")
}
