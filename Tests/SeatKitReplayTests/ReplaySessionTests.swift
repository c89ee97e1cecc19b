#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay

/// One worker and testbed for many replays (``ReplaySession``) gives what a fresh worker
/// gives, byte for byte, whatever was replayed on it before.
@Suite struct ReplaySessionTests {
    /// A replay's JSON trace (docs/replay-trace-schema.md), as `seatkit replay --format json` prints it.
    static func json(_ recording: Recording, options: ReplayOptions = ReplayOptions(), session: ReplaySession?) throws -> String {
        let harness = ReplayHarness(session: session)
        let run = try harness.replay(recording, options: options)
        return ReplayTraceJSON.document(run: run, events: run.routedEvents(surfaces: harness.surfaces),
                                        recording: recording.source, recordingDuration: recording.duration.microseconds)
    }

    @Test func aWarmSessionGivesTheJSONOfAFreshWorkerByteForByte() throws {
        // Every shared recording (one or two devices, DMI, quirks), synthetic devices, a
        // configuration and a device unplugged in the middle: different devices and node
        // counts one after another on the same testbed and worker.
        var cases: [(name: String, recording: Recording, options: ReplayOptions)] = []
        for (file, _) in SharedRecordings.expected {
            cases.append((file, try RecordingParser.parse(contentsOf: SharedRecordings.path(file)), ReplayOptions()))
        }
        cases.append(("touchscreen", try SyntheticRecordings.touchscreenTwoFingers(), ReplayOptions()))
        cases.append(("swipe, tapping on", try SyntheticRecordings.touchpadThreeFingerSwipe(), ReplayOptions(configuration: DeviceConfiguration(tapToClick: true))))
        cases.append(("keyboard and mouse, mouse unplugged", try SyntheticRecordings.recording([SyntheticRecordings.keyboard().devices[0], SyntheticRecordings.mouse().devices[0]], name: "two"),
                      ReplayOptions(removals: [(device: 1, time: 20_000)])))

        let fresh = try cases.map { try Self.json($0.recording, options: $0.options, session: nil) }
        let session = ReplaySession()
        defer { session.close() }
        // Twice through, the second time in reverse order.
        for i in Array(cases.indices) + Array(cases.indices.reversed()) {
            let warm = try Self.json(cases[i].recording, options: cases[i].options, session: session)
            #expect(warm == fresh[i], "\(cases[i].name)")
        }
        #expect(session.statistics.replays == cases.count * 2)
        #expect(session.statistics.workersStarted == 1)
        // The JSON is not trivially equal: the cases differ from one another.
        #expect(Set(fresh).count == cases.count)
    }

