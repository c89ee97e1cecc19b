import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

#if !(arch(x86_64) || arch(arm64))
// `CResponder.touchEvent` hands SeatKit's `TouchPoint`s to C as `seatkit_touch_point`s; the
// layouts are checked equal (LayoutAssumptionTests) on the 64-bit platforms SeatKit supports.
#error("Unsupported platform: check TouchPoint against seatkit_touch_point (LayoutAssumptionTests) or copy with CRouter.fillTouchBuffer")
#endif

/// Per-event handlers of `seatkit_responder_interface` that answer.
typealias CTouchHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<seatkit_touch_event>?,
                                          UnsafePointer<seatkit_event_context>?) -> seatkit_result
typealias CPointerMotionHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<seatkit_pointer_motion_event>?,
                                                  UnsafePointer<seatkit_event_context>?) -> seatkit_result
typealias CCrossingHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<seatkit_pointer_crossing_event>?,
                                              UnsafePointer<seatkit_event_context>?) -> Void
typealias CKeyHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<seatkit_key_event>?,
                                        UnsafePointer<seatkit_event_context>?) -> seatkit_result

/// A responder made of C callbacks: a `seatkit_responder_interface` and its user data.
/// Every member is optional; a missing handler answers "not handled" (or does nothing).
///
/// Events are translated into C structs on the stack (touches into the router's reused
/// buffer), so asking a C responder allocates nothing.
class CResponder: Responder {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    /// The hot state, read for every event: exempt from run-time exclusivity checks
    /// (the rules are in the core's UnsafeFoundations.swift).
    struct HotState {
        /// The surface or output this responder belongs to (NULL for the delegate).
        var surfaceHandle: OpaquePointer?
        /// That surface's identity while it is live, as its bits; 1 (no object's address)
        /// otherwise. An event aimed at the surface asked (a crossing, the first link of a
        /// walk) names it as the target without a lookup: one compare with the target's bits
        /// (0 for none), where an optional on each side took six instructions more.
        private(set) var ownTarget: UInt = 1
        /// The surface's identity, which sets `ownTarget`.
        var surfaceIdentity: ObjectIdentifier? {
            didSet { ownTarget = surfaceIdentity.map { UInt(bitPattern: $0) } ?? 1 }
        }
        var hasSurface: Bool { ownTarget != 1 }
        var outputHandle: OpaquePointer?
        var impl: UnsafePointer<seatkit_responder_interface>?
        var data: UnsafeMutableRawPointer?
        var commands: [KeyCommand] = []
    }

    @exclusivity(unchecked) var unchecked = HotState()
    /// The C context of a call whose target is this responder's own surface (a crossing, the
    /// first link of a walk): router, surface, no output, the surface as target. Filled once,
    /// when the surface gets its handle (``setSurfaceHandle(_:)``), and never written after,
    /// so a callback may be handed it directly, also from a nested call; the header makes it
    /// `const` to the callback. Read only while the responder has a surface (`hasSurface`).
    let ownContext: UnsafeMutablePointer<seatkit_event_context> = {
        let c = UnsafeMutablePointer<seatkit_event_context>.allocate(capacity: 1)
        c.initialize(to: seatkit_event_context())
        return c
    }()
    /// The library's copy of the table `unchecked.impl` points into (see `VTableCopy`).
    var table: VTableCopy<seatkit_responder_interface>?

    /// Sets the C table (copied) and its data; NULL clears both. False (logged) when the
    /// table's struct_size is unusable: the previous table stays.
    func setTable(_ impl: UnsafePointer<seatkit_responder_interface>?, data: UnsafeMutableRawPointer?,
                  _ function: StaticString) -> Bool {
        guard let impl else {
            unchecked.impl = nil
            unchecked.data = nil
            table = nil
            return true
        }
        guard let copy = VTableCopy.make(impl, "seatkit_responder_interface", function) else { return false }
        table = copy
        unchecked.impl = UnsafePointer(copy.pointer)
        unchecked.data = data
        return true
    }

    init(owner: CRouter) {
        ownerLink = Unretained(owner)
    }

