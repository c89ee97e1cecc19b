import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// The remaining libinput event families, from recordings the tests write: touchpad pinch
/// and hold, a lid switch, and a pen tablet (passed on, never dropped).
@Suite struct GesturesSwitchesAndTabletsTests {
    typealias E = FrameScript

    @Test func touchpadTwoFingerPinchOut() throws {
        var s = FrameScript()
        var a: Int32 = 1300, b: Int32 = 1700
        s.frame(SyntheticRecordings.touch(slot: 0, trackingID: 1, x: a, y: 900) + SyntheticRecordings.touch(slot: 1, trackingID: 2, x: b, y: 900)
                + [E.key(0x14a, 1), E.key(0x14d, 1), E.abs(0, a), E.abs(1, 900)])
        for _ in 0..<20 {
            a -= 30
            b += 30
            s.frame([E.abs(0x2f, 0), E.abs(0x35, a), E.abs(0x2f, 1), E.abs(0x35, b), E.abs(0, a)])
        }
        s.frame([E.abs(0x2f, 0), E.abs(0x39, -1), E.abs(0x2f, 1), E.abs(0x39, -1), E.key(0x14a, 0), E.key(0x14d, 0)])
        var pad = SyntheticDevice.touchpad()
        pad.frames = s.frames
        let result = try LibinputReplay(recording: SyntheticRecordings.recording([pad], name: "pinch.yml")).run()
        let pinches = result.events.compactMap { if case .gesture(let g) = $0.kind, g.kind == .pinch { g } else { nil } }
        #expect(pinches.first?.phase == .begin)
        #expect(pinches.last?.phase == .end(cancelled: false))
        #expect((pinches.dropLast().last?.scale ?? 0) > 1.5, "fingers 2.5 times as far apart")
    }

    @Test func touchpadThreeFingerHold() throws {
        var s = FrameScript()
        var first: [EvdevEvent] = []
        for i in 0..<3 { first += SyntheticRecordings.touch(slot: Int32(i), trackingID: Int32(i + 1), x: 1000 + Int32(i) * 300, y: 900) }
        s.frame(first + [E.key(0x14a, 1), E.key(0x14e, 1), E.abs(0, 1000), E.abs(1, 900)], advance: 400_000)
        var last: [EvdevEvent] = []
        for i in 0..<3 { last += [E.abs(0x2f, Int32(i)), E.abs(0x39, -1)] }
        s.frame(last + [E.key(0x14a, 0), E.key(0x14e, 0)])
        var pad = SyntheticDevice.touchpad()
        pad.frames = s.frames
        let result = try LibinputReplay(recording: SyntheticRecordings.recording([pad], name: "hold.yml")).run()
        let holds = result.events.compactMap { if case .gesture(let g) = $0.kind, g.kind == .hold { g } else { nil } }
        #expect(holds.map(\.phase) == [.begin, .end(cancelled: false)])
        #expect(holds.allSatisfy { $0.fingers == 3 })
    }

    @Test func lidSwitch() throws {
        var s = FrameScript()
        s.frame([EvdevEvent(type: 5, code: 0, value: 1)], advance: 1_000_000)
        s.frame([EvdevEvent(type: 5, code: 0, value: 0)])
        let lid = RecordedDevice(node: "/dev/input/event0", name: "Lid Switch", identity: InputDeviceIdentity(bustype: 0x19, vendor: 0, product: 5, version: 0),
                                 codes: [5: [0]], udevProperties: ["ID_INPUT=1", "ID_INPUT_SWITCH=1"], frames: s.frames)
        let result = try LibinputReplay(recording: SyntheticRecordings.recording([lid], name: "lid.yml")).run()
        let kinds = result.events.map(\.kind).filter { if case .switchToggle = $0 { true } else { false } }
        #expect(kinds == [.switchToggle(.lid, on: true), .switchToggle(.lid, on: false)])
    }

    @Test func penTabletEventsArePassedOn() throws {
        var s = FrameScript()
        s.frame([E.key(0x140, 1), E.abs(0, 5000), E.abs(1, 4000), E.abs(0x18, 0)])
        s.frame([E.key(0x14a, 1), E.abs(0x18, 600)])
        for i in 1...5 { s.frame([E.abs(0, 5000 + Int32(i) * 100), E.abs(0x18, 700)]) }
        s.frame([E.key(0x14a, 0), E.abs(0x18, 0)])
        s.frame([E.key(0x140, 0)])
        let pen = RecordedDevice(node: "/dev/input/event9", name: "SeatKit Test Pen Tablet", identity: InputDeviceIdentity(bustype: 3, vendor: 0x1234, product: 0x99, version: 1),
                                 codes: [1: [0x140, 0x14a, 0x14b], 3: [0, 1, 0x18]],
                                 absoluteAxes: [0: AbsoluteAxisInfo(minimum: 0, maximum: 20000, resolution: 100),
                                                1: AbsoluteAxisInfo(minimum: 0, maximum: 12000, resolution: 100),
                                                0x18: AbsoluteAxisInfo(minimum: 0, maximum: 2047)],
                                 properties: [EvdevCodes.INPUT_PROP_POINTER],
                                 udevProperties: ["ID_INPUT=1", "ID_INPUT_TABLET=1"], frames: s.frames)
        let recording = try SyntheticRecordings.recording([pen], name: "pen.yml")
        let result = try LibinputReplay(recording: recording).run()
        let tablet = result.events.compactMap { if case .tablet(let t) = $0.kind { t } else { nil } }
        #expect(tablet.first?.kind == .toolProximity)
        #expect(tablet.contains { $0.kind == .toolTip && $0.value == 1 })
        #expect(tablet.contains { $0.kind == .toolAxis })
        #expect(tablet.last?.kind == .toolProximity && tablet.last?.value == 0)
        // Routed: the router hands tablet events to the compositor delegate.
        final class Delegate: CompositorDelegate {
            var tabletEvents = 0
            func router(_ router: Router, deviceEvent event: InputEvent) {
                if case .tablet = event.kind { tabletEvents += 1 }
            }
        }
        let harness = ReplayHarness()
        let delegate = Delegate()
        harness.router.delegate = delegate
        harness.route(result.events)
        #expect(delegate.tabletEvents == tablet.count)
    }
}
