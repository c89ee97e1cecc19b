import SeatKit

/// Names the output each absolute device (touchscreen, tablet) is announced with, by rules
/// on its description (`DeviceInfo.mappedOutput`, above udev's `WL_OUTPUT`).
///
/// This only names; the router maps (`Router.layoutPoint(fromNormalized:_:device:)`):
/// its own rules (`Router.setDeviceMapping(_:forDevicesNamed:)`) win over the name given
/// here, then the output's transform puts a finger on a rotated panel where it is.
/// libinput applies udev's `LIBINPUT_CALIBRATION_MATRIX` before, the router's calibration after.
public struct TouchOutputMapping {
    /// Picks an output name for a device; nil falls through to the next rule.
    public typealias Rule = (DeviceDescription) -> String?
    var rules: [Rule] = []

    /// No rules: every absolute device maps to the layout's first output.
    public init() {}

    /// Maps devices whose name contains `deviceNameContains` (or every device, when nil) to
    /// the output with connector name `output`.
    public mutating func map(_ deviceNameContains: String? = nil, toOutput output: String) {
        rules.append { device in
            guard let part = deviceNameContains else { return output }
            return device.name.contains(part) ? output : nil
        }
    }

    /// Adds a rule of the caller's own; rules are tried in the order added.
    public mutating func addRule(_ rule: @escaping Rule) { rules.append(rule) }

    /// The output name for `device`, if a rule names one.
    public func outputName(for device: DeviceDescription) -> String? {
        for rule in rules { if let name = rule(device) { return name } }
        return nil
    }
}