    deinit { ownContext.deallocate() }

    /// The handle of the surface this responder speaks for, once the handle table gave it one
    /// (`surfaceIdentity` is set in `CSurface.init`).
    func setSurfaceHandle(_ handle: OpaquePointer) {
        unchecked.surfaceHandle = handle
        ownContext.pointee = seatkit_event_context(router: owner.handle, surface: handle, output: nil, target: handle)
    }

    /// Whether the core should ask this responder at all: it has a C table or key commands.
    /// Until then its surface or output has SeatKit's `PassThroughResponder`, which answers
    /// every question as this one would without a table (not handled, nothing to do, no
    /// first responder, every point hit) and costs the router's walks less per link asked
    /// (an output's root surface and the output are asked on every pointer motion).
    var isActive: Bool { unchecked.impl != nil || !unchecked.commands.isEmpty }

    /// No more calls into C: the object it spoke for is gone.
    func clear() {
        unchecked.surfaceIdentity = nil
        unchecked.impl = nil
        unchecked.data = nil
        unchecked.commands = []
    }

    /// The C context for a call, made in full (the per-event handlers try
    /// ``withFastContext(_:_:orElse:)`` first). A surface's responder is only ever asked for its
    /// own surface, so that link needs no lookup; the target is looked up (the router's cache,
    /// then its table of surfaces).
    @inline(__always)
    final func makeContext(_ context: ResponderContext) -> seatkit_event_context {
        if let surfaceHandle = unchecked.surfaceHandle {
            let target = context.targetIdentity
            return ownerLink.with { owner in
                let targetHandle = target != nil && target == unchecked.surfaceIdentity
                    ? surfaceHandle : owner.handle(ofSurfaceWithIdentity: target)
                return seatkit_event_context(router: owner.handle, surface: surfaceHandle, output: nil,
                                             target: targetHandle)
            }
        }
        return makeOtherContext(context)
    }

    /// An output's or the delegate's context.
    @inline(never)
    final func makeOtherContext(_ context: ResponderContext) -> seatkit_event_context {
        var c = seatkit_event_context(router: owner.handle, surface: nil, output: unchecked.outputHandle,
                                      target: owner.handle(of: context.target))
        if unchecked.outputHandle == nil {
            c.surface = owner.handle(of: context.surface)
            if case .output(let o) = context.link { c.output = owner.handle(of: o) }
        }
        return c
    }

    @inline(__always)
    final func withContext<R>(_ context: ResponderContext, _ body: (UnsafePointer<seatkit_event_context>) -> R) -> R {
        var c = makeContext(context)
        return withUnsafePointer(to: &c, body)
    }

    /// Calls `body` with the C context of a surface's responder when it takes no call to make
    /// (the hot path of the per-event handlers), `slow()` otherwise: the responder's own
    /// ``ownContext`` when the target is its surface (the first link of a walk); a copy of it
    /// on the stack with the target's handle from the router's cache when the cache has it
    /// (the links above). An output's or the delegate's responder, a target missing from the
    /// cache or not the router's: `slow`, which makes the context as ``makeContext(_:)`` does.
    /// With no call on the hot path but the callback's, the handler keeps no registers across
    /// it (~15 instructions a responder asked, in the frame alone).
    @inline(__always)
    final func withFastContext<R>(_ context: ResponderContext, _ body: (UnsafePointer<seatkit_event_context>) -> R,
                                  orElse slow: () -> R) -> R {
        let target = context.targetIdentity.map { UInt(bitPattern: $0) } ?? 0
        if target == unchecked.ownTarget { return body(ownContext) }
        if unchecked.hasSurface, let handle = ownerLink.with({ $0.cachedHandle(ofSurfaceWithBits: target) }) {
            var c = seatkit_event_context(router: ownContext.pointee.router, surface: ownContext.pointee.surface,
                                          output: nil, target: handle)
            return withUnprotectedCContext(&c, body)
        }
        return slow()
    }

    @inline(__always)
    final func result(_ r: seatkit_result) -> ResponderResult {
        r.rawValue == 0 ? .notHandled : .handled
    }

