import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// seatkit_grab_*, seatkit_router_start_*_grab / end_*_grab, the popup grab, and the two
// doors a grab uses: seatkit_router_route_* (the default rule, after filters and grabs) and
// seatkit_router_send_* (raw, one surface's chain).

/// `seatkit_grab`: a C vtable as a pointer, touch and keyboard grab at once; a NULL handler
/// forwards through the default route, as the Swift protocols' defaults do. A popup grab is
/// the core's `PopupGrab` behind the same kind of handle.
final class CGrab: HandleObject, PointerGrab, TouchGrab, KeyboardGrab {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    var impl: UnsafePointer<seatkit_grab_interface>?
    var data: UnsafeMutableRawPointer?
    /// Set for a popup grab: the core's grab that acts, this object only speaks for it.
    var popup: PopupGrab?
    var popupDismiss: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void)?
    let destroySignal = CCalls.makeSignal()
    var isDestroyed = false

    /// The library's copy of the caller's table (see `VTableCopy`); nil for a popup grab.
    let table: VTableCopy<seatkit_grab_interface>?

    init(owner: CRouter, table: VTableCopy<seatkit_grab_interface>?, data: UnsafeMutableRawPointer?) {
        ownerLink = Unretained(owner)
        self.table = table
        self.impl = table.map { UnsafePointer($0.pointer) }
        self.data = data
    }

    /// The object the router holds while this grab is active.
    var acting: AnyObject { popup ?? self }

    // MARK: Pointer

    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        guard let f = impl?.pointee.pointer_motion else { return router.routePointerMotion(event) }
        var e = CValues.motionEvent(event)
        f(data, handle, &e)
    }

    func pointerButton(_ event: PointerButtonEvent, router: Router) {
        guard let f = impl?.pointee.pointer_button else { return router.routePointerButton(event) }
        var e = CValues.buttonEvent(event)
        f(data, handle, &e)
    }

    func pointerAxis(_ event: PointerAxisEvent, router: Router) {
        guard let f = impl?.pointee.pointer_axis else { return router.routePointerAxis(event) }
        var e = CValues.axisEvent(event)
        f(data, handle, &e)
    }

    func touchpadGesture(_ event: TouchpadGestureEvent, router: Router) {
        guard let f = impl?.pointee.touchpad_gesture else { return router.routeTouchpadGesture(event) }
        var e = CValues.gestureEvent(event)
        f(data, handle, &e)
    }

    // MARK: Touch

    private typealias TouchHandler = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?,
                                                     UnsafePointer<seatkit_input_event>?) -> Void

    private func touch(_ event: InputEvent, _ handler: TouchHandler?, _ router: Router) {
        guard let handler else { return router.routeTouch(event) }
        let data = self.data, handle = self.handle
        CValues.withInputEvent(event) { handler(data, handle, $0) }
    }

    func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, router: Router) {
        touch(event, impl?.pointee.touch_down, router)
    }

    func touchMoved(_ event: InputEvent, id: TouchID, to point: LayoutPoint, router: Router) {
        touch(event, impl?.pointee.touch_motion, router)
    }

    func touchUp(_ event: InputEvent, id: TouchID, router: Router) {
        touch(event, impl?.pointee.touch_up, router)
    }

    func touchCancelled(_ event: InputEvent, id: TouchID, router: Router) {
        touch(event, impl?.pointee.touch_cancel, router)
    }

    func touchFrame(_ event: InputEvent, router: Router) {
        touch(event, impl?.pointee.touch_frame, router)
    }

    // MARK: Keyboard

    func key(_ event: KeyEvent, router: Router) {
        guard let f = impl?.pointee.key else { return router.deliverKey(event) }
        ownerLink.with { owner in CValues.withKeyEvent(event, on: owner) { f(data, handle, $0) } }
    }

    func cancel(router: Router) {
        impl?.pointee.cancel?(data, handle)
    }

    /// A popup grab's end: tells C once, then the handle goes (the header says so).
    func popupEnded() {
        let dismiss = popupDismiss
        popupDismiss = nil
        dismiss?(data, handle)
        destroy()
    }

    /// Ends whatever the grab holds (its cancel runs while the handle is valid), then the
    /// handle.
    func destroy() {
        guard !isDestroyed else { return }
        APICall.run { owner.router.endGrab(acting) }
        guard !isDestroyed else { return }
        isDestroyed = true
        CCalls.emitAndFreeSignal(destroySignal, data: handle)
        impl = nil
        data = nil
        popupDismiss = nil
        owner.grabs.removeAll { $0 === self }
        Handles.remove(handle)
    }
}

