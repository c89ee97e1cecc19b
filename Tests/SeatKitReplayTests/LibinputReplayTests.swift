import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// Real libinput under umockdev: every shared recording goes through it.
@Suite struct LibinputReplayTests {
    /// What libinput must report for a keyboard: each press of a key not held, each release
    /// of a key held; kernel repeats and a release without its press are not key events.
    static func expectedKeys(_ device: RecordedDevice) -> [DeviceEvent.Kind] {
        var held = Set<UInt16>()
        var keys: [DeviceEvent.Kind] = []
        for event in device.frames.flatMap(\.events) where event.type == 1 {
            if event.value == 1, held.insert(event.code).inserted { keys.append(.keyboardKey(key: UInt32(event.code), pressed: true)) }
            if event.value == 0, held.remove(event.code) != nil { keys.append(.keyboardKey(key: UInt32(event.code), pressed: false)) }
        }
        return keys
    }

    @Test func aDeviceLibinputRefusesFailsWithLibinputsReason() throws {
        // Only EV_MSC: nothing libinput can use. Tried twice (a device that is not added is
        // retried once on a fresh testbed), then an error that carries libinput's own log.
        var device = SyntheticDevice.mouse(name: "SeatKit Scan Code Box")
        device.codes = [EvdevCodes.EV_MSC: [4]]
        device.udevProperties = ["ID_INPUT=1"]
        let recording = try SyntheticRecordings.recording([device], name: "refused.yml")
        #expect {
            try LibinputReplay(recording: recording).run()
        } throws: { error in
            let text = "\(error)"
            return text.contains("could not add /dev/input/event100 (refused.yml:\(recording.devices[0].line): device 0, \"SeatKit Scan Code Box\")")
                && recording.devices[0].line > 0 && text.contains("not tagged as supported input device")
                && text.contains("the same on a second try")
        }
    }

    @Test func theSameRecordingGivesTheSameEventsEveryTime() throws {
        // A touchpad (libinput's gesture and tap state machines, its timers) and, where
        // they are here, the third-party recordings.
        let recordings = try [SyntheticRecordings.touchpadThreeFingerSwipe()] + SharedRecordings.parsedWhereAvailable().map(\.recording)
        for recording in recordings {
            let first = try LibinputReplay(recording: recording).run().events
            let second = try LibinputReplay(recording: recording).run().events
            #expect(first.count > 10, "\(recording.source)")
            #expect(first == second, "\(recording.source)")
        }
    }

    @Test func progressIsReportedAfterEveryBatch() throws {
        let recording = try SyntheticRecordings.keyboard()
        var seen: [Int] = []
        var options = ReplayOptions()
        options.progress = { done, total in
            #expect(total == 8)
            seen.append(done)
        }
        _ = try LibinputReplay(recording: recording, options: options).run()
        #expect(seen == [8], "one device: one batch")
        seen = []
        options.maximumBatchFrames = 3
        _ = try LibinputReplay(recording: recording, options: options).run()
        #expect(seen == [3, 6, 8])
    }

    @Test func aMissingWorkerIsAClearFailureNotASkip() throws {
        let recording = try SyntheticRecordings.keyboard()
        do {
            _ = try LibinputReplay(recording: recording, options: ReplayOptions(workerExecutable: "/nonexistent/seatkit")).run()
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("/nonexistent/seatkit"))
        }
    }

    @Test func naturalScrollingAndLeftHandedReachLibinput() throws {
        let config = DeviceConfiguration(naturalScrolling: true, leftHanded: true)
        let events = try LibinputReplay(recording: SyntheticRecordings.mouse(), options: ReplayOptions(configuration: config)).run().events
        let buttons = events.compactMap { if case .pointerButton(let b, true) = $0.kind { b } else { nil } }
        #expect(buttons == [0x111, 0x110], "left-handed swaps the buttons")
        let scroll = events.compactMap { if case .pointerScroll(let s) = $0.kind { s } else { nil } }
        #expect(scroll.map(\.verticalV120) == [-120], "natural scrolling inverts the wheel")
        #expect(scroll.first?.naturalScrolling == true)
        let routed = ReplayHarness().route(events).inputEvents.compactMap { if case .pointerAxis(let a) = $0.kind { a } else { nil } }
        #expect(routed.first?.invertedDirection == true)
    }

    @Test func deviceConfigurationReachesLibinput() throws {
        // Tap-to-click is off by default: a short one-finger tap clicks only when enabled.
        var s = FrameScript()
        s.frame(SyntheticRecordings.touch(slot: 0, trackingID: 1, x: 1500, y: 900) + [FrameScript.key(0x14a, 1), FrameScript.key(0x145, 1), FrameScript.abs(0, 1500), FrameScript.abs(1, 900)], advance: 30_000)
        s.frame([FrameScript.abs(0x39, -1), FrameScript.key(0x14a, 0), FrameScript.key(0x145, 0)])
        var pad = SyntheticDevice.touchpad()
        pad.codes[1]!.append(0x145)
        pad.frames = s.frames
        let recording = try SyntheticRecordings.recording([pad], name: "tap.yml")
        func buttons(_ config: DeviceConfiguration?) throws -> [DeviceEvent.Kind] {
            try LibinputReplay(recording: recording, options: ReplayOptions(configuration: config)).run().events.map(\.kind).filter {
                if case .pointerButton = $0 { true } else { false }
            }
        }
        #expect(try buttons(nil).isEmpty)
        #expect(try buttons(DeviceConfiguration(tapToClick: true)) == [.pointerButton(button: 0x110, pressed: true), .pointerButton(button: 0x110, pressed: false)])
    }
}