    // The per-event handlers below are `@inline(__always)`: their bodies go into the protocol
    // witnesses the router calls, which were otherwise a frame and a jump to them (~5
    // instructions a responder asked).

    // MARK: Touch

    /// The C touch event: the router's own buffer of touches handed to C as it is, valid
    /// only during the call, as the header says. SeatKit's `TouchPoint` has
    /// `seatkit_touch_point`'s size and field offsets on every platform SeatKit supports
    /// (64-bit Linux, x86_64 and aarch64: the same Swift and C layout rules, fields of 4 and 8
    /// bytes in the same order), which `LayoutAssumptionTests` requires there. The copy into
    /// the router's buffer that stood behind a mismatch was never taken: a port to a platform
    /// where the layouts differed fails that test and stops at the `#error` below, and would
    /// copy with `CRouter.fillTouchBuffer` (as a custom recognizer's touches are).
    @inline(__always)
    final func touchEvent(_ event: TouchEvent) -> seatkit_touch_event {
        // The array is the router's and outlives the call; no copy, no retain.
        let base = event.touches.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        let touches = (base ?? UnsafeRawPointer(bitPattern: MemoryLayout<seatkit_touch_point>.alignment)!)
            .assumingMemoryBound(to: seatkit_touch_point.self)
        return seatkit_touch_event(time_usec: event.time.microseconds, touch_count: event.touches.count,
                                   touches: touches)
    }

