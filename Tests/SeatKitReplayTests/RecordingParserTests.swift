import Testing
import SeatKitReplay

/// The parser against the third-party recordings: PyYAML's counts, an old file, two devices
/// on one timeline, key repeats, a release first.
/// The parser on the third-party recordings, run by ``thirdPartyRecording(_:)``.
enum ThirdPartyParserChecks {
    static let all: [ThirdPartyCheck] =
        SharedRecordings.expected.map { entry in
            ThirdPartyCheck("everySharedRecordingParsesWithPyYAMLsCounts(\(entry.file))") { try everySharedRecordingParsesWithPyYAMLsCounts(file: entry.file) }
        } + [
            ThirdPartyCheck("oldFileWithoutSystemOsAndWithEmptyQuirksParses", oldFileWithoutSystemOsAndWithEmptyQuirksParses),
            ThirdPartyCheck("multiDeviceFileKeepsTheSharedTimelineAndMergesByTime", multiDeviceFileKeepsTheSharedTimelineAndMergesByTime),
            ThirdPartyCheck("keyRepeatsAreKept", keyRepeatsAreKept),
            ThirdPartyCheck("firstFrameMayBeAReleaseWithoutPress", firstFrameMayBeAReleaseWithoutPress),
        ]

    static func everySharedRecordingParsesWithPyYAMLsCounts(file: String) throws {
        let recording = try RecordingParser.parse(contentsOf: SharedRecordings.path(file))
        let expected = SharedRecordings.expected.first { $0.file == file }!.devices
        #expect(recording.devices.count == expected.count)
        #expect(recording.warnings.isEmpty)
        for (device, want) in zip(recording.devices, expected) {
            #expect(device.name == want.name)
            #expect(device.frames.count == want.frames)
            #expect(device.eventCount == want.events)
            #expect(device.frames.allSatisfy { $0.events.last?.isSynReport == true })
        }
    }

    static func oldFileWithoutSystemOsAndWithEmptyQuirksParses() throws {
        let r = try RecordingParser.parse(contentsOf: SharedRecordings.path("touchpad-ite-2fg-scroll-li1.12.yml"))
        #expect(r.libinputVersion == "1.12.6")
        #expect(r.operatingSystem == nil)
        #expect(r.dmi?.hasPrefix("dmi:bvnINSYDECorp.") == true)
        let d = r.devices[0]
        #expect(d.quirks.isEmpty)
        #expect(d.absoluteAxes[0x2f] == AbsoluteAxisInfo(minimum: 0, maximum: 2))
        #expect(d.properties == [0, 2])
        #expect(d.identity == InputDeviceIdentity(bustype: 3, vendor: 1739, product: 10600, version: 272))
        #expect(d.frames[0].time == 0)
        #expect(d.frames[1].time == 9967)
    }

    static func multiDeviceFileKeepsTheSharedTimelineAndMergesByTime() throws {
        let r = try RecordingParser.parse(contentsOf: SharedRecordings.path("multi-mouse-keyboard-cs2.yml"))
        let merged = r.mergedFrames
        #expect(merged.count == 588 + 21)
        #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.frame.time <= $1.frame.time })
        #expect(Set(merged.map(\.device)) == [0, 1])
    }

    static func keyRepeatsAreKept() throws {
        let r = try RecordingParser.parse(contentsOf: SharedRecordings.path("multi-mouse-keyboard-st2.yml"))
        let repeats = r.devices[1].frames.flatMap(\.events).filter { $0.type == 1 && $0.value == 2 }
        #expect(repeats.count == 361)
    }

    static func firstFrameMayBeAReleaseWithoutPress() throws {
        let r = try RecordingParser.parse(contentsOf: SharedRecordings.path("keyboard-at-ibus-test.yml"))
        #expect(r.devices[0].frames[0].events.contains(EvdevEvent(type: 1, code: 28, value: 0)))
    }
}
