extension Router {
    /// True while a pointer button is held: the implicit grab keeps focus where the first
    /// button went down until the last one is released.
    public var isPointerGrabbed: Bool { !pressedButtons.isEmpty }

    /// Buttons held now (evdev codes), in the order they were pressed.
    public var heldButtons: [UInt32] { pressedButtons }

    /// Re-hit-tests under the pointer after the tree changed under it (a surface moved,
    /// appeared or was raised) and sends leave and enter as needed. Respects the implicit
    /// grab: does nothing while a button is held.
    public func refreshPointerFocus(time: Timestamp? = nil) {
        guard pressedButtons.isEmpty else { return }
        let target = surface(at: pointerLocation)
        if let trace { trace.record(.hitTest(pointerLocation, result: TraceSubject(target))) }
        if target !== pointerFocus { setPointerFocus(target, time: time ?? clock.now) }
    }

    /// Moves pointer focus, sending leave to the old focus (if still attached) and enter to
    /// the new one. Bypasses the implicit grab: for the router and for explicit grabs.
    func setPointerFocus(_ newFocus: Surface?, time: Timestamp) {
        let oldFocus = pointerFocus
        guard oldFocus !== newFocus else { return }
        pointerFocus = newFocus
        trace?.record(.pointerFocus(from: TraceSubject(oldFocus), to: TraceSubject(newFocus)))
        if let oldFocus, oldFocus.isAttached {
            let local = oldFocus.convert(pointerLocation) ?? .zero
            let crossing = PointerCrossingEvent(time: time, location: pointerLocation, surfaceLocation: local)
            oldFocus.withResponder { $0.pointerLeft(crossing, context: ResponderContext(router: self, surface: oldFocus, target: oldFocus)) }
            trace?.record(.told(TraceSubject(oldFocus), .pointerLeft))
        }
        // A leave handler may have changed the tree or focus again.
        guard pointerFocus === newFocus, let newFocus, newFocus.isAttached else { return }
        let local = newFocus.convert(pointerLocation) ?? .zero
        let crossing = PointerCrossingEvent(time: time, location: pointerLocation, surfaceLocation: local)
        newFocus.withResponder { $0.pointerEntered(crossing, context: ResponderContext(router: self, surface: newFocus, target: newFocus)) }
        trace?.record(.told(TraceSubject(newFocus), .pointerEntered))
    }

    /// The pointer position in the focus surface's space (zero without focus).
    @inline(__always)
    func pointerSurfaceLocation() -> SurfacePoint {
        pointerFocus?.convert(pointerLocation) ?? .zero
    }

    func movePointer(to location: LayoutPoint, event: InputEvent, delta: Vector, unaccelerated: Vector) {
        pointerLocation = location
        if pressedButtons.isEmpty {
            let target = surface(at: location)
            if let trace { trace.record(.hitTest(location, result: TraceSubject(target))) }
            if target !== pointerFocus { setPointerFocus(target, time: event.time) }
        }
        let focus = pointerFocus
        let motion = PointerMotionEvent(time: event.time, device: event.device, location: location,
                                        surfaceLocation: pointerSurfaceLocation(), delta: delta,
                                        unacceleratedDelta: unaccelerated)
        if !pointerArena.entries.isEmpty && deliverPointerMotionToRecognizers(motion) { return }
        if walkChain(from: focus, target: focus, kind: .pointerMoved, { responder, context in
            responder.pointerMoved(motion, context: context)
        }) == false {
            reportDropped(.pointerMoved, .pointerMotion(motion))
        }
    }

    func pointerButton(_ event: InputEvent, button: UInt32, state: ButtonState) {
        if state == .released, let index = consumedButtons.scanIndex(of: button) {
            consumedButtons.remove(at: index)
            trace?.record(.followedConsumed(event))
            observe(event, consumed: true)
            return
        }
        if runFilters(event) {
            if state == .pressed { consumedButtons.append(button) }
            return
        }
        let focus = pointerFocus
        let buttonEvent = PointerButtonEvent(time: event.time, device: event.device, button: button, state: state,
                                             location: pointerLocation, surfaceLocation: pointerSurfaceLocation())
        if state == .pressed {
            pressedButtons.append(button)
        } else if let index = pressedButtons.scanIndex(of: button) {
            pressedButtons.remove(at: index)
        }
        if state == .pressed && pressedButtons.count == 1 { beginPointerArena(focus: focus) }
        if pointerArena.entries.isEmpty || !deliverPointerButtonToRecognizers(buttonEvent) {
            if walkChain(from: focus, target: focus, kind: .pointerButton, { responder, context in
                responder.pointerButton(buttonEvent, context: context)
            }) == false {
                reportDropped(.pointerButton, .pointerButton(buttonEvent))
            }
            if state == .pressed { pointerPressSeenByResponders = true }
        }
        // The implicit grab ends with the last release: focus catches up with the pointer.
        if state == .released && pressedButtons.isEmpty {
            endPointerArena()
            refreshPointerFocus(time: event.time)
        }
    }

    func pointerAxis(_ event: InputEvent, motion: AxisMotion) {
        let focus = pointerFocus
        let axis = PointerAxisEvent(time: event.time, device: event.device, motion: motion,
                                    location: pointerLocation, surfaceLocation: pointerSurfaceLocation())
        if walkChain(from: focus, target: focus, kind: .pointerAxis, { responder, context in
            responder.pointerAxis(axis, context: context)
        }) == false {
            reportDropped(.pointerAxis, .pointerAxis(axis))
        }
    }

    func touchpadGesture(_ event: InputEvent, gesture: TouchpadGesture) {
        let focus = pointerFocus
        let gestureEvent = TouchpadGestureEvent(time: event.time, device: event.device, gesture: gesture,
                                                location: pointerLocation, surfaceLocation: pointerSurfaceLocation())
        if deliverTouchpadGestureToRecognizers(gestureEvent, focus: focus) { return }
        noteTouchpadGestureDelivered()
        if walkChain(from: focus, target: focus, kind: .touchpadGesture, { responder, context in
            responder.touchpadGesture(gestureEvent, context: context)
        }) == false {
            reportDropped(.touchpadGesture, .touchpadGesture(gestureEvent))
        }
    }
}
