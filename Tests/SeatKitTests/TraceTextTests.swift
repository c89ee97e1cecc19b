import Testing
import SeededRandom
@_spi(SeatKitInternals) @testable import SeatKit

/// The trace's lines are written as bytes (``TraceText``), part by part, for speed. These
/// tests hold them to the lines string interpolation made before (the reference below, the
/// old `description` kept as it was), for every kind of record and event, over seeded random
/// values: numbers whole and fractional, repeated (the writer keeps the text of recent
/// numbers), negative, tiny, huge, NaN; names with quotes and non-ASCII letters.
@Suite struct TraceTextTests {
    @Test(arguments: 0..<20)
    func everyRecordIsWrittenAsItsInterpolatedLine(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        var text = TraceText()
        for _ in 0..<400 {
            let record = Self.record(&random)
            let start = text.count
            text.append(record, indented: true)
            let written = text.string(from: start)
            #expect(written == Self.reference(record), "seed \(seed)")
            #expect(record.description == Self.reference(record))
        }
    }

    @Test func theJSONFormLeavesOutTheIndentationOnly() {
        let record = TraceRecord.asked(.surface(SurfaceID(rawValue: 3), "a \"b\""), .touchesBegan, .handled)
        var text = TraceText()
        text.append(record, indented: false)
        #expect(text.string == "touchesBegan -> a \"b\": handled")
        #expect(record.description == "  touchesBegan -> a \"b\": handled")
    }

    @Test func timesAreWrittenAsSwiftWritesTheirMilliseconds() {
        for us: Int64 in [0, 1, 10, 125, 999, 1000, 1001, 1050, 12_500, 19_999_875, -1, -1500, 999_999_999_999, 1_000_000_000_000, 123_456_789_012_345, .max, .min + 1] {
            var text = TraceText()
            text.append(milliseconds: us)
            #expect(text.string == "\((Double(us) / 1000).compactDescription)ms", "\(us) µs")
        }
    }

    // MARK: The reference: the lines as interpolation made them before TraceText.

    static func reference(_ record: TraceRecord) -> String {
        switch record {
        case .received(let e): return "input \(reference(e))"
        case .consumed(let e, let i): return "  consumed by filter \(i): \(reference(e))"
        case .followedConsumed(let e): return "  consumed with its press: \(reference(e))"
        case .hitTest(let p, let r): return "  hit-test \(p) -> \(r)"
        case .touchBound(let t, let s): return "  \(t) bound to \(s)"
        case .asked(let s, let k, let r): return "  \(k.rawValue) -> \(s): \(r == .handled ? "handled" : "not handled")"
        case .told(let s, let k): return "  \(k.rawValue) -> \(s)"
        case .keyCommand(let s, let a): return "  key command \(a) on \(s)"
        case .dropped(let k): return "  dropped \(k.rawValue)"
        case .pointerFocus(let a, let b): return "  pointer focus \(a) -> \(b)"
        case .keyboardFocus(let a, let b): return "  keyboard focus \(a) -> \(b)"
        case .touchCancelled(let t, let why): return "  \(t) cancelled: \(why)"
        case .ignored(let e, let why): return "  ignored \(reference(e)): \(why)"
        case .chainCycle(let k): return "  chain cycle cut off for \(k.rawValue)"
        case .gestureSaw(let r, let k): return "  gesture \(r) saw \(k.rawValue)"
        case .gestureState(let r, let a, let b): return "  gesture \(r): \(a) -> \(b)"
        case .gestureRefused(let r, let s, let why): return "  gesture \(r) stopped at \(s): \(why)"
        case .gestureDeferred(let r, let other): return "  gesture \(r) waits for \(other) to fail"
        case .gestureReset(let r): return "  gesture \(r) reset"
        case .touchDelayed(let t, let k, let by): return "  \(t) \(k.rawValue) held back by \(by)"
        case .touchReleased(let t, let k): return "  \(t) \(k.rawValue) released to responders"
        case .heldTouchDropped(let t, let k, let why): return "  \(t) held \(k.rawValue) dropped: \(why)"
        case .touchTaken(let t, let by): return "  \(t) taken by gesture \(by)"
        case .touchpadGestureTaken(let by): return "  touchpad gesture taken by \(by)"
        case .pointerPressTaken(let by): return "  pointer press taken by \(by)"
        }
    }

