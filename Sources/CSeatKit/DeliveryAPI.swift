import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// seatkit-delivery.h: for front ends that deliver routed input to clients themselves (the
// wlroots bridge): the end of each touch frame, and the core's pointer emulation from touch.

/// The router's touch-frame signal: a `TouchFrameObserver` (the router holds it weakly, its
/// `CRouter` strongly) that emits a wl_signal with the router's handle.
final class CTouchFrameSignal: TouchFrameObserver {
    let signal = CCalls.makeSignal()
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { CCalls.freeSignal(signal) }

    func routerDidFinishTouchFrame(_ router: Router) {
        CCalls.emitSignal(signal, data: handle)
    }
}

@_cdecl("seatkit_router_get_touch_frame_signal")
public func seatkit_router_get_touch_frame_signal(_ handle: OpaquePointer?) -> UnsafeMutablePointer<wl_signal>? {
    guard let r = live(handle, .router, as: CRouter.self, #function), let handle else { return nil }
    if let made = r.touchFrameSignal { return made.signal }
    let made = CTouchFrameSignal(handle: handle)
    r.touchFrameSignal = made
    // Kept by the router too (it holds only the handle's address): no weak reference per frame.
    r.router.addTouchFrameSink(made)
    return made.signal
}

/// The router's touch-frame callback (seatkit_router_set_touch_frame_callback): a
/// `TouchFrameObserver` kept by the router as a sink, which calls the C function set, if any,
/// with its data. The pair lives in a cell of its own, read through a `let`: a stored `var`
/// of a class was an exclusivity check a frame. Where the signal's end of a frame took
/// emitSignal's list walk (26 instructions a frame in the wlroots kiosk), this is two loads
/// and the call.
final class CTouchFrameCallback: TouchFrameObserver {
    struct Entry {
        var callback: seatkit_touch_frame_func_t?
        var data: UnsafeMutableRawPointer?
    }
    let cell: UnsafeMutablePointer<Entry>

    init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: Entry())
    }

    deinit { cell.deallocate() }

    func routerDidFinishTouchFrame(_ router: Router) {
        // Read before the call: the callback may clear or replace itself.
        let entry = cell.pointee
        if let callback = entry.callback { callback(entry.data) }
    }
}

@_cdecl("seatkit_router_set_touch_frame_callback")
public func seatkit_router_set_touch_frame_callback(_ handle: OpaquePointer?, _ callback: seatkit_touch_frame_func_t?,
                                                    _ data: UnsafeMutableRawPointer?) -> Bool {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return false }
    if callback == nil {
        r.touchFrameCallback?.cell.pointee = .init()
        return true
    }
    if let made = r.touchFrameCallback {
        if made.cell.pointee.callback != nil {
            misuse(#function, "the router already has a touch-frame callback (one a router; clear it with NULL first, or listen to seatkit_router_get_touch_frame_signal); refused")
            return false
        }
        made.cell.pointee = .init(callback: callback, data: data)
        return true
    }
    let made = CTouchFrameCallback()
    made.cell.pointee = .init(callback: callback, data: data)
    r.touchFrameCallback = made
    // A sink: kept by the router and told without a weak load, as the signal is.
    r.router.addTouchFrameSink(made)
    return true
}

@_cdecl("seatkit_router_get_touch_frame_callback")
public func seatkit_router_get_touch_frame_callback(_ handle: OpaquePointer?,
                                                    _ data: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> seatkit_touch_frame_func_t? {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return nil }
    let entry = r.touchFrameCallback?.cell.pointee ?? .init()
    data?.pointee = entry.data
    return entry.callback
}

// MARK: Pointer emulation


