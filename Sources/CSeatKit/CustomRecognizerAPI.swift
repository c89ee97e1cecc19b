import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// Recognizers written in C: a `seatkit_recognizer_interface` behind a GestureRecognizer
// subclass, so that the router treats them exactly as the built-ins (arenas, require-to-fail,
// simultaneity, held and taken touches, actions, resets).

/// A recognizer whose methods are C handlers. The handle it passes is its `CRecognizer`'s;
/// after that is destroyed (`clear()`), no handler is called again.
final class CCustomRecognizer: GestureRecognizer {
    /// The router that made it, unretained (its CRecognizer, which the router ends first,
    /// clears this object before the router goes).
    let ownerLink: Unretained<CRouter>
    private var table: VTableCopy<seatkit_recognizer_interface>?
    private var data: UnsafeMutableRawPointer?
    /// The CRecognizer's handle, set once it is registered.
    var handle: OpaquePointer?
    private let takesTouches: Bool
    private let takesTouchpad: Bool

    init(name: String, owner: CRouter, table: VTableCopy<seatkit_recognizer_interface>, data: UnsafeMutableRawPointer?) {
        ownerLink = Unretained(owner)
        self.table = table
        self.data = data
        let t = table.pointer.pointee
        takesTouches = t.touches_began != nil || t.touches_moved != nil || t.touches_ended != nil || t.touches_cancelled != nil
        takesTouchpad = t.touchpad_gesture != nil
        super.init(name: name)
    }

    /// No more calls into C.
    func clear() {
        table = nil
        data = nil
    }

    /// The C event: the touches copied into the router's reused buffer (valid during the call).
    private func withCEvent(_ event: TouchEvent, _ body: (UnsafePointer<seatkit_touch_event>) -> Void) {
        let buffer = ownerLink.with { UnsafePointer($0.fillTouchBuffer(event.touches)) }
        var e = seatkit_touch_event(time_usec: event.time.microseconds, touch_count: event.touches.count, touches: buffer)
        withUnsafePointer(to: &e, body)
    }

    override var receivesTouches: Bool { takesTouches }
    override var receivesTouchpadGestures: Bool { takesTouchpad }
    /// A recognizer with touch handlers may follow pen strokes and left-button drags as a
    /// touch, when seatkit_recognizer_set_input_kinds allows them.
    override var supportedInputKinds: GestureInputKinds {
        // From raw values: an array literal allocates in debug builds, and this is asked at
        // every touch down.
        var kinds = GestureInputKinds(rawValue: takesTouches ? 0b1101 : 0)
        if takesTouchpad { kinds.insert(.touchpad) }
        return kinds
    }

    override func touchesBegan(_ event: TouchEvent) {
        guard let f = table?.pointer.pointee.touches_began else { return }
        withCEvent(event) { f(data, handle, $0) }
    }

    override func touchesMoved(_ event: TouchEvent) {
        guard let f = table?.pointer.pointee.touches_moved else { return }
        withCEvent(event) { f(data, handle, $0) }
    }

    override func touchesEnded(_ event: TouchEvent) {
        guard let f = table?.pointer.pointee.touches_ended else { return }
        withCEvent(event) { f(data, handle, $0) }
    }

    override func touchesCancelled(_ event: TouchEvent) {
        guard let f = table?.pointer.pointee.touches_cancelled else { return super.touchesCancelled(event) }
        withCEvent(event) { f(data, handle, $0) }
    }

    override func touchpadGesture(_ event: TouchpadGestureEvent) {
        guard let f = table?.pointer.pointee.touchpad_gesture else { return }
        var e = seatkit_touchpad_gesture_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, gesture: CValues.gesture(event.gesture),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        f(data, handle, &e)
    }

    override func deadlineReached() {
        guard let f = table?.pointer.pointee.deadline_reached else { return }
        f(data, handle)
    }

    override func reset() {
        guard let f = table?.pointer.pointee.reset else { return }
        f(data, handle)
    }

    override func gestureArenaWon() {
        guard let f = table?.pointer.pointee.arena_won else { return }
        f(data, handle)
    }
}

extension CRecognizer {
    /// The custom recognizer behind a handle, or nil (logged) for a built-in.
    func custom(_ function: StaticString) -> CCustomRecognizer? {
        if let custom = recognizer as? CCustomRecognizer { return custom }
        misuse(function, "\(recognizer.name) is a built-in recognizer, which sets its own state; refused")
        return nil
    }
}

