import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// seatkit_kiosk_policy: the core's kiosk components (WakeTouchFilter, CursorVisibility,
// LongPressAsSecondaryClick) behind one handle kind, with C callbacks.

/// `seatkit_kiosk_policy`.
final class CKioskPolicy: HandleObject {
    enum Component {
        case wake(WakeTouchFilter)
        case cursor(CursorVisibility)
        case longPress(LongPressAsSecondaryClick)
    }

    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    let component: Component
    var data: UnsafeMutableRawPointer?
    var isDestroyed = false

    init(owner: CRouter, component: Component, data: UnsafeMutableRawPointer?) {
        ownerLink = Unretained(owner)
        self.component = component
        self.data = data
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        switch component {
        case .wake(let f):
            f.onWake = nil
            owner.router.removeFilter(f)
        case .cursor(let c):
            c.onChange = nil
            owner.router.removeSpy(c)
        case .longPress(let l):
            l.onClick = nil
            APICall.run { l.detach() }
        }
        data = nil
        owner.kioskPolicies.removeAll { $0 === self }
        Handles.remove(handle)
    }
}

private func register(_ policy: CKioskPolicy, _ function: StaticString) -> OpaquePointer? {
    guard let handle = Handles.insert(policy, kind: .kioskPolicy) else {
        misuse(function, "too many live handles")
        return nil
    }
    policy.owner.kioskPolicies.append(policy)
    return handle
}

@_cdecl("seatkit_router_add_wake_filter")
public func seatkit_router_add_wake_filter(_ router: OpaquePointer?,
                                           _ onWake: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
                                           _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    let filter = WakeTouchFilter()
    let policy = CKioskPolicy(owner: r, component: .wake(filter), data: data)
    if let onWake { filter.onWake = { [link = Unretained(policy)] in link.with { onWake($0.data) } } }
    guard let handle = register(policy, #function) else { return nil }
    r.router.addFilter(filter)
    return handle
}

@_cdecl("seatkit_kiosk_policy_blank")
public func seatkit_kiosk_policy_blank(_ handle: OpaquePointer?) -> Bool {
    guard let p = live(handle, .kioskPolicy, as: CKioskPolicy.self, #function) else { return false }
    guard case .wake(let f) = p.component else {
        misuse(#function, "not a wake filter; refused")
        return false
    }
    f.blank()
    return true
}

@_cdecl("seatkit_kiosk_policy_is_blanked")
public func seatkit_kiosk_policy_is_blanked(_ handle: OpaquePointer?) -> Bool {
    guard let p = live(handle, .kioskPolicy, as: CKioskPolicy.self, #function) else { return false }
    if case .wake(let f) = p.component { return f.isBlanked }
    return false
}

@_cdecl("seatkit_router_add_cursor_visibility")
public func seatkit_router_add_cursor_visibility(_ router: OpaquePointer?,
                                                 _ changed: (@convention(c) (UnsafeMutableRawPointer?, Bool) -> Void)?,
                                                 _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard let changed else {
        misuse(#function, "NULL callback; refused")
        return nil
    }
    let spy = CursorVisibility()
    let policy = CKioskPolicy(owner: r, component: .cursor(spy), data: data)
    spy.onChange = { [link = Unretained(policy)] visible in link.with { changed($0.data, visible) } }
    guard let handle = register(policy, #function) else { return nil }
    r.router.addSpy(spy)
    return handle
}

@_cdecl("seatkit_kiosk_policy_cursor_is_visible")
public func seatkit_kiosk_policy_cursor_is_visible(_ handle: OpaquePointer?) -> Bool {
    guard let p = live(handle, .kioskPolicy, as: CKioskPolicy.self, #function) else { return false }
    if case .cursor(let c) = p.component { return c.isVisible }
    misuse(#function, "not a cursor visibility policy")
    return false
}

@_cdecl("seatkit_output_add_long_press_secondary_click")
public func seatkit_output_add_long_press_secondary_click(
    _ output: OpaquePointer?, _ minimumDuration: Int64, _ allowableMovement: Double,
    _ clicked: (@convention(c) (UnsafeMutableRawPointer?, Double, Double) -> Void)?,
    _ data: UnsafeMutableRawPointer?
) -> OpaquePointer? {
    guard let o = live(output, .output, as: COutput.self, #function) else { return nil }
    guard minimumDuration > 0, allowableMovement.isFinite, allowableMovement >= 0 else {
        misuse(#function, "duration \(minimumDuration) or movement \(allowableMovement) out of range; refused")
        return nil
    }
    let longPress = LongPressAsSecondaryClick(minimumPressDuration: TimeSpan(microseconds: minimumDuration),
                                              allowableMovement: allowableMovement)
    let policy = CKioskPolicy(owner: o.owner, component: .longPress(longPress), data: data)
    if let clicked {
        longPress.onClick = { [link = Unretained(policy)] p in link.with { clicked($0.data, p.x, p.y) } }
    }
    guard let handle = register(policy, #function) else { return nil }
    APICall.run { longPress.attach(to: o.output) }
    return handle
}

@_cdecl("seatkit_kiosk_policy_destroy")
public func seatkit_kiosk_policy_destroy(_ handle: OpaquePointer?) {
    guard let p = live(handle, .kioskPolicy, as: CKioskPolicy.self, #function) else { return }
    APICall.run { p.destroy() }
}