    @inline(__always)
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.touches_began else { return .notHandled }
        return withFastContext(context, { c in
            var e = touchEvent(event)
            return result(withUnprotectedCEvent(&e) { f(unchecked.data, $0, c) })
        }, orElse: { callTouches(event, context, f) })
    }

    @inline(__always)
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.touches_moved else { return .notHandled }
        return withFastContext(context, { c in
            var e = touchEvent(event)
            return result(withUnprotectedCEvent(&e) { f(unchecked.data, $0, c) })
        }, orElse: { callTouches(event, context, f) })
    }

    @inline(__always)
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.touches_ended else { return .notHandled }
        return withFastContext(context, { c in
            var e = touchEvent(event)
            return result(withUnprotectedCEvent(&e) { f(unchecked.data, $0, c) })
        }, orElse: { callTouches(event, context, f) })
    }

    /// A touch handler's call off the hot path (see ``withFastContext(_:_:orElse:)``).
    @inline(never)
    final func callTouches(_ event: TouchEvent, _ context: ResponderContext, _ f: CTouchHandler) -> ResponderResult {
        var c = makeContext(context)
        var e = touchEvent(event)
        return result(withUnprotectedCArguments(&e, &c) { f(unchecked.data, $0, $1) })
    }

    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.touches_cancelled else { return }
        var c = makeContext(context)
        var e = touchEvent(event)
        withUnprotectedCArguments(&e, &c) { f(unchecked.data, $0, $1) }
    }

    // MARK: Pointer

    @inline(__always)
    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.pointer_entered else { return }
        guard unchecked.hasSurface else { return callCrossing(event, context, f) }
        // SeatKit tells a crossing only to the surface crossed, as its target
        // (`Router+Pointer.swift`; pinned by LayoutAssumptionTests): the responder's own
        // context, made once, without asking the context for the target.
        let c = ownContext
        var e = crossing(event)
        withUnprotectedCEvent(&e) { f(unchecked.data, $0, c) }
    }

    @inline(__always)
    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.pointer_left else { return }
        guard unchecked.hasSurface else { return callCrossing(event, context, f) }
        // SeatKit tells a crossing only to the surface crossed, as its target
        // (`Router+Pointer.swift`; pinned by LayoutAssumptionTests): the responder's own
        // context, made once, without asking the context for the target.
        let c = ownContext
        var e = crossing(event)
        withUnprotectedCEvent(&e) { f(unchecked.data, $0, c) }
    }

    /// An output's or the delegate's crossing (off the hot path, so that a surface's keeps no
    /// registers across its callback).
    @inline(never)
    final func callCrossing(_ event: PointerCrossingEvent, _ context: ResponderContext, _ f: CCrossingHandler) {
        var e = crossing(event)
        var c = makeOtherContext(context)
        withUnprotectedCArguments(&e, &c) { f(unchecked.data, $0, $1) }
    }

    @inline(__always)
    private func crossing(_ event: PointerCrossingEvent) -> seatkit_pointer_crossing_event {
        seatkit_pointer_crossing_event(time_usec: event.time.microseconds, x: event.location.x, y: event.location.y,
                                       sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
    }

    // The chain's links without a C handler (a delegate without a responder table) answer
    // before anything else is read.
    @inline(__always)
    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.pointer_moved else { return .notHandled }
        return withFastContext(context, { c in
            var e = motion(event)
            return result(withUnprotectedCEvent(&e) { f(unchecked.data, $0, c) })
        }, orElse: { callPointerMoved(event, context, f) })
    }

    @inline(__always)
    private func motion(_ event: PointerMotionEvent) -> seatkit_pointer_motion_event {
        seatkit_pointer_motion_event(
            time_usec: event.time.microseconds, device: event.device.rawValue,
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y,
            dx: event.delta.dx, dy: event.delta.dy,
            dx_unaccel: event.unacceleratedDelta.dx, dy_unaccel: event.unacceleratedDelta.dy)
    }

    /// Pointer motion's call off the hot path (see ``withFastContext(_:_:orElse:)``).
    @inline(never)
    final func callPointerMoved(_ event: PointerMotionEvent, _ context: ResponderContext,
                                _ f: CPointerMotionHandler) -> ResponderResult {
        var e = motion(event)
        var c = makeContext(context)
        return result(withUnprotectedCArguments(&e, &c) { f(unchecked.data, $0, $1) })
    }

    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.pointer_button else { return .notHandled }
        var e = seatkit_pointer_button_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, button: event.button,
            state: event.state == .pressed ? SEATKIT_BUTTON_PRESSED : SEATKIT_BUTTON_RELEASED,
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        var c = makeContext(context)
        return result(withUnprotectedCArguments(&e, &c) { f(unchecked.data, $0, $1) })
    }

    // MARK: Pen

    @inline(__always)
    final func penEvent(_ event: PenEvent) -> seatkit_pen_event {
        let phase: seatkit_pen_phase
        switch event.phase {
        case .proximityIn: phase = SEATKIT_PEN_PROXIMITY_IN
        case .hover: phase = SEATKIT_PEN_HOVER
        case .down: phase = SEATKIT_PEN_DOWN
        case .moved: phase = SEATKIT_PEN_MOVED
        case .up: phase = SEATKIT_PEN_UP
        case .proximityOut: phase = SEATKIT_PEN_PROXIMITY_OUT
        }
        let a = event.axes
        return seatkit_pen_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, phase: phase,
            tool_type: seatkit_pen_tool_type(rawValue: UInt32(event.tool.kind.rawValue)), tool_serial: event.tool.serial,
            capabilities: UInt32(event.tool.capabilities.rawValue), changed: UInt32(event.changedAxes.rawValue),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y,
            pressure: a.pressure, distance: a.distance, tilt_x: a.tiltX, tilt_y: a.tiltY, rotation: a.rotation, slider: a.slider,
            wheel: a.wheelDelta, wheel_discrete: a.wheelDiscrete, cancelled: event.isCancelled)
    }

    func penEntered(_ event: PenEvent, context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.pen_entered else { return }
        var e = penEvent(event)
        var c = makeContext(context)
        f(unchecked.data, &e, &c)
    }

    func penLeft(_ event: PenEvent, context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.pen_left else { return }
        var e = penEvent(event)
        var c = makeContext(context)
        f(unchecked.data, &e, &c)
    }

    func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.pen_moved else { return .notHandled }
        var e = penEvent(event)
        var c = makeContext(context)
        return result(f(unchecked.data, &e, &c))
    }

    func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.pen_down else { return .notHandled }
        var e = penEvent(event)
        var c = makeContext(context)
        return result(f(unchecked.data, &e, &c))
    }

    func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.pen_up else { return .notHandled }
        var e = penEvent(event)
        var c = makeContext(context)
        return result(f(unchecked.data, &e, &c))
    }

    func penButton(_ event: PenButtonEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.pen_button else { return .notHandled }
        var e = seatkit_pen_button_event(
            time_usec: event.time.microseconds, device: event.device.rawValue,
            tool_type: seatkit_pen_tool_type(rawValue: UInt32(event.tool.kind.rawValue)), tool_serial: event.tool.serial,
            button: event.button, state: event.state == .pressed ? SEATKIT_BUTTON_PRESSED : SEATKIT_BUTTON_RELEASED,
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        var c = makeContext(context)
        return result(f(unchecked.data, &e, &c))
    }

    func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.pointer_axis else { return .notHandled }
        var e = seatkit_pointer_axis_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, axis: CValues.axis(event.motion),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        var c = makeContext(context)
        return result(f(unchecked.data, &e, &c))
    }

    func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult {
        guard let f = unchecked.impl?.pointee.touchpad_gesture else { return .notHandled }
        var e = seatkit_touchpad_gesture_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, gesture: CValues.gesture(event.gesture),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        var c = makeContext(context)
        return result(f(unchecked.data, &e, &c))
    }

    // MARK: Keyboard

    @inline(__always)
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        askKey(unchecked.impl?.pointee.key_down, event, context)
    }

    @inline(__always)
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        askKey(unchecked.impl?.pointee.key_up, event, context)
    }

    /// A key press's or release's handler `f` (not handled without one), with the key's
    /// text pushed on the owner's text stack for the call.
    @inline(__always)
    private func askKey(_ f: CKeyHandler?, _ event: KeyEvent, _ context: ResponderContext) -> ResponderResult {
        guard let f else { return .notHandled }
        return withFastContext(context, { c in
            ownerLink.with { owner in
                var e = CValues.keyEvent(event, text: CText.push(event.text, on: owner))
                defer { CText.pop(on: owner) }
                return result(withUnprotectedCEvent(&e) { f(unchecked.data, $0, c) })
            }
        }, orElse: { callKey(event, context, f) })
    }

    /// A key handler's call off the hot path (see ``withFastContext(_:_:orElse:)``).
    @inline(never)
    final func callKey(_ event: KeyEvent, _ context: ResponderContext, _ f: CKeyHandler) -> ResponderResult {
        var c = makeContext(context)
        return ownerLink.with { owner in
            var e = CValues.keyEvent(event, text: CText.push(event.text, on: owner))
            defer { CText.pop(on: owner) }
            return result(withUnprotectedCArguments(&e, &c) { f(unchecked.data, $0, $1) })
        }
    }

    /// `[]` (a constant: no reference counting per key) unless commands were added.
    var keyCommands: [KeyCommand] { unchecked.commands.isEmpty ? [] : unchecked.commands }

    // MARK: Focus

    var canBecomeFirstResponder: Bool {
        guard let f = unchecked.impl?.pointee.can_become_first_responder else { return false }
        return f(unchecked.data)
    }

    var canResignFirstResponder: Bool {
        guard let f = unchecked.impl?.pointee.can_resign_first_responder else { return true }
        return f(unchecked.data)
    }

    func didBecomeFirstResponder(context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.did_become_first_responder else { return }
        withContext(context) { c in f(unchecked.data, c) }
    }

    func didResignFirstResponder(context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.did_resign_first_responder else { return }
        withContext(context) { c in f(unchecked.data, c) }
    }

    // MARK: Actions

    func canPerform(_ action: Action) -> Bool {
        guard let f = unchecked.impl?.pointee.can_perform else { return false }
        return ownerLink.with { owner in CText.with(action.name, on: owner) { f(unchecked.data, $0) } }
    }

    func perform(_ action: Action, context: ResponderContext) {
        guard let f = unchecked.impl?.pointee.perform else { return }
        ownerLink.with { owner in
            withContext(context) { c in CText.with(action.name, on: owner) { f(unchecked.data, $0, c) } }
        }
    }

    // MARK: Hit-testing

    /// Without a `refine_hit_test` in the table, the default's answer, noted as the default's:
    /// the core's hit-tests then accept for this responder without calling it (about 40
    /// instructions a pointer motion, issue 25, eleventh round), until its surface is given
    /// it again, which `CSurface.installResponder()` does after every change of the table.
    func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
        guard let f = unchecked.impl?.pointee.refine_hit_test else { return refineHitTestAsTheDefault() }
        return f(unchecked.data, point.x, point.y)
    }
}

