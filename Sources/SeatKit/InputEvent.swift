/// Identifies an input device for the life of a router.
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    /// The backend's number for the device (SeatKitLibinput numbers devices as they appear).
    public var rawValue: UInt32
    /// The device numbered `rawValue`. `DeviceID(0)` is the default for events made up by tests
    /// and by the router (cancelled releases, motions after an edit).
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    /// "dev3" for device 3.
    public var description: String { "dev\(rawValue)" }
}

/// Identifies one finger on the seat: libinput's seat slot, unique across the seat's touch
/// devices while the finger is down.
public struct TouchID: Hashable, Sendable, CustomStringConvertible {
    /// The seat slot (libinput's `libinput_event_touch_get_seat_slot`).
    public var rawValue: Int32
    /// The finger in seat slot `rawValue`.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    /// "t2" for slot 2.
    public var description: String { "t\(rawValue)" }
}

/// What an input device can do. The seat's capabilities are the union over its devices.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The capability bits, one per static member below.
    public var rawValue: UInt32
    /// Capabilities from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Has keys (`wl_seat` capability keyboard).
    public static let keyboard = DeviceCapabilities(rawValue: 1 << 0)
    /// Moves a pointer or has pointer buttons (mice, touchpads, trackpoints).
    public static let pointer = DeviceCapabilities(rawValue: 1 << 1)
    /// A touchscreen.
    public static let touch = DeviceCapabilities(rawValue: 1 << 2)
    /// A touchpad that reports swipe, pinch and hold gestures.
    public static let gesture = DeviceCapabilities(rawValue: 1 << 3)
    /// A tablet tool (pen, eraser); its events are routed as a pen.
    public static let tabletTool = DeviceCapabilities(rawValue: 1 << 4)
    /// A tablet's button pad; its events go to the delegate's `deviceEvent`.
    public static let tabletPad = DeviceCapabilities(rawValue: 1 << 5)
    /// A lid or tablet-mode switch; its events go to the delegate's `deviceEvent`.
    public static let `switch` = DeviceCapabilities(rawValue: 1 << 6)

    /// The capability names joined with commas, e.g. "keyboard,pointer".
    public var description: String {
        let names: [(DeviceCapabilities, String)] = [
            (.keyboard, "keyboard"), (.pointer, "pointer"), (.touch, "touch"), (.gesture, "gesture"),
            (.tabletTool, "tablet-tool"), (.tabletPad, "tablet-pad"), (.switch, "switch"),
        ]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: ",")
    }
}

/// A device as the backend announces it.
public struct DeviceInfo: Hashable, Sendable {
    /// The device's name, as the kernel reports it.
    public var name: String
    /// What the device can do.
    public var capabilities: DeviceCapabilities
    /// Physical size in millimetres for absolute devices (touchscreens, touchpads).
    public var physicalSize: Size?
    /// The output this device's absolute coordinates map to, by name, if any.
    public var mappedOutput: String?
    /// For a tablet pad: its buttons, rings, strips and mode groups.
    public var pad: PadLayout?

    /// A device announcement, for ``InputEvent/Kind/deviceAdded(_:)``. `physicalSize` is in
    /// millimetres; `mappedOutput` names an ``Output``.
    public init(name: String, capabilities: DeviceCapabilities, physicalSize: Size? = nil,
                mappedOutput: String? = nil, pad: PadLayout? = nil) {
        self.pad = pad
        self.name = name
        self.capabilities = capabilities
        self.physicalSize = physicalSize
        self.mappedOutput = mappedOutput
    }
}

/// Whether a pointer button went down (`pressed`) or up (`released`).
public enum ButtonState: Sendable, Hashable { case released, pressed }

/// A key's state: `pressed`, `released`, or `repeated` (a key repeat generated while the key
/// is held, by a key repeater through ``Router/deliverKey(_:)``).
public enum KeyState: Sendable, Hashable { case released, pressed, repeated }

/// Where scroll motion comes from (libinput's pointer axis sources): `wheel`, a wheel's
/// detents (with v120 steps); `finger`, fingers on a touchpad (a stop when they lift);
/// `continuous`, a continuous device such as trackpoint button scrolling (a stop at its end);
/// `wheelTilt`, a wheel tilted sideways.
public enum AxisSource: Sendable, Hashable { case wheel, finger, continuous, wheelTilt }

