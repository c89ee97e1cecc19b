import SeatKitSystem
import SeatKit

/// One libinput event, read out of libinput into a plain value and not yet placed in the
/// layout.
///
/// Absolute positions (touch, absolute pointer, tablet tool) are *normalized*: fractions
/// 0...1 of the device's area, after the device's calibration matrix, in the panel's native
/// orientation. ``DeviceEventTranslator`` maps them onto an output. Relative motion is in
/// libinput's logical units (1000 dpi equivalent). Keeping this step separate lets the
/// replay child process send libinput's events to its parent in a compact binary form
/// (`encode(into:)`, shared within the package only) and the parent translate them exactly as a live backend does.
public struct DeviceEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case deviceAdded(DeviceDescription)
        case deviceRemoved
        case keyboardKey(key: UInt32, pressed: Bool)
        /// Relative motion, accelerated and unaccelerated.
        case pointerMotion(dx: Double, dy: Double, unacceleratedDx: Double, unacceleratedDy: Double)
        /// Absolute motion, normalized 0...1.
        case pointerMotionAbsolute(x: Double, y: Double)
        case pointerButton(button: UInt32, pressed: Bool)
        /// A scroll event (libinput's POINTER_SCROLL_WHEEL/FINGER/CONTINUOUS).
        case pointerScroll(ScrollDetail)
        /// A finger down at a normalized position; `seatSlot` is unique on the seat.
        case touchDown(seatSlot: Int32, x: Double, y: Double)
        case touchMotion(seatSlot: Int32, x: Double, y: Double)
        case touchUp(seatSlot: Int32)
        case touchCancel(seatSlot: Int32)
        case touchFrame
        /// A touchpad gesture, as the router takes it (libinput's swipe, pinch and hold).
        case gesture(TouchpadGesture)
        case switchToggle(SwitchKind, on: Bool)
        case tablet(TabletDetail)
        /// An event type this version of SeatKit does not know; passed on, never dropped.
        case other(type: UInt32)
    }

    /// libinput's time, microseconds on CLOCK_MONOTONIC (device events: the last time seen).
    public var time: Int64
    /// The backend's number for the device; stable while the device exists.
    public var device: UInt32
    public var kind: Kind

    public init(time: Int64, device: UInt32, kind: Kind) {
        self.time = time
        self.device = device
        self.kind = kind
    }
}

/// What the backend learns about a device when libinput adds it.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    /// The kernel name of the event node (`event5`).
    public var systemName: String
    public var capabilities: DeviceCapabilities
    /// Width and height in millimetres, for absolute devices.
    public var size: Size?
    /// The output the device belongs to, from udev's `WL_OUTPUT` property
    /// (`libinput_device_get_output_name`); nil when not set. It becomes the announced
    /// `DeviceInfo.mappedOutput`, below the router's own mapping rules.
    public var outputName: String?
    /// For a tablet pad: its buttons, rings, strips and mode groups.
    public var pad: PadLayout?
    public init(name: String, systemName: String, capabilities: DeviceCapabilities, size: Size? = nil,
                outputName: String? = nil, pad: PadLayout? = nil) {
        self.pad = pad
        self.name = name
        self.systemName = systemName
        self.capabilities = capabilities
        self.size = size
        self.outputName = outputName
    }
}

public struct ScrollDetail: Hashable, Sendable {
    public var source: AxisSource
    /// Logical scroll distance (positive: down, right); 0 on an axis that did not move.
    public var horizontal: Double
    public var vertical: Double
    /// Wheel: 120 per detent (libinput's v120); 0 for other sources.
    public var horizontalV120: Double
    public var verticalV120: Double
    /// Whether the event carries each axis (a finger or continuous axis with value 0 is a stop).
    public var hasHorizontal: Bool
    public var hasVertical: Bool
    /// Natural scrolling is on for the device: the values are already inverted, content
    /// follows the fingers.
    public var naturalScrolling: Bool
    public init(source: AxisSource, horizontal: Double, vertical: Double, horizontalV120: Double, verticalV120: Double,
                hasHorizontal: Bool, hasVertical: Bool, naturalScrolling: Bool = false) {
        self.naturalScrolling = naturalScrolling
        self.source = source
        self.horizontal = horizontal
        self.vertical = vertical
        self.horizontalV120 = horizontalV120
        self.verticalV120 = verticalV120
        self.hasHorizontal = hasHorizontal
        self.hasVertical = hasVertical
    }
}