    static func reference(_ e: InputEvent) -> String {
        var what: String
        switch e.kind {
        case .touchDown(let id, let p): what = "touch down \(id) at \(p)"
        case .touchMotion(let id, let p): what = "touch motion \(id) to \(p)"
        case .touchUp(let id): what = "touch up \(id)"
        case .touchCancel(let id): what = "touch cancel \(id)"
        case .touchFrame: what = "touch frame"
        case .pointerMotion(let d, _): what = "pointer motion \(d)"
        case .pointerMotionAbsolute(let p): what = "pointer absolute \(p)"
        case .pointerButton(let b, let s): what = "button 0x\(String(b, radix: 16)) \(s)"
        case .pointerAxis(let a): what = "axis \(a.source) h=\(a.horizontal.compactDescription) v=\(a.vertical.compactDescription)"
        case .touchpadGesture(let g): what = "touchpad \(g.kind) \(g.phase) \(g.fingers) fingers"
        case .key(let code, let s): what = "key \(code) \(s)"
        case .switchToggled(let k, let on): what = "switch \(k) \(on ? "on" : "off")"
        case .tablet(let t):
            what = "tablet \(t.kind)"
            if t.isToolEvent {
                what += " \(t.tool.kind)"
                if let p = t.position { what += " at \(p)" }
                switch t.kind {
                case .toolProximity: what += t.value == 1 ? " in" : " out"
                case .toolTip: what += t.value == 1 ? " down" : " up"
                case .toolButton: what += " 0x\(String(t.code, radix: 16)) \(t.value == 1 ? "pressed" : "released")"
                default: break
                }
                if t.tool.capabilities.contains(.pressure) { what += " pressure=\(t.axes.pressure.compactDescription)" }
                if t.tool.capabilities.contains(.tilt) { what += " tilt=(\(t.axes.tiltX.compactDescription), \(t.axes.tiltY.compactDescription))" }
            } else {
                what += " \(t.code) value=\(t.value.compactDescription)"
            }
        case .unknown(let code): what = "unknown event \(code)"
        case .deviceAdded(let info): what = "device added \(info.name) [\(info.capabilities)]"
        case .deviceRemoved: what = "device removed"
        }
        return "\(e.time) \(e.device) \(what)"
    }

    // MARK: Seeded values

    /// A number as input brings them: mostly the few of one event again, else whole, plain
    /// fractions, extremes.
    static func number(_ r: inout SplitMix64, recent: inout [Double]) -> Double {
        switch r.below(10) {
        case 0, 1, 2: if let again = recent.randomElement(using: &r) { return again }; return 0
        case 3: return Double(r.below(2000)) - 1000
        case 4: return [0.0, -0.0, .nan, .infinity, -.infinity, 1e-300, 1e300, 1e15, 1e15 + 1, -1e16, 0.1, 1e-05][r.below(12)]
        default:
            let v = (Double(r.next() % 1_000_000) / 1000.0 - 500) * (r.below(3) == 0 ? 1e-7 : 1)
            recent.append(v)
            if recent.count > 6 { recent.removeFirst() }
            return v
        }
    }

    static let names = ["header", "DSI-1/root", "a \"quoted\" name", "Fenster ä/ö", "", "back\\slash", "list"]

    static func subject(_ r: inout SplitMix64) -> TraceSubject {
        switch r.below(4) {
        case 0: return .surface(SurfaceID(rawValue: UInt32(r.below(9))), names[r.below(names.count)])
        case 1: return .output(["DSI-1", "HDMI-A-1"][r.below(2)])
        case 2: return .delegate
        default: return .none
        }
    }

    static func kind(_ r: inout SplitMix64) -> RoutedEventKind {
        let all: [RoutedEventKind] = [.touchesBegan, .touchesMoved, .touchesEnded, .touchesCancelled, .pointerEntered, .pointerLeft,
                                      .pointerMoved, .pointerButton, .pointerAxis, .touchpadGesture, .keyDown, .keyUp, .keyCommand,
                                      .action, .firstResponder]
        return all[r.below(all.count)]
    }

    static func state(_ r: inout SplitMix64) -> GestureRecognizerState {
        [.possible, .began, .changed, .ended, .cancelled, .failed, .recognized][r.below(7)]
    }

