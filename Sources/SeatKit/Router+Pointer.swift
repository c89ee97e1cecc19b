extension Router {
    /// True while a pointer button is held: the implicit grab keeps focus where the first
    /// button went down until the last one is released.
    public var isPointerGrabbed: Bool { !pressedButtons.isEmpty }

    /// Buttons held now (evdev codes), in the order they were pressed.
    public var heldButtons: [UInt32] { pressedButtons }

    /// Re-hit-tests under the pointer and sends leave and enter as needed. The router does
    /// this itself before the next pointer event after any tree edit; call it to have focus
    /// follow an edit at once. Respects the implicit grab: does nothing while a button is
    /// held. Not a way around grabs: a pointer grab's handlers see the next event as usual.
    public func refreshPointerFocus(time: Timestamp? = nil) {
        guard pressedButtons.isEmpty else { return }
        pointerCheckedAtEdit = treeEditCount
        let target = surface(at: pointerLocation)
        if let trace { trace.record(.hitTest(pointerLocation, result: TraceSubject(target))) }
        if target !== pointerFocus { setPointerFocus(target, time: time ?? clock.now) }
    }

    /// Moves pointer focus: `pointerLeft` to the old focus, then `pointerEntered` to the new
    /// one, if it is attached. Enter and leave always pair: focus is cleared before the leave
    /// is sent, and a leave handler that moves focus itself decides where it goes. Bypasses
    /// the implicit grab (and filters and recognizers): for the router and for grabs.
    public func setPointerFocus(_ newFocus: Surface?, time: Timestamp) {
        guard pointerFocus !== newFocus else { return }
        pointerFocusGeneration &+= 1
        let generation = pointerFocusGeneration
        trace?.record(.pointerFocus(from: TraceSubject(pointerFocus), to: TraceSubject(newFocus)))
        if let oldFocus = pointerFocus {
            pointerFocus = nil
            tellPointerLeft(oldFocus, time: time)
            guard generation == pointerFocusGeneration else { return }
        }
        guard let newFocus, newFocus.isAttached else { return }
        pointerFocus = newFocus
        let local = newFocus.convert(pointerLocation) ?? .zero
        let crossing = PointerCrossingEvent(time: time, location: pointerLocation, surfaceLocation: local)
        newFocus.withResponder { $0.pointerEntered(crossing, context: ResponderContext(router: self, surface: newFocus, target: newFocus)) }
        trace?.record(.told(TraceSubject(newFocus), .pointerEntered))
    }

    private func tellPointerLeft(_ surface: Surface, time: Timestamp) {
        let local = surface.convert(pointerLocation) ?? .zero
        let crossing = PointerCrossingEvent(time: time, location: pointerLocation, surfaceLocation: local)
        surface.withResponder { $0.pointerLeft(crossing, context: ResponderContext(router: self, surface: surface, target: surface)) }
        trace?.record(.told(TraceSubject(surface), .pointerLeft))
    }

    /// The pointer focus left the layout: it hears a cancelled release of each held button
    /// (the implicit grab ends with it; the buttons' real releases are swallowed), then
    /// `pointerLeft`; focus then catches up with what is under the pointer.
    func pointerFocusWasRemoved(_ focus: Surface) {
        pointerFocusGeneration &+= 1
        let generation = pointerFocusGeneration
        pointerFocus = nil
        trace?.record(.pointerFocus(from: TraceSubject(focus), to: .none))
        let time = clock.now
        if !pressedButtons.isEmpty {
            let buttons = pressedButtons
            pressedButtons.removeAll(keepingCapacity: true)
            endPointerArena()
            var i = 0
            while i < buttons.count {
                let button = buttons[i]
                i += 1
                if !consumedButtons.scanContains(button) { consumedButtons.append(button) }
                var release = PointerButtonEvent(time: time, device: DeviceID(0), button: button, state: .released,
                                                 location: pointerLocation, surfaceLocation: focus.convert(pointerLocation) ?? .zero)
                release.isCancelled = true
                _ = focus.withResponder { $0.pointerButton(release, context: ResponderContext(router: self, surface: focus, target: focus)) }
                trace?.record(.told(TraceSubject(focus), .pointerButton))
            }
        }
        tellPointerLeft(focus, time: time)
        if generation == pointerFocusGeneration { refreshPointerFocus(time: time) }
    }

    /// Checks pointer focus against the tree before a pointer event when the tree changed
    /// since the last check.
    @inline(__always)
    func catchUpPointerFocus(time: Timestamp) {
        if pointerCheckedAtEdit != treeEditCount && pressedButtons.isEmpty { refreshPointerFocus(time: time) }
    }

    /// The pointer position in the focus surface's space (zero without focus).
    @inline(__always)
    func pointerSurfaceLocation() -> SurfacePoint {
        pointerFocus?.convert(pointerLocation) ?? .zero
    }

    func movePointer(to location: LayoutPoint, event: InputEvent, delta: Vector, unaccelerated: Vector) {
        pointerLocation = location
        if pressedButtons.isEmpty {
            pointerCheckedAtEdit = treeEditCount
            let target = surface(at: location, device: event.device)
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
        catchUpPointerFocus(time: event.time)
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
        catchUpPointerFocus(time: event.time)
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
        catchUpPointerFocus(time: event.time)
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