/// A tablet tool or pad event as libinput reported it; the tool position normalized.
public struct TabletDetail: Hashable, Sendable {
    public var kind: TabletEvent.Kind
    /// Tool position, normalized 0...1, for tool events.
    public var x: Double?
    public var y: Double?
    /// Tool button code; pad button, ring or strip number; pad key code.
    public var code: UInt32
    /// Proximity in/out, tip down/up, button pressed/released as 1/0; ring (degrees) or
    /// strip (0...1) position, -1 when the finger lifted.
    public var value: Double
    /// Tool events: the tool (type, serial, hardware id, capabilities).
    public var tool: PenTool
    /// Tool events: every axis as of this event.
    public var axes: PenAxes
    /// Tool events: the axes libinput says changed.
    public var changedAxes: PenAxisSet
    /// Pad events: mode group and mode.
    public var padMode: PadMode
    /// Ring and strip events: the source is a finger.
    public var fromFinger: Bool
    public init(kind: TabletEvent.Kind, x: Double? = nil, y: Double? = nil, code: UInt32 = 0, value: Double = 0,
                tool: PenTool = PenTool(), axes: PenAxes = PenAxes(), changedAxes: PenAxisSet = [],
                padMode: PadMode = PadMode(), fromFinger: Bool = false) {
        self.kind = kind
        self.x = x
        self.y = y
        self.code = code
        self.value = value
        self.tool = tool
        self.axes = axes
        self.changedAxes = changedAxes
        self.padMode = padMode
        self.fromFinger = fromFinger
    }
}

// MARK: Binary form

/// Errors reading the binary form: a short or corrupt stream from the replay child.
package struct DeviceEventDecodingError: Error, CustomStringConvertible {
    package var description: String
}

extension DeviceEvent {
    /// Appends the event in a compact little-endian binary form: tag, time, device, payload.
    package func encode(into out: inout [UInt8]) {
        // The writer takes the caller's buffer (no copy) and gives it back.
        var w = ByteWriter()
        swap(&w.bytes, &out)
        defer { swap(&w.bytes, &out) }
        func tag(_ t: UInt8) {
            w.u8(t)
            w.i64(time)
            w.u32(device)
        }
        switch kind {
        case .deviceAdded(let d):
            tag(1)
            w.string(d.name)
            w.string(d.systemName)
            w.u32(d.capabilities.rawValue)
            w.f64(d.size?.width ?? -1)
            w.f64(d.size?.height ?? -1)
            w.string(d.outputName ?? "")
            w.u8(d.pad == nil ? 0 : 1)
            if let pad = d.pad {
                w.u32(UInt32(pad.buttons)); w.u32(UInt32(pad.rings)); w.u32(UInt32(pad.strips)); w.u32(UInt32(pad.groups.count))
                for g in pad.groups {
                    w.u32(UInt32(g.modes))
                    for list in [g.buttons, g.rings, g.strips] {
                        w.u32(UInt32(list.count))
                        for i in list { w.u32(UInt32(i)) }
                    }
                }
            }
        case .deviceRemoved: tag(2)
        case .keyboardKey(let key, let pressed):
            tag(3); w.u32(key); w.u8(pressed ? 1 : 0)
        case .pointerMotion(let dx, let dy, let ux, let uy):
            tag(4); w.f64(dx); w.f64(dy); w.f64(ux); w.f64(uy)
        case .pointerMotionAbsolute(let x, let y):
            tag(5); w.f64(x); w.f64(y)
        case .pointerButton(let b, let pressed):
            tag(6); w.u32(b); w.u8(pressed ? 1 : 0)
        case .pointerScroll(let s):
            tag(7)
            w.u8(Self.code(s.source))
            w.f64(s.horizontal); w.f64(s.vertical); w.f64(s.horizontalV120); w.f64(s.verticalV120)
            w.u8((s.hasHorizontal ? 1 : 0) | (s.hasVertical ? 2 : 0) | (s.naturalScrolling ? 4 : 0))
        case .touchDown(let slot, let x, let y):
            tag(8); w.i32(slot); w.f64(x); w.f64(y)
        case .touchMotion(let slot, let x, let y):
            tag(9); w.i32(slot); w.f64(x); w.f64(y)
        case .touchUp(let slot): tag(10); w.i32(slot)
        case .touchCancel(let slot): tag(11); w.i32(slot)
        case .touchFrame: tag(12)
        case .gesture(let g):
            tag(13)
            w.u8(g.kind == .swipe ? 0 : g.kind == .pinch ? 1 : 2)
            switch g.phase {
            case .begin: w.u8(0)
            case .update: w.u8(1)
            case .end(let cancelled): w.u8(cancelled ? 3 : 2)
            }
            w.i32(Int32(truncatingIfNeeded: g.fingers))
            w.f64(g.delta.dx); w.f64(g.delta.dy); w.f64(g.unacceleratedDelta.dx); w.f64(g.unacceleratedDelta.dy)
            w.f64(g.scale); w.f64(g.rotation)
        case .switchToggle(let kind, let on):
            tag(14); w.u8(kind == .lid ? 0 : 1); w.u8(on ? 1 : 0)
        case .tablet(let t):
            tag(15)
            w.u8(UInt8(Self.tabletKinds.firstIndex(of: t.kind)!))
            w.u8(t.x == nil ? 0 : 1)
            w.f64(t.x ?? 0); w.f64(t.y ?? 0)
            w.u32(t.code); w.f64(t.value)
            w.u8(t.tool.kind.rawValue); w.u64(t.tool.serial); w.u64(t.tool.hardwareID)
            w.u32(UInt32(t.tool.capabilities.rawValue)); w.u32(UInt32(t.changedAxes.rawValue))
            let a = t.axes
            w.f64(a.pressure); w.f64(a.distance); w.f64(a.tiltX); w.f64(a.tiltY); w.f64(a.rotation); w.f64(a.slider)
            w.f64(a.wheelDelta); w.i32(a.wheelDiscrete)
            w.u32(t.padMode.group); w.u32(t.padMode.mode); w.u8(t.fromFinger ? 1 : 0)
        case .other(let type):
            tag(16); w.u32(type)
        }
    }