/// One scroll step or motion, both axes at once.
public struct AxisMotion: Sendable, Hashable {
    /// What produced the scrolling: a wheel's detents, fingers on a touchpad, a continuous
    /// device (trackpoint button scrolling), or a tilted wheel.
    public var source: AxisSource
    /// Scroll distance in logical units (vertical positive down, horizontal positive right).
    public var horizontal: Double
    /// Vertical scroll distance in logical units, positive down.
    public var vertical: Double
    /// High-resolution wheel steps: 120 is one detent (wheel sources only, 0 otherwise).
    public var horizontalV120: Double
    /// Vertical high-resolution wheel steps: 120 per detent (wheel sources only).
    public var verticalV120: Double
    /// For finger and continuous sources: the axis stopped (a terminating event, value 0).
    public var horizontalStop: Bool
    /// The vertical axis stopped (finger and continuous sources).
    public var verticalStop: Bool
    /// Natural scrolling is on: content follows the fingers (wl_pointer.axis_relative_direction).
    public var invertedDirection: Bool

    /// A scroll event; distances in logical units, `…V120` in 120ths of a detent.
    public init(source: AxisSource, horizontal: Double = 0, vertical: Double = 0,
                horizontalV120: Double = 0, verticalV120: Double = 0,
                horizontalStop: Bool = false, verticalStop: Bool = false,
                invertedDirection: Bool = false) {
        self.source = source
        self.horizontal = horizontal
        self.vertical = vertical
        self.horizontalV120 = horizontalV120
        self.verticalV120 = verticalV120
        self.horizontalStop = horizontalStop
        self.verticalStop = verticalStop
        self.invertedDirection = invertedDirection
    }

    /// Whole detents, rounded toward zero (wl_pointer.axis_discrete).
    public var horizontalDiscrete: Int32 { Int32(horizontalV120 / 120) }
    /// Whole vertical detents, rounded toward zero.
    public var verticalDiscrete: Int32 { Int32(verticalV120 / 120) }
}

/// The phase of a touchpad gesture.
public enum GesturePhase: Sendable, Hashable {
    /// `begin`: the fingers started a gesture; `update`: they moved (or pinched, rotated).
    case begin, update
    /// The gesture ended; `cancelled` when the fingers did not finish it (libinput's cancel).
    case end(cancelled: Bool)
}

/// A touchpad swipe, pinch or hold, as libinput reports it.
public struct TouchpadGesture: Sendable, Hashable {
    /// Which gesture libinput recognized: `swipe` (fingers moving together), `pinch` (fingers
    /// spreading, closing or turning), `hold` (fingers resting).
    public enum Kind: Sendable, Hashable { case swipe, pinch, hold }
    /// Swipe, pinch or hold.
    public var kind: Kind
    /// Begin, update or end.
    public var phase: GesturePhase
    /// How many fingers are on the touchpad (at least 1; swipes and pinches from 2 or 3 up).
    public var fingers: Int
    /// Motion of the fingers' centre since the last update, accelerated (logical units).
    public var delta: Vector
    /// The same motion without pointer acceleration (logical units).
    public var unacceleratedDelta: Vector
    /// Pinch only: scale relative to the start (1 at begin), and rotation since the last
    /// update in degrees, clockwise.
    public var scale: Double
    /// Pinch only: rotation since the last update, in degrees, clockwise.
    public var rotation: Double

    /// A touchpad gesture event; defaults are those of a begin (no motion, scale 1, no
    /// rotation).
    public init(kind: Kind, phase: GesturePhase, fingers: Int, delta: Vector = .zero,
                unacceleratedDelta: Vector = .zero, scale: Double = 1, rotation: Double = 0) {
        self.kind = kind
        self.phase = phase
        self.fingers = fingers
        self.delta = delta
        self.unacceleratedDelta = unacceleratedDelta
        self.scale = scale
        self.rotation = rotation
    }
}

/// Switches libinput reports: `lid` (a laptop lid; on: closed) and `tabletMode` (a
/// convertible folded into a tablet; on: tablet mode).
public enum SwitchKind: Sendable, Hashable { case lid, tabletMode }

/// A tablet tool or pad event. Tool events are routed as a pen (``PenEvent``); pad events go
/// to the compositor delegate as they came.
///
/// Kept compact, without a heap reference, so that ``InputEvent`` stays small for every kind
/// of input (it is copied through filters, spies and the trace on each event): a pad event
/// keeps no tool and no axes (they read as their defaults), a tool event no ``TabletEvent/padMode``; a
/// tool event's ``TabletEvent/value`` and the tilt, rotation, slider and wheel-motion axes are kept in
/// single precision (about seven significant digits; the Wayland tablet protocol carries
/// them in 1/256ths), position, pressure, distance and a pad event's value in full.
public struct TabletEvent: Sendable, Hashable {
    /// Which tool or pad event it is.
    public enum Kind: Sendable, Hashable {
        /// Tool events: in or out of proximity, axis change, tip down or up, a tool button.
        case toolProximity, toolAxis, toolTip, toolButton
        /// Pad events: a button, ring, strip or key of the tablet's pad.
        case padButton, padRing, padStrip, padKey
    }

