import SeatKit

/// Which output each absolute device (touchscreen, tablet) is mapped to.
///
/// A touchscreen reports where on its own glass a finger is; the mapping says which output
/// that glass covers. The output's transform is then applied by
/// SeatKit's `Output.layoutPoint(fromNormalized:_:)`, so a panel mounted rotated is touched
/// where the finger is. The device's calibration matrix is applied earlier, by libinput (see
/// ``DeviceConfiguration/calibration``).
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

    /// The event for `router`, with positions in `router`'s layout space. `timeOffset` is
    /// added to libinput's times (a replay moves them onto the recording's timeline).
    public func translate(_ event: DeviceEvent, layout: Layout, timeOffset: Int64 = 0) -> InputEvent {
        let time = Timestamp(microseconds: event.time + timeOffset)
        let id = DeviceID(event.device)
        let kind: InputEvent.Kind
        switch event.kind {
        case .deviceAdded(let d):
            unchecked.devices[event.device] = d
            kind = .deviceAdded(DeviceInfo(name: d.name, capabilities: d.capabilities, physicalSize: d.size,
                                           mappedOutput: touchMapping.outputName(for: d) ?? layout.outputs.first?.name, pad: d.pad))
        case .deviceRemoved:
            unchecked.devices[event.device] = nil
            kind = .deviceRemoved
        case .keyboardKey(let key, let pressed):
            kind = .key(keycode: key, state: pressed ? .pressed : .released)
        case .pointerMotion(let dx, let dy, let ux, let uy):
            kind = .pointerMotion(delta: Vector(dx: dx, dy: dy), unaccelerated: Vector(dx: ux, dy: uy))
        case .pointerMotionAbsolute(let x, let y):
            kind = .pointerMotionAbsolute(place(x, y, device: event.device, layout: layout))
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
            kind = .touchDown(TouchID(slot), place(x, y, device: event.device, layout: layout))
        case .touchMotion(let slot, let x, let y):
            kind = .touchMotion(TouchID(slot), place(x, y, device: event.device, layout: layout))
        case .touchUp(let slot): kind = .touchUp(TouchID(slot))
        case .touchCancel(let slot): kind = .touchCancel(TouchID(slot))
        case .touchFrame: kind = .touchFrame
        case .gesture(let g):
            kind = .touchpadGesture(g)
        case .switchToggle(let which, let on):
            kind = .switchToggled(which, on: on)
        case .tablet(let t):
            let position = t.x.map { place($0, t.y ?? 0, device: event.device, layout: layout) }
            kind = .tablet(TabletEvent(kind: t.kind, position: position, code: t.code, value: t.value, tool: t.tool, axes: t.axes,
                                       changedAxes: t.changedAxes, padMode: t.padMode, fromFinger: t.fromFinger))
        case .other(let type):
            // Never dropped silently: an unknown libinput event reaches the compositor
            // delegate as an unknown event with the libinput type as its code.
            kind = .unknown(code: type)
        }
        return InputEvent(time: time, device: id, kind)
    }

    /// The layout-space point for a normalized device position: on the device's mapped
    /// output (or the first output), after that output's transform, and kept inside that
    /// output as the pointer is (`Layout.clamp(_:)`): a position of 1.0 (the device's
    /// maximum) lands `Layout.edgeMargin` (1/256, one `wl_fixed_t` step) inside the right
    /// or bottom edge, so the surface-local point a client reads is inside its surface; one
    /// beyond the device's range (calibration) lands on the edge. With no outputs at all, the
    /// normalized point itself.
    public func place(_ x: Double, _ y: Double, device: UInt32, layout: Layout) -> LayoutPoint {
        // With no rules (the default) the device's description is not even looked up: this
        // runs for every touch and tablet event.
        let named = unchecked._touchMapping.rules.isEmpty ? nil
            : unchecked.devices[device].flatMap { unchecked._touchMapping.outputName(for: $0) }.flatMap { layout.output(named: $0) }
        guard let output = named ?? layout.outputs.first else { return LayoutPoint(x: x, y: y) }
        return output.clampInside(output.layoutPoint(fromNormalized: x, y))
    }
}
