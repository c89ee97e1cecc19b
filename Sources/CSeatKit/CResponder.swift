import CSeatKitSupport
import SeatKit

/// A responder made of C callbacks: a `seatkit_responder_interface` and its user data.
/// Every member is optional; a missing handler answers "not handled" (or does nothing).
///
/// Events are translated into C structs on the stack (touches into the router's reused
/// buffer), so asking a C responder allocates nothing.
class CResponder: Responder {
    unowned(unsafe) let owner: CRouter
    /// The surface or output this responder belongs to (NULL for the delegate).
    var surfaceHandle: OpaquePointer?
    var outputHandle: OpaquePointer?
    var impl: UnsafePointer<seatkit_responder_interface>?
    var data: UnsafeMutableRawPointer?
    var commands: [KeyCommand] = []

    init(owner: CRouter) { self.owner = owner }

    /// No more calls into C: the object it spoke for is gone.
    func clear() {
        impl = nil
        data = nil
        commands = []
    }

    @inline(__always)
    final func withContext<R>(_ context: ResponderContext, _ body: (UnsafePointer<seatkit_event_context>) -> R) -> R {
        let target = context.target
        var c = seatkit_event_context(
            router: owner.handle,
            surface: context.surface != nil ? surfaceHandle : nil,
            output: outputHandle,
            target: target == nil ? nil : (target === context.surface ? surfaceHandle : owner.handle(of: target)))
        if context.surface == nil, outputHandle == nil {
            // The delegate, or this responder asked for another link: name it from the context.
            c.surface = owner.handle(of: context.surface)
            if case .output(let o) = context.link { c.output = owner.handle(of: o) }
        }
        return withUnsafePointer(to: &c, body)
    }

    @inline(__always)
    final func result(_ r: seatkit_result) -> ResponderResult {
        r.rawValue == 0 ? .notHandled : .handled
    }

    // MARK: Touch

