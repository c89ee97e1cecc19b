import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// Accessibility filters (the core's StickyKeys, SlowKeys, BounceKeys, TouchAccommodations)
// switched per router: each made and added after the router's filters on its first call,
// kept with the router, turned on and off and retuned by later calls.

/// The accessibility filters of one router, kept by its handle (``CRouter/accessibility``):
/// made on the router's first accessibility call, gone with the router. Never shared between
/// routers, so routers on different threads touch nothing in common.
final class CAccessibility {
    var sticky: StickyKeys?
    var slow: SlowKeys?
    var bounce: BounceKeys?
    var touch: TouchAccommodations?
    var secondaryClick: SimulatedSecondaryClick?
    var dwell: DwellClick?
    var mouseKeys: MouseKeys?
    var locate: LocatePointer?

    /// The filters of `r`, made on first use.
    static func of(_ r: CRouter) -> CAccessibility {
        if let kept = r.accessibility { return kept }
        let made = CAccessibility()
        r.accessibility = made
        return made
    }

    /// What every setter does: the filter kept at `slot`, made by `make` and added after the
    /// router's filters on the first call, then set up by `configure` (on every call, the
    /// first included). Returns true.
    func set<Filter: InputFilter>(_ slot: ReferenceWritableKeyPath<CAccessibility, Filter?>, on r: CRouter,
                                  make: () -> Filter, configure: (Filter) -> Void) -> Bool {
        APICall.run {
            let filter: Filter
            if let kept = self[keyPath: slot] {
                filter = kept
            } else {
                filter = make()
                r.router.addFilter(filter)
                self[keyPath: slot] = filter
            }
            configure(filter)
        }
        return true
    }
}

/// A delay in microseconds from C: positive and at most an hour.
private func span(_ microseconds: Int64, _ function: StaticString, allowZero: Bool = false) -> TimeSpan? {
    guard microseconds > 0 || (allowZero && microseconds == 0), microseconds <= 3_600_000_000 else {
        misuse(function, "delay \(microseconds) µs out of range; refused")
        return nil
    }
    return TimeSpan(microseconds: microseconds)
}

@_cdecl("seatkit_router_set_sticky_keys")
public func seatkit_router_set_sticky_keys(
    _ router: OpaquePointer?, _ enabled: Bool,
    _ modifiersChanged: (@convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UInt32) -> Void)?,
    _ data: UnsafeMutableRawPointer?
) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    return CAccessibility.of(r).set(\.sticky, on: r, make: { StickyKeys(isEnabled: enabled) }) { sticky in
        if let modifiersChanged {
            sticky.onModifiersChange = { masks in
                modifiersChanged(data, masks.depressed, masks.latched, masks.locked, masks.group)
            }
        } else {
            sticky.onModifiersChange = nil
        }
        sticky.isEnabled = enabled
    }
}

@_cdecl("seatkit_router_get_sticky_modifiers")
public func seatkit_router_get_sticky_modifiers(_ router: OpaquePointer?, _ latched: UnsafeMutablePointer<UInt32>?,
                                                _ locked: UnsafeMutablePointer<UInt32>?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    let sticky = CAccessibility.of(r).sticky
    latched?.pointee = sticky?.latched.rawValue ?? 0
    locked?.pointee = sticky?.locked.rawValue ?? 0
    return true
}

/// Slow and bounce keys: a delay and a switch each, set alike.
private protocol DelayedKeys: InputFilter {
    init(delay: TimeSpan, isEnabled: Bool)
    var delay: TimeSpan { get set }
    var isEnabled: Bool { get set }
}

extension SlowKeys: DelayedKeys {}
extension BounceKeys: DelayedKeys {}

private func setDelayedKeys<Filter: DelayedKeys>(_ slot: ReferenceWritableKeyPath<CAccessibility, Filter?>, _ router: OpaquePointer?,
                                                 _ enabled: Bool, _ delayMicroseconds: Int64, _ function: StaticString) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, function),
          let delay = span(delayMicroseconds, function) else { return false }
    return CAccessibility.of(r).set(slot, on: r, make: { Filter(delay: delay, isEnabled: enabled) }) { filter in
        filter.delay = delay
        filter.isEnabled = enabled
    }
}

