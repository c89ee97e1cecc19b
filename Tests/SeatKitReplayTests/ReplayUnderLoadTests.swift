import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// Busy processes that keep the CPU saturated while a test runs, ended by their own
/// process group ids (and after 120 s whatever happens).
final class CPULoad {
    private var pids: [pid_t] = []

    init(processes: Int = 2) {
        for _ in 0..<processes {
            var pid: pid_t = 0
            // Bounded by `timeout` in case this process dies before deinit. Default signal
            // handling and an empty mask (the test runner blocks some signals, and a child
            // inherits that), and a process group of its own, so that deinit ends the
            // timeout and its shell together.
            let words: [String] = ["/usr/bin/timeout", "120", "/bin/sh", "-c", "while :; do :; done"]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
            if posix_spawn(&pid, "/usr/bin/timeout", nil, &attributes, argv, environ) == 0 { pids.append(pid) }
        }
    }

    deinit {
        for pid in pids {
            kill(-pid, SIGKILL) // the group: timeout and its shell
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

/// No write to an emulated node may leave libevdev a piece of an event; a frame of any size
/// goes through, also while other processes take the CPU.
@Suite struct NoStallTests {
    @Test func aTwentyThousandEventFrameReplaysUnderLoad() throws {
        var s = FrameScript(startingAt: 0)
        s.frame([FrameScript.rel(0, 1)])
        s.frame([EvdevEvent](repeating: FrameScript.rel(0, 1), count: 19_999))
        s.frame([FrameScript.rel(0, 1)])
        var mouse = SyntheticDevice.mouse()
        mouse.frames = s.frames
        let recording = try SyntheticRecordings.recording([mouse], name: "huge-frame.yml")
        #expect(recording.devices[0].frames[1].events.count == 20_000)
        let load = CPULoad()
        defer { withExtendedLifetime(load) {} }
        for batch in [1, 4096] {
            var options = ReplayOptions()
            options.maximumBatchFrames = batch
            let result = try LibinputReplay(recording: recording, options: options).run()
            let dx = result.events.reduce(0.0) { if case .pointerMotion(_, _, let ux, _) = $1.kind { $0 + ux } else { $0 } }
            #expect(dx == 20_001, "every REL_X of every frame reached libinput (batches of \(batch))")
            #expect(!result.events.contains { $0.kind == .deviceRemoved }, "libinput kept the device")
            #expect(result.shortWrites == 0, "every write was whole events, taken whole")
        }
    }
}

/// libinput's clock and timers follow the replay's virtual time, so a result never depends
/// on how fast the machine replays.
@Suite struct VirtualTimeTests {
    /// An 8 kHz mouse whose left button bounces: each click is press, release 3 ms later,
    /// press again 3 ms after that, release 60 ms later. Motion every 125 µs in between.
    static func bouncingButton(clicks: Int = 6) throws -> Recording {
        var s = FrameScript(startingAt: 0)
        var clickAt: [Int: [Int32]] = [:]
        for c in 0..<clicks {
            let start = 800 + c * 800 // every 100 ms from 100 ms on, in 125 µs ticks
            clickAt[start] = [1]
            clickAt[start + 24] = [0]
            clickAt[start + 48] = [1]
            clickAt[start + 48 + 480] = [0]
        }
        for tick in 0..<(800 + clicks * 800 + 400) {
            var events = [FrameScript.rel(0, 1)]
            if let value = clickAt[tick]?.first { events = [EvdevEvent(type: 4, code: 4, value: 0x90001), FrameScript.key(0x110, value)] }
            s.frame(events, advance: 125)
        }
        var mouse = SyntheticDevice.mouse(name: "SeatKit Bouncing 8 kHz Mouse")
        mouse.frames = s.frames
        return try SyntheticRecordings.recording([mouse], name: "bouncing-button.yml")
    }

    static func buttons(_ events: [DeviceEvent]) -> [DeviceEvent.Kind] {
        events.map(\.kind).filter { if case .pointerButton = $0 { true } else { false } }
    }

    @Test func aBouncingButtonGivesTheSameClicksAtAnySpeed() throws {
        let recording = try Self.bouncingButton()
        let fast = try LibinputReplay(recording: recording).run()
        // Frame by frame with a pause after each: far slower than the 8 kHz recording, so
        // a timer armed on the wall clock would fire between a bounce's release and press.
        var options = ReplayOptions()
        options.maximumBatchFrames = 1
        options.progress = { done, _ in if done % 4 == 0 { usleep(1000) } }
        let slow = try LibinputReplay(recording: recording, options: options).run()
        #expect(slow.seconds > recording.duration.seconds * 2, "the slow replay fell behind the recording")
        #expect(Self.buttons(fast.events).count == 12, "six clicks, debounced: \(Self.buttons(fast.events).count) button events")
        #expect(Self.buttons(slow.events) == Self.buttons(fast.events))
        #expect(slow.events.count == fast.events.count)
        let firstDifference = slow.events.indices.first { $0 < fast.events.count && slow.events[$0] != fast.events[$0] }
        #expect(firstDifference == nil, "every event and time the same; first difference at \(firstDifference ?? -1)")
    }

    @Test func theSameRecordingGivesByteIdenticalJSONUnderLoad() throws {
        let load = CPULoad()
        defer { withExtendedLifetime(load) {} }
        let file = try SyntheticRecordings.file(SyntheticRecordings.touchpadThreeFingerSwipe(steps: [40, -40]))
        defer { unlink(file) }
        var outputs = Set<String>()
        for _ in 0..<20 {
            let (status, output) = runProcess(SeatkitToolTests.tool, ["replay", file, "--format", "json", "--config", "tap=1"])
            #expect(status == 0, "\(output.prefix(500))")
            outputs.insert(output)
        }
        #expect(outputs.count == 1, "20 runs, one output")
        #expect(outputs.first.map { $0.count > 1000 } == true)
    }
}

/// The worker writes the frames to the nodes itself: the replaying thread hands it a batch
/// and goes on, instead of waiting for libinput to read every 8 KiB (a wake-up of each
/// process per hand-over, each waiting in the run queue on a busy machine).
@Suite struct HandOverTests {
    /// Times the calling thread gave up the processor to wait (Linux `RUSAGE_THREAD`).
    static func voluntarySwitches() -> Int {
        var usage = rusage()
        _ = getrusage(__rusage_who_t(1), &usage) // RUSAGE_THREAD
        return usage.ru_nvcsw
    }

    @Test func anEightKilohertzMouseReplaysWithoutWaitingForEveryWrite() throws {
        // 5 s at 8 kHz: 40,000 frames, 2.9 MB of events, about 350 hand-overs of 8 KiB.
        var s = FrameScript(startingAt: 0)
        for i in 0..<40_000 { s.frame([FrameScript.rel(0, 1), FrameScript.rel(1, i % 3 == 0 ? 1 : 0)], advance: 125) }
        var mouse = SyntheticDevice.mouse(name: "SeatKit 8 kHz Mouse")
        mouse.frames = s.frames
        let recording = try SyntheticRecordings.recording([mouse], name: "mouse-8khz.yml")
        let session = ReplaySession()
        defer { session.close() }
        _ = try session.replay(SyntheticRecordings.mouse())
        var motions = 0
        var options = ReplayOptions()
        options.eventSink = { if case .pointerMotion = $0.kind { motions += 1 } }
        let before = Self.voluntarySwitches()
        let result = try session.replay(recording, options: options)
        let waits = Self.voluntarySwitches() - before
        #expect(motions == 40_000)
        let handOvers = result.evdevEventsWritten * 24 / 8192
        #expect(handOvers > 340)
        // Lock-step, this thread waited at least once per 8 KiB libinput read. Now it waits
        // only while the worker's socket is full (it takes about 200 KiB; the worker reads
        // 64 KiB at a time) or nothing has come back yet (events come in 32 KiB pieces):
        // about 100 times at most here; 14 times for four times as many frames at load 15.
        #expect(waits < handOvers / 2, "the replaying thread waited \(waits) times")
    }
}