extension CValues {
    static func motionEvent(_ event: PointerMotionEvent) -> seatkit_pointer_motion_event {
        seatkit_pointer_motion_event(
            time_usec: event.time.microseconds, device: event.device.rawValue,
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y,
            dx: event.delta.dx, dy: event.delta.dy,
            dx_unaccel: event.unacceleratedDelta.dx, dy_unaccel: event.unacceleratedDelta.dy)
    }

    static func buttonEvent(_ event: PointerButtonEvent) -> seatkit_pointer_button_event {
        seatkit_pointer_button_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, button: event.button,
            state: event.state == .pressed ? SEATKIT_BUTTON_PRESSED : SEATKIT_BUTTON_RELEASED,
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
    }

    static func axisEvent(_ event: PointerAxisEvent) -> seatkit_pointer_axis_event {
        seatkit_pointer_axis_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, axis: axis(event.motion),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
    }

    static func gestureEvent(_ event: TouchpadGestureEvent) -> seatkit_touchpad_gesture_event {
        seatkit_touchpad_gesture_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, gesture: gesture(event.gesture),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
    }

    /// A touch event from C (a grab forwarding what it was given). Nil for another type or a
    /// non-finite point.
    static func touchInputEvent(_ e: seatkit_input_event) -> InputEvent? {
        let kind: InputEvent.Kind
        let id = TouchID(e.touch_id)
        switch e.type {
        case SEATKIT_INPUT_TOUCH_DOWN, SEATKIT_INPUT_TOUCH_MOTION:
            guard e.x.isFinite, e.y.isFinite else { return nil }
            let p = LayoutPoint(x: e.x, y: e.y)
            kind = e.type == SEATKIT_INPUT_TOUCH_DOWN ? .touchDown(id, p) : .touchMotion(id, p)
        case SEATKIT_INPUT_TOUCH_UP: kind = .touchUp(id)
        case SEATKIT_INPUT_TOUCH_CANCEL: kind = .touchCancel(id)
        case SEATKIT_INPUT_TOUCH_FRAME: kind = .touchFrame
        default: return nil
        }
        return InputEvent(time: Timestamp(microseconds: e.time_usec), device: DeviceID(e.device), kind)
    }
}

// MARK: Grab objects