    // The storage, 85 bytes (InputEventLayoutTests counts it). Doubles first, then 32-bit
    // words, then the tool's identity (a pad event's value and mode in its place), then the
    // bits; the last byte has no spare bits, so the enums that carry this keep their case
    // number in a byte of its own.
    private var x: Double, y: Double
    /// Tool events: pressure; pad events: the value.
    private var wide0: Double
    /// Tool events: distance.
    private var wide1: Double
    /// Tool events: tiltX, tiltY, rotation, slider, wheelDelta and the value, as Floats.
    private var tiltX: Float, tiltY: Float, rotation: Float, slider: Float, wheelDelta: Float, toolValue: Float
    private var wheelDiscrete: Int32
    /// Button or key code, ring or strip number.
    public var code: UInt32
    /// Tool events: the tool's serial; pad events: the mode group (low 32 bits) and mode.
    private var identity0: UInt64
    /// Tool events: the tool's hardware id.
    private var identity1: UInt64
    private var changed: UInt16, capabilities: UInt16
    /// Bits 0-2 the kind, 3-5 the tool's kind, 6 a position is present, 7 from a finger.
    private var bits: UInt8

    private static func index(_ kind: Kind) -> UInt8 {
        switch kind {
        case .toolProximity: 0
        case .toolAxis: 1
        case .toolTip: 2
        case .toolButton: 3
        case .padButton: 4
        case .padRing: 5
        case .padStrip: 6
        case .padKey: 7
        }
    }

    /// A tablet event; `position` is in layout space. A pad event drops `tool` and `axes`, a
    /// tool event `padMode` (see the type's discussion for what is kept in single precision).
    public init(kind: Kind, position: LayoutPoint? = nil, code: UInt32 = 0, value: Double = 0, tool: PenTool = PenTool(),
                axes: PenAxes = PenAxes(), changedAxes: PenAxisSet = [], padMode: PadMode = PadMode(), fromFinger: Bool = false) {
        let kindIndex = Self.index(kind)
        x = position?.x ?? 0
        y = position?.y ?? 0
        self.code = code
        changed = changedAxes.rawValue
        var bits = kindIndex
        if position != nil { bits |= 1 << 6 }
        if fromFinger { bits |= 1 << 7 }
        if kindIndex < 4 {
            bits |= (tool.kind.rawValue & 7) << 3
            wide0 = axes.pressure
            wide1 = axes.distance
            tiltX = Float(axes.tiltX)
            tiltY = Float(axes.tiltY)
            rotation = Float(axes.rotation)
            slider = Float(axes.slider)
            wheelDelta = Float(axes.wheelDelta)
            toolValue = Float(value)
            wheelDiscrete = axes.wheelDiscrete
            identity0 = tool.serial
            identity1 = tool.hardwareID
            capabilities = tool.capabilities.rawValue
        } else {
            wide0 = value
            wide1 = 0
            (tiltX, tiltY, rotation, slider, wheelDelta, toolValue) = (0, 0, 0, 0, 0, 0)
            wheelDiscrete = 0
            identity0 = UInt64(padMode.group) | UInt64(padMode.mode) << 32
            identity1 = 0
            capabilities = PenTool().capabilities.rawValue
        }
        self.bits = bits
    }

    /// Which tool or pad event it is.
    public var kind: Kind {
        get {
            switch bits & 7 {
            case 0: .toolProximity
            case 1: .toolAxis
            case 2: .toolTip
            case 3: .toolButton
            case 4: .padButton
            case 5: .padRing
            case 6: .padStrip
            default: .padKey
            }
        }
        set { self = rebuilt(kind: newValue) }
    }
    /// Tool position in layout space, when the event carries one.
    public var position: LayoutPoint? {
        get { bits & (1 << 6) != 0 ? LayoutPoint(x: x, y: y) : nil }
        set { self = rebuilt(position: .some(newValue)) }
    }
    /// Proximity in/out, tip down/up, button pressed/released as 1/0; ring (degrees, -1 when
    /// the finger lifted) and strip (0...1, -1 when lifted) value.
    public var value: Double {
        get { isToolEvent ? Double(toolValue) : wide0 }
        set { self = rebuilt(value: newValue) }
    }
    /// Tool events: the tool.
    public var tool: PenTool {
        get {
            guard isToolEvent else { return PenTool() }
            return PenTool(kind: PenToolKind(rawValue: (bits >> 3) & 7) ?? .pen, serial: identity0, hardwareID: identity1,
                           capabilities: PenAxisSet(rawValue: capabilities))
        }
        set { self = rebuilt(tool: newValue) }
    }
    /// Tool events: every axis as of this event.
    public var axes: PenAxes {
        get {
            guard isToolEvent else { return PenAxes() }
            return PenAxes(pressure: wide0, distance: wide1, tiltX: Double(tiltX), tiltY: Double(tiltY), rotation: Double(rotation),
                           slider: Double(slider), wheelDelta: Double(wheelDelta), wheelDiscrete: wheelDiscrete)
        }
        set { self = rebuilt(axes: newValue) }
    }
    /// Tool events: the axes this event changed.
    public var changedAxes: PenAxisSet {
        get { PenAxisSet(rawValue: changed) }
        set { changed = newValue.rawValue }
    }
    /// Pad events: the mode group of the button, ring or strip, and its mode.
    public var padMode: PadMode {
        get { isToolEvent ? PadMode() : PadMode(group: UInt32(truncatingIfNeeded: identity0), mode: UInt32(truncatingIfNeeded: identity0 >> 32)) }
        set { self = rebuilt(padMode: newValue) }
    }
    /// Ring and strip events: a finger moved it (false: the source is unknown).
    public var fromFinger: Bool {
        get { bits & (1 << 7) != 0 }
        set { bits = newValue ? bits | (1 << 7) : bits & ~(1 << 7) }
    }

