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

    /// Why a pen's tip could reach a client as a leave and an enter (issue 27): libinput 1.22
    /// forces a tablet tool out of proximity after 50 ms without events (until the tablet has
    /// once sent its own BTN_TOOL_PEN release), and brings it back in with the next frame. A
    /// pen hovering 50 ms silent before its tip went down is, for libinput, out and in again
    /// at the tip; a real pen reports every few ms, and so does a recording 20 ms apart: only
    /// proximity in, then the tip. The router passes on what libinput says.
    @Test func libinputForcesAPenOutOfProximityAfter50msWithoutEventsAndTheRouterFollows() throws {
        func kinds(hoverGap: Int64) throws -> [String] {
            var s = FrameScript()
            s.frame([E.key(0x140, 1), E.abs(0, 5000), E.abs(1, 4000), E.abs(0x19, 20), PenRecordings.serial(0x5a5a)], advance: hoverGap)
            s.frame([E.key(0x14a, 1), E.abs(0x18, 600), E.abs(0x19, 0), PenRecordings.serial(0x5a5a)], advance: 10_000)
            s.frame([E.key(0x14a, 0), E.abs(0x18, 0), PenRecordings.serial(0x5a5a)], advance: 10_000)
            s.frame([E.key(0x140, 0), E.abs(0x19, 63), PenRecordings.serial(0x5a5a)], advance: 10_000)
            let recording = try SyntheticRecordings.recording([PenRecordings.pen(frames: s.frames)], name: "hover.yml")
            return try LibinputReplay(recording: recording).run().events.compactMap { event in
                guard case .tablet(let t) = event.kind else { return nil }
                switch t.kind {
                case .toolProximity: return t.value == 1 ? "in" : "out"
                case .toolTip: return t.value == 1 ? "down" : "up"
                default: return nil
                }
            }
        }
        #expect(try kinds(hoverGap: 50_000) == ["in", "out", "in", "down", "up", "out"])
        #expect(try kinds(hoverGap: 20_000) == ["in", "down", "up", "out"])
    }

    /// A pen tablet written with the project's recording writer, replayed through real
    /// libinput under umockdev: the tool, tip, button and axes libinput reports are the ones
    /// the evdev stream says, and the router routes them as a pen with those same values.
    @Test func penTabletRecordingReplaysAsAPenWithTheAxesLibinputReports() throws {
        let result = try LibinputReplay(recording: PenRecordings.penAndEraser()).run()
        let tablet = result.events.compactMap { if case .tablet(let t) = $0.kind { t } else { nil } }
        #expect(result.events.contains { if case .deviceAdded(let d) = $0.kind { d.capabilities.contains(.tabletTool) } else { false } })
        // Proximity in, the tip, five axis events, a button press and release, the tip up,
        // proximity out; then the eraser in and out.
        #expect(tablet.map(\.kind) == [.toolProximity, .toolTip] + Array(repeating: .toolAxis, count: 5)
                + [.toolButton, .toolButton, .toolTip, .toolProximity, .toolProximity, .toolProximity], "\(tablet.map(\.kind))")
        #expect(tablet[0].value == 1 && tablet[0].tool.kind == .pen)
        #expect(tablet[0].tool.serial == 0x5a5a, "MSC_SERIAL")
        #expect(tablet[0].tool.capabilities.isSuperset(of: [.pressure, .distance, .tilt]), "\(tablet[0].tool.capabilities)")
        #expect(tablet[1].kind == .toolTip && tablet[1].value == 1)
        let axes = tablet[2..<7]
        // x: ABS_X 5000 of 0 ... 20000 at the tip, normalized as libinput transforms it; then
        // rising toward 5500 (libinput smooths a tool's motion over its last events).
        #expect(abs((tablet[1].x ?? -1) - 5000.0 / 20001) < 1e-4, "\(tablet[1].x ?? -1)")
        let xs = axes.compactMap(\.x)
        #expect(xs.count == 5 && zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 } && xs.last! <= 5500.0 / 20001, "\(xs)")
        for t in axes { #expect(t.changedAxes.contains(.pressure) && t.changedAxes.contains(.position), "\(t.changedAxes)") }
        let pressures = axes.map(\.axes.pressure)
        #expect(zip(pressures, pressures.dropFirst()).allSatisfy { $0 < $1 }, "pressure rises with ABS_PRESSURE: \(pressures)")
        #expect(pressures.allSatisfy { $0 > 0 && $0 <= 1 })
        let tilts = axes.map(\.axes.tiltX)
        #expect(zip(tilts, tilts.dropFirst()).allSatisfy { $0 < $1 }, "tilt x rises with ABS_TILT_X: \(tilts)")
        #expect(tablet[7].code == 0x14b && tablet[7].value == 1 && tablet[8].value == 0)
        #expect(tablet[9].kind == .toolTip && tablet[9].value == 0)
        #expect(tablet[10].value == 0 && tablet[10].tool.kind == .pen)
        #expect(tablet[11].value == 1 && tablet[11].tool.kind == .eraser && tablet[11].tool.isEraser)

        // Routed: a pen, with libinput's values on each event.
        final class Pen: Responder {
            var log: [String] = []
            var pressures: [Double] = []
            var tools: [PenToolKind] = []
            func penEntered(_ event: PenEvent, context: ResponderContext) { log.append("enter"); tools.append(event.tool.kind) }
            func penLeft(_ event: PenEvent, context: ResponderContext) { log.append("leave") }
            func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
                log.append(event.isInContact ? "stroke" : "hover")
                if event.isInContact { pressures.append(event.axes.pressure) }
                return .handled
            }
            func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult { log.append("down"); return .handled }
            func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult { log.append("up"); return .handled }
            func penButton(_ event: PenButtonEvent, context: ResponderContext) -> ResponderResult {
                log.append("button \(event.state)")
                return .handled
            }
        }
        let harness = ReplayHarness(layout: try SurfaceLayout.parse("output OUT-1 1000x600", source: "pen"))
        let pen = Pen()
        let canvas = Surface(name: "canvas", frame: SurfaceRect(x: 0, y: 0, width: 100_000, height: 100_000), responder: pen)
        try #require(harness.router.layout.outputs.first).root.addChild(canvas)
        harness.route(result.events)
        #expect(pen.log == ["enter", "down"] + Array(repeating: "stroke", count: 5) + ["button pressed", "button released", "up", "leave", "enter", "leave"],
                "\(pen.log)")
        #expect(pen.pressures == pressures, "the routed pressure is libinput's")
        #expect(pen.tools == [.pen, .eraser])
    }
}
