import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// Recordings written by the tests, replayed through real libinput: what comes out is
/// checked event by event against what libinput must report for that input.
@Suite struct SyntheticDevicesMatchLibinputTests {
    /// libinput's normalized position for raw `value` on an axis 0...max.
    func normalized(_ value: Int32, max: Int32 = 4095) -> Double { Double(value) / Double(max + 1) }

    func withoutDeviceAdded(_ events: [DeviceEvent]) -> [DeviceEvent.Kind] {
        events.map(\.kind).filter { if case .deviceAdded = $0 { false } else { true } }
    }

    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-3 }

    @Test func touchscreenSlotReuseAndAFingerThatStays() throws {
        let result = try LibinputReplay(recording: SyntheticRecordings.touchscreenTwoFingers()).run()
        let kinds = withoutDeviceAdded(result.events)
        guard kinds.count == 16 else {
            Issue.record("expected 16 touch events, got \(kinds)")
            return
        }
        func down(_ k: DeviceEvent.Kind, _ slot: Int32, _ x: Int32, _ y: Int32) -> Bool {
            if case .touchDown(let s, let px, let py) = k { return s == slot && close(px, normalized(x)) && close(py, normalized(y)) }
            return false
        }
        func motion(_ k: DeviceEvent.Kind, _ slot: Int32, _ x: Int32, _ y: Int32) -> Bool {
            if case .touchMotion(let s, let px, let py) = k { return s == slot && close(px, normalized(x)) && close(py, normalized(y)) }
            return false
        }
        #expect(down(kinds[0], 0, 1000, 1000))
        #expect(down(kinds[2], 1, 3000, 3000))
        #expect(motion(kinds[4], 0, 1100, 1000))
        #expect(kinds[6] == .touchUp(seatSlot: 0))
        #expect(motion(kinds[8], 1, 3000, 2900))
        #expect(down(kinds[10], 0, 2000, 2000), "the freed seat slot is reused")
        #expect(kinds[12] == .touchUp(seatSlot: 1))
        #expect(kinds[14] == .touchUp(seatSlot: 0))
        for i in stride(from: 1, to: 16, by: 2) { #expect(kinds[i] == .touchFrame) }
        let times: [Int64] = result.events.filter { if case .deviceAdded = $0.kind { false } else { true } }.map(\.time)
        let expectedTimes: [Int64] = (0..<8).flatMap { frame -> [Int64] in [Int64(frame) * 10_000, Int64(frame) * 10_000] }
        #expect(times == expectedTimes, "libinput's times are the recording's frame times")
    }

    @Test func mouseMotionButtonsAndWheel() throws {
        let result = try LibinputReplay(recording: SyntheticRecordings.mouse()).run()
        let kinds = withoutDeviceAdded(result.events)
        #expect(kinds.count == 7, "one scroll, not also the deprecated POINTER_AXIS: \(kinds)")
        guard kinds.count == 7 else { return }
        if case .pointerMotion(_, _, let ux, let uy) = kinds[0] { #expect(ux == 5 && uy == -3) } else { Issue.record("\(kinds[0])") }
        if case .pointerMotion(_, _, let ux, let uy) = kinds[1] { #expect(ux == -2 && uy == 0) } else { Issue.record("\(kinds[1])") }
        #expect(kinds[2] == .pointerButton(button: 0x110, pressed: true))
        #expect(kinds[3] == .pointerButton(button: 0x110, pressed: false))
        if case .pointerScroll(let s) = kinds[4] {
            #expect(s.source == .wheel)
            #expect(s.verticalV120 == 120)
            #expect(s.vertical == 15)
            #expect(!s.hasHorizontal)
        } else { Issue.record("\(kinds[4])") }
        #expect(kinds[5] == .pointerButton(button: 0x111, pressed: true))
        #expect(kinds[6] == .pointerButton(button: 0x111, pressed: false))
    }

    @Test func keyboardKeysWithoutKernelRepeats() throws {
        let result = try LibinputReplay(recording: SyntheticRecordings.keyboard()).run()
        let kinds = withoutDeviceAdded(result.events)
        #expect(kinds == [
            .keyboardKey(key: 30, pressed: true), .keyboardKey(key: 30, pressed: false),
            .keyboardKey(key: 42, pressed: true), .keyboardKey(key: 28, pressed: true),
            .keyboardKey(key: 28, pressed: false), .keyboardKey(key: 42, pressed: false),
        ])
        let lastRelease: Int64 = 600_000 + 33_000 + 10_000 * 5
        #expect(result.events.last.map(\.time) == lastRelease)
    }

    @Test func touchpadThreeFingerSwipe() throws {
        let result = try LibinputReplay(recording: SyntheticRecordings.touchpadThreeFingerSwipe()).run()
        let gestures = result.events.compactMap { if case .gesture(let g) = $0.kind { g } else { nil } }
        let swipes = gestures.filter { $0.kind == .swipe }
        #expect(swipes.first?.phase == .begin)
        #expect(swipes.last?.phase == .end(cancelled: false))
        #expect(swipes.allSatisfy { $0.fingers == 3 })
        let updates = swipes.filter { $0.phase == .update }
        #expect(updates.count >= 10)
        #expect(updates.allSatisfy { $0.unacceleratedDelta.dx > 0 && abs($0.unacceleratedDelta.dy) < 0.01 })
        let pointerMotions = result.events.filter { if case .pointerMotion = $0.kind { true } else { false } }
        #expect(pointerMotions.isEmpty, "three fingers swipe; they never move the pointer")
    }
}

/// A device's recorded `quirks:` reach libinput, as they did on the recording machine.
@Suite struct RecordedQuirksTests {
    @Test func aQuirkThatDisablesTheRightButtonIsHonoured() throws {
        func rightButtons(quirks: [String], apply: Bool = true) throws -> Int {
            var recording = try SyntheticRecordings.mouse()
            recording.devices[0].quirks = quirks
            var options = ReplayOptions()
            options.appliesRecordedQuirks = apply
            return try LibinputReplay(recording: recording, options: options).run().events.filter {
                if case .pointerButton(0x111, _) = $0.kind { true } else { false }
            }.count
        }
        #expect(try rightButtons(quirks: []) == 2)
        #expect(try rightButtons(quirks: ["AttrEventCodeDisable=BTN_RIGHT"]) == 0)
        #expect(try rightButtons(quirks: ["AttrEventCodeDisable=BTN_RIGHT"], apply: false) == 2)
    }

    @Test func quirksThisLibinputCannotReadAreDroppedWithAWarning() throws {
        var recording = try SyntheticRecordings.mouse()
        recording.devices[0].quirks = ["AttrFromTheFuture=1"]
        let result = try LibinputReplay(recording: recording).run()
        #expect(result.warnings.count == 1)
        #expect(result.events.filter { if case .pointerButton = $0.kind { true } else { false } }.count == 4)
    }
}
