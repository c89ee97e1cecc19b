import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// Accessibility filters (the core's StickyKeys, SlowKeys, BounceKeys, TouchAccommodations)
// switched per router: each made and added after the router's filters on its first call,
// kept with the router, turned on and off and retuned by later calls.

/// The accessibility filters of one router.
final class CAccessibility {
    weak var router: Router?
    var sticky: StickyKeys?
    var slow: SlowKeys?
    var bounce: BounceKeys?
    var touch: TouchAccommodations?
    var secondaryClick: SimulatedSecondaryClick?
    var dwell: DwellClick?
    var mouseKeys: MouseKeys?
    var locate: LocatePointer?

    init(router: Router) { self.router = router }

    /// The filters of `r`, made on first use. Entries of routers that are gone are dropped.
    static func of(_ r: CRouter) -> CAccessibility {
        all.removeAll { $0.router == nil }
        if let found = all.first(where: { $0.router === r.router }) { return found }
        let made = CAccessibility(router: r.router)
        all.append(made)
        return made
    }

    nonisolated(unsafe) static var all: [CAccessibility] = []
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
    let a = CAccessibility.of(r)
    APICall.run {
        let sticky = a.sticky ?? {
            let made = StickyKeys(isEnabled: enabled)
            r.router.addFilter(made)
            a.sticky = made
            return made
        }()
        if let modifiersChanged {
            sticky.onModifiersChange = { masks in
                modifiersChanged(data, masks.depressed, masks.latched, masks.locked, masks.group)
            }
        } else {
            sticky.onModifiersChange = nil
        }
        sticky.isEnabled = enabled
    }
    return true
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

@_cdecl("seatkit_router_set_slow_keys")
public func seatkit_router_set_slow_keys(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let delay = span(delayMicroseconds, #function) else { return false }
    let a = CAccessibility.of(r)
    APICall.run {
        let slow = a.slow ?? {
            let made = SlowKeys(delay: delay, isEnabled: enabled)
            r.router.addFilter(made)
            a.slow = made
            return made
        }()
        slow.delay = delay
        slow.isEnabled = enabled
    }
    return true
}

@_cdecl("seatkit_router_set_bounce_keys")
public func seatkit_router_set_bounce_keys(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let delay = span(delayMicroseconds, #function) else { return false }
    let a = CAccessibility.of(r)
    APICall.run {
        let bounce = a.bounce ?? {
            let made = BounceKeys(delay: delay, isEnabled: enabled)
            r.router.addFilter(made)
            a.bounce = made
            return made
        }()
        bounce.delay = delay
        bounce.isEnabled = enabled
    }
    return true
}

@_cdecl("seatkit_router_set_touch_accommodations")
public func seatkit_router_set_touch_accommodations(_ router: OpaquePointer?, _ enabled: Bool,
                                                    _ holdMicroseconds: Int64, _ ignoreRepeatMicroseconds: Int64) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let hold = span(holdMicroseconds, #function, allowZero: true),
          let ignore = span(ignoreRepeatMicroseconds, #function, allowZero: true) else { return false }
    let holdDuration: TimeSpan? = hold.microseconds == 0 ? nil : hold
    let ignoreRepeat: TimeSpan? = ignore.microseconds == 0 ? nil : ignore
    let a = CAccessibility.of(r)
    APICall.run {
        let touch = a.touch ?? {
            let made = TouchAccommodations(holdDuration: holdDuration, ignoreRepeat: ignoreRepeat, isEnabled: enabled)
            r.router.addFilter(made)
            a.touch = made
            return made
        }()
        touch.holdDuration = holdDuration
        touch.ignoreRepeat = ignoreRepeat
        touch.isEnabled = enabled
    }
    return true
}

/// A movement threshold in layout units from C: finite, 0 to 10000.
private func threshold(_ value: Double, _ function: StaticString) -> Double? {
    guard value.isFinite, value >= 0, value <= 10_000 else {
        misuse(function, "movement threshold \(value) out of range; refused")
        return nil
    }
    return value
}

@_cdecl("seatkit_router_set_simulated_secondary_click")
public func seatkit_router_set_simulated_secondary_click(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64,
                                                         _ movementThreshold: Double) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let delay = span(delayMicroseconds, #function),
          let movement = threshold(movementThreshold, #function) else { return false }
    let a = CAccessibility.of(r)
    APICall.run {
        let filter = a.secondaryClick ?? {
            let made = SimulatedSecondaryClick(delay: delay, movementThreshold: movement, isEnabled: enabled)
            r.router.addFilter(made)
            a.secondaryClick = made
            return made
        }()
        filter.delay = delay
        filter.movementThreshold = movement
        filter.isEnabled = enabled
    }
    return true
}

@_cdecl("seatkit_router_set_dwell_click")
public func seatkit_router_set_dwell_click(_ router: OpaquePointer?, _ enabled: Bool, _ delayMicroseconds: Int64,
                                           _ movementThreshold: Double) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function),
          let delay = span(delayMicroseconds, #function),
          let movement = threshold(movementThreshold, #function) else { return false }
    let a = CAccessibility.of(r)
    APICall.run {
        let filter = a.dwell ?? {
            let made = DwellClick(delay: delay, movementThreshold: movement, isEnabled: enabled)
            r.router.addFilter(made)
            a.dwell = made
            return made
        }()
        filter.delay = delay
        filter.movementThreshold = movement
        filter.isEnabled = enabled
    }
    return true
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
    let a = CAccessibility.of(r)
    APICall.run {
        let filter = a.mouseKeys ?? {
            let made = MouseKeys(initialDelay: initialDelay, maxSpeed: maxSpeed, accelerationTime: acceleration, isEnabled: enabled)
            r.router.addFilter(made)
            a.mouseKeys = made
            return made
        }()
        filter.initialDelay = initialDelay
        filter.maxSpeed = maxSpeed
        filter.accelerationTime = acceleration
        filter.isEnabled = enabled
    }
    return true
}

@_cdecl("seatkit_router_set_locate_pointer")
public func seatkit_router_set_locate_pointer(
    _ router: OpaquePointer?, _ enabled: Bool,
    _ located: (@convention(c) (UnsafeMutableRawPointer?, Double, Double) -> Void)?,
    _ data: UnsafeMutableRawPointer?
) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    let a = CAccessibility.of(r)
    APICall.run {
        let filter = a.locate ?? {
            let made = LocatePointer(isEnabled: enabled)
            r.router.addFilter(made)
            a.locate = made
            return made
        }()
        if let located {
            filter.onLocate = { point in located(data, point.x, point.y) }
        } else {
            filter.onLocate = nil
        }
        filter.isEnabled = enabled
    }
    return true
}