/// The router's delegate: its own responder table plus the delegate's callbacks.
final class CDelegate: CResponder, CompositorDelegate {
    var delegateImpl: UnsafePointer<seatkit_delegate_interface>?
    var delegateData: UnsafeMutableRawPointer?
    var delegateTable: VTableCopy<seatkit_delegate_interface>?

    /// Copies the delegate's table and its responder table (both read within their
    /// struct_size). Nothing changes when either is refused.
    func set(_ impl: UnsafePointer<seatkit_delegate_interface>?, data: UnsafeMutableRawPointer?, _ function: StaticString) {
        guard let impl else {
            delegateImpl = nil
            delegateData = nil
            delegateTable = nil
            _ = setTable(nil, data: nil, function)
            return
        }
        guard let copy = VTableCopy.make(impl, "seatkit_delegate_interface", function) else { return }
        let responder = copy.pointer.pointee.responder
        guard setTable(responder, data: data, function) else { return }
        // The copy's responder member points at the library's copy of that table.
        copy.pointer.pointee.responder = unchecked.impl
        delegateTable = copy
        delegateImpl = UnsafePointer(copy.pointer)
        delegateData = data
    }

    @inline(__always)
    func router(_ router: Router, dropped event: DroppedEvent) {
        guard let f = delegateImpl?.pointee.dropped else { return }
        // A static C string per kind (withCString on the raw value cost ~60 instructions per
        // drop), found from the event's case here (`DroppedEvent.kind` is a call into the core).
        f(delegateData, CValues.name(CValues.kind(event)))
    }