    @Test func aFailedReplayLeavesTheSessionUsable() throws {
        let session = ReplaySession()
        defer { session.close() }
        let keyboard = try SyntheticRecordings.keyboard()
        let expected = try LibinputReplay(recording: keyboard).run().events
        #expect(try session.replay(keyboard).events == expected)
        // Removals need the path backend: refused before anything is sent.
        #expect(throws: ReplayError.self) {
            try session.replay(keyboard, options: { var o = ReplayOptions(removals: [(device: 0, time: 0)]); o.seat = "seat0"; return o }())
        }
        #expect(try session.replay(keyboard).events == expected)
        // A worker that died between replays is replaced, and writing to it raises no
        // SIGPIPE in this process (which would end the test run).
        let pid = try #require(session.workerProcessID)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let after = try session.replay(keyboard)
        #expect(after.events == expected && after.warnings.isEmpty)
        #expect(session.workerProcessID != pid)
        #expect(session.statistics.workersStarted == 3)
    }

    @Test func threadsSharingASessionTakeTurnsOnOneWorker() throws {
        let recordings = [try SyntheticRecordings.keyboard(), try SyntheticRecordings.mouse(),
                          try SyntheticRecordings.touchscreenTwoFingers(), try SyntheticRecordings.touchpadThreeFingerSwipe()]
        let expected = try recordings.map { try LibinputReplay(recording: $0).run().events }
        let session = ReplaySession()
        defer { session.close() }
        let results = Mutex<[Int: Result<[DeviceEvent], ReplayError>]>([:])
        DispatchQueue.concurrentPerform(iterations: recordings.count) { i in
            let outcome: Result<[DeviceEvent], ReplayError>
            do throws(ReplayError) { outcome = .success(try session.replay(recordings[i]).events) } catch { outcome = .failure(error) }
            results.withLock { $0[i] = outcome }
        }
        for i in recordings.indices {
            #expect(try results.withLock { $0[i] }!.get() == expected[i], "recording \(i)")
        }
        #expect(session.statistics.workersStarted == 1)
    }

    /// The shim's answers (``EmulatedDevice/ioctlAnswers``) carry what umockdev answered from
    /// the ioctl record before, request by request, for a touchpad (MT slots, axes), a
    /// keyboard (key repeat) and a mouse.
    @Test func theShimsAnswersAreTheIoctlRecordsAnswers() throws {
        let devices = [try SyntheticRecordings.touchpadThreeFingerSwipe().devices[0], try SyntheticRecordings.keyboard().devices[0],
                       try SyntheticRecordings.mouse().devices[0]]
        for device in devices {
            let emulated = EmulatedDevice(device: device, number: 100)
            // The answers file: nr → (result, payload).
            var answers: [UInt8: (result: Int32, payload: [UInt8])] = [:]
            let bytes = emulated.ioctlAnswers
            var offset = 0
            func le32(_ b: [UInt8], _ i: Int) -> Int32 { Int32(bitPattern: UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24) }
            while offset + 12 <= bytes.count {
                let length = Int(le32(bytes, offset + 8))
                answers[bytes[offset]] = (le32(bytes, offset + 4), Array(bytes[(offset + 12)..<(offset + 12 + length)]))
                offset += 12 + length
            }
            #expect(offset == bytes.count)
            // No phys or uniq: ENOENT, as the kernel (and umockdev, lacking the line) answers.
            #expect(answers[0x07]?.result == -Int32(ENOENT) && answers[0x08]?.result == -Int32(ENOENT))
            // The ioctl record umockdev was given: `NAME(ARG) RESULT HEX`.
            var checked = 0
            for line in emulated.ioctlRecord.split(separator: "\n") where !line.hasPrefix("@DEV") {
                let parts = line.split(separator: " ")
                let name = String(parts[0]), result = Int32(parts[1])!
                var payload: [UInt8] = []
                var hex = Array(parts[2].utf8)[...]
                while hex.count >= 2 {
                    payload.append(UInt8(String(decoding: hex.prefix(2), as: UTF8.self), radix: 16)!)
                    hex = hex.dropFirst(2)
                }
                func argument() -> UInt8 { UInt8(name.split(separator: "(")[1].dropLast())! }
                let nr: UInt8
                switch name.split(separator: "(")[0] {
                case "EVIOCGVERSION": nr = 0x01
                case "EVIOCGID": nr = 0x02
                case "EVIOCGREP": nr = 0x03
                case "EVIOCGNAME": nr = 0x06
                case "EVIOCGPROP": nr = 0x09
                case "EVIOCGKEY": nr = 0x18
                case "EVIOCGLED": nr = 0x19
                case "EVIOCGSW": nr = 0x1b
                case "EVIOCGBIT": nr = 0x20 + argument()
                case "EVIOCGABS": nr = 0x40 + argument()
                case "EVIOCGMTSLOTS":
                    // { code, values... }: the shim keeps (code, value) pairs.
                    let pairs = try #require(answers[0x0a]).payload
                    let code = le32(payload, 0), value = le32(payload, 4)
                    #expect(stride(from: 0, to: pairs.count, by: 8).contains { le32(pairs, $0) == code && le32(pairs, $0 + 4) == value }, "MT slots \(code)")
                    checked += 1
                    continue
                default:
                    Issue.record("unexpected line \(line)")
                    continue
                }
                let answer = try #require(answers[nr], "\(name)")
                if nr == 0x06 {
                    // The name: umockdev pads it to the 255 bytes libevdev asks; the shim copies
                    // the string and its NUL, and returns the same length.
                    #expect(answer.result == result && Array(payload.prefix(answer.payload.count)) == answer.payload, "\(name)")
                } else {
                    // Variable-length requests return their size, fixed ones 0: as recorded.
                    #expect(answer.payload == payload && answer.result == result, "\(name)")
                }
                checked += 1
            }
            #expect(checked > 10)
        }
    }
}