    static let tabletKinds: [TabletEvent.Kind] = [.toolProximity, .toolAxis, .toolTip, .toolButton, .padButton, .padRing, .padStrip, .padKey]
    static func code(_ s: AxisSource) -> UInt8 {
        switch s {
        case .wheel: 0
        case .finger: 1
        case .continuous: 2
        case .wheelTilt: 3
        }
    }

    /// Reads one event at `offset`, moving it past the event; nil when `bytes` holds no
    /// complete event from `offset` on (wait for more).
    package static func decode(_ bytes: [UInt8], at offset: inout Int) throws(DeviceEventDecodingError) -> DeviceEvent? {
        var r = ByteReader(bytes: bytes, position: offset)
        guard let tag = r.u8(), let time = r.i64(), let device = r.u32() else { return nil }
        let kind: Kind
        switch tag {
        case 1:
            guard let name = r.string(), let sys = r.string(), let caps = r.u32(), let w = r.f64(), let h = r.f64(),
                  let output = r.string(), let hasPad = r.u8() else { return nil }
            var pad: PadLayout?
            if hasPad == 1 {
                guard let buttons = r.u32(), let rings = r.u32(), let strips = r.u32(), let count = r.u32() else { return nil }
                guard count <= 64 else { throw DeviceEventDecodingError(description: "a pad with \(count) mode groups") }
                var groups: [PadLayout.Group] = []
                for _ in 0..<count {
                    guard let modes = r.u32() else { return nil }
                    var lists: [[Int]] = []
                    for _ in 0..<3 {
                        guard let n = r.u32() else { return nil }
                        guard n <= 1024 else { throw DeviceEventDecodingError(description: "a pad group of \(n) controls") }
                        var list: [Int] = []
                        for _ in 0..<n {
                            guard let i = r.u32() else { return nil }
                            list.append(Int(i))
                        }
                        lists.append(list)
                    }
                    groups.append(PadLayout.Group(modes: Int(modes), buttons: lists[0], rings: lists[1], strips: lists[2]))
                }
                pad = PadLayout(buttons: Int(buttons), rings: Int(rings), strips: Int(strips), groups: groups)
            }
            kind = .deviceAdded(DeviceDescription(name: name, systemName: sys, capabilities: DeviceCapabilities(rawValue: caps),
                                                  size: w < 0 ? nil : Size(width: w, height: h),
                                                  outputName: output.isEmpty ? nil : output, pad: pad))
        case 2: kind = .deviceRemoved
        case 3:
            guard let k = r.u32(), let p = r.u8() else { return nil }
            kind = .keyboardKey(key: k, pressed: p == 1)
        case 4:
            guard let a = r.f64(), let b = r.f64(), let c = r.f64(), let d = r.f64() else { return nil }
            kind = .pointerMotion(dx: a, dy: b, unacceleratedDx: c, unacceleratedDy: d)
        case 5:
            guard let x = r.f64(), let y = r.f64() else { return nil }
            kind = .pointerMotionAbsolute(x: x, y: y)
        case 6:
            guard let b = r.u32(), let p = r.u8() else { return nil }
            kind = .pointerButton(button: b, pressed: p == 1)
        case 7:
            guard let s = r.u8(), let h = r.f64(), let v = r.f64(), let h1 = r.f64(), let v1 = r.f64(), let has = r.u8() else { return nil }
            let sources: [AxisSource] = [.wheel, .finger, .continuous, .wheelTilt]
            guard Int(s) < sources.count else { throw DeviceEventDecodingError(description: "unknown scroll source \(s)") }
            kind = .pointerScroll(ScrollDetail(source: sources[Int(s)], horizontal: h, vertical: v, horizontalV120: h1, verticalV120: v1,
                                               hasHorizontal: has & 1 != 0, hasVertical: has & 2 != 0, naturalScrolling: has & 4 != 0))
        case 8, 9:
            guard let slot = r.i32(), let x = r.f64(), let y = r.f64() else { return nil }
            kind = tag == 8 ? .touchDown(seatSlot: slot, x: x, y: y) : .touchMotion(seatSlot: slot, x: x, y: y)
        case 10, 11:
            guard let slot = r.i32() else { return nil }
            kind = tag == 10 ? .touchUp(seatSlot: slot) : .touchCancel(seatSlot: slot)
        case 12: kind = .touchFrame
        case 13:
            guard let k = r.u8(), let p = r.u8(), let f = r.i32(), let dx = r.f64(), let dy = r.f64(), let ux = r.f64(), let uy = r.f64(),
                  let scale = r.f64(), let angle = r.f64() else { return nil }
            guard k < 3, p < 4 else { throw DeviceEventDecodingError(description: "unknown gesture \(k)/\(p)") }
            let phase: GesturePhase = p == 0 ? .begin : p == 1 ? .update : .end(cancelled: p == 3)
            kind = .gesture(TouchpadGesture(kind: k == 0 ? .swipe : k == 1 ? .pinch : .hold, phase: phase, fingers: Int(f),
                                            delta: Vector(dx: dx, dy: dy), unacceleratedDelta: Vector(dx: ux, dy: uy),
                                            scale: scale, rotation: angle))
        case 14:
            guard let k = r.u8(), let on = r.u8() else { return nil }
            kind = .switchToggle(k == 0 ? .lid : .tabletMode, on: on == 1)
        case 15:
            guard let k = r.u8(), let hasPosition = r.u8(), let x = r.f64(), let y = r.f64(), let code = r.u32(), let value = r.f64(),
                  let toolKind = r.u8(), let serial = r.u64(), let hardwareID = r.u64(), let caps = r.u32(), let changed = r.u32(),
                  let pressure = r.f64(), let distance = r.f64(), let tiltX = r.f64(), let tiltY = r.f64(), let rotation = r.f64(),
                  let slider = r.f64(), let wheel = r.f64(), let wheelDiscrete = r.i32(),
                  let group = r.u32(), let mode = r.u32(), let finger = r.u8() else { return nil }
            guard Int(k) < tabletKinds.count else { throw DeviceEventDecodingError(description: "unknown tablet event \(k)") }
            guard let tk = PenToolKind(rawValue: toolKind) else { throw DeviceEventDecodingError(description: "unknown tool kind \(toolKind)") }
            kind = .tablet(TabletDetail(
                kind: tabletKinds[Int(k)], x: hasPosition == 1 ? x : nil, y: hasPosition == 1 ? y : nil, code: code, value: value,
                tool: PenTool(kind: tk, serial: serial, hardwareID: hardwareID, capabilities: PenAxisSet(rawValue: UInt16(truncatingIfNeeded: caps))),
                axes: PenAxes(pressure: pressure, distance: distance, tiltX: tiltX, tiltY: tiltY, rotation: rotation, slider: slider,
                              wheelDelta: wheel, wheelDiscrete: wheelDiscrete),
                changedAxes: PenAxisSet(rawValue: UInt16(truncatingIfNeeded: changed)), padMode: PadMode(group: group, mode: mode),
                fromFinger: finger == 1))
        case 16:
            guard let t = r.u32() else { return nil }
            kind = .other(type: t)
        default:
            throw DeviceEventDecodingError(description: "unknown event tag \(tag) at byte \(offset)")
        }
        offset = r.position
        return DeviceEvent(time: time, device: device, kind: kind)
    }
}

