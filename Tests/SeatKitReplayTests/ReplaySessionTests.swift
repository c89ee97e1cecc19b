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
    }

    @Test func theShimAnswersWhatUmockdevWouldFromTheIoctlRecord() throws {
        // The answers file carries what the ioctl record gives umockdev: name, bits, axes.
        let device = try SyntheticRecordings.touchpadThreeFingerSwipe().devices[0]
        let answers = EmulatedDevice(device: device, number: 100).ioctlAnswers
        var nrs: [UInt8] = []
        var offset = 0
        while offset + 12 <= answers.count {
            nrs.append(answers[offset])
            let length = Int(answers[offset + 8]) | Int(answers[offset + 9]) << 8 | Int(answers[offset + 10]) << 16
            offset += 12 + length
        }
        #expect(offset == answers.count)
        // version, id, name, phys, uniq, prop, the event-type bits, the key bits, MT slots.
        for nr: UInt8 in [0x01, 0x02, 0x06, 0x07, 0x08, 0x09, 0x20, 0x21, 0x0a] { #expect(nrs.contains(nr), "nr \(nr)") }
        // One EVIOCGABS answer per absolute axis.
        #expect(nrs.filter { $0 >= 0x40 && $0 < 0x80 }.count == device.codes[EvdevCodes.EV_ABS]?.count)
    }
}