/// libinput's udev backend, as a compositor uses it, over the testbed's udev.
@Suite struct UdevSeatReplayTests {
    @Test func udevContextOnSeat0FindsTheDevicesAndGivesTheSameEvents() throws {
        let recording = try SyntheticRecordings.keyboard()
        var options = ReplayOptions()
        options.seat = "seat0"
        let viaUdev = try LibinputReplay(recording: recording, options: options).run().events
        let viaPath = try LibinputReplay(recording: recording).run().events
        #expect(viaUdev.filter { if case .keyboardKey = $0.kind { true } else { false } }.count == 6, "A, Shift, Enter: pressed and released")
        #expect(viaUdev.map(\.kind) == viaPath.map(\.kind))
    }
}

/// Real libinput on the third-party recordings' devices, run by ``thirdPartyRecording(_:)``.
/// (How fast a long recording replays is the benchmarks' business, not a test's.)
enum LibinputOnRealDevices {
    static let all: [ThirdPartyCheck] =
        SharedRecordings.expected.map { entry in
            ThirdPartyCheck("everySharedRecordingReplaysThroughLibinput(\(entry.file))") { try everySharedRecordingReplaysThroughLibinput(file: entry.file) }
        } + [
            ThirdPartyCheck("threeFingerSwipeRecordingIsASwipe", threeFingerSwipeRecordingIsASwipe),
            ThirdPartyCheck("twoFingerScrollOnAnOldTouchpadScrolls", twoFingerScrollOnAnOldTouchpadScrolls),
        ]

    static func everySharedRecordingReplaysThroughLibinput(file: String) throws {
        let recording = try RecordingParser.parse(contentsOf: SharedRecordings.path(file))
        let result = try LibinputReplay(recording: recording).run()
        #expect(result.framesWritten == recording.devices.reduce(0) { $0 + $1.frames.count })
        let added = result.events.compactMap { if case .deviceAdded(let d) = $0.kind { d.name } else { nil } }
        #expect(added == recording.devices.map(\.name), "libinput took every device")
        for (index, device) in recording.devices.enumerated() {
            let number = UInt32(index + 1)
            let mine = result.events.filter { $0.device == number }
            let caps: DeviceCapabilities = mine.compactMap { if case .deviceAdded(let d) = $0.kind { d.capabilities } else { nil } }.first ?? DeviceCapabilities()
            if caps.contains(.keyboard) {
                let keys = mine.map(\.kind).filter { if case .keyboardKey = $0 { true } else { false } }
                #expect(keys == LibinputReplayTests.expectedKeys(device), "\(device.name): libinput's keys, one by one")
            }
            if device.has(type: 2, code: 0) {
                // Unaccelerated motion of a mouse is its raw counts (1000 dpi normalization).
                let raw = device.frames.flatMap(\.events).filter { $0.type == 2 && $0.code == 0 }.reduce(0) { $0 + Int($1.value) }
                let seen = mine.reduce(0.0) { if case .pointerMotion(_, _, let ux, _) = $1.kind { $0 + ux } else { $0 } }
                #expect(abs(seen - Double(raw)) < 1, "\(device.name): horizontal motion adds up")
            }
            if caps.contains(.gesture) {
                let moved = mine.contains { switch $0.kind { case .pointerMotion, .pointerScroll, .gesture: true; default: false } }
                #expect(moved, "\(device.name): the touchpad produced motion, scroll or gestures")
            }
        }
        #expect(zip(result.events, result.events.dropFirst()).allSatisfy { $0.time <= $1.time }, "times never go back")
    }

    static func threeFingerSwipeRecordingIsASwipe() throws {
        let recording = try RecordingParser.parse(contentsOf: SharedRecordings.path("touchpad-3fg-swipe-paperwm.yml"))
        let result = try LibinputReplay(recording: recording).run()
        let swipes = result.events.compactMap { if case .gesture(let g) = $0.kind, g.kind == .swipe { g } else { nil } }
        #expect(swipes.filter { $0.phase == .begin }.count == 2, "a swipe right, then a swipe left")
        #expect(swipes.allSatisfy { $0.fingers == 3 })
        let right = swipes.prefix { $0.phase != .end(cancelled: false) }.reduce(0.0) { $0 + $1.unacceleratedDelta.dx }
        #expect(right > 0)
    }

    static func twoFingerScrollOnAnOldTouchpadScrolls() throws {
        let recording = try RecordingParser.parse(contentsOf: SharedRecordings.path("touchpad-ite-2fg-scroll-li1.12.yml"))
        let result = try LibinputReplay(recording: recording).run()
        let scrolls = result.events.compactMap { if case .pointerScroll(let s) = $0.kind { s } else { nil } }
        #expect(!scrolls.isEmpty)
        #expect(scrolls.allSatisfy { $0.source == .finger })
    }
}
