import Foundation
import SeatKit
import SeatKitWayland

/// Input from a file or a pipe of JSON lines, one event per line, delivered as lines arrive
/// (tests write to the kiosk's stdin while they watch its clients). Times are the clock's
/// now unless a line gives `time_ms`. Layout coordinates. Examples:
///
///     {"type": "device-added", "device": 1, "name": "panel", "capabilities": ["touch"]}
///     {"type": "touch-down", "id": 0, "x": 100, "y": 50}   then "touch-frame"
///     {"type": "pointer-motion-absolute", "x": 10, "y": 20}
///     {"type": "button", "button": 272, "state": "pressed"}
///     {"type": "axis", "source": "wheel", "vertical": 15, "vertical120": 120}
///     {"type": "key", "key": 30, "state": "pressed"}
///     {"type": "gesture", "kind": "swipe", "phase": "begin", "fingers": 3}   (update: dx, dy)
///     {"type": "pen", "event": "proximity-in", "x": 10, "y": 20, "pressure": 0, "tilt_x": 5}
///         (events: proximity-in, proximity-out, down, up, axis, button with "button" and
///         "state"; "tool": pen or eraser; axes: pressure, distance, tilt_x, tilt_y; "nx" and
///         "ny" instead of "x" and "y": a point of the tablet's area, 0...1, placed by the
///         router's device mapping as libinput's are)
///     {"type": "pad", "event": "button", "button": 0, "state": "pressed", "mode": 0}
///         (events: button, ring with "ring" and "value" in degrees or -1, strip with "strip"
///         and "value" 0...1 or -1; a pad is announced with "capabilities": ["tablet-pad"]
///         and "pad": {"buttons": 4, "rings": 1, "strips": 1, "modes": 2})
///
/// For tests that drive the seat step by step, with no devices at all; `--replay` and
/// `--libinput` go through libinput instead.
final class ScriptedInputSource {
    private let fd: Int32
    private let clock: any Clock
    private var buffer = Data()
    private weak var display: WaylandDisplay?
    /// Moves the router's virtual clock (`--virtual-clock`) forward by N milliseconds, for
    /// `{"type": "advance-clock", "ms": N}`; nil without a virtual clock.
    var advanceClock: ((Int64) -> Void)?
    /// Called when the script ends (end of file or pipe closed).
    var finished: () -> Void = {}
    /// Places a device's normalized point (0...1 of its area) in layout space, as libinput's
    /// points are: a pen line with "nx" and "ny" instead of "x" and "y" goes through the
    /// router's device mapping (--map-tablet, --tablet-region, --tablet-rotate).
    var placeNormalized: ((Double, Double, DeviceID) -> LayoutPoint)?

    init(fileDescriptor fd: Int32, clock: any Clock) {
        self.fd = fd
        self.clock = clock
    }

    /// Reads lines as they arrive, on `display`'s event loop, and injects each event into `seat`.
    func start(into seat: Seat, on display: WaylandDisplay) {
        self.display = display
        display.watch(fileDescriptor: fd) { [unowned self, unowned seat] in self.readAvailable(seat.router.inject) }
    }

