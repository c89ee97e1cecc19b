import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// seatkit_router_notify_*: events from the compositor's own backend. Each goes through
// Router.inject: filters, spies, the active grab (or the default rule), recognizers and the
// responder chain; seatkit_router_send_* stay raw.

@inline(__always)
private func inject(_ handle: OpaquePointer?, _ function: StaticString, _ time: Int64, _ device: UInt32,
                    _ kind: InputEvent.Kind) {
    // Unretained: a router destroyed from inside a callback lives until this call returns.
    // This thread's state read once (a C call to a _Thread_local), for the lookup and the call.
    let state = ThreadState.current
    guard let r = Handles.unretained(handle, .router, state) else { return refused(handle, .router, function) }
    APICall.run(state) {
        r.with {
            let router = unsafeDowncast($0, to: CRouter.self)
            let event = InputEvent(time: Timestamp(microseconds: router.checkedTime(time)), device: DeviceID(device), kind)
            router.routerLink.with { $0.inject(event) }
        }
    }
}

@inline(__always)
private func finite(_ a: Double, _ b: Double, _ function: StaticString) -> Bool {
    // x - x is 0 for every finite x and NaN for an infinity or NaN, so the sum is 0 exactly
    // when both are finite: nine instructions, where two isFinite tests took thirteen on
    // the per-event path.
    if (a - a) + (b - b) == 0 { return true }
    notFinite(a, b, function)
    return false
}

/// The log line of a refused coordinate, built out of line: inline, its string building made
/// every entry point's frame larger.
@inline(never)
private func notFinite(_ a: Double, _ b: Double, _ function: StaticString) {
    misuse(function, "(\(a), \(b)) is not finite; event dropped")
}