@_cdecl("seatkit_router_set_slow_keys")
public func seatkit_router_set_slow_keys(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64) -> Bool {
    setDelayedKeys(\.slow, router, enabled, delayMicroseconds, #function)
}

@_cdecl("seatkit_router_set_bounce_keys")
public func seatkit_router_set_bounce_keys(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64) -> Bool {
    setDelayedKeys(\.bounce, router, enabled, delayMicroseconds, #function)
}

@_cdecl("seatkit_router_set_touch_accommodations")
public func seatkit_router_set_touch_accommodations(_ router: OpaquePointer?, _ enabled: Bool,
                                                    _ holdMicroseconds: Int64, _ ignoreRepeatMicroseconds: Int64) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let hold = span(holdMicroseconds, #function, allowZero: true),
          let ignore = span(ignoreRepeatMicroseconds, #function, allowZero: true) else { return false }
    let holdDuration: TimeSpan? = hold.microseconds == 0 ? nil : hold
    let ignoreRepeat: TimeSpan? = ignore.microseconds == 0 ? nil : ignore
    return CAccessibility.of(r).set(\.touch, on: r, make: { TouchAccommodations(holdDuration: holdDuration, ignoreRepeat: ignoreRepeat, isEnabled: enabled) }) { touch in
        touch.holdDuration = holdDuration
        touch.ignoreRepeat = ignoreRepeat
        touch.isEnabled = enabled
    }
}

/// A movement threshold in layout units from C: finite, 0 to 10000.
private func threshold(_ value: Double, _ function: StaticString) -> Double? {
    guard value.isFinite, value >= 0, value <= 10_000 else {
        misuse(function, "movement threshold \(value) out of range; refused")
        return nil
    }
    return value
}

/// The two filters that click after a delay unless the pointer moves: set alike.
private protocol DelayedClick: InputFilter {
    init(delay: TimeSpan, movementThreshold: Double, isEnabled: Bool)
    var delay: TimeSpan { get set }
    var movementThreshold: Double { get set }
    var isEnabled: Bool { get set }
}

extension SimulatedSecondaryClick: DelayedClick {}
extension DwellClick: DelayedClick {}

private func setDelayedClick<Filter: DelayedClick>(
    _ slot: ReferenceWritableKeyPath<CAccessibility, Filter?>, _ router: OpaquePointer?, _ enabled: Bool,
    _ delayMicroseconds: Int64, _ movementThreshold: Double, _ function: StaticString
) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, function),
          let delay = span(delayMicroseconds, function),
          let movement = threshold(movementThreshold, function) else { return false }
    return CAccessibility.of(r).set(slot, on: r, make: { Filter(delay: delay, movementThreshold: movement, isEnabled: enabled) }) { filter in
        filter.delay = delay
        filter.movementThreshold = movement
        filter.isEnabled = enabled
    }
}

@_cdecl("seatkit_router_set_simulated_secondary_click")
public func seatkit_router_set_simulated_secondary_click(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64,
                                                         _ movementThreshold: Double) -> Bool {
    setDelayedClick(\.secondaryClick, router, enabled, delayMicroseconds, movementThreshold, #function)
}

@_cdecl("seatkit_router_set_dwell_click")
public func seatkit_router_set_dwell_click(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64,
                                           _ movementThreshold: Double) -> Bool {
    setDelayedClick(\.dwell, router, enabled, delayMicroseconds, movementThreshold, #function)
}

@_cdecl("seatkit_router_get_dwell_progress")
public func seatkit_router_get_dwell_progress(_ router: OpaquePointer?, _ timeMicroseconds: Int64) -> Double {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return -1 }
    return CAccessibility.of(r).dwell?.progress(at: Timestamp(microseconds: timeMicroseconds)) ?? -1
}

@_cdecl("seatkit_router_set_mouse_keys")
public func seatkit_router_set_mouse_keys(_ router: OpaquePointer?, _ enabled: Bool, _ initialDelayMicroseconds: Int64,
                                          _ maxSpeed: Double, _ accelerationMicroseconds: Int64) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let initialDelay = span(initialDelayMicroseconds, #function),
          let acceleration = span(accelerationMicroseconds, #function, allowZero: true) else { return false }
    guard maxSpeed.isFinite, maxSpeed > 0, maxSpeed <= 100_000 else {
        misuse(#function, "speed \(maxSpeed) out of range; refused")
        return false
    }
    return CAccessibility.of(r).set(\.mouseKeys, on: r, make: { MouseKeys(initialDelay: initialDelay, maxSpeed: maxSpeed, accelerationTime: acceleration, isEnabled: enabled) }) { filter in
        filter.initialDelay = initialDelay
        filter.maxSpeed = maxSpeed
        filter.accelerationTime = acceleration
        filter.isEnabled = enabled
    }
}

@_cdecl("seatkit_router_set_locate_pointer")
public func seatkit_router_set_locate_pointer(
    _ router: OpaquePointer?, _ enabled: Bool,
    _ located: (@convention(c) (UnsafeMutableRawPointer?, Double, Double) -> Void)?,
    _ data: UnsafeMutableRawPointer?
) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    return CAccessibility.of(r).set(\.locate, on: r, make: { LocatePointer(isEnabled: enabled) }) { filter in
        if let located {
            filter.onLocate = { point in located(data, point.x, point.y) }
        } else {
            filter.onLocate = nil
        }
        filter.isEnabled = enabled
    }
}