    private func readAvailable(_ deliver: (InputEvent) -> Void) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 {
            display?.stopWatching(fileDescriptor: fd)
            finished()
            return
        }
        buffer.append(contentsOf: chunk[0..<n])
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = buffer[buffer.startIndex..<newline]
            buffer.removeSubrange(buffer.startIndex...newline)
            guard !line.allSatisfy({ $0 == UInt8(ascii: " ") }) else { continue }
            if let ms = Self.clockAdvance(Data(line)) {
                if let advanceClock {
                    advanceClock(ms)
                    log("clock advanced \(ms) ms")
                } else {
                    log("script: advance-clock needs --virtual-clock")
                }
                continue
            }
            do {
                deliver(try parse(Data(line)))
            } catch {
                log("script: \(error): \(String(decoding: line, as: UTF8.self))")
            }
        }
    }

    /// N of a line `{"type": "advance-clock", "ms": N}` (N whole and not negative); nil for any other line.
    static func clockAdvance(_ line: Data) -> Int64? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              object["type"] as? String == "advance-clock", let ms = object["ms"] as? Double, ms >= 0, ms < 1e12 else { return nil }
        return Int64(ms)
    }

    struct BadLine: Error, CustomStringConvertible {
        var description: String
    }

    func parse(_ line: Data) throws -> InputEvent {
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
              let type = object["type"] as? String else { throw BadLine(description: "not an object with a type") }
        func number(_ key: String, _ fallback: Double? = nil) throws -> Double {
            if let value = object[key] as? Double { return value }
            if let fallback { return fallback }
            throw BadLine(description: "missing \(key)")
        }
        func pressed() -> Bool { (object["state"] as? String) != "released" }
        let time = (object["time_ms"] as? Double).map { Timestamp(microseconds: Int64($0 * 1000)) } ?? clock.now
        let device = DeviceID(UInt32(try number("device", 0)))
        let kind: InputEvent.Kind
        switch type {
        case "device-added":
            let names = object["capabilities"] as? [String] ?? []
            var caps: DeviceCapabilities = []
            for name in names {
                switch name {
                case "keyboard": caps.insert(.keyboard)
                case "pointer": caps.insert(.pointer)
                case "touch": caps.insert(.touch)
                case "gesture": caps.insert(.gesture)
                case "tablet-tool": caps.insert(.tabletTool)
                case "tablet-pad": caps.insert(.tabletPad)
                default: throw BadLine(description: "unknown capability \(name)")
                }
            }
            // A pad's layout: {"buttons": 4, "rings": 1, "strips": 1, "modes": 2}, one mode group.
            var pad: PadLayout?
            if let p = object["pad"] as? [String: Any] {
                func count(_ key: String) -> Int { max(0, min(64, Int(p[key] as? Double ?? 0))) }
                let (buttons, rings, strips) = (count("buttons"), count("rings"), count("strips"))
                pad = PadLayout(buttons: buttons, rings: rings, strips: strips,
                                groups: [PadLayout.Group(modes: max(1, count("modes")), buttons: Array(0..<buttons),
                                                         rings: Array(0..<rings), strips: Array(0..<strips))])
            }
            kind = .deviceAdded(DeviceInfo(name: object["name"] as? String ?? "scripted", capabilities: caps, pad: pad))
        case "device-removed": kind = .deviceRemoved
        case "touch-down": kind = .touchDown(TouchID(Int32(try number("id"))), LayoutPoint(x: try number("x"), y: try number("y")))
        case "touch-motion": kind = .touchMotion(TouchID(Int32(try number("id"))), LayoutPoint(x: try number("x"), y: try number("y")))
        case "touch-up": kind = .touchUp(TouchID(Int32(try number("id"))))
        case "touch-cancel": kind = .touchCancel(TouchID(Int32(try number("id"))))
        case "touch-frame": kind = .touchFrame
        case "pointer-motion":
            let delta = Vector(dx: try number("dx"), dy: try number("dy"))
            kind = .pointerMotion(delta: delta, unaccelerated: delta)
        case "pointer-motion-absolute": kind = .pointerMotionAbsolute(LayoutPoint(x: try number("x"), y: try number("y")))
        case "button": kind = .pointerButton(button: UInt32(try number("button")), state: pressed() ? .pressed : .released)
        case "axis":
            let sources: [String: AxisSource] = ["wheel": .wheel, "finger": .finger, "continuous": .continuous, "wheel-tilt": .wheelTilt]
            guard let source = sources[object["source"] as? String ?? "wheel"] else { throw BadLine(description: "unknown axis source") }
            kind = .pointerAxis(AxisMotion(source: source, horizontal: try number("horizontal", 0), vertical: try number("vertical", 0),
                                           horizontalV120: try number("horizontal120", 0), verticalV120: try number("vertical120", 0),
                                           horizontalStop: object["horizontal_stop"] as? Bool ?? false,
                                           verticalStop: object["vertical_stop"] as? Bool ?? false))
        case "gesture":
            let kinds: [String: TouchpadGesture.Kind] = ["swipe": .swipe, "pinch": .pinch, "hold": .hold]
            let phases: [String: GesturePhase] = ["begin": .begin, "update": .update, "end": .end(cancelled: false),
                                                  "cancel": .end(cancelled: true)]
            guard let gestureKind = kinds[object["kind"] as? String ?? ""], let phase = phases[object["phase"] as? String ?? ""] else {
                throw BadLine(description: "a gesture needs a kind (swipe, pinch, hold) and a phase (begin, update, end, cancel)")
            }
            let delta = Vector(dx: try number("dx", 0), dy: try number("dy", 0))
            kind = .touchpadGesture(TouchpadGesture(kind: gestureKind, phase: phase, fingers: Int(try number("fingers", 3)),
                                                    delta: delta, unacceleratedDelta: delta,
                                                    scale: try number("scale", 1), rotation: try number("rotation", 0)))
        case "key": kind = .key(keycode: UInt32(try number("key")), state: pressed() ? .pressed : .released)
        case "pen":
            let events: [String: (TabletEvent.Kind, Double)] = [
                "proximity-in": (.toolProximity, 1), "proximity-out": (.toolProximity, 0), "down": (.toolTip, 1), "up": (.toolTip, 0),
                "axis": (.toolAxis, 0), "button": (.toolButton, pressed() ? 1 : 0),
            ]
            guard let (tabletKind, value) = events[object["event"] as? String ?? ""] else {
                throw BadLine(description: "a pen event is proximity-in, proximity-out, down, up, axis or button")
            }
            let tool = PenTool(kind: (object["tool"] as? String) == "eraser" ? .eraser : .pen, serial: UInt64(try number("serial", 1)),
                               capabilities: [.position, .pressure, .distance, .tilt])
            let axes = PenAxes(pressure: try number("pressure", 0), distance: try number("distance", 0),
                               tiltX: try number("tilt_x", 0), tiltY: try number("tilt_y", 0))
            var changed: PenAxisSet = [.position]
            for (key, axis) in [("pressure", PenAxisSet.pressure), ("distance", .distance), ("tilt_x", .tilt), ("tilt_y", .tilt)]
                where object[key] != nil { changed.insert(axis) }
            var position: LayoutPoint
            if let nx = object["nx"] as? Double, let ny = object["ny"] as? Double, let placeNormalized {
                position = placeNormalized(nx, ny, device)
            } else {
                position = LayoutPoint(x: try number("x"), y: try number("y"))
            }
            kind = .tablet(TabletEvent(kind: tabletKind, position: position,
                                       code: UInt32(try number("button", 0)), value: value, tool: tool, axes: axes, changedAxes: changed))
        case "pad":
            // {"type": "pad", "event": "button", "button": 0, "state": "pressed", "mode": 1}; "ring"
            // with "ring" and "value" (degrees, -1: lifted), "strip" with "strip" and "value" (0...1).
            let mode = PadMode(group: UInt32(try number("group", 0)), mode: UInt32(try number("mode", 0)))
            let finger = object["finger"] as? Bool ?? true
            switch object["event"] as? String ?? "" {
            case "button":
                kind = .tablet(TabletEvent(kind: .padButton, code: UInt32(try number("button")), value: pressed() ? 1 : 0, padMode: mode))
            case "ring":
                kind = .tablet(TabletEvent(kind: .padRing, code: UInt32(try number("ring", 0)), value: try number("value"), padMode: mode,
                                           fromFinger: finger))
            case "strip":
                kind = .tablet(TabletEvent(kind: .padStrip, code: UInt32(try number("strip", 0)), value: try number("value"), padMode: mode,
                                           fromFinger: finger))
            default: throw BadLine(description: "a pad event is button, ring or strip")
            }
        default: throw BadLine(description: "unknown type \(type)")
        }
        return InputEvent(time: time, device: device, kind)
    }
}