    static func event(_ r: inout SplitMix64) -> InputEvent {
        var recent: [Double] = []
        let time = Timestamp(microseconds: [0, 125, 1000, 19_999_875, Int64(r.next() % 10_000_000_000)][r.below(5)])
        let device = DeviceID(UInt32(r.below(4)))
        let touch = TouchID(Int32(r.below(10)))
        func point() -> LayoutPoint { LayoutPoint(x: number(&r, recent: &recent), y: number(&r, recent: &recent)) }
        func vector() -> Vector { Vector(dx: number(&r, recent: &recent), dy: number(&r, recent: &recent)) }
        let kind: InputEvent.Kind
        switch r.below(16) {
        case 0: kind = .touchDown(touch, point())
        case 1: kind = .touchMotion(touch, point())
        case 2: kind = .touchUp(touch)
        case 3: kind = .touchCancel(touch)
        case 4: kind = .touchFrame
        case 5: kind = .pointerMotion(delta: vector(), unaccelerated: vector())
        case 6: kind = .pointerMotionAbsolute(point())
        case 7: kind = .pointerButton(button: [0x110, 0x111, 0x112, 0x113][r.below(4)], state: r.below(2) == 0 ? .pressed : .released)
        case 8: kind = .pointerAxis(AxisMotion(source: [.wheel, .finger, .continuous, .wheelTilt][r.below(4)],
                                               horizontal: number(&r, recent: &recent), vertical: number(&r, recent: &recent)))
        case 9:
            let phase: GesturePhase = [.begin, .update, .end(cancelled: false), .end(cancelled: true)][r.below(4)]
            kind = .touchpadGesture(TouchpadGesture(kind: [.swipe, .pinch, .hold][r.below(3)], phase: phase, fingers: 1 + r.below(4)))
        case 10: kind = .key(keycode: UInt32(r.below(250)), state: [.pressed, .released, .repeated][r.below(3)])
        case 11: kind = .switchToggled(r.below(2) == 0 ? .lid : .tabletMode, on: r.below(2) == 0)
        case 12: kind = .tablet(TabletEvent(kind: [.toolProximity, .toolTip, .padRing][r.below(3)]))
        case 15: kind = .unknown(code: UInt32(r.below(1000)))
        case 13: kind = .deviceAdded(DeviceInfo(name: names[r.below(names.count)], capabilities: [.pointer, .keyboard]))
        case 14: kind = .deviceRemoved
        default: kind = .pointerMotion(delta: vector(), unaccelerated: vector())
        }
        return InputEvent(time: time, device: device, kind)
    }

    static func record(_ r: inout SplitMix64) -> TraceRecord {
        var recent: [Double] = []
        let touch = TouchID(Int32(r.below(10)))
        let name = names[r.below(names.count)]
        switch r.below(25) {
        case 0: return .received(event(&r))
        case 1: return .consumed(event(&r), filter: r.below(5))
        case 2: return .followedConsumed(event(&r))
        case 3: return .hitTest(LayoutPoint(x: number(&r, recent: &recent), y: number(&r, recent: &recent)), result: subject(&r))
        case 4: return .touchBound(touch, to: subject(&r))
        case 5: return .asked(subject(&r), kind(&r), r.below(2) == 0 ? .handled : .notHandled)
        case 6: return .told(subject(&r), kind(&r))
        case 7: return .keyCommand(subject(&r), Action(name))
        case 8: return .dropped(kind(&r))
        case 9: return .pointerFocus(from: subject(&r), to: subject(&r))
        case 10: return .keyboardFocus(from: subject(&r), to: subject(&r))
        case 11: return .touchCancelled(touch, reason: name)
        case 12: return .ignored(event(&r), reason: name)
        case 13: return .chainCycle(kind(&r))
        case 14: return .gestureSaw(name, kind(&r))
        case 15: return .gestureState(name, from: state(&r), to: state(&r))
        case 16: return .gestureRefused(name, state(&r), reason: "because")
        case 17: return .gestureDeferred(name, waitingFor: "pan@list")
        case 18: return .gestureReset(name)
        case 19: return .touchDelayed(touch, kind(&r), by: name)
        case 20: return .touchReleased(touch, kind(&r))
        case 21: return .heldTouchDropped(touch, kind(&r), reason: name)
        case 22: return .touchTaken(touch, by: name)
        case 23: return .touchpadGestureTaken(by: name)
        default: return .pointerPressTaken(by: name)
        }
    }
}