@_cdecl("seatkit_grab_create")
public func seatkit_grab_create(_ router: OpaquePointer?, _ impl: UnsafePointer<seatkit_grab_interface>?,
                                _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard let impl else {
        misuse(#function, "NULL grab interface; refused")
        return nil
    }
    guard let table = VTableCopy.make(impl, "seatkit_grab_interface", #function) else { return nil }
    return register(CGrab(owner: r, table: table, data: data), r, #function)
}

private func register(_ grab: CGrab, _ r: CRouter, _ function: StaticString) -> OpaquePointer? {
    guard let handle = Handles.insert(grab, kind: .grab) else {
        misuse(function, "too many live handles")
        return nil
    }
    r.grabs.append(grab)
    return handle
}

@_cdecl("seatkit_grab_destroy")
public func seatkit_grab_destroy(_ handle: OpaquePointer?) {
    guard let g = live(handle, .grab, as: CGrab.self, #function) else { return }
    APICall.run { g.destroy() }
}

@_cdecl("seatkit_grab_get_destroy_signal")
public func seatkit_grab_get_destroy_signal(_ handle: OpaquePointer?) -> UnsafeMutablePointer<wl_signal>? {
    live(handle, .grab, as: CGrab.self, #function)?.destroySignal
}

private func routerAndGrab(_ router: OpaquePointer?, _ grab: OpaquePointer?,
                           _ function: StaticString) -> (CRouter, CGrab)? {
    guard let r = live(router, .router, as: CRouter.self, function),
          let g = live(grab, .grab, as: CGrab.self, function) else { return nil }
    guard g.owner === r else {
        misuse(function, "the grab belongs to another router; refused")
        return nil
    }
    return (r, g)
}

@_cdecl("seatkit_router_start_pointer_grab")
public func seatkit_router_start_pointer_grab(_ router: OpaquePointer?, _ grab: OpaquePointer?) -> Bool {
    guard let (r, g) = routerAndGrab(router, grab, #function) else { return false }
    APICall.run { r.router.startPointerGrab(g.popup ?? g) }
    return true
}

@_cdecl("seatkit_router_start_touch_grab")
public func seatkit_router_start_touch_grab(_ router: OpaquePointer?, _ grab: OpaquePointer?) -> Bool {
    guard let (r, g) = routerAndGrab(router, grab, #function) else { return false }
    APICall.run { r.router.startTouchGrab(g.popup ?? g) }
    return true
}

@_cdecl("seatkit_router_start_keyboard_grab")
public func seatkit_router_start_keyboard_grab(_ router: OpaquePointer?, _ grab: OpaquePointer?) -> Bool {
    startKeyboardGrab(router, grab, .keep, #function)
}

@_cdecl("seatkit_router_start_keyboard_grab_with_focus")
public func seatkit_router_start_keyboard_grab_with_focus(_ router: OpaquePointer?, _ grab: OpaquePointer?,
                                                          _ focus: seatkit_keyboard_grab_focus) -> Bool {
    switch focus {
    case SEATKIT_KEYBOARD_GRAB_KEEP_FOCUS: return startKeyboardGrab(router, grab, .keep, #function)
    case SEATKIT_KEYBOARD_GRAB_CLEAR_FOCUS: return startKeyboardGrab(router, grab, .clear, #function)
    default:
        misuse(#function, "keyboard grab focus \(focus.rawValue) out of range; refused")
        return false
    }
}

private func startKeyboardGrab(_ router: OpaquePointer?, _ grab: OpaquePointer?, _ focus: KeyboardGrabFocus,
                               _ function: StaticString) -> Bool {
    guard let (r, g) = routerAndGrab(router, grab, function) else { return false }
    if g.popup != nil {
        misuse(function, "a popup grab takes pointer and touch only; refused")
        return false
    }
    APICall.run { r.router.startKeyboardGrab(g, focus: focus) }
    return true
}

@_cdecl("seatkit_router_end_pointer_grab")
public func seatkit_router_end_pointer_grab(_ router: OpaquePointer?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    APICall.run { r.router.endPointerGrab() }
}

@_cdecl("seatkit_router_end_touch_grab")
public func seatkit_router_end_touch_grab(_ router: OpaquePointer?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    APICall.run { r.router.endTouchGrab() }
}

@_cdecl("seatkit_router_end_keyboard_grab")
public func seatkit_router_end_keyboard_grab(_ router: OpaquePointer?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    APICall.run { r.router.endKeyboardGrab() }
}

@_cdecl("seatkit_router_end_grab")
public func seatkit_router_end_grab(_ router: OpaquePointer?, _ grab: OpaquePointer?) {
    guard let (r, g) = routerAndGrab(router, grab, #function) else { return }
    APICall.run { r.router.endGrab(g.acting) }
}

/// The handle of the C grab the router holds, if it is one.
private func handle(of grab: AnyObject?, _ r: CRouter) -> OpaquePointer? {
    guard let grab else { return nil }
    return r.grabs.first { $0.acting === grab }?.handle
}

@_cdecl("seatkit_router_get_pointer_grab")
public func seatkit_router_get_pointer_grab(_ router: OpaquePointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    return handle(of: r.router.pointerGrab, r)
}

@_cdecl("seatkit_router_get_touch_grab")
public func seatkit_router_get_touch_grab(_ router: OpaquePointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    return handle(of: r.router.touchGrab, r)
}

@_cdecl("seatkit_router_get_keyboard_grab")
public func seatkit_router_get_keyboard_grab(_ router: OpaquePointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    return handle(of: r.router.keyboardGrab, r)
}

@_cdecl("seatkit_router_start_popup_grab")
public func seatkit_router_start_popup_grab(
    _ router: OpaquePointer?, _ popup: OpaquePointer?,
    _ dismiss: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void)?,
    _ data: UnsafeMutableRawPointer?
) -> OpaquePointer? {
    startPopupGrab(router, popup, parent: nil, dismiss, data, #function)
}

@_cdecl("seatkit_router_start_nested_popup_grab")
public func seatkit_router_start_nested_popup_grab(
    _ router: OpaquePointer?, _ popup: OpaquePointer?, _ parent: OpaquePointer?,
    _ dismiss: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void)?,
    _ data: UnsafeMutableRawPointer?
) -> OpaquePointer? {
    var parentGrab: PopupGrab?
    if parent != nil {
        guard let (_, p) = routerAndGrab(router, parent, #function) else { return nil }
        guard let popupGrab = p.popup else {
            misuse(#function, "the parent is not a popup grab; refused")
            return nil
        }
        parentGrab = popupGrab
    }
    return startPopupGrab(router, popup, parent: parentGrab, dismiss, data, #function)
}

@_cdecl("seatkit_router_start_popup_grab_with_parts")
public func seatkit_router_start_popup_grab_with_parts(
    _ router: OpaquePointer?, _ popup: OpaquePointer?,
    _ parts: UnsafePointer<OpaquePointer?>?, _ count: UInt, _ parent: OpaquePointer?,
    _ dismiss: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void)?,
    _ data: UnsafeMutableRawPointer?
) -> OpaquePointer? {
    var parentGrab: PopupGrab?
    if parent != nil {
        guard let (_, p) = routerAndGrab(router, parent, #function) else { return nil }
        guard let popupGrab = p.popup else {
            misuse(#function, "the parent is not a popup grab; refused")
            return nil
        }
        parentGrab = popupGrab
    }
    if count > 0 && parts == nil {
        misuse(#function, "NULL parts with count \(count); refused")
        return nil
    }
    var handles: [OpaquePointer?] = []
    for i in 0..<Int(count) { handles.append(parts![i]) }
    return startPopupGrab(router, popup, parts: handles, parent: parentGrab, dismiss, data, #function)
}

private func startPopupGrab(
    _ router: OpaquePointer?, _ popup: OpaquePointer?, parts: [OpaquePointer?] = [], parent: PopupGrab?,
    _ dismiss: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void)?,
    _ data: UnsafeMutableRawPointer?, _ function: StaticString
) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, function),
          let s = live(popup, .surface, as: CSurface.self, function) else { return nil }
    var partSurfaces: [Surface] = []
    for (i, handle) in ([popup] + parts).enumerated() {
        guard let part = i == 0 ? s : live(handle, .surface, as: CSurface.self, function) else { return nil }
        guard part.owner === r else {
            misuse(function, "the popup surface belongs to another router; refused")
            return nil
        }
        if part.isRoot {
            misuse(function, "an output's root surface cannot be a popup; refused")
            return nil
        }
        if i > 0 { partSurfaces.append(part.surface) }
    }
    let grab = CGrab(owner: r, table: nil, data: data)
    grab.popupDismiss = dismiss
    // Weak: a strong reference lives for the call, though the handle goes inside it.
    grab.popup = PopupGrab(popup: s.surface, parts: partSurfaces, parent: parent) { [weak grab] in grab?.popupEnded() }
    guard let handle = register(grab, r, function) else { return nil }
    APICall.run { r.router.startPopupGrab(grab.popup!) }
    return handle
}

// MARK: The route door (what a grab forwards through)

private func finitePoint(_ x: Double, _ y: Double, _ function: StaticString) -> LayoutPoint? {
    guard x.isFinite, y.isFinite else {
        misuse(function, "(\(x), \(y)) is not finite; event dropped")
        return nil
    }
    return LayoutPoint(x: x, y: y)
}

@_cdecl("seatkit_router_route_pointer_motion")
public func seatkit_router_route_pointer_motion(_ router: OpaquePointer?,
                                               _ event: UnsafePointer<seatkit_pointer_motion_event>?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    guard let e = event?.pointee else { return misuse(#function, "NULL event; nothing routed") }
    guard let p = finitePoint(e.x, e.y, #function) else { return }
    let m = PointerMotionEvent(time: Timestamp(microseconds: e.time_usec), device: DeviceID(e.device), location: p,
                               delta: Vector(dx: e.dx, dy: e.dy), unacceleratedDelta: Vector(dx: e.dx_unaccel, dy: e.dy_unaccel))
    APICall.run { r.router.routePointerMotion(m) }
}

private func button(_ e: seatkit_pointer_button_event, _ function: StaticString) -> PointerButtonEvent? {
    guard let p = finitePoint(e.x, e.y, function) else { return nil }
    let state: ButtonState
    switch e.state {
    case SEATKIT_BUTTON_PRESSED: state = .pressed
    case SEATKIT_BUTTON_RELEASED: state = .released
    default:
        misuse(function, "button state \(e.state.rawValue) out of range; event dropped")
        return nil
    }
    return PointerButtonEvent(time: Timestamp(microseconds: e.time_usec), device: DeviceID(e.device),
                              button: e.button, state: state, location: p)
}

/// `point` (layout space) in the pointer focus's space: what the route doors' pointer events
/// carry as `surfaceLocation`; zero without a focus.
private func focusLocation(of point: LayoutPoint, in router: Router) -> SurfacePoint {
    router.pointerFocus?.convert(point) ?? .zero
}

@_cdecl("seatkit_router_route_pointer_button")
public func seatkit_router_route_pointer_button(_ router: OpaquePointer?,
                                               _ event: UnsafePointer<seatkit_pointer_button_event>?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    guard let e = event?.pointee else { return misuse(#function, "NULL event; nothing routed") }
    guard var b = button(e, #function) else { return }
    // The C event carries layout coordinates only: the focus is told where it is in its own
    // space, as the Swift door's events (made by the router) tell it.
    b.surfaceLocation = focusLocation(of: b.location, in: r.router)
    APICall.run { r.router.routePointerButton(b) }
}

private func axisEvent(_ e: seatkit_pointer_axis_event, _ function: StaticString) -> PointerAxisEvent? {
    guard let p = finitePoint(e.x, e.y, function) else { return nil }
    guard let motion = CValues.axis(e.axis) else {
        misuse(function, "axis source out of range or a value not finite; event dropped")
        return nil
    }
    return PointerAxisEvent(time: Timestamp(microseconds: e.time_usec), device: DeviceID(e.device), motion: motion, location: p)
}

@_cdecl("seatkit_router_route_pointer_axis")
public func seatkit_router_route_pointer_axis(_ router: OpaquePointer?,
                                             _ event: UnsafePointer<seatkit_pointer_axis_event>?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    guard let e = event?.pointee else { return misuse(#function, "NULL event; nothing routed") }
    guard var a = axisEvent(e, #function) else { return }
    a.surfaceLocation = focusLocation(of: a.location, in: r.router)
    APICall.run { r.router.routePointerAxis(a) }
}

@_cdecl("seatkit_router_route_touchpad_gesture")
public func seatkit_router_route_touchpad_gesture(_ router: OpaquePointer?,
                                                 _ event: UnsafePointer<seatkit_touchpad_gesture_event>?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    guard let e = event?.pointee else { return misuse(#function, "NULL event; nothing routed") }
    guard let p = finitePoint(e.x, e.y, #function) else { return }
    guard let g = CValues.gesture(e.gesture) else {
        return misuse(#function, "gesture kind or phase out of range, or a value not finite; event dropped")
    }
    var event = TouchpadGestureEvent(time: Timestamp(microseconds: e.time_usec), device: DeviceID(e.device), gesture: g, location: p)
    event.surfaceLocation = focusLocation(of: p, in: r.router)
    APICall.run { r.router.routeTouchpadGesture(event) }
}

@_cdecl("seatkit_router_route_touch")
public func seatkit_router_route_touch(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_input_event>?) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    guard let e = event?.pointee else { return misuse(#function, "NULL event; nothing routed") }
    guard let touch = CValues.touchInputEvent(e) else {
        return misuse(#function, "not a touch event (type \(e.type.rawValue)) or a point not finite; nothing routed")
    }
    APICall.run { r.router.routeTouch(touch) }
}

// MARK: The raw door (one surface's chain)

private func target(_ r: CRouter, _ surface: OpaquePointer?, _ function: StaticString) -> (ok: Bool, surface: Surface?) {
    guard let surface else { return (true, nil) }
    guard let s = live(surface, .surface, as: CSurface.self, function) else { return (false, nil) }
    guard s.owner === r else {
        misuse(function, "the surface belongs to another router; nothing sent")
        return (false, nil)
    }
    return (true, s.surface)
}

@_cdecl("seatkit_router_send_pointer_motion")
public func seatkit_router_send_pointer_motion(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_pointer_motion_event>?,
                                              _ surface: OpaquePointer?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    guard let e = event?.pointee else { misuse(#function, "NULL event; nothing sent"); return false }
    let (ok, s) = target(r, surface, #function)
    guard ok, let p = finitePoint(e.x, e.y, #function) else { return false }
    let m = PointerMotionEvent(time: Timestamp(microseconds: e.time_usec), device: DeviceID(e.device), location: p,
                               delta: Vector(dx: e.dx, dy: e.dy), unacceleratedDelta: Vector(dx: e.dx_unaccel, dy: e.dy_unaccel))
    var handled = false
    APICall.run { handled = r.router.sendPointerMotion(m, to: s) }
    return handled
}

@_cdecl("seatkit_router_send_pointer_button")
public func seatkit_router_send_pointer_button(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_pointer_button_event>?,
                                              _ surface: OpaquePointer?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    guard let e = event?.pointee else { misuse(#function, "NULL event; nothing sent"); return false }
    let (ok, s) = target(r, surface, #function)
    guard ok, let b = button(e, #function) else { return false }
    var handled = false
    APICall.run { handled = r.router.sendPointerButton(b, to: s) }
    return handled
}

@_cdecl("seatkit_router_send_pointer_axis")
public func seatkit_router_send_pointer_axis(_ router: OpaquePointer?, _ event: UnsafePointer<seatkit_pointer_axis_event>?,
                                            _ surface: OpaquePointer?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    guard let e = event?.pointee else { misuse(#function, "NULL event; nothing sent"); return false }
    let (ok, s) = target(r, surface, #function)
    guard ok, let a = axisEvent(e, #function) else { return false }
    var handled = false
    APICall.run { handled = r.router.sendPointerAxis(a, to: s) }
    return handled
}

@_cdecl("seatkit_router_set_pointer_focus")
public func seatkit_router_set_pointer_focus(_ router: OpaquePointer?, _ surface: OpaquePointer?, _ time: Int64) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    let (ok, s) = target(r, surface, #function)
    guard ok else { return false }
    APICall.run { r.router.setPointerFocus(s, time: Timestamp(microseconds: time)) }
    return true
}