/// Turns ``DeviceEvent``s into SeatKit `InputEvent`s for one router: places absolute
/// positions on the mapped output (layout space), keeps track of the devices it has seen,
/// and gives each a `DeviceID`.
///
/// Both the live ``LibinputBackend`` and the replay go through this type, so a recording
/// routes exactly as the device would.
public final class DeviceEventTranslator {
    /// Which output each absolute device is mapped to.
    public var touchMapping: TouchOutputMapping {
        get { unchecked._touchMapping }
        set { unchecked._touchMapping = newValue }
    }
    // Read for every absolute event; one thread (the event loop's), so no dynamic
    // exclusivity checks (as the router's state). Unchecked storage stays private: callers
    // write through the setter above (UnsafeFoundationsTests' rule 1).
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var _touchMapping: TouchOutputMapping
        /// Backs `devices`.
        var devices: [UInt32: DeviceDescription] = [:]
    }

    @exclusivity(unchecked) var unchecked: HotState

    /// Devices present, by the backend's device number.
    public var devices: [UInt32: DeviceDescription] { unchecked.devices }

    public init(touchMapping: TouchOutputMapping = TouchOutputMapping()) {
        unchecked = HotState(_touchMapping: touchMapping)
    }

    /// The event for `router`, with absolute positions placed in `router`'s layout space by
    /// the router's device mapping (``place(_:_:device:router:)``). `timeOffset` is added to
    /// libinput's times (a replay moves them onto the recording's timeline).
    public func translate(_ event: DeviceEvent, router: Router, timeOffset: Int64 = 0) -> InputEvent {
        let id = DeviceID(event.device)
        let kind: InputEvent.Kind
        switch event.kind {
        // The frequent kinds: the live backend's translation (one place for both paths).
        case .keyboardKey(let key, let pressed):
            return translate(time: event.time, device: event.device, .keyboardKey(key: key, pressed: pressed), router: router, timeOffset: timeOffset)
        case .pointerMotion(let dx, let dy, let ux, let uy):
            return translate(time: event.time, device: event.device,
                             .pointerMotion(dx: dx, dy: dy, unacceleratedDx: ux, unacceleratedDy: uy), router: router, timeOffset: timeOffset)
        case .pointerMotionAbsolute(let x, let y):
            return translate(time: event.time, device: event.device, .pointerMotionAbsolute(x: x, y: y), router: router, timeOffset: timeOffset)
        case .pointerButton(let button, let pressed):
            return translate(time: event.time, device: event.device, .pointerButton(button: button, pressed: pressed), router: router, timeOffset: timeOffset)
        case .pointerScroll(let s):
            return translate(time: event.time, device: event.device, .pointerScroll(s), router: router, timeOffset: timeOffset)
        case .touchDown(let slot, let x, let y):
            return translate(time: event.time, device: event.device, .touchDown(seatSlot: slot, x: x, y: y), router: router, timeOffset: timeOffset)
        case .touchMotion(let slot, let x, let y):
            return translate(time: event.time, device: event.device, .touchMotion(seatSlot: slot, x: x, y: y), router: router, timeOffset: timeOffset)
        case .touchUp(let slot):
            return translate(time: event.time, device: event.device, .touchUp(seatSlot: slot), router: router, timeOffset: timeOffset)
        case .touchFrame:
            return translate(time: event.time, device: event.device, .touchFrame, router: router, timeOffset: timeOffset)
        case .gesture(let g):
            return translate(time: event.time, device: event.device, .gesture(g), router: router, timeOffset: timeOffset)
        // The rare kinds.
        case .deviceAdded(let d):
            unchecked.devices[event.device] = d
            kind = .deviceAdded(DeviceInfo(name: d.name, capabilities: d.capabilities, physicalSize: d.size,
                                           mappedOutput: touchMapping.outputName(for: d) ?? d.outputName, pad: d.pad))
        case .deviceRemoved:
            unchecked.devices[event.device] = nil
            kind = .deviceRemoved
        case .touchCancel(let slot): kind = .touchCancel(TouchID(slot))
        case .switchToggle(let which, let on):
            kind = .switchToggled(which, on: on)
        case .tablet(let t):
            let position = t.x.map { place($0, t.y ?? 0, device: event.device, router: router) }
            kind = .tablet(TabletEvent(kind: t.kind, position: position, code: t.code, value: t.value, tool: t.tool, axes: t.axes,
                                       changedAxes: t.changedAxes, padMode: t.padMode, fromFinger: t.fromFinger))
        case .other(let type):
            // Never dropped silently: an unknown libinput event reaches the compositor
            // delegate as an unknown event with the libinput type as its code.
            kind = .unknown(code: type)
        }
        return InputEvent(time: Timestamp(microseconds: event.time + timeOffset), device: id, kind)
    }

    /// A frequent event, as the live backend reads it (no ``DeviceEvent`` built); the
    /// translation of those kinds for ``translate(_:router:timeOffset:)`` too.
    @inline(__always)
    func translate(time: Int64, device: UInt32, _ event: DeviceEvent.Frequent, router: Router, timeOffset: Int64 = 0) -> InputEvent {
        let kind: InputEvent.Kind
        switch event {
        case .keyboardKey(let key, let pressed):
            return Self.key(time: time + timeOffset, device: device, key: key, pressed: pressed)
        case .pointerMotion(let dx, let dy, let ux, let uy):
            kind = .pointerMotion(delta: Vector(dx: dx, dy: dy), unaccelerated: Vector(dx: ux, dy: uy))
        case .pointerMotionAbsolute(let x, let y):
            kind = .pointerMotionAbsolute(place(x, y, device: device, router: router))
        case .pointerButton(let button, let pressed):
            kind = .pointerButton(button: button, state: pressed ? .pressed : .released)
        case .pointerScroll(let s):
            let stops = s.source == .finger || s.source == .continuous
            kind = .pointerAxis(AxisMotion(
                source: s.source, horizontal: s.horizontal, vertical: s.vertical,
                horizontalV120: s.horizontalV120, verticalV120: s.verticalV120,
                horizontalStop: stops && s.hasHorizontal && s.horizontal == 0,
                verticalStop: stops && s.hasVertical && s.vertical == 0,
                invertedDirection: s.naturalScrolling))
        case .touchDown(let slot, let x, let y):
            kind = .touchDown(TouchID(slot), place(x, y, device: device, router: router))
        case .touchMotion(let slot, let x, let y):
            kind = .touchMotion(TouchID(slot), place(x, y, device: device, router: router))
        case .touchUp(let slot): kind = .touchUp(TouchID(slot))
        case .touchFrame: kind = .touchFrame
        case .gesture(let g):
            kind = .touchpadGesture(g)
        }
        return InputEvent(time: Timestamp(microseconds: time + timeOffset), device: DeviceID(device), kind)
    }

    /// A key's event: the translation of a key, for ``translate(time:device:_:router:timeOffset:)``
    /// and for the live backend, which makes it where the router's `inject` is inlined.
    @inline(__always)
    static func key(time: Int64, device: UInt32, key: UInt32, pressed: Bool) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: time), device: DeviceID(device), .key(keycode: key, state: pressed ? .pressed : .released))
    }

    /// The layout-space point for a normalized device position: the router's
    /// `Router.layoutPoint(fromNormalized:_:device:)` (the device's mapped output or
    /// the first, its calibration, the output's transform, one clamp).
    @inline(__always)
    public func place(_ x: Double, _ y: Double, device: UInt32, router: Router) -> LayoutPoint {
        router.layoutPoint(fromNormalized: x, y, device: DeviceID(device))
    }
}
