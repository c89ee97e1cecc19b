import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// The built-in gesture recognizers, with C callbacks, and their coordination.

/// A recognizer's C state callback, its data and its handle, as the recognizer's target calls
/// them: a holder the target closure owns (it references nothing, so owning it makes no
/// cycle). The closure captured the `CRecognizer` weakly before, and each state change paid a
/// weak load, a release on the slow path (the object has a side table) and exclusivity
/// checks on three stored properties: ~200 of the ~268 instructions a call (the wlroots
/// kiosk's long press, twice a touch; docs/BENCHMARKS.md, issue 24 goal 12, twelfth round).
/// Hot state (SeatKit's UnsafeFoundations.swift rules): set by `seatkit_recognizer_set_callback`
/// and `destroy`, read by the target into a copy before the call out.
final class CStateCallback {
    struct HotState {
        var function: seatkit_recognizer_func_t?
        var data: UnsafeMutableRawPointer?
        var handle: OpaquePointer?
    }

    @exclusivity(unchecked) var unchecked = HotState()
}

/// `seatkit_recognizer`: a built-in recognizer and its C callbacks. It is its recognizer's
/// delegate: simultaneous pairs and should-begin come from C.
final class CRecognizer: HandleObject, GestureRecognizerDelegate {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    let recognizer: GestureRecognizer
    let destroySignal = CCalls.makeSignal()
    /// The state callback, its data and this handle, as the target reads them.
    let stateCallback = CStateCallback()
    var shouldBegin: seatkit_recognizer_should_begin_func_t?
    var shouldBeginData: UnsafeMutableRawPointer?
    var simultaneous: [ObjectIdentifier] = []
    var isDestroyed = false

    init(owner: CRouter, recognizer: GestureRecognizer) {
        ownerLink = Unretained(owner)
        self.recognizer = recognizer
        super.init()
        // Cleared by `destroy`: a destroyed handle's recognizer (still a part of a composed
        // one, say) calls nothing.
        recognizer.addTarget { [stateCallback] r in
            let call = stateCallback.unchecked
            guard let function = call.function else { return }
            function(call.data, call.handle, CRecognizer.state(r.state))
        }
    }

    static func state(_ s: GestureRecognizerState) -> seatkit_recognizer_state {
        switch s {
        case .possible: SEATKIT_RECOGNIZER_POSSIBLE
        case .began: SEATKIT_RECOGNIZER_BEGAN
        case .changed: SEATKIT_RECOGNIZER_CHANGED
        case .ended: SEATKIT_RECOGNIZER_ENDED
        case .cancelled: SEATKIT_RECOGNIZER_CANCELLED
        case .failed: SEATKIT_RECOGNIZER_FAILED
        case .recognized: SEATKIT_RECOGNIZER_RECOGNIZED
        }
    }

    /// Whether it is its recognizer's delegate (see ``becomeDelegate()``).
    private var isDelegate = false

    /// Makes it its recognizer's delegate, once it has something to answer: a should-begin
    /// callback or a simultaneous partner. Until then the recognizer has none, and the core's
    /// defaults are what this object answers without them (begin: yes; simultaneous: no;
    /// every touch received). As the delegate from the start, held weakly, it had a side
    /// table, and every touch down on the recognizer's surface loaded it
    /// (`swift_weakLoadStrong`) and released it on the runtime's slow path: ~75 instructions a
    /// down in the wlroots kiosk, whose long press sets neither (issue 25, seventeenth round).
    func becomeDelegate() {
        guard !isDelegate else { return }
        isDelegate = true
        recognizer.delegate = self
    }

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard let shouldBegin, !isDestroyed else { return true }
        return shouldBegin(shouldBeginData, handle)
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        simultaneous.contains(ObjectIdentifier(other))
    }

    func detach() {
        if let surface = recognizer.surface { surface.removeGestureRecognizer(recognizer) }
        if let output = recognizer.output { output.removeGestureRecognizer(recognizer) }
    }

    func destroy() {
        guard !isDestroyed else { return }
        APICall.run { detach() }
        isDestroyed = true
        CCalls.emitAndFreeSignal(destroySignal, data: handle)
        stateCallback.unchecked = CStateCallback.HotState()
        shouldBegin = nil
        (recognizer as? CCustomRecognizer)?.clear()
        owner.recognizers.removeAll { $0 === self }
        Handles.remove(handle)
    }
}