    @inline(__always)
    final func touches(_ event: TouchEvent, _ context: ResponderContext,
                       _ call: (UnsafePointer<seatkit_touch_event>, UnsafePointer<seatkit_event_context>) -> Void) {
        let buffer = owner.fillTouchBuffer(event.touches)
        var e = seatkit_touch_event(time_usec: event.time.microseconds, touch_count: event.touches.count,
                                    touches: UnsafePointer(buffer))
        withContext(context) { c in withUnsafePointer(to: &e) { call($0, c) } }
    }

    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.touches_began else { return .notHandled }
        var r = ResponderResult.notHandled
        touches(event, context) { e, c in r = result(f(data, e, c)) }
        return r
    }

    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.touches_moved else { return .notHandled }
        var r = ResponderResult.notHandled
        touches(event, context) { e, c in r = result(f(data, e, c)) }
        return r
    }

    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.touches_ended else { return .notHandled }
        var r = ResponderResult.notHandled
        touches(event, context) { e, c in r = result(f(data, e, c)) }
        return r
    }

    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {
        guard let f = impl?.pointee.touches_cancelled else { return }
        touches(event, context) { e, c in f(data, e, c) }
    }

    // MARK: Pointer

    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {
        guard let f = impl?.pointee.pointer_entered else { return }
        var e = crossing(event)
        withContext(context) { c in f(data, &e, c) }
    }

    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
        guard let f = impl?.pointee.pointer_left else { return }
        var e = crossing(event)
        withContext(context) { c in f(data, &e, c) }
    }

    private func crossing(_ event: PointerCrossingEvent) -> seatkit_pointer_crossing_event {
        seatkit_pointer_crossing_event(time_usec: event.time.microseconds, x: event.location.x, y: event.location.y,
                                       sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
    }

    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.pointer_moved else { return .notHandled }
        var e = seatkit_pointer_motion_event(
            time_usec: event.time.microseconds, device: event.device.rawValue,
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y,
            dx: event.delta.dx, dy: event.delta.dy,
            dx_unaccel: event.unacceleratedDelta.dx, dy_unaccel: event.unacceleratedDelta.dy)
        return withContext(context) { c in result(f(data, &e, c)) }
    }

    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.pointer_button else { return .notHandled }
        var e = seatkit_pointer_button_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, button: event.button,
            state: event.state == .pressed ? SEATKIT_BUTTON_PRESSED : SEATKIT_BUTTON_RELEASED,
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        return withContext(context) { c in result(f(data, &e, c)) }
    }

    func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.pointer_axis else { return .notHandled }
        var e = seatkit_pointer_axis_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, axis: CValues.axis(event.motion),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        return withContext(context) { c in result(f(data, &e, c)) }
    }

    func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.touchpad_gesture else { return .notHandled }
        var e = seatkit_touchpad_gesture_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, gesture: CValues.gesture(event.gesture),
            x: event.location.x, y: event.location.y, sx: event.surfaceLocation.x, sy: event.surfaceLocation.y)
        return withContext(context) { c in result(f(data, &e, c)) }
    }

    // MARK: Keyboard

    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.key_down else { return .notHandled }
        return withContext(context) { c in CValues.withKeyEvent(event) { e in result(f(data, e, c)) } }
    }

    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        guard let f = impl?.pointee.key_up else { return .notHandled }
        return withContext(context) { c in CValues.withKeyEvent(event) { e in result(f(data, e, c)) } }
    }

    var keyCommands: [KeyCommand] { commands }

    // MARK: Focus

    var canBecomeFirstResponder: Bool {
        guard let f = impl?.pointee.can_become_first_responder else { return false }
        return f(data)
    }

    var canResignFirstResponder: Bool {
        guard let f = impl?.pointee.can_resign_first_responder else { return true }
        return f(data)
    }

    func didBecomeFirstResponder(context: ResponderContext) {
        guard let f = impl?.pointee.did_become_first_responder else { return }
        withContext(context) { c in f(data, c) }
    }

    func didResignFirstResponder(context: ResponderContext) {
        guard let f = impl?.pointee.did_resign_first_responder else { return }
        withContext(context) { c in f(data, c) }
    }

    // MARK: Actions

    func canPerform(_ action: Action) -> Bool {
        guard let f = impl?.pointee.can_perform else { return false }
        return CText.with(action.name) { f(data, $0) }
    }

    func perform(_ action: Action, context: ResponderContext) {
        guard let f = impl?.pointee.perform else { return }
        withContext(context) { c in CText.with(action.name) { f(data, $0, c) } }
    }

    // MARK: Hit-testing

    func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
        guard let f = impl?.pointee.refine_hit_test else { return true }
        return f(data, point.x, point.y)
    }
}

/// The router's delegate: its own responder table plus the delegate's callbacks.
final class CDelegate: CResponder, CompositorDelegate {
    var delegateImpl: UnsafePointer<seatkit_delegate_interface>?
    var delegateData: UnsafeMutableRawPointer?

    func set(_ impl: UnsafePointer<seatkit_delegate_interface>?, data: UnsafeMutableRawPointer?) {
        delegateImpl = impl
        delegateData = data
        self.impl = impl?.pointee.responder
        self.data = data
    }

    func router(_ router: Router, dropped event: DroppedEvent) {
        guard let f = delegateImpl?.pointee.dropped else { return }
        let name: StaticString
        switch event {
        case .touchesBegan: name = "touchesBegan"
        case .touchesMoved: name = "touchesMoved"
        case .touchesEnded: name = "touchesEnded"
        case .pointerMotion: name = "pointerMoved"
        case .pointerButton: name = "pointerButton"
        case .pointerAxis: name = "pointerAxis"
        case .touchpadGesture: name = "touchpadGesture"
        case .keyDown: name = "keyDown"
        case .keyUp: name = "keyUp"
        case .action: name = "action"
        }
        name.withUTF8Buffer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { f(delegateData, $0.baseAddress) }
        }
    }

    func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        guard let f = delegateImpl?.pointee.first_responder_after_removing else {
            return router.nearestAncestorThatCanBecomeFirstResponder(startingAt: formerParent)
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
            guard let f = impl.device_added else { return }
            CValues.withDeviceInfo(info) { f(delegateData, event.device.rawValue, $0) }
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