// MARK: The live path's frequent events

extension DeviceEvent {
    /// The events a device sends many of (touch, pointer motion and buttons, keys, scrolls,
    /// touchpad gestures), as the live backend reads them: a small value (at most a
    /// touchpad gesture's 64 bytes) where ``DeviceEvent`` is as large as its largest case
    /// (a tablet event, ~170 bytes, which the compiler copies with `memcpy`). The live
    /// backend hands these to ``DeviceEventTranslator`` without building a ``DeviceEvent``;
    /// ``DeviceEventTranslator/translate(_:router:timeOffset:)`` goes through the same
    /// translation, so a replay and the live backend route alike.
    enum Frequent {
        case keyboardKey(key: UInt32, pressed: Bool)
        case pointerMotion(dx: Double, dy: Double, unacceleratedDx: Double, unacceleratedDy: Double)
        case pointerMotionAbsolute(x: Double, y: Double)
        case pointerButton(button: UInt32, pressed: Bool)
        case pointerScroll(ScrollDetail)
        case touchDown(seatSlot: Int32, x: Double, y: Double)
        case touchMotion(seatSlot: Int32, x: Double, y: Double)
        case touchUp(seatSlot: Int32)
        case touchFrame
        case gesture(TouchpadGesture)

        /// The same event as a ``DeviceEvent/Kind``.
        var kind: Kind {
            switch self {
            case .keyboardKey(let key, let pressed): .keyboardKey(key: key, pressed: pressed)
            case .pointerMotion(let dx, let dy, let ux, let uy): .pointerMotion(dx: dx, dy: dy, unacceleratedDx: ux, unacceleratedDy: uy)
            case .pointerMotionAbsolute(let x, let y): .pointerMotionAbsolute(x: x, y: y)
            case .pointerButton(let button, let pressed): .pointerButton(button: button, pressed: pressed)
            case .pointerScroll(let s): .pointerScroll(s)
            case .touchDown(let slot, let x, let y): .touchDown(seatSlot: slot, x: x, y: y)
            case .touchMotion(let slot, let x, let y): .touchMotion(seatSlot: slot, x: x, y: y)
            case .touchUp(let slot): .touchUp(seatSlot: slot)
            case .touchFrame: .touchFrame
            case .gesture(let g): .gesture(g)
            }
        }
    }
}