func register(_ router: OpaquePointer?, _ function: StaticString,
                      _ make: () -> GestureRecognizer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, function) else { return nil }
    guard let recognizer = make() else { return nil }
    let c = CRecognizer(owner: r, recognizer: recognizer)
    guard let handle = Handles.insert(c, kind: .recognizer) else {
        misuse(function, "too many live handles")
        return nil
    }
    r.recognizers.append(c)
    return handle
}

private func count(_ n: UInt32, _ what: String, _ function: StaticString) -> Int? {
    if n > 0 && n <= 64 { return Int(n) }
    misuse(function, "\(what) \(n) is not 1...64; refused")
    return nil
}

private func duration(_ usec: Int64, _ function: StaticString) -> TimeSpan? {
    if usec >= 0 { return TimeSpan(microseconds: usec) }
    misuse(function, "duration \(usec) µs is negative; refused")
    return nil
}

@_cdecl("seatkit_recognizer_create_tap")
public func seatkit_recognizer_create_tap(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                          _ taps: UInt32, _ touches: UInt32) -> OpaquePointer? {
    register(router, #function) {
        guard let taps = count(taps, "taps", #function), let touches = count(touches, "touches", #function) else { return nil }
        return TapGestureRecognizer(name: string(name, or: "tap"), taps: taps, touches: touches)
    }
}

@_cdecl("seatkit_recognizer_create_long_press")
public func seatkit_recognizer_create_long_press(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                                 _ minimum: Int64, _ touches: UInt32) -> OpaquePointer? {
    register(router, #function) {
        guard let d = duration(minimum, #function), let touches = count(touches, "touches", #function) else { return nil }
        return LongPressGestureRecognizer(name: string(name, or: "long-press"), minimumPressDuration: d, touches: touches)
    }
}

@_cdecl("seatkit_recognizer_create_pan")
public func seatkit_recognizer_create_pan(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                          _ minimum: UInt32, _ maximum: UInt32) -> OpaquePointer? {
    register(router, #function) {
        guard let lo = count(minimum, "minimum touches", #function) else { return nil }
        let hi = maximum == 0 ? Int.max : Int(maximum)
        guard hi >= lo else {
            misuse(#function, "maximum touches \(maximum) is below the minimum \(minimum); refused")
            return nil
        }
        return PanGestureRecognizer(name: string(name, or: "pan"), minimumTouches: lo, maximumTouches: hi)
    }
}

@_cdecl("seatkit_recognizer_create_swipe")
public func seatkit_recognizer_create_swipe(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                            _ directions: UInt32, _ touches: UInt32) -> OpaquePointer? {
    register(router, #function) {
        guard directions & 0xf != 0, directions & ~0xf == 0 else {
            misuse(#function, "directions 0x\(String(directions, radix: 16)) are not a non-empty set of SEATKIT_SWIPE_*; refused")
            return nil
        }
        guard let touches = count(touches, "touches", #function) else { return nil }
        return SwipeGestureRecognizer(name: string(name, or: "swipe"),
                                      direction: SwipeGestureRecognizer.Direction(rawValue: UInt8(directions)),
                                      touches: touches)
    }
}

@_cdecl("seatkit_recognizer_create_pinch")
public func seatkit_recognizer_create_pinch(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    register(router, #function) { PinchGestureRecognizer(name: string(name, or: "pinch")) }
}

@_cdecl("seatkit_recognizer_create_rotation")
public func seatkit_recognizer_create_rotation(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    register(router, #function) { RotationGestureRecognizer(name: string(name, or: "rotation")) }
}

@_cdecl("seatkit_recognizer_create_screen_edge_pan")
public func seatkit_recognizer_create_screen_edge_pan(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                                      _ edges: UInt32) -> OpaquePointer? {
    register(router, #function) {
        guard edges & 0xf != 0, edges & ~0xf == 0 else {
            misuse(#function, "edges 0x\(String(edges, radix: 16)) are not a non-empty set of SEATKIT_EDGE_*; refused")
            return nil
        }
        return ScreenEdgePanGestureRecognizer(name: string(name, or: "edge-pan"),
                                              edges: ScreenEdgePanGestureRecognizer.Edges(rawValue: UInt8(edges)))
    }
}

@_cdecl("seatkit_recognizer_create_touchpad_swipe")
public func seatkit_recognizer_create_touchpad_swipe(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                                     _ fingers: UInt32) -> OpaquePointer? {
    register(router, #function) {
        guard let n = count(fingers, "fingers", #function) else { return nil }
        return TouchpadSwipeGestureRecognizer(name: string(name, or: "touchpad-swipe"), fingers: n)
    }
}

@_cdecl("seatkit_recognizer_create_touchpad_pinch")
public func seatkit_recognizer_create_touchpad_pinch(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                                     _ fingers: UInt32) -> OpaquePointer? {
    register(router, #function) {
        guard let n = count(fingers, "minimum fingers", #function) else { return nil }
        return TouchpadPinchGestureRecognizer(name: string(name, or: "touchpad-pinch"), minimumFingers: n)
    }
}

@_cdecl("seatkit_recognizer_create_touchpad_hold")
public func seatkit_recognizer_create_touchpad_hold(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                                    _ fingers: UInt32, _ minimum: Int64) -> OpaquePointer? {
    register(router, #function) {
        guard let n = count(fingers, "fingers", #function), let d = duration(minimum, #function) else { return nil }
        return TouchpadHoldGestureRecognizer(name: string(name, or: "touchpad-hold"), fingers: n, minimumDuration: d)
    }
}

@_cdecl("seatkit_recognizer_destroy")
public func seatkit_recognizer_destroy(_ handle: OpaquePointer?) {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return }
    APICall.run { c.destroy() }
}

@_cdecl("seatkit_recognizer_get_destroy_signal")
public func seatkit_recognizer_get_destroy_signal(_ handle: OpaquePointer?) -> UnsafeMutablePointer<wl_signal>? {
    live(handle, .recognizer, as: CRecognizer.self, #function)?.destroySignal
}

@_cdecl("seatkit_surface_add_recognizer")
public func seatkit_surface_add_recognizer(_ surface: OpaquePointer?, _ recognizer: OpaquePointer?) -> Bool {
    guard let s = live(surface, .surface, as: CSurface.self, #function),
          let c = live(recognizer, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard s.owner === c.owner else {
        misuse(#function, "the surface and the recognizer belong to different routers; refused")
        return false
    }
    APICall.run {
        c.detach()
        s.surface.addGestureRecognizer(c.recognizer)
    }
    return true
}

@_cdecl("seatkit_output_add_recognizer")
public func seatkit_output_add_recognizer(_ output: OpaquePointer?, _ recognizer: OpaquePointer?) -> Bool {
    guard let o = live(output, .output, as: COutput.self, #function),
          let c = live(recognizer, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard o.owner === c.owner else {
        misuse(#function, "the output and the recognizer belong to different routers; refused")
        return false
    }
    APICall.run {
        c.detach()
        o.output.addGestureRecognizer(c.recognizer)
    }
    return true
}

@_cdecl("seatkit_recognizer_detach")
public func seatkit_recognizer_detach(_ handle: OpaquePointer?) {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return }
    APICall.run { c.detach() }
}

@_cdecl("seatkit_recognizer_set_callback")
public func seatkit_recognizer_set_callback(_ handle: OpaquePointer?, _ callback: seatkit_recognizer_func_t?,
                                            _ data: UnsafeMutableRawPointer?) {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return }
    guard !c.isDestroyed else { return }
    c.stateCallback.unchecked = CStateCallback.HotState(function: callback, data: data, handle: c.handle)
}

@_cdecl("seatkit_recognizer_require_to_fail")
public func seatkit_recognizer_require_to_fail(_ handle: OpaquePointer?, _ other: OpaquePointer?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function),
          let o = live(other, .recognizer, as: CRecognizer.self, #function) else { return false }
    do {
        try c.recognizer.require(toFail: o.recognizer)
        return true
    } catch {
        misuse(#function, "\(error)")
        return false
    }
}

@_cdecl("seatkit_recognizer_set_simultaneous")
public func seatkit_recognizer_set_simultaneous(_ handle: OpaquePointer?, _ other: OpaquePointer?, _ on: Bool) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function),
          let o = live(other, .recognizer, as: CRecognizer.self, #function) else { return false }
    let a = ObjectIdentifier(c.recognizer), b = ObjectIdentifier(o.recognizer)
    c.simultaneous.removeAll { $0 == b }
    o.simultaneous.removeAll { $0 == a }
    if on {
        c.simultaneous.append(b)
        o.simultaneous.append(a)
        c.becomeDelegate()
        o.becomeDelegate()
    }
    return true
}

@_cdecl("seatkit_recognizer_can_not_cancel")
public func seatkit_recognizer_can_not_cancel(_ handle: OpaquePointer?, _ other: OpaquePointer?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function),
          let o = live(other, .recognizer, as: CRecognizer.self, #function) else { return false }
    c.recognizer.cannotCancel(o.recognizer)
    return true
}

@_cdecl("seatkit_recognizer_recognize_independently_from")
public func seatkit_recognizer_recognize_independently_from(_ handle: OpaquePointer?, _ other: OpaquePointer?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function),
          let o = live(other, .recognizer, as: CRecognizer.self, #function) else { return false }
    c.recognizer.recognizeIndependently(of: o.recognizer)
    return true
}

@_cdecl("seatkit_recognizer_inhibit_until_cancelled")
public func seatkit_recognizer_inhibit_until_cancelled(_ handle: OpaquePointer?, _ other: OpaquePointer?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function),
          let o = live(other, .recognizer, as: CRecognizer.self, #function) else { return false }
    do {
        try c.recognizer.inhibitUntilCancelled(o.recognizer)
        return true
    } catch {
        misuse(#function, "\(error)")
        return false
    }
}

@_cdecl("seatkit_recognizer_remove_relationships")
public func seatkit_recognizer_remove_relationships(_ handle: OpaquePointer?, _ other: OpaquePointer?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function),
          let o = live(other, .recognizer, as: CRecognizer.self, #function) else { return false }
    c.recognizer.removeRelationships(with: o.recognizer)
    return true
}

@_cdecl("seatkit_router_set_gesture_arena_rules")
public func seatkit_router_set_gesture_arena_rules(_ handle: OpaquePointer?, _ rules: UInt32) {
    guard let r = live(handle, .router, as: CRouter.self, #function) else { return }
    let known = GestureArenaRules([.lastRemainingWins, .sweepAtEnd]).rawValue
    if rules & ~known != 0 { misuse(#function, "unknown rule bits \(rules & ~known) ignored") }
    r.router.gestureArenaRules = GestureArenaRules(rawValue: rules & known)
}

@_cdecl("seatkit_router_get_gesture_arena_rules")
public func seatkit_router_get_gesture_arena_rules(_ handle: OpaquePointer?) -> UInt32 {
    live(handle, .router, as: CRouter.self, #function)?.router.gestureArenaRules.rawValue ?? 0
}

@_cdecl("seatkit_recognizer_set_should_begin")
public func seatkit_recognizer_set_should_begin(_ handle: OpaquePointer?, _ f: seatkit_recognizer_should_begin_func_t?,
                                                _ data: UnsafeMutableRawPointer?) {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return }
    c.shouldBegin = f
    c.shouldBeginData = data
    if f != nil { c.becomeDelegate() }
}

@_cdecl("seatkit_recognizer_set_action")
public func seatkit_recognizer_set_action(_ handle: OpaquePointer?, _ action: UnsafePointer<CChar>?) {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return }
    c.recognizer.action = action.map { Action(String(cString: $0)) }
}

@_cdecl("seatkit_recognizer_set_enabled")
public func seatkit_recognizer_set_enabled(_ handle: OpaquePointer?, _ on: Bool) {
    live(handle, .recognizer, as: CRecognizer.self, #function)?.recognizer.isEnabled = on
}

@_cdecl("seatkit_recognizer_set_cancels_touches")
public func seatkit_recognizer_set_cancels_touches(_ handle: OpaquePointer?, _ on: Bool) {
    live(handle, .recognizer, as: CRecognizer.self, #function)?.recognizer.cancelsTouchesInView = on
}

@_cdecl("seatkit_recognizer_set_delays_touches_began")
public func seatkit_recognizer_set_delays_touches_began(_ handle: OpaquePointer?, _ on: Bool) {
    live(handle, .recognizer, as: CRecognizer.self, #function)?.recognizer.delaysTouchesBegan = on
}

@_cdecl("seatkit_recognizer_set_delays_touches_ended")
public func seatkit_recognizer_set_delays_touches_ended(_ handle: OpaquePointer?, _ on: Bool) {
    live(handle, .recognizer, as: CRecognizer.self, #function)?.recognizer.delaysTouchesEnded = on
}

@_cdecl("seatkit_recognizer_set_minimum_distance")
public func seatkit_recognizer_set_minimum_distance(_ handle: OpaquePointer?, _ mm: Double) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard mm >= 0, mm.isFinite else {
        misuse(#function, "distance \(mm) mm is negative or not finite; refused")
        return false
    }
    switch c.recognizer {
    case let pan as PanGestureRecognizer: pan.minimumDistance = mm
    case let swipe as SwipeGestureRecognizer: swipe.minimumDistance = mm
    case let edge as ScreenEdgePanGestureRecognizer: edge.minimumDistance = mm
    default:
        misuse(#function, "\(c.recognizer.name) has no minimum distance (pan, swipe and screen-edge pan do); refused")
        return false
    }
    return true
}

@_cdecl("seatkit_recognizer_set_allowable_movement")
public func seatkit_recognizer_set_allowable_movement(_ handle: OpaquePointer?, _ mm: Double) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard mm >= 0, mm.isFinite else {
        misuse(#function, "movement \(mm) mm is negative or not finite; refused")
        return false
    }
    switch c.recognizer {
    case let tap as TapGestureRecognizer: tap.allowableMovement = mm
    case let press as LongPressGestureRecognizer: press.allowableMovement = mm
    default:
        misuse(#function, "\(c.recognizer.name) has no allowable movement (tap and long press do); refused")
        return false
    }
    return true
}

/// The swipe's gathering limits (`SwipeGestureRecognizer.maximumTravelUntilAllTouches` and
/// `maximumDelayUntilAllTouches`): 0 or less turns one off (`nil`), as C has no optional.
/// Another kind is refused, as `seatkit_recognizer_set_minimum_distance` refuses one.
@_cdecl("seatkit_recognizer_set_maximum_travel_until_all_touches")
public func seatkit_recognizer_set_maximum_travel_until_all_touches(_ handle: OpaquePointer?, _ mm: Double) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard mm.isFinite else {
        misuse(#function, "travel \(mm) mm is not finite; refused")
        return false
    }
    guard let swipe = c.recognizer as? SwipeGestureRecognizer else {
        misuse(#function, "\(c.recognizer.name) has no travel limit until all touches (a swipe does); refused")
        return false
    }
    swipe.maximumTravelUntilAllTouches = mm > 0 ? mm : nil
    return true
}

@_cdecl("seatkit_recognizer_set_maximum_delay_until_all_touches")
public func seatkit_recognizer_set_maximum_delay_until_all_touches(_ handle: OpaquePointer?, _ usec: Int64) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard let swipe = c.recognizer as? SwipeGestureRecognizer else {
        misuse(#function, "\(c.recognizer.name) has no delay limit until all touches (a swipe does); refused")
        return false
    }
    swipe.maximumDelayUntilAllTouches = usec > 0 ? TimeSpan(microseconds: usec) : nil
    return true
}

@_cdecl("seatkit_recognizer_get_state")
public func seatkit_recognizer_get_state(_ handle: OpaquePointer?) -> seatkit_recognizer_state {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return SEATKIT_RECOGNIZER_POSSIBLE }
    return CRecognizer.state(c.recognizer.state)
}

@_cdecl("seatkit_recognizer_get_location")
public func seatkit_recognizer_get_location(_ handle: OpaquePointer?, _ x: UnsafeMutablePointer<Double>?,
                                            _ y: UnsafeMutablePointer<Double>?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    let p = (c.recognizer as? TapGestureRecognizer)?.location ?? c.recognizer.centroid
    x?.pointee = p.x
    y?.pointee = p.y
    return true
}

@_cdecl("seatkit_recognizer_get_translation")
public func seatkit_recognizer_get_translation(_ handle: OpaquePointer?, _ dx: UnsafeMutablePointer<Double>?,
                                               _ dy: UnsafeMutablePointer<Double>?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    let t: Vector
    switch c.recognizer {
    case let pan as PanGestureRecognizer: t = pan.translation
    case let edge as ScreenEdgePanGestureRecognizer: t = edge.translation
    case let swipe as TouchpadSwipeGestureRecognizer: t = swipe.translation
    default: return false
    }
    dx?.pointee = t.dx
    dy?.pointee = t.dy
    return true
}

@_cdecl("seatkit_recognizer_get_scale")
public func seatkit_recognizer_get_scale(_ handle: OpaquePointer?) -> Double {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 1 }
    switch c.recognizer {
    case let pinch as PinchGestureRecognizer: return pinch.scale
    case let pinch as TouchpadPinchGestureRecognizer: return pinch.scale
    default: return 1
    }
}

@_cdecl("seatkit_recognizer_get_rotation")
public func seatkit_recognizer_get_rotation(_ handle: OpaquePointer?) -> Double {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    switch c.recognizer {
    case let rotation as RotationGestureRecognizer: return rotation.rotation
    case let pinch as TouchpadPinchGestureRecognizer: return pinch.rotation
    default: return 0
    }
}

@_cdecl("seatkit_recognizer_get_swipe_direction")
public func seatkit_recognizer_get_swipe_direction(_ handle: OpaquePointer?) -> UInt32 {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    return UInt32((c.recognizer as? SwipeGestureRecognizer)?.recognizedDirection.rawValue ?? 0)
}

@_cdecl("seatkit_recognizer_get_tap_count")
public func seatkit_recognizer_get_tap_count(_ handle: OpaquePointer?) -> UInt32 {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    return UInt32((c.recognizer as? TapGestureRecognizer)?.tapCount ?? 0)
}

@_cdecl("seatkit_recognizer_get_velocity")
public func seatkit_recognizer_get_velocity(_ handle: OpaquePointer?, _ vx: UnsafeMutablePointer<Double>?,
                                            _ vy: UnsafeMutablePointer<Double>?, _ confidence: UnsafeMutablePointer<Double>?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    let estimate: VelocityEstimate
    switch c.recognizer {
    case let r as PanGestureRecognizer: estimate = r.velocityEstimate
    case let r as SwipeGestureRecognizer: estimate = r.velocityEstimate
    case let r as ScreenEdgePanGestureRecognizer: estimate = r.velocityEstimate
    case let r as PinchGestureRecognizer: estimate = r.velocityEstimate
    case let r as RotationGestureRecognizer: estimate = r.velocityEstimate
    case let r as TouchpadSwipeGestureRecognizer: estimate = r.velocityEstimate
    case let r as TouchpadPinchGestureRecognizer: estimate = r.velocityEstimate
    default: return false
    }
    vx?.pointee = estimate.perSecond.dx
    vy?.pointee = estimate.perSecond.dy
    confidence?.pointee = estimate.confidence
    return true
}

@_cdecl("seatkit_recognizer_get_velocity_mm")
public func seatkit_recognizer_get_velocity_mm(_ handle: OpaquePointer?, _ vx: UnsafeMutablePointer<Double>?,
                                               _ vy: UnsafeMutablePointer<Double>?) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    let v: Vector
    switch c.recognizer {
    case let r as PanGestureRecognizer: v = r.velocityInMillimetres
    case let r as SwipeGestureRecognizer: v = r.velocityInMillimetres
    case let r as ScreenEdgePanGestureRecognizer: v = r.velocityInMillimetres
    case let r as TouchpadSwipeGestureRecognizer: v = r.velocityInMillimetres
    case let r as PinchGestureRecognizer: v = Vector(dx: r.spanVelocityInMillimetres, dy: 0)
    default: return false
    }
    vx?.pointee = v.dx
    vy?.pointee = v.dy
    return true
}

@_cdecl("seatkit_recognizer_set_commit_threshold")
public func seatkit_recognizer_set_commit_threshold(_ handle: OpaquePointer?, _ threshold: Double) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard threshold >= 0, threshold.isFinite else {
        misuse(#function, "threshold \(threshold) is negative or not finite; refused")
        return false
    }
    switch c.recognizer {
    case let r as SwipeGestureRecognizer:
        r.minimumDistance = threshold
        r.reportsProgress = true
    case let r as ScreenEdgePanGestureRecognizer: r.commitDistance = threshold
    case let r as PinchGestureRecognizer: r.commitScaleChange = threshold
    case let r as TouchpadSwipeGestureRecognizer: r.commitDistance = threshold
    case let r as TouchpadPinchGestureRecognizer: r.commitScaleChange = threshold
    default:
        misuse(#function, "\(c.recognizer.name) has no commit threshold (swipe, screen-edge pan, pinch, touchpad swipe and pinch do); refused")
        return false
    }
    return true
}

@_cdecl("seatkit_recognizer_get_progress")
public func seatkit_recognizer_get_progress(_ handle: OpaquePointer?) -> Double {
    live(handle, .recognizer, as: CRecognizer.self, #function)?.recognizer.progress ?? 0
}
