import CSeatKitSupport
import SeatKit

// seatkit_surface_*: the surface tree. Frames are in the parent's surface space, input
// regions in the surface's own space.

private func validRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ function: StaticString) -> Bool {
    if x.isFinite && y.isFinite && w.isFinite && h.isFinite && w >= 0 && h >= 0 { return true }
    misuse(function, "rectangle (\(x), \(y)) \(w)x\(h) is not finite or has a negative size; refused")
    return false
}

@_cdecl("seatkit_surface_create")
public func seatkit_surface_create(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ x: Double, _ y: Double,
                                   _ width: Double, _ height: Double) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function),
          validRect(x, y, width, height, #function) else { return nil }
    let responder = CResponder(owner: r)
    // SeatKit's PassThroughResponder until a table or key command is set (installResponder).
    let surface = Surface(name: string(name), frame: SurfaceRect(x: x, y: y, width: width, height: height))
    let c = CSurface(owner: r, surface: surface, responder: responder, isRoot: false)
    guard let handle = Handles.insert(c, kind: .surface) else {
        misuse(#function, "too many live handles")
        return nil
    }
    responder.setSurfaceHandle(handle)
    r.unchecked.surfaces[ObjectIdentifier(surface)] = c
    return handle
}

@_cdecl("seatkit_surface_destroy")
public func seatkit_surface_destroy(_ handle: OpaquePointer?) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    guard !s.isRoot else {
        misuse(#function, "an output's root surface goes with its output (seatkit_output_destroy); refused")
        return
    }
    APICall.run { s.destroy() }
}

@_cdecl("seatkit_surface_get_destroy_signal")
public func seatkit_surface_get_destroy_signal(_ handle: OpaquePointer?) -> UnsafeMutablePointer<wl_signal>? {
    live(handle, .surface, as: CSurface.self, #function)?.destroySignal
}

@_cdecl("seatkit_surface_set_responder")
public func seatkit_surface_set_responder(_ handle: OpaquePointer?, _ impl: UnsafePointer<seatkit_responder_interface>?,
                                          _ data: UnsafeMutableRawPointer?) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    _ = s.responder.setTable(impl, data: data, #function)
    s.installResponder()
}

@_cdecl("seatkit_surface_get_responder_data")
public func seatkit_surface_get_responder_data(_ handle: OpaquePointer?) -> UnsafeMutableRawPointer? {
    live(handle, .surface, as: CSurface.self, #function)?.responder.unchecked.data
}

private func insert(_ parentHandle: OpaquePointer?, _ childHandle: OpaquePointer?, at index: Int?,
                    _ function: StaticString) -> Bool {
    guard let parent = live(parentHandle, .surface, as: CSurface.self, function),
          let child = live(childHandle, .surface, as: CSurface.self, function) else { return false }
    if child.isRoot {
        misuse(function, "an output's root surface cannot be a child; refused")
        return false
    }
    if parent.owner !== child.owner {
        misuse(function, "the surfaces belong to different routers; refused")
        return false
    }
    if parent === child || parent.surface.isDescendant(of: child.surface) {
        misuse(function, "the child is the parent or one of its ancestors (a cycle); refused")
        return false
    }
    // Re-parenting is a move in the core: touches, focus and grabs are kept.
    APICall.run { parent.surface.insertChild(child.surface, at: index ?? parent.surface.children.count) }
    return true
}

@_cdecl("seatkit_surface_add_child")
public func seatkit_surface_add_child(_ parent: OpaquePointer?, _ child: OpaquePointer?) -> Bool {
    insert(parent, child, at: nil, #function)
}

@_cdecl("seatkit_surface_insert_child")
public func seatkit_surface_insert_child(_ parent: OpaquePointer?, _ child: OpaquePointer?, _ index: UInt) -> Bool {
    // size_t: any value past the end means the top.
    insert(parent, child, at: Int(clamping: index), #function)
}

@_cdecl("seatkit_surface_raise_to_top")
public func seatkit_surface_raise_to_top(_ handle: OpaquePointer?) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    guard let parent = s.surface.parent else { return }
    APICall.run { parent.bringToFront(s.surface) }
}

@_cdecl("seatkit_surface_remove_from_parent")
public func seatkit_surface_remove_from_parent(_ handle: OpaquePointer?) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    APICall.run { s.surface.removeFromParent() }
}

@_cdecl("seatkit_surface_get_parent")
public func seatkit_surface_get_parent(_ handle: OpaquePointer?) -> OpaquePointer? {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return nil }
    return s.owner.handle(of: s.surface.parent)
}

@_cdecl("seatkit_surface_is_attached")
public func seatkit_surface_is_attached(_ handle: OpaquePointer?) -> Bool {
    live(handle, .surface, as: CSurface.self, #function)?.surface.isAttached ?? false
}

@_cdecl("seatkit_surface_get_id")
public func seatkit_surface_get_id(_ handle: OpaquePointer?) -> UInt32 {
    live(handle, .surface, as: CSurface.self, #function)?.surface.id.rawValue ?? 0
}

@_cdecl("seatkit_surface_set_frame")
public func seatkit_surface_set_frame(_ handle: OpaquePointer?, _ x: Double, _ y: Double, _ width: Double, _ height: Double) {
    guard let s = live(handle, .surface, as: CSurface.self, #function),
          validRect(x, y, width, height, #function) else { return }
    if s.isRoot {
        misuse(#function, "an output's root surface follows its output's mode, transform and scale; refused")
        return
    }
    APICall.run { s.surface.frame = SurfaceRect(x: x, y: y, width: width, height: height) }
}

@_cdecl("seatkit_surface_get_frame")
public func seatkit_surface_get_frame(_ handle: OpaquePointer?, _ frame: UnsafeMutablePointer<seatkit_rect>?) -> Bool {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return false }
    let f = s.surface.frame
    frame?.pointee = seatkit_rect(x: f.origin.x, y: f.origin.y, width: f.size.width, height: f.size.height)
    return true
}

@_cdecl("seatkit_surface_set_input_region")
public func seatkit_surface_set_input_region(_ handle: OpaquePointer?, _ rects: UnsafePointer<seatkit_rect>?, _ count: UInt) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    if count > 0 && rects == nil {
        misuse(#function, "NULL rectangles with count \(count); refused")
        return
    }
    guard count <= 1 << 20 else {
        misuse(#function, "\(count) rectangles is more than an input region can sensibly have; refused")
        return
    }
    var region: [SurfaceRect] = []
    for i in 0..<Int(count) {
        let r = rects![i]
        guard validRect(r.x, r.y, r.width, r.height, #function) else { return }
        region.append(SurfaceRect(x: r.x, y: r.y, width: r.width, height: r.height))
    }
    APICall.run { s.surface.inputRegion = region }
}

@_cdecl("seatkit_surface_clear_input_region")
public func seatkit_surface_clear_input_region(_ handle: OpaquePointer?) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    APICall.run { s.surface.inputRegion = nil }
}

@_cdecl("seatkit_surface_set_hidden")
public func seatkit_surface_set_hidden(_ handle: OpaquePointer?, _ hidden: Bool) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    APICall.run { s.surface.isHidden = hidden }
}

@_cdecl("seatkit_surface_set_input_disabled")
public func seatkit_surface_set_input_disabled(_ handle: OpaquePointer?, _ disabled: Bool) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    APICall.run { s.surface.isInputDisabled = disabled }
}

@_cdecl("seatkit_surface_set_clips_children")
public func seatkit_surface_set_clips_children(_ handle: OpaquePointer?, _ clips: Bool) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    APICall.run { s.surface.clipsChildren = clips }
}

@_cdecl("seatkit_surface_layout_to_local")
public func seatkit_surface_layout_to_local(_ handle: OpaquePointer?, _ x: Double, _ y: Double,
                                            _ sx: UnsafeMutablePointer<Double>?, _ sy: UnsafeMutablePointer<Double>?) -> Bool {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return false }
    guard let p = s.surface.convert(LayoutPoint(x: x, y: y)) else { return false }
    sx?.pointee = p.x
    sy?.pointee = p.y
    return true
}

@_cdecl("seatkit_surface_add_key_command")
public func seatkit_surface_add_key_command(_ handle: OpaquePointer?, _ keysym: UInt32, _ modifiers: UInt32,
                                            _ action: UnsafePointer<CChar>?, _ layoutIndependent: Bool) -> Bool {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return false }
    guard let action else {
        misuse(#function, "NULL action; refused")
        return false
    }
    s.responder.unchecked.commands.append(KeyCommand(keysym: keysym, modifiers: KeyModifiers(rawValue: modifiers),
                                           action: Action(String(cString: action)),
                                           matching: layoutIndependent ? .layoutIndependent : .keysym))
    s.installResponder()
    return true
}

@_cdecl("seatkit_surface_clear_key_commands")
public func seatkit_surface_clear_key_commands(_ handle: OpaquePointer?) {
    guard let s = live(handle, .surface, as: CSurface.self, #function) else { return }
    s.responder.unchecked.commands = []
    s.installResponder()
}

// MARK: Keyboard focus and actions

@_cdecl("seatkit_router_set_first_responder")
public func seatkit_router_set_first_responder(_ router: OpaquePointer?, _ surface: OpaquePointer?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let s = live(surface, .surface, as: CSurface.self, #function) else { return false }
    guard s.owner === r else {
        misuse(#function, "the surface belongs to another router; refused")
        return false
    }
    return APICall.run { r.router.becomeFirstResponder(s.surface) }
}

@_cdecl("seatkit_router_resign_first_responder")
public func seatkit_router_resign_first_responder(_ router: OpaquePointer?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    return APICall.run { r.router.resignFirstResponder() }
}

@_cdecl("seatkit_router_get_first_responder")
public func seatkit_router_get_first_responder(_ router: OpaquePointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    return r.handle(of: r.router.firstResponder)
}

@_cdecl("seatkit_router_send_action")
public func seatkit_router_send_action(_ router: OpaquePointer?, _ action: UnsafePointer<CChar>?,
                                       _ target: OpaquePointer?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    guard let action else {
        misuse(#function, "NULL action; nothing sent")
        return false
    }
    var targetSurface: Surface?
    if target != nil {
        guard let t = live(target, .surface, as: CSurface.self, #function) else { return false }
        targetSurface = t.surface
    }
    let name = Action(String(cString: action))
    return APICall.run { r.router.sendAction(name, to: targetSurface) }
}