    func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        guard let f = delegateImpl?.pointee.first_responder_after_removing else {
            return router.defaultFirstResponder(afterRemoving: removed, formerParent: formerParent)
        }
        let chosen = f(delegateData, owner.handle(of: removed), owner.handle(of: formerParent))
        guard let chosen else { return nil }
        guard let surface = Handles.object(chosen, .surface).map({ unsafeDowncast($0, to: CSurface.self) }),
              surface.owner === owner else {
            misuse("first_responder_after_removing", "the delegate returned \(Handles.describeRefused(chosen, expected: .surface)); no first responder")
            return nil
        }
        return surface.surface
    }

    func router(_ router: Router, deviceEvent event: InputEvent) {
        guard let impl = delegateImpl?.pointee else { return }
        switch event.kind {
        case .deviceAdded(let info):
            if let f = impl.device_added {
                CValues.withDeviceInfo(info) { f(delegateData, event.device.rawValue, $0) }
            }
            // The table may have changed in device_added: read it again.
            if info.capabilities.contains(.tabletPad), let f = delegateImpl?.pointee.pad_added {
                CValues.withPadLayout(info.pad ?? PadLayout()) { f(delegateData, event.device.rawValue, $0) }
            }
        case .tablet(let t) where !t.isToolEvent:
            guard let f = impl.pad_event else { return }
            var e = CValues.padEvent(t, time: event.time, device: event.device)
            f(delegateData, &e)
        case .deviceRemoved:
            impl.device_removed?(delegateData, event.device.rawValue)
        case .switchToggled(let which, let on):
            impl.switch_toggled?(delegateData, event.device.rawValue,
                                 which == .lid ? SEATKIT_SWITCH_LID : SEATKIT_SWITCH_TABLET_MODE, on)
        default:
            break
        }
    }

    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {
        delegateImpl?.pointee.capabilities_changed?(delegateData, capabilities.rawValue)
    }
}
