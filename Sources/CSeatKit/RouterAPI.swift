import CSeatKitSupport
import SeatKit

// seatkit_router_*: creating and destroying routers, the clock, the delegate, queries.

@_cdecl("seatkit_router_create")
public func seatkit_router_create(_ loop: OpaquePointer?) -> OpaquePointer? {
    guard let loop else {
        misuse(#function, "NULL event loop; use seatkit_router_create_virtual for a virtual clock")
        return nil
    }
    guard let clock = EventLoopClock(loop: loop) else {
        misuse(#function, "wl_event_loop_add_timer failed")
        return nil
    }
    let router = CRouter(clock: clock, eventLoopClock: clock, virtualClock: nil)
    clock.aroundFiring = { body in APICall.run(body) }
    return register(router, #function)
}

@_cdecl("seatkit_router_create_virtual")
public func seatkit_router_create_virtual(_ start: Int64) -> OpaquePointer? {
    let clock = VirtualClock(now: Timestamp(microseconds: start))
    return register(CRouter(clock: clock, eventLoopClock: nil, virtualClock: clock), #function)
}

private func register(_ router: CRouter, _ function: StaticString) -> OpaquePointer? {
    guard let handle = Handles.insert(router, kind: .router) else {
        misuse(function, "too many live handles")
        router.eventLoopClock?.invalidate()
        return nil
    }
    let delegate = CDelegate(owner: router)
    router.delegate = delegate
    router.router.delegate = delegate
    return handle
}

@_cdecl("seatkit_router_advance_clock")
public func seatkit_router_advance_clock(_ handle: OpaquePointer?, _ time: Int64) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    guard let clock = r.virtualClock else {
        misuse(#function, "the router runs on an event-loop clock, which only the loop moves")
        return
    }
    APICall.run { clock.advance(to: Timestamp(microseconds: time)) }
}

@_cdecl("seatkit_router_get_time")
public func seatkit_router_get_time(_ handle: OpaquePointer?) -> Int64 {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return 0 }
    return r.router.clock.now.microseconds
}

/// wlroots' event times (`time_msec`: CLOCK_MONOTONIC in milliseconds, cut to 32 bits, so
/// wrapping every 49.7 days) on the router's clock, in µs: the moment within ±24.8 days of the
/// router's now whose low 32 bits of milliseconds are `msec`.
@_cdecl("seatkit_time_from_msec")
public func seatkit_time_from_msec(_ handle: OpaquePointer?, _ msec: UInt32) -> Int64 {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return 0 }
    return timeFromMilliseconds(msec, now: r.router.clock.now.microseconds)
}

/// The µs time whose milliseconds' low 32 bits are `msec`, nearest to `now` (µs).
func timeFromMilliseconds(_ msec: UInt32, now: Int64) -> Int64 {
    let nowMilliseconds = now / 1000
    // How far behind now (in wrapped milliseconds) the event is: negative if ahead.
    let behind = Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: nowMilliseconds) &- msec))
    return (nowMilliseconds - behind) * 1000
}

@_cdecl("seatkit_router_destroy")
public func seatkit_router_destroy(_ handle: OpaquePointer?) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    APICall.run { r.destroy() }
}

@_cdecl("seatkit_router_get_destroy_signal")
public func seatkit_router_get_destroy_signal(_ handle: OpaquePointer?) -> UnsafeMutablePointer<wl_signal>? {
    live(handle, .router, as: CRouter.self, #function)?.destroySignal
}

@_cdecl("seatkit_router_set_delegate")
public func seatkit_router_set_delegate(_ handle: OpaquePointer?, _ impl: UnsafePointer<seatkit_delegate_interface>?,
                                        _ data: UnsafeMutableRawPointer?) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    r.delegate?.set(impl, data: data, #function)
}

@_cdecl("seatkit_router_get_capabilities")
public func seatkit_router_get_capabilities(_ handle: OpaquePointer?) -> UInt32 {
    live(handle, .router, as: CRouter.self, #function)?.router.capabilities.rawValue ?? 0
}

@_cdecl("seatkit_router_surface_at")
public func seatkit_router_surface_at(_ handle: OpaquePointer?, _ x: Double, _ y: Double) -> OpaquePointer? {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return nil }
    guard x.isFinite, y.isFinite else {
        misuse(#function, "point (\(x), \(y)) is not finite")
        return nil
    }
    return APICall.run { r.handle(of: r.router.surface(at: LayoutPoint(x: x, y: y))) }
}

@_cdecl("seatkit_router_get_pointer_location")
public func seatkit_router_get_pointer_location(_ handle: OpaquePointer?, _ x: UnsafeMutablePointer<Double>?,
                                                _ y: UnsafeMutablePointer<Double>?) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    x?.pointee = r.router.pointerLocation.x
    y?.pointee = r.router.pointerLocation.y
}

@_cdecl("seatkit_router_get_pointer_focus")
public func seatkit_router_get_pointer_focus(_ handle: OpaquePointer?) -> OpaquePointer? {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return nil }
    return r.handle(of: r.router.pointerFocus)
}

@_cdecl("seatkit_router_refresh_pointer_focus")
public func seatkit_router_refresh_pointer_focus(_ handle: OpaquePointer?) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    APICall.run { r.router.refreshPointerFocus() }
}

@_cdecl("seatkit_router_refresh_touch_locations")
public func seatkit_router_refresh_touch_locations(_ handle: OpaquePointer?) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    APICall.run { r.router.refreshTouchLocations() }
}

@_cdecl("seatkit_router_get_touch_surface")
public func seatkit_router_get_touch_surface(_ handle: OpaquePointer?, _ id: Int32) -> OpaquePointer? {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return nil }
    return r.handle(of: r.router.surface(boundTo: TouchID(id)))
}

@_cdecl("seatkit_router_cancel_touches")
public func seatkit_router_cancel_touches(_ handle: OpaquePointer?, _ reason: UnsafePointer<CChar>?) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    let why = string(reason, or: "cancelled by the compositor")
    APICall.run { r.router.cancelTouches(reason: why) { _ in true } }
}

@_cdecl("seatkit_router_cancel_touches_on_surface")
public func seatkit_router_cancel_touches_on_surface(_ handle: OpaquePointer?, _ surfaceHandle: OpaquePointer?,
                                                     _ reason: UnsafePointer<CChar>?) {
    guard let r = live(handle, .router, as: CRouter.self, #function),
          let s = live(surfaceHandle, .surface, as: CSurface.self, #function) else { return }
    let why = string(reason, or: "cancelled by the compositor")
    let root = s.surface
    APICall.run {
        r.router.cancelTouches(reason: why) { touch in
            guard let bound = touch.surface else { return false }
            return bound === root || bound.isDescendant(of: root)
        }
    }
}