@_cdecl("seatkit_recognizer_create_custom")
public func seatkit_recognizer_create_custom(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                             _ impl: UnsafePointer<seatkit_recognizer_interface>?,
                                             _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard let impl else {
        misuse(#function, "no seatkit_recognizer_interface; refused")
        return nil
    }
    guard let table = VTableCopy.make(impl, "seatkit_recognizer_interface", #function) else { return nil }
    let custom = CCustomRecognizer(name: string(name, or: "custom"), owner: r, table: table, data: data)
    let c = CRecognizer(owner: r, recognizer: custom)
    guard let handle = Handles.insert(c, kind: .recognizer) else {
        misuse(#function, "too many live handles")
        return nil
    }
    custom.handle = handle
    r.recognizers.append(c)
    return handle
}

/// The Swift state for a C one.
private func swiftState(_ s: seatkit_recognizer_state) -> GestureRecognizerState? {
    switch s {
    case SEATKIT_RECOGNIZER_POSSIBLE: .possible
    case SEATKIT_RECOGNIZER_BEGAN: .began
    case SEATKIT_RECOGNIZER_CHANGED: .changed
    case SEATKIT_RECOGNIZER_ENDED: .ended
    case SEATKIT_RECOGNIZER_CANCELLED: .cancelled
    case SEATKIT_RECOGNIZER_FAILED: .failed
    case SEATKIT_RECOGNIZER_RECOGNIZED: .recognized
    default: nil
    }
}

@_cdecl("seatkit_recognizer_set_state")
public func seatkit_recognizer_set_state(_ handle: OpaquePointer?, _ state: seatkit_recognizer_state) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function), let custom = c.custom(#function) else { return false }
    guard let to = swiftState(state) else {
        misuse(#function, "state \(state.rawValue) is not a seatkit_recognizer_state; refused")
        return false
    }
    let from = custom.state
    guard GestureRecognizerState.canTransition(from: from, to: to) else {
        misuse(#function, "\(custom.name) cannot move from \(from) to \(to) (possible -> began, recognized or failed; began or changed -> changed, ended or cancelled); refused")
        return false
    }
    APICall.run { custom.state = to }
    return true
}

@_cdecl("seatkit_recognizer_fail")
public func seatkit_recognizer_fail(_ handle: OpaquePointer?) {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function), let custom = c.custom(#function) else { return }
    APICall.run { custom.failIfPossible() }
}

@_cdecl("seatkit_recognizer_schedule")
public func seatkit_recognizer_schedule(_ handle: OpaquePointer?, _ deadline: Int64) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function), let custom = c.custom(#function) else { return false }
    guard custom.router != nil else {
        misuse(#function, "\(custom.name) is detached: it has no clock; refused")
        return false
    }
    custom.schedule(at: Timestamp(microseconds: deadline))
    return true
}

@_cdecl("seatkit_recognizer_cancel_deadlines")
public func seatkit_recognizer_cancel_deadlines(_ handle: OpaquePointer?) {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function), let custom = c.custom(#function) else { return }
    custom.cancelTimers()
}

@_cdecl("seatkit_recognizer_get_touches")
public func seatkit_recognizer_get_touches(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<seatkit_touch_point>?,
                                           _ capacity: Int) -> Int {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    let touches = c.recognizer.touches
    if let out {
        var i = 0
        while i < touches.count && i < capacity {
            let t = touches[i]
            out[i] = seatkit_touch_point(
                id: t.id.rawValue, device: t.device.rawValue, x: t.location.x, y: t.location.y,
                sx: t.surfaceLocation.x, sy: t.surfaceLocation.y,
                start_x: t.startLocation.x, start_y: t.startLocation.y, start_time_usec: t.startTime.microseconds)
            i += 1
        }
    }
    return touches.count
}

@_cdecl("seatkit_recognizer_get_units_per_mm")
public func seatkit_recognizer_get_units_per_mm(_ handle: OpaquePointer?) -> Double {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    return c.recognizer.layoutUnitsPerMillimetre
}

@_cdecl("seatkit_recognizer_set_progress")
public func seatkit_recognizer_set_progress(_ handle: OpaquePointer?, _ progress: Double) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function), let custom = c.custom(#function) else { return false }
    guard progress.isFinite else {
        misuse(#function, "progress \(progress) is not finite; refused")
        return false
    }
    custom.progress = progress
    return true
}