/// Runs the core's `TouchPointerEmulation` on the state kept in the caller's struct: loads
/// it, lets `body` drive it (each action handed to `perform`), stores it back.
private func withEmulation(_ state: UnsafeMutablePointer<seatkit_pointer_emulation>?, _ function: StaticString,
                           _ perform: seatkit_pointer_emulation_func_t?, _ data: UnsafeMutableRawPointer?,
                           _ body: (inout TouchPointerEmulation, (TouchPointerEmulation.Action) -> Void) -> Void) {
    guard let state else {
        misuse(function, "NULL emulation")
        return
    }
    guard let perform else {
        misuse(function, "NULL perform callback")
        return
    }
    var emulation = TouchPointerEmulation(primary: state.pointee.active != 0 ? TouchID(state.pointee.touch_id) : nil,
                                          entered: state.pointee.entered != 0)
    body(&emulation) { action in
        switch action {
        case .enter(let p): perform(data, SEATKIT_POINTER_EMULATION_ENTER, p.x, p.y)
        case .motion(let p): perform(data, SEATKIT_POINTER_EMULATION_MOTION, p.x, p.y)
        case .press: perform(data, SEATKIT_POINTER_EMULATION_PRESS, 0, 0)
        case .release: perform(data, SEATKIT_POINTER_EMULATION_RELEASE, 0, 0)
        case .leave: perform(data, SEATKIT_POINTER_EMULATION_LEAVE, 0, 0)
        }
    }
    store(emulation, in: state)
}

private func store(_ emulation: TouchPointerEmulation, in state: UnsafeMutablePointer<seatkit_pointer_emulation>) {
    state.pointee = seatkit_pointer_emulation(touch_id: emulation.primary?.rawValue ?? -1,
                                              active: emulation.isActive ? 1 : 0, entered: emulation.entered ? 1 : 0,
                                              reserved: (0, 0))
}

/// A finite point, or nil (logged): a NaN location would reach the client as garbage.
private func finite(_ sx: Double, _ sy: Double, _ function: StaticString) -> SurfacePoint? {
    guard sx.isFinite, sy.isFinite else {
        misuse(function, "non-finite point (\(sx), \(sy)) refused")
        return nil
    }
    return SurfacePoint(x: sx, y: sy)
}

@_cdecl("seatkit_pointer_emulation_init")
public func seatkit_pointer_emulation_init(_ state: UnsafeMutablePointer<seatkit_pointer_emulation>?) {
    guard let state else {
        misuse(#function, "NULL emulation")
        return
    }
    store(TouchPointerEmulation(), in: state)
}

@_cdecl("seatkit_pointer_emulation_is_active")
public func seatkit_pointer_emulation_is_active(_ state: UnsafePointer<seatkit_pointer_emulation>?,
                                                _ touchID: UnsafeMutablePointer<Int32>?) -> Bool {
    guard let state, state.pointee.active != 0 else { return false }
    touchID?.pointee = state.pointee.touch_id
    return true
}

@_cdecl("seatkit_pointer_emulation_touch_down")
public func seatkit_pointer_emulation_touch_down(_ state: UnsafeMutablePointer<seatkit_pointer_emulation>?, _ id: Int32,
                                                 _ sx: Double, _ sy: Double, _ pointerIsHere: Bool,
                                                 _ perform: seatkit_pointer_emulation_func_t?, _ data: UnsafeMutableRawPointer?) {
    guard let point = finite(sx, sy, #function) else { return }
    withEmulation(state, #function, perform, data) { $0.touchDown(TouchID(id), at: point, pointerIsHere: pointerIsHere, $1) }
}

@_cdecl("seatkit_pointer_emulation_touch_motion")
public func seatkit_pointer_emulation_touch_motion(_ state: UnsafeMutablePointer<seatkit_pointer_emulation>?, _ id: Int32,
                                                   _ sx: Double, _ sy: Double,
                                                   _ perform: seatkit_pointer_emulation_func_t?, _ data: UnsafeMutableRawPointer?) {
    guard let point = finite(sx, sy, #function) else { return }
    withEmulation(state, #function, perform, data) { $0.touchMoved(TouchID(id), to: point, $1) }
}

@_cdecl("seatkit_pointer_emulation_touch_up")
public func seatkit_pointer_emulation_touch_up(_ state: UnsafeMutablePointer<seatkit_pointer_emulation>?, _ id: Int32,
                                               _ perform: seatkit_pointer_emulation_func_t?, _ data: UnsafeMutableRawPointer?) {
    withEmulation(state, #function, perform, data) { $0.touchUp(TouchID(id), $1) }
}

@_cdecl("seatkit_pointer_emulation_touch_cancel")
public func seatkit_pointer_emulation_touch_cancel(_ state: UnsafeMutablePointer<seatkit_pointer_emulation>?,
                                                   _ perform: seatkit_pointer_emulation_func_t?, _ data: UnsafeMutableRawPointer?) {
    withEmulation(state, #function, perform, data) { $0.touchCancelled($1) }
}
