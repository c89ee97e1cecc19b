import SeatKit
import SeatKitLibinput

/// The events libinput printed while recording (`libinput record --with-libinput`), turned
/// into SeatKitLibinput `DeviceEvent`s: a replay for machines without umockdev.
///
/// These are the recording machine's libinput's answers (its version, its quirks, tapping
/// on), not this machine's. Positions come from the `transformed` fields, which libinput
/// printed for a 100×100 area. The format is marked experimental upstream; lines this
/// version cannot read are errors naming the line.
public enum RecordedLibinputEvents {
    /// All devices' recorded libinput events in time order; device `i` of the recording is
    /// number `i + 1`, as in a live replay.
    public static func events(of recording: Recording) throws(RecordingError) -> [DeviceEvent] {
        var all: [(time: Int64, order: Int, event: DeviceEvent)] = []
        var order = 0
        guard recording.devices.contains(where: { !$0.libinputEvents.isEmpty }) else {
            throw RecordingError(file: recording.source, line: 0,
                                 message: "the recording has no libinput events (it was not made with --with-libinput)")
        }
        for (index, device) in recording.devices.enumerated() {
            let number = UInt32(index + 1)
            var lastTime = recording.startTime ?? 0
            for recorded in device.libinputEvents {
                let time = recorded.time ?? lastTime
                lastTime = time
                guard let kind = try kind(of: recorded, device: device, source: recording.source) else { continue }
                all.append((time, order, DeviceEvent(time: time, device: number, kind: kind)))
                order += 1
            }
        }
        return all.sorted { $0.time != $1.time ? $0.time < $1.time : $0.order < $1.order }.map(\.event)
    }