    /// A tool event (proximity, axis, tip, tool button), as opposed to a pad event.
    public var isToolEvent: Bool { bits & 7 < 4 }

    private func rebuilt(kind: Kind? = nil, position: LayoutPoint?? = nil, value: Double? = nil, tool: PenTool? = nil,
                         axes: PenAxes? = nil, padMode: PadMode? = nil) -> TabletEvent {
        TabletEvent(kind: kind ?? self.kind, position: position ?? self.position, code: code, value: value ?? self.value,
                    tool: tool ?? self.tool, axes: axes ?? self.axes, changedAxes: changedAxes, padMode: padMode ?? self.padMode,
                    fromFinger: fromFinger)
    }
}

/// One input event entering the router: from a libinput backend, a replayed recording or a
/// test. A value type, at most 105 bytes; no case carries a heap reference except device
/// announcements.
public struct InputEvent: Sendable, Hashable {
    /// What happened, with its data. Points are in layout space.
    public enum Kind: Sendable, Hashable {
        /// A finger touched down at a layout-space point.
        case touchDown(TouchID, LayoutPoint)
        /// A finger moved to a layout-space point.
        case touchMotion(TouchID, LayoutPoint)
        /// A finger lifted.
        case touchUp(TouchID)
        /// The device cancelled the touch (palm, device gone).
        case touchCancel(TouchID)
        /// The end of a touch frame: changes since the last frame are delivered together.
        case touchFrame
        /// Relative motion in logical units, accelerated and raw.
        case pointerMotion(delta: Vector, unaccelerated: Vector)
        /// Absolute motion to a layout-space point (tablets in mouse mode, VMs, tests).
        case pointerMotionAbsolute(LayoutPoint)
        /// A button (evdev code, e.g. BTN_LEFT 0x110) changed state.
        case pointerButton(button: UInt32, state: ButtonState)
        /// Scrolling (wheel, finger, continuous or tilt).
        case pointerAxis(AxisMotion)
        /// A touchpad swipe, pinch or hold phase.
        case touchpadGesture(TouchpadGesture)
        /// A key (evdev code, e.g. KEY_A 30) changed state.
        case key(keycode: UInt32, state: KeyState)
        /// A lid or tablet-mode switch changed. Goes through filters and spies, then to the
        /// delegate's ``CompositorDelegate/router(_:deviceEvent:)``; no responder sees it.
        case switchToggled(SwitchKind, on: Bool)
        /// A tablet tool or pad event. Goes through filters and spies; tool events are then
        /// routed as a pen (grab, hit-test, the chain: ``PenEvent``), pad events go to the
        /// delegate's ``CompositorDelegate/router(_:deviceEvent:)``.
        case tablet(TabletEvent)
        /// An event of a kind this version does not know (libinput's event type as `code`).
        /// Goes through filters and spies, then to the delegate's
        /// ``CompositorDelegate/router(_:deviceEvent:)``: passed on, never dropped.
        case unknown(code: UInt32)
        /// A device appeared. Recorded in ``Router/devices``; spies and the delegate hear it,
        /// filters are not asked. Boxed (devices come and go rarely; the announcement's
        /// strings are on the heap anyway) so that the other events stay small.
        indirect case deviceAdded(DeviceInfo)
        /// The event's device went away: its touches are cancelled, then spies and the delegate
        /// hear it; filters are not asked.
        case deviceRemoved
    }

    /// When the device produced the event, on the event loop's monotonic clock.
    public var time: Timestamp
    /// The device that produced it (`DeviceID(0)` when unknown).
    public var device: DeviceID
    /// What happened.
    public var kind: Kind

    /// An event from `device` at `time`, for ``Router/inject(_:)``.
    public init(time: Timestamp, device: DeviceID = DeviceID(0), _ kind: Kind) {
        self.time = time
        self.device = device
        self.kind = kind
    }
}