@_cdecl("seatkit_router_notify_touch_down")
public func seatkit_router_notify_touch_down(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                             _ id: Int32, _ x: Double, _ y: Double) {
    guard finite(x, y, #function) else { return }
    inject(router, #function, time, device, .touchDown(TouchID(id), LayoutPoint(x: x, y: y)))
}

@_cdecl("seatkit_router_notify_touch_motion")
public func seatkit_router_notify_touch_motion(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                               _ id: Int32, _ x: Double, _ y: Double) {
    guard finite(x, y, #function) else { return }
    inject(router, #function, time, device, .touchMotion(TouchID(id), LayoutPoint(x: x, y: y)))
}

@_cdecl("seatkit_router_notify_touch_up")
public func seatkit_router_notify_touch_up(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32, _ id: Int32) {
    inject(router, #function, time, device, .touchUp(TouchID(id)))
}

@_cdecl("seatkit_router_notify_touch_cancel")
public func seatkit_router_notify_touch_cancel(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32, _ id: Int32) {
    inject(router, #function, time, device, .touchCancel(TouchID(id)))
}

@_cdecl("seatkit_router_notify_touch_frame")
public func seatkit_router_notify_touch_frame(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32) {
    inject(router, #function, time, device, .touchFrame)
}

@_cdecl("seatkit_router_notify_pointer_motion")
public func seatkit_router_notify_pointer_motion(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                                 _ dx: Double, _ dy: Double, _ rawDX: Double, _ rawDY: Double) {
    guard finite(dx, dy, #function), finite(rawDX, rawDY, #function) else { return }
    inject(router, #function, time, device,
           .pointerMotion(delta: Vector(dx: dx, dy: dy), unaccelerated: Vector(dx: rawDX, dy: rawDY)))
}

@_cdecl("seatkit_router_notify_pointer_motion_absolute")
public func seatkit_router_notify_pointer_motion_absolute(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                                          _ x: Double, _ y: Double) {
    guard finite(x, y, #function) else { return }
    inject(router, #function, time, device, .pointerMotionAbsolute(LayoutPoint(x: x, y: y)))
}

@_cdecl("seatkit_router_notify_pointer_button")
public func seatkit_router_notify_pointer_button(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                                 _ button: UInt32, _ state: seatkit_button_state) {
    let s: ButtonState
    switch state {
    case SEATKIT_BUTTON_PRESSED: s = .pressed
    case SEATKIT_BUTTON_RELEASED: s = .released
    default:
        misuse(#function, "button state \(state.rawValue) is neither released (0) nor pressed (1); event dropped")
        return
    }
    inject(router, #function, time, device, .pointerButton(button: button, state: s))
}

@_cdecl("seatkit_router_notify_pointer_axis")
public func seatkit_router_notify_pointer_axis(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                               _ axis: UnsafePointer<seatkit_axis>?) {
    guard let axis else {
        misuse(#function, "NULL axis; event dropped")
        return
    }
    guard let motion = CValues.axis(axis.pointee) else {
        misuse(#function, "axis source \(axis.pointee.source.rawValue) out of range or values not finite; event dropped")
        return
    }
    inject(router, #function, time, device, .pointerAxis(motion))
}

@_cdecl("seatkit_router_notify_touchpad_gesture")
public func seatkit_router_notify_touchpad_gesture(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                                   _ gesture: UnsafePointer<seatkit_touchpad_gesture>?) {
    guard let gesture else {
        misuse(#function, "NULL gesture; event dropped")
        return
    }
    guard let g = CValues.gesture(gesture.pointee) else {
        misuse(#function, "gesture kind \(gesture.pointee.kind.rawValue) or phase \(gesture.pointee.phase.rawValue) out of range, or values not finite; event dropped")
        return
    }
    inject(router, #function, time, device, .touchpadGesture(g))
}

@_cdecl("seatkit_router_notify_key")
public func seatkit_router_notify_key(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                      _ keycode: UInt32, _ state: seatkit_key_state) {
    let s: KeyState
    switch state {
    case SEATKIT_KEY_PRESSED: s = .pressed
    case SEATKIT_KEY_RELEASED: s = .released
    case SEATKIT_KEY_REPEATED: s = .repeated
    default:
        misuse(#function, "key state \(state.rawValue) out of range; event dropped")
        return
    }
    inject(router, #function, time, device, .key(keycode: keycode, state: s))
}

@_cdecl("seatkit_router_notify_switch")
public func seatkit_router_notify_switch(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                         _ which: seatkit_switch, _ on: Bool) {
    let kind: SwitchKind
    switch which {
    case SEATKIT_SWITCH_LID: kind = .lid
    case SEATKIT_SWITCH_TABLET_MODE: kind = .tabletMode
    default:
        misuse(#function, "switch \(which.rawValue) out of range; event dropped")
        return
    }
    inject(router, #function, time, device, .switchToggled(kind, on: on))
}

@_cdecl("seatkit_router_notify_device_added")
public func seatkit_router_notify_device_added(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                               _ info: UnsafePointer<seatkit_device_info>?) {
    guard let info else {
        misuse(#function, "NULL device info; event dropped")
        return
    }
    inject(router, #function, time, device, .deviceAdded(CValues.deviceInfo(info.pointee)))
}

@_cdecl("seatkit_router_notify_device_removed")
public func seatkit_router_notify_device_removed(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32) {
    inject(router, #function, time, device, .deviceRemoved)
}

@_cdecl("seatkit_router_send_key")
public func seatkit_router_send_key(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_key_event>?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    guard let e = event?.pointee else {
        misuse(#function, "NULL event; nothing sent")
        return
    }
    let state: KeyState
    switch e.state {
    case SEATKIT_KEY_PRESSED: state = .pressed
    case SEATKIT_KEY_RELEASED: state = .released
    case SEATKIT_KEY_REPEATED: state = .repeated
    default:
        misuse(#function, "key state \(e.state.rawValue) out of range; nothing sent")
        return
    }
    let key = KeyEvent(time: Timestamp(microseconds: e.time_usec), device: DeviceID(e.device), keycode: e.keycode,
                       state: state, keysym: e.keysym, baseKeysym: e.base_keysym, text: string(e.text),
                       modifiers: KeyModifiers(rawValue: e.modifiers),
                       modifierMasks: ModifierMasks(depressed: e.mods_depressed, latched: e.mods_latched,
                                                    locked: e.mods_locked, group: e.group))
    APICall.run { r.router.deliverKey(key) }
}

// MARK: Pens

/// The tool of a C pen event, or nil for an out-of-range type.
private func penTool(_ type: seatkit_pen_tool_type, serial: UInt64, capabilities: UInt32) -> PenTool? {
    guard type.rawValue <= 7, let kind = PenToolKind(rawValue: UInt8(type.rawValue)) else { return nil }
    return PenTool(kind: kind, serial: serial, capabilities: PenAxisSet(rawValue: UInt16(truncatingIfNeeded: capabilities)).union(.position))
}

@_cdecl("seatkit_router_notify_pen")
public func seatkit_router_notify_pen(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_pen_event>?) {
    guard let e = event?.pointee else {
        misuse(#function, "NULL pen event; event dropped")
        return
    }
    guard let tool = penTool(e.tool_type, serial: e.tool_serial, capabilities: e.capabilities) else {
        misuse(#function, "tool type \(e.tool_type.rawValue) out of range; event dropped")
        return
    }
    let kind: TabletEvent.Kind
    let value: Double
    switch e.phase {
    case SEATKIT_PEN_PROXIMITY_IN: (kind, value) = (.toolProximity, 1)
    case SEATKIT_PEN_PROXIMITY_OUT: (kind, value) = (.toolProximity, 0)
    case SEATKIT_PEN_DOWN: (kind, value) = (.toolTip, 1)
    case SEATKIT_PEN_UP: (kind, value) = (.toolTip, 0)
    case SEATKIT_PEN_HOVER, SEATKIT_PEN_MOVED: (kind, value) = (.toolAxis, 0)
    default:
        misuse(#function, "pen phase \(e.phase.rawValue) out of range; event dropped")
        return
    }
    let axes = PenAxes(pressure: e.pressure, distance: e.distance, tiltX: e.tilt_x, tiltY: e.tilt_y, rotation: e.rotation,
                       slider: e.slider, wheelDelta: e.wheel, wheelDiscrete: e.wheel_discrete)
    inject(router, #function, e.time_usec, e.device, .tablet(TabletEvent(
        kind: kind, position: LayoutPoint(x: e.x, y: e.y), value: value, tool: tool, axes: axes,
        changedAxes: PenAxisSet(rawValue: UInt16(truncatingIfNeeded: e.changed)))))
}

@_cdecl("seatkit_router_notify_pen_button")
public func seatkit_router_notify_pen_button(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_pen_button_event>?) {
    guard let e = event?.pointee else {
        misuse(#function, "NULL pen button event; event dropped")
        return
    }
    guard let tool = penTool(e.tool_type, serial: e.tool_serial, capabilities: 0) else {
        misuse(#function, "tool type \(e.tool_type.rawValue) out of range; event dropped")
        return
    }
    inject(router, #function, e.time_usec, e.device, .tablet(TabletEvent(
        kind: .toolButton, position: LayoutPoint(x: e.x, y: e.y), code: e.button, value: e.state == SEATKIT_BUTTON_PRESSED ? 1 : 0,
        tool: tool)))
}

// MARK: Pads

@_cdecl("seatkit_router_notify_pad")
public func seatkit_router_notify_pad(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_pad_event>?) {
    guard let e = event?.pointee else {
        misuse(#function, "NULL pad event; event dropped")
        return
    }
    let kind: TabletEvent.Kind
    switch e.kind {
    case SEATKIT_PAD_BUTTON: kind = .padButton
    case SEATKIT_PAD_RING: kind = .padRing
    case SEATKIT_PAD_STRIP: kind = .padStrip
    case SEATKIT_PAD_KEY: kind = .padKey
    default:
        misuse(#function, "pad event kind \(e.kind.rawValue) out of range; event dropped")
        return
    }
    guard e.value.isFinite else {
        misuse(#function, "pad value \(e.value) is not finite; event dropped")
        return
    }
    inject(router, #function, e.time_usec, e.device, .tablet(TabletEvent(
        kind: kind, code: e.index, value: e.value, padMode: PadMode(group: e.group, mode: e.mode), fromFinger: e.from_finger)))
}

@_cdecl("seatkit_router_notify_pad_added")
public func seatkit_router_notify_pad_added(_ router: OpaquePointer?, _ time: Int64, _ device: UInt32,
                                            _ info: UnsafePointer<seatkit_device_info>?, _ layout: UnsafePointer<seatkit_pad_layout>?) {
    guard let info, let layout else {
        misuse(#function, "NULL \(info == nil ? "device info" : "pad layout"); event dropped")
        return
    }
    var device_info = CValues.deviceInfo(info.pointee)
    device_info.capabilities.insert(.tabletPad)
    device_info.pad = CValues.padLayout(layout.pointee)
    inject(router, #function, time, device, .deviceAdded(device_info))
}