    static func kind(of e: RecordedLibinputEvent, device: RecordedDevice, source: String) throws(RecordingError) -> DeviceEvent.Kind? {
        func fail(_ message: String) -> RecordingError { RecordingError(file: source, line: e.line, message: "\(e.type): \(message)") }
        func number(_ key: String, _ index: Int = 0) throws(RecordingError) -> Double {
            guard let v = e.number(key, index), v.isFinite else { throw fail("`\(key)` is missing or not a number") }
            return v
        }
        func int32(_ key: String) throws(RecordingError) -> Int32 {
            let v = try number(key)
            guard v >= Double(Int32.min), v <= Double(Int32.max), v == v.rounded() else { throw fail("`\(key)` is not a 32-bit integer") }
            return Int32(v)
        }
        func pressed() throws(RecordingError) -> Bool {
            switch e.text("state") {
            case "pressed": return true
            case "released": return false
            default: throw fail("`state` must be pressed or released")
            }
        }
        func gesture(_ kind: TouchpadGesture.Kind, _ phase: GesturePhase) throws(RecordingError) -> DeviceEvent.Kind {
            let pinch = kind == .pinch
            return .gesture(TouchpadGesture(
                kind: kind, phase: phase, fingers: Int(try int32("nfingers")),
                delta: Vector(dx: try number("delta", 0), dy: try number("delta", 1)),
                unacceleratedDelta: Vector(dx: try number("unaccel", 0), dy: try number("unaccel", 1)),
                scale: pinch ? try number("scale") : 1, rotation: pinch ? try number("angle_delta") : 0))
        }
        switch e.type {
        case "DEVICE_ADDED":
            var caps: DeviceCapabilities = []
            let names: [String: DeviceCapabilities] = ["keyboard": .keyboard, "pointer": .pointer, "touch": .touch, "tablet": .tabletTool,
                                                       "pad": .tabletPad, "gesture": .gesture, "switch": .switch]
            for c in device.recordedCapabilities ?? [] { if let cap = names[c] { caps.insert(cap) } }
            if device.recordedCapabilities == nil { caps = device.apparentCapabilities }
            return .deviceAdded(DeviceDescription(name: device.name, systemName: String(device.node.split(separator: "/").last ?? ""), capabilities: caps))
        case "DEVICE_REMOVED": return .deviceRemoved
        case "KEYBOARD_KEY":
            let key = try int32("key")
            // The recorder masks most keys as -1 unless --show-keycodes: keep them as KEY_A.
            return .keyboardKey(key: key < 0 ? 30 : UInt32(key), pressed: try pressed())
        case "POINTER_MOTION":
            return .pointerMotion(dx: try number("delta", 0), dy: try number("delta", 1),
                                  unacceleratedDx: try number("unaccel", 0), unacceleratedDy: try number("unaccel", 1))
        case "POINTER_MOTION_ABSOLUTE":
            return .pointerMotionAbsolute(x: try number("transformed", 0) / 100, y: try number("transformed", 1) / 100)
        case "POINTER_BUTTON":
            let b = try int32("button")
            guard b >= 0 else { throw fail("negative button") }
            return .pointerButton(button: UInt32(b), pressed: try pressed())
        case "POINTER_AXIS":
            let source: AxisSource
            switch e.text("source") {
            case "wheel": source = .wheel
            case "finger": source = .finger
            case "continuous": source = .continuous
            case "wheel-tilt": source = .wheelTilt
            default: throw fail("unknown axis source `\(e.text("source") ?? "")`")
            }
            let h = try number("axes", 0), v = try number("axes", 1)
            let wheel = source == .wheel || source == .wheelTilt
            let dh = wheel ? (e.number("discrete", 0) ?? 0) * 120 : 0
            let dv = wheel ? (e.number("discrete", 1) ?? 0) * 120 : 0
            return .pointerScroll(ScrollDetail(source: source, horizontal: h, vertical: v, horizontalV120: dh, verticalV120: dv,
                                               hasHorizontal: h != 0 || source == .finger, hasVertical: v != 0 || source == .finger))
        case "TOUCH_DOWN", "TOUCH_MOTION":
            let slot = try int32("seat_slot")
            let x = try number("transformed", 0) / 100, y = try number("transformed", 1) / 100
            return e.type == "TOUCH_DOWN" ? .touchDown(seatSlot: slot, x: x, y: y) : .touchMotion(seatSlot: slot, x: x, y: y)
        case "TOUCH_UP": return .touchUp(seatSlot: try int32("seat_slot"))
        case "TOUCH_CANCEL": return .touchCancel(seatSlot: try int32("seat_slot"))
        case "TOUCH_FRAME": return .touchFrame
        case "GESTURE_SWIPE_BEGIN": return try gesture(.swipe, .begin)
        case "GESTURE_SWIPE_UPDATE": return try gesture(.swipe, .update)
        case "GESTURE_SWIPE_END": return try gesture(.swipe, .end(cancelled: false))
        case "GESTURE_PINCH_BEGIN": return try gesture(.pinch, .begin)
        case "GESTURE_PINCH_UPDATE": return try gesture(.pinch, .update)
        case "GESTURE_PINCH_END": return try gesture(.pinch, .end(cancelled: false))
        case "SWITCH_TOGGLE":
            let which = try int32("switch")
            guard which == 0 || which == 1 else { throw fail("unknown switch \(which)") }
            let state = e.text("state")
            guard state == "on" || state == "off" || state == "true" || state == "false" else { throw fail("`state` must be on or off") }
            return .switchToggle(which == 0 ? .lid : .tabletMode, on: state == "on" || state == "true")
        case "TABLET_TOOL_PROXIMITY":
            return .tablet(TabletDetail(kind: .toolProximity, value: e.text("proximity") == "in" ? 1 : 0))
        case "TABLET_TOOL_AXIS", "TABLET_TOOL_TIP":
            return .tablet(TabletDetail(kind: e.type == "TABLET_TOOL_TIP" ? .toolTip : .toolAxis,
                                        value: e.type == "TABLET_TOOL_TIP" ? (e.text("tip") == "down" ? 1 : 0) : (e.number("pressure") ?? 0)))
        case "TABLET_TOOL_BUTTON":
            return .tablet(TabletDetail(kind: .toolButton, code: UInt32(max(0, try int32("button"))), value: try pressed() ? 1 : 0))
        case "TABLET_PAD_BUTTON":
            return .tablet(TabletDetail(kind: .padButton, code: UInt32(max(0, try int32("button"))), value: try pressed() ? 1 : 0))
        case "TABLET_PAD_RING", "TABLET_PAD_STRIP":
            return .tablet(TabletDetail(kind: e.type == "TABLET_PAD_RING" ? .padRing : .padStrip,
                                        code: UInt32(max(0, try int32("number"))), value: try number("position")))
        default:
            // A type this version does not know: passed on, never dropped silently.
            return .other(type: 0)
        }
    }
}