/// Where the live backend puts each event it reads from libinput, in order.
protocol DeviceEventSink {
    /// An event of any kind.
    mutating func take(_ event: DeviceEvent)
    /// A frequent event, without a ``DeviceEvent`` built for it (the default builds one).
    mutating func take(time: Int64, device: UInt32, _ event: DeviceEvent.Frequent)
    /// A key, from its parts (the default hands it on as a frequent event): a sink that
    /// routes it can make the router's event with its kind known where the router's
    /// `inject` is inlined, so nothing of the event is copied or destroyed on the way.
    mutating func takeKey(time: Int64, device: UInt32, key: UInt32, pressed: Bool)
    /// A touch down (`isDown`) or motion, a touch up and a touch frame, from their parts (the
    /// defaults hand them on as frequent events), for the same reason as ``takeKey(time:device:key:pressed:)``.
    mutating func takeTouch(isDown: Bool, time: Int64, device: UInt32, seatSlot: Int32, x: Double, y: Double)
    mutating func takeTouchUp(time: Int64, device: UInt32, seatSlot: Int32)
    mutating func takeTouchFrame(time: Int64, device: UInt32)
    /// A touch motion alone (a touch device's own path; the default is
    /// ``takeTouch(isDown:time:device:seatSlot:x:y:)``'s).
    mutating func takeTouchMotion(time: Int64, device: UInt32, seatSlot: Int32, x: Double, y: Double)
}

extension DeviceEventSink {
    mutating func take(time: Int64, device: UInt32, _ event: DeviceEvent.Frequent) {
        take(DeviceEvent(time: time, device: device, kind: event.kind))
    }

    mutating func takeKey(time: Int64, device: UInt32, key: UInt32, pressed: Bool) {
        take(time: time, device: device, .keyboardKey(key: key, pressed: pressed))
    }

    mutating func takeTouch(isDown: Bool, time: Int64, device: UInt32, seatSlot: Int32, x: Double, y: Double) {
        take(time: time, device: device, isDown ? .touchDown(seatSlot: seatSlot, x: x, y: y) : .touchMotion(seatSlot: seatSlot, x: x, y: y))
    }

    mutating func takeTouchUp(time: Int64, device: UInt32, seatSlot: Int32) {
        take(time: time, device: device, .touchUp(seatSlot: seatSlot))
    }

    mutating func takeTouchFrame(time: Int64, device: UInt32) {
        take(time: time, device: device, .touchFrame)
    }

    mutating func takeTouchMotion(time: Int64, device: UInt32, seatSlot: Int32, x: Double, y: Double) {
        takeTouch(isDown: false, time: time, device: device, seatSlot: seatSlot, x: x, y: y)
    }
}
