import CSeatKitSupport
import SeatKit

// seatkit_surface_*_interception: a descendant keeps its touches from its ancestors'
// recognizers (issue 30, goal 4; Android's requestDisallowInterceptTouchEvent).

@_cdecl("seatkit_surface_request_disallow_interception")
public func seatkit_surface_request_disallow_interception(_ handle: OpaquePointer?) -> Bool {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return false }
    return APICall.run { s.owner.router.requestDisallowInterception(by: s.surface) }
}

@_cdecl("seatkit_surface_is_interception_disallowed")
public func seatkit_surface_is_interception_disallowed(_ handle: OpaquePointer?) -> Bool {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return false }
    return s.owner.router.isInterceptionDisallowed(by: s.surface)
}
