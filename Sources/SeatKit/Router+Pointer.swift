extension Router {
    /// True while a pointer button is held: the implicit grab keeps focus where the first
    /// button went down until the last one is released.
    public var isPointerGrabbed: Bool { unchecked.pointer.isImplicitlyGrabbed }

    /// Buttons held now (evdev codes), in the order they were pressed.
    public var heldButtons: [UInt32] { unchecked.pointer.pressedButtons }

    /// Re-hit-tests under the pointer and sends leave and enter as needed, or, when the focus
    /// itself moved under the still pointer, a motion with no delta to the new point in its
    /// space. The router does this itself before the next pointer event after any tree edit;
    /// call it to have focus follow an edit at once. Respects the implicit grab: does nothing while a button is
    /// held. Not a way around grabs: a pointer grab's handlers see the next event as usual.
    public func refreshPointerFocus(time: Timestamp? = nil) {
        // Under a pointer grab, focus is the grab's to set.
        guard unchecked.pointer.grab == nil else { return }
        followPointerFocus(time: time)
    }

    /// The default rule's focus update: re-hit-test unless a button is held (the implicit
    /// grab). What a grab gets by forwarding (``routePointerButton(_:)`` at the last
    /// release), and what ``refreshPointerFocus(time:)`` does without a grab.
    func followPointerFocus(time: Timestamp? = nil) {
        guard unchecked.pointer.pressedButtons.isEmpty else { return }
        let edit = unchecked.treeEditCount
        unchecked.pointer.checkedAtEdit = edit
        let generation = unchecked.pointer.focusGeneration
        // The point the hit-test ran at, read once: a refine that moves the pointer changes the
        // location before the hit is remembered, and the hit's origin must come from the point
        // it was found at.
        let location = unchecked.pointer.location
        let target = rememberPointerHit(hit(at: location), at: location, edit: edit)
        if let trace { trace.record(.hitTest(location, result: TraceSubject(target))) }
        // A hit-test handler (refine) that started a grab or moved focus has decided.
        guard generation == unchecked.pointer.focusGeneration else { return }
        if target !== unchecked.pointer.focus {
            setPointerFocus(target, time: time ?? clock.now)
        } else if let focus = target, let local = pointerLocation(in: focus), local != unchecked.pointer.focusSurfaceLocation {
            // The focus moved under a still pointer: it hears where the pointer now is in its
            // space (as a client must, before a click lands there), a motion with no delta.
            unchecked.pointer.focusSurfaceLocation = local
            let motion = PointerMotionEvent(time: time ?? clock.now, device: DeviceID(0), location: unchecked.pointer.location,
                                            surfaceLocation: local, delta: .zero, unacceleratedDelta: .zero)
            if walkChain(from: focus, target: focus, kind: .pointerMoved, { $0.pointerMoved(motion, context: $1) }) == false {
                reportDropped(.pointerMoved, .pointerMotion(motion))
            }
        }
    }

    /// Moves pointer focus: `pointerLeft` to the old focus, then `pointerEntered` to the new
    /// one, if it is attached. Enter and leave always pair: focus is cleared before the leave
    /// is sent, and a leave handler that moves focus itself decides where it goes. Bypasses
    /// the implicit grab (and filters and recognizers): for the router and for grabs.
    public func setPointerFocus(_ newFocus: Surface?, time: Timestamp) {
        setPointerFocus(unretained: newFocus.map(Unretained.init), time: time)
    }

    /// ``setPointerFocus(_:time:)`` with the new focus unretained: held by the caller, or
    /// found by the hit-test of this motion with nothing called out since (rule 7 of
    /// ``Unretained``). It is pinned before anything is called out and until the enter is
    /// told, so that a leave handler that takes it out of the tree cannot free it (as a walk
    /// pins each surface it asks); focus itself owns it from when it is set. The old focus is
    /// moved out of the focus, not copied: a focus change costs one retain (the new focus) and
    /// one release (the old), where it cost seven reference-count updates (issue 25).
    func setPointerFocus(unretained newLink: Unretained<Surface>?, time: Timestamp) {
        guard unchecked.pointer.focusLink?.identity != newLink?.identity else { return }
        unchecked.pointer.focusGeneration &+= 1
        let generation = unchecked.pointer.focusGeneration
        guard let newLink else {
            movePointerFocus(to: nil, generation: generation, time: time)
            return
        }
        newLink.with { $0.pinForWalk() }
        movePointerFocus(to: newLink, generation: generation, time: time)
        // Not touched after this: the unpin may release it.
        Surface.unpinAfterWalk(newLink)
    }

    /// The leave and the enter of ``setPointerFocus(_:time:)``; `newLink` is pinned.
    @inline(__always)
    private func movePointerFocus(to newLink: Unretained<Surface>?, generation: UInt64, time: Timestamp) {
        if let trace { trace.record(.pointerFocus(from: TraceSubject(unchecked.pointer.focus), to: TraceSubject(newLink?.object))) }
        if let oldFocus = unchecked.pointer.takeFocus() {
            tellPointerLeft(oldFocus, time: time)
            guard generation == unchecked.pointer.focusGeneration else { return }
        }
        newLink?.with { tellPointerEntered($0, time: time) }
    }

    /// Makes `newFocus` the focus, if it is attached, and tells it the pointer entered. Out
    /// of line, as ``tellPointerLeft(_:time:)``: with the surface a parameter, its responder
    /// is asked with no reference counting (written inside the caller's closure, the surface
    /// was retained once more around the enter).
    @inline(never)
    func tellPointerEntered(_ newFocus: Surface, time: Timestamp) {
        guard newFocus.unchecked.isAttached else { return }
        unchecked.pointer.setFocus(newFocus)
        unchecked.pointer.forgetButtonsSeenByFocus()
        let local = pointerLocation(in: newFocus) ?? .zero
        unchecked.pointer.focusSurfaceLocation = local
        let crossing = PointerCrossingEvent(time: time, location: unchecked.pointer.location, surfaceLocation: local)
        newFocus.withResponder { $0.pointerEntered(crossing, context: ResponderContext(router: self, surface: newFocus, target: newFocus)) }
        trace?.record(.told(TraceSubject(newFocus), .pointerEntered))
    }

    func tellPointerLeft(_ surface: Surface, time: Timestamp) {
        let local = pointerLocation(in: surface) ?? .zero
        let crossing = PointerCrossingEvent(time: time, location: unchecked.pointer.location, surfaceLocation: local)
        surface.withResponder { $0.pointerLeft(crossing, context: ResponderContext(router: self, surface: surface, target: surface)) }
        trace?.record(.told(TraceSubject(surface), .pointerLeft))
    }

    /// The pointer focus left the layout: it hears a cancelled release of each held button
    /// (the implicit grab ends with it; the buttons' real releases are swallowed), then
    /// `pointerLeft`; focus then catches up with what is under the pointer.
    func pointerFocusWasRemoved(_ focus: Surface) {
        unchecked.pointer.focusGeneration &+= 1
        let generation = unchecked.pointer.focusGeneration
        unchecked.pointer.focus = nil
        trace?.record(.pointerFocus(from: TraceSubject(focus), to: .none))
        let time = clock.now
        if !unchecked.pointer.pressedButtons.isEmpty {
            tellCancelledButtons(to: focus, time: time)
            // Without a grab, the implicit grab ends with its surface: the real releases are
            // swallowed. Under a grab they are the grab's.
            if unchecked.pointer.grab == nil {
                unchecked.pointer.swallowEveryHeldRelease()
                gestures.endPointerArena(in: self)
            }
        }
        tellPointerLeft(focus, time: time)
        if generation == unchecked.pointer.focusGeneration { refreshPointerFocus(time: time) }
    }

    /// Keeps `buttonsSeenByFocus` as `event` is about to go up `surface`'s chain.
    func noteButtonDelivered(_ event: PointerButtonEvent, to surface: Surface?) {
        guard let surface, surface === unchecked.pointer.focus else { return }
        if event.state == .pressed {
            if unchecked.pointer.pressedButtons.scanContains(event.button), !unchecked.pointer.buttonsSeenByFocus.scanContains(event.button) {
                unchecked.pointer.buttonsSeenByFocus.append(event.button)
            }
        } else if let index = unchecked.pointer.buttonsSeenByFocus.scanIndex(of: event.button) {
            unchecked.pointer.buttonsSeenByFocus.remove(at: index)
        }
    }

    /// Checks pointer focus against the tree before a pointer event when the tree changed
    /// since the last check.
    @inline(__always)
    func catchUpPointerFocus(time: Timestamp) {
        if unchecked.pointer.checkedAtEdit != unchecked.treeEditCount && unchecked.pointer.pressedButtons.isEmpty && unchecked.pointer.grab == nil {
            followPointerFocus(time: time)
        }
    }

    /// The pointer position in the focus surface's space (zero without focus).
    @inline(__always)
    func pointerSurfaceLocation() -> SurfacePoint {
        // Unretained: nothing here calls out.
        guard let focus = unchecked.pointer.focusLink else { return .zero }
        if let carried = unchecked.pointer.carriedLocation(of: focus.identity, treeEditCount: unchecked.treeEditCount) { return carried }
        return focus.with { $0.convert(unchecked.pointer.location) } ?? .zero
    }

    /// The pointer position in `surface`'s space; `nil` when it is detached. Carried from the
    /// last pointer hit-test when that found `surface` and the tree and layout have not
    /// changed since (the hit-test computed the point on its way down); else found by a walk
    /// up the tree.
    @inline(__always)
    func pointerLocation(in surface: Surface) -> SurfacePoint? {
        if let carried = unchecked.pointer.carriedLocation(in: surface, treeEditCount: unchecked.treeEditCount) { return carried }
        return surface.convert(unchecked.pointer.location)
    }

    /// Keeps what a pointer hit-test at `location` found (the surface's origin, as the point
    /// minus the surface-local point), valid while the tree and layout stay as they were at
    /// `edit`, the edit count before the hit-test ran (its `refineHitTest` calls may have
    /// edited them already, which leaves it stale at once). Returns the surface.
    @inline(__always)
    func rememberPointerHit(_ hit: SurfaceHit?, at location: LayoutPoint, edit: UInt64) -> Surface? {
        guard let hit else { return nil }
        rememberPointerHit(identity: ObjectIdentifier(hit.surface), surfaceLocation: hit.location, at: location, edit: edit)
        return hit.surface
    }

    /// ``rememberPointerHit(_:at:edit:)`` for a pointer motion's hit (nothing is retained).
    @inline(__always)
    func rememberPointerHit(_ hit: PointerHit?, at location: LayoutPoint, edit: UInt64) {
        guard let hit else { return }
        rememberPointerHit(identity: hit.surface.identity, surfaceLocation: hit.location, at: location, edit: edit)
    }

    @inline(__always)
    func rememberPointerHit(identity: ObjectIdentifier, surfaceLocation: SurfacePoint, at location: LayoutPoint, edit: UInt64) {
        // The hit before: the focus this motion may leave is found there, without a walk up.
        unchecked.pointer.formerHitSurface = unchecked.pointer.hitSurface
        unchecked.pointer.formerHitOrigin = unchecked.pointer.hitOrigin
        unchecked.pointer.formerHitAtEdit = unchecked.pointer.hitAtEdit
        unchecked.pointer.hitAtEdit = edit
        // An identity only: valid while the count is, and a surface of the layout cannot go
        // away without an edit.
        unchecked.pointer.hitSurface = identity
        unchecked.pointer.hitOrigin = LayoutPoint(x: location.x - surfaceLocation.x, y: location.y - surfaceLocation.y)
    }

    func movePointer(to location: LayoutPoint, event: InputEvent, delta: Vector, unaccelerated: Vector) {
        unchecked.pointer.location = location
        if let grab = unchecked.pointer.grab {
            grab.pointerMoved(PointerMotionEvent(time: event.time, device: event.device, location: location,
                                                 surfaceLocation: pointerSurfaceLocation(), delta: delta,
                                                 unacceleratedDelta: unaccelerated), router: self)
            return
        }
        followPointer(time: event.time, device: event.device, delta: delta, unaccelerated: unaccelerated)
    }

    /// Routes pointer motion by the default rule, after filters and grabs: the pointer moves
    /// to `event.location` (layout space, kept on the layout), focus follows hit-testing
    /// unless a button is held, then recognizers and the focus's chain see it. What a
    /// ``PointerGrab`` calls to forward.
    public func routePointerMotion(_ event: PointerMotionEvent) {
        guard event.location.x.isFinite, event.location.y.isFinite else { return }
        unchecked.pointer.location = unchecked.layout.clamp(event.location)
        followPointer(time: event.time, device: event.device, delta: event.delta, unaccelerated: event.unacceleratedDelta)
    }

    private func followPointer(time: Timestamp, device: DeviceID, delta: Vector, unaccelerated: Vector) {
        let location = unchecked.pointer.location
        if unchecked.pointer.pressedButtons.isEmpty {
            let edit = unchecked.treeEditCount
            unchecked.pointer.checkedAtEdit = edit
            let generation = unchecked.pointer.focusGeneration
            let found = pointerHit(at: location, device: device, edit: edit)
            rememberPointerHit(found, at: location, edit: edit)
            if let trace {
                // Owned: the trace is called out to before the focus changes.
                let target = found?.surface.object
                trace.record(.hitTest(location, result: TraceSubject(target)))
                guard generation == unchecked.pointer.focusGeneration else { return }
                if target !== unchecked.pointer.focus { setPointerFocus(target, time: time) }
            } else {
                // A hit-test handler (refine) that started a grab or moved focus has decided: the
                // grab has the pointer from here on, and this motion goes no further.
                guard generation == unchecked.pointer.focusGeneration else { return }
                // Unretained until focus owns it (``setPointerFocus(_:time:)`` pins it first);
                // `found` keeps its owning reference, if it has one, until then.
                if !pointerHitIsFocus(found) { withExtendedLifetime(found) { setPointerFocus(unretained: found?.surface, time: time) } }
            }
        }
        let motion = PointerMotionEvent(time: time, device: device, location: location,
                                        surfaceLocation: pointerSurfaceLocation(), delta: delta,
                                        unacceleratedDelta: unaccelerated)
        unchecked.pointer.focusSurfaceLocation = motion.surfaceLocation
        if !gestures.pointerArena.unchecked.entries.isEmpty && gestures.deliverPointerMotionToRecognizers(in: self, motion) { return }
        // The focus, pinned for its ask rather than retained: while attached, a surface goes
        // only through its tree, which keeps a pinned one alive until it is unpinned
        // (UnsafeFoundations.swift, "Walking up the tree without owning each surface").
        guard let focusLink = unchecked.pointer.focusLink, focusLink.with({ $0.unchecked.isAttached }) else {
            let focus = unchecked.pointer.focus
            if walkChain(from: focus, target: focus, kind: .pointerMoved, reportingDrop: { self.reportDropped(.pointerMoved, .pointerMotion(motion), to: $0) }, { responder, context in
                responder.pointerMoved(motion, context: context)
            }) == false {
                reportDropped(.pointerMoved, .pointerMotion(motion))
            }
            return
        }
        focusLink.with { $0.pinForWalk() }
        // A walk that ends at the delegate reports the drop through the delegate it read.
        let handled = focusLink.with { walkPointerMotion(from: $0, motion) }
        Surface.unpinAfterWalk(focusLink)
        if !handled { reportDropped(.pointerMoved, .pointerMotion(motion)) }
    }

    /// A pointer motion's walk from `focus` (attached; pinned by the caller), with the
    /// drop reported through the delegate the walk read. Out of line, with the whole walk
    /// compiled in (``walkChain(from:target:kind:reportingDrop:inliningTheRest:_:)``): each
    /// link's responder is called directly, not through the ask's closure (about 20
    /// instructions a link; issue 25, eleventh round).
    /// The delegate, when the walk reaches it, is asked and told of the drop directly
    /// (``PointerMotionDelegateStep``), not through the closures.
    @inline(never)
    func walkPointerMotion(from focus: Surface, _ motion: PointerMotionEvent) -> Bool {
        walkChain(from: focus, target: focus, kind: .pointerMoved,
                  reportingDrop: { self.reportDropped(.pointerMoved, .pointerMotion(motion), to: $0) },
                  delegateStep: PointerMotionDelegateStep(motion: motion)) { responder, context in
            responder.pointerMoved(motion, context: context)
        }
    }

    /// Whether `hit` found the pointer focus (by identity; neither is touched).
    @inline(__always)
    func pointerHitIsFocus(_ hit: PointerHit?) -> Bool {
        guard let hit else { return unchecked.pointer.focusLink == nil }
        guard let focusLink = unchecked.pointer.focusLink else { return false }
        return hit.surface.refers(toSameAs: focusLink)
    }

    /// What a pointer motion's hit-test found: the surface unretained (rule 7 of
    /// ``Unretained``: in the tree while the router's edit count is the one the hit-test began
    /// at and nothing was called out since), the point in its space, and an owning reference
    /// when that rule does not hold (a handler edited the tree during the hit-test, or the
    /// subtree was hit-tested level by level).
    struct PointerHit {
        let surface: Unretained<Surface>
        let location: SurfacePoint
        let keeper: Surface?
    }

    /// ``hit(at:device:)`` for pointer motion, with no reference counting when the hit-test
    /// edits nothing: the output is read unretained from the layout (nothing is called out
    /// before its root is pinned), its root pinned rather than retained for the walk down
    /// (a `refineHitTest` may take the output out of the layout, and the root's pin keeps it
    /// until the hit-test is over), and the surface found handed out unretained (``PointerHit``).
    /// `edit`: the router's edit count before the hit-test. Layout space.
    @inline(__always)
    func pointerHit(at point: LayoutPoint, device: DeviceID, edit: UInt64) -> PointerHit? {
        if !unchecked.deviceOutputs.isEmpty { return pointerHitOnMappedOutput(at: point, device: device) }
        return withRootPinned(under: point) { root, local -> PointerHit? in
            var result: PointerHit?
            if let found = root.hitTestLocatingUnretained(local) {
                // An edit under way: the tree may no longer own the surface.
                let keeper = found.keeper ?? (unchecked.treeEditCount != edit ? found.surface.object : nil)
                result = PointerHit(surface: found.surface, location: found.location, keeper: keeper)
            }
            root.releaseFinishedFlatTablesAfterHit()
            return result
        }
    }

    /// A pointer mapped to an output (rare): the owning hit-test.
    @inline(never)
    func pointerHitOnMappedOutput(at point: LayoutPoint, device: DeviceID) -> PointerHit? {
        guard let hit = hit(at: point, device: device) else { return nil }
        return PointerHit(surface: Unretained(hit.surface), location: hit.location, keeper: hit.surface)
    }

    func pointerButton(_ event: InputEvent, button: UInt32, state: ButtonState) {
        if state == .released, let index = unchecked.pointer.consumedButtons.scanIndex(of: button) {
            unchecked.pointer.consumedButtons.remove(at: index)
            trace?.record(.followedConsumed(event))
            observe(event, consumed: true)
            return
        }
        if state == .released && unchecked.pointer.pressedButtons.scanContains(button) {
            // The release of a delivered press follows it: filters see it but cannot take it
            // and leave the button stuck.
            if unchecked.filterList.asks(.pointerButtons) { _ = askFilters(event, kind: .pointerButtons) }
            observe(event, consumed: false)
        } else if runFilters(event, kind: .pointerButtons) {
            if state == .pressed { unchecked.pointer.consumedButtons.append(button) }
            return
        }
        catchUpPointerFocus(time: event.time)
        if state == .pressed {
            unchecked.pointer.hold(button)
        } else {
            unchecked.pointer.letGo(of: button)
        }
        let buttonEvent = PointerButtonEvent(time: event.time, device: event.device, button: button, state: state,
                                             location: unchecked.pointer.location, surfaceLocation: pointerSurfaceLocation())
        if let grab = unchecked.pointer.grab {
            // While the grab has the release, `buttonsSeenByFocus` still says whether the focus
            // saw the press (a grab delivers the release only then); then it is up for good.
            grab.pointerButton(buttonEvent, router: self)
            if state == .released, !unchecked.pointer.buttonsSeenByFocus.isEmpty, let index = unchecked.pointer.buttonsSeenByFocus.scanIndex(of: button) {
                unchecked.pointer.buttonsSeenByFocus.remove(at: index)
            }
            return
        }
        routePointerButton(buttonEvent)
    }

    /// Routes a button by the default rule, after filters and grabs (``heldButtons`` already
    /// counts it): the press that starts the implicit grab opens the pointer recognizers'
    /// arena, recognizers and the focus's chain see it, and the last release ends the
    /// implicit grab (focus catches up with the pointer). What a ``PointerGrab`` calls to
    /// forward. Delivered as given: `location` and `surfaceLocation` are not recomputed (an
    /// event the router handed the grab already has the focus's), and ``heldButtons`` is not
    /// changed (only an injected button changes it).
    public func routePointerButton(_ event: PointerButtonEvent) {
        let focus = unchecked.pointer.focus
        if event.state == .pressed && unchecked.pointer.pressedButtons.count == 1 { gestures.beginPointerArena(in: self, focus: focus) }
        if gestures.pointerArena.unchecked.entries.isEmpty || !gestures.deliverPointerButtonToRecognizers(in: self, event) {
            // Noted before the walk: a handler may remove the focus or start a grab from
            // inside it, and the focus is owed that press's release.
            noteButtonDelivered(event, to: focus)
            if walkChain(from: focus, target: focus, kind: .pointerButton, { responder, context in
                responder.pointerButton(event, context: context)
            }) == false {
                reportDropped(.pointerButton, .pointerButton(event))
            }
            if event.state == .pressed { gestures.unchecked.pointerPressSeenByResponders = true }
        }
        // The implicit grab ends with the last release: focus catches up with the pointer.
        if event.state == .released && unchecked.pointer.pressedButtons.isEmpty {
            gestures.endPointerArena(in: self, sweep: true)
            followPointerFocus(time: event.time)
        }
    }

    func pointerAxis(_ event: InputEvent, motion: AxisMotion) {
        catchUpPointerFocus(time: event.time)
        let axis = PointerAxisEvent(time: event.time, device: event.device, motion: motion,
                                    location: unchecked.pointer.location, surfaceLocation: pointerSurfaceLocation())
        if let grab = unchecked.pointer.grab {
            grab.pointerAxis(axis, router: self)
            return
        }
        routePointerAxis(axis)
    }

    /// Routes scrolling by the default rule, after filters and grabs: up the focus's chain (no
    /// recognizers). Delivered as given: `location` and `surfaceLocation` are not recomputed.
    public func routePointerAxis(_ axis: PointerAxisEvent) {
        let focus = unchecked.pointer.focus
        if walkChain(from: focus, target: focus, kind: .pointerAxis, { responder, context in
            responder.pointerAxis(axis, context: context)
        }) == false {
            reportDropped(.pointerAxis, .pointerAxis(axis))
        }
    }

    func touchpadGesture(_ event: InputEvent, gesture: TouchpadGesture) {
        catchUpPointerFocus(time: event.time)
        let gestureEvent = TouchpadGestureEvent(time: event.time, device: event.device, gesture: gesture,
                                                location: unchecked.pointer.location, surfaceLocation: pointerSurfaceLocation())
        if let grab = unchecked.pointer.grab {
            grab.touchpadGesture(gestureEvent, router: self)
            return
        }
        routeTouchpadGesture(gestureEvent)
    }

    /// Routes a touchpad gesture by the default rule, after filters and grabs: the touchpad
    /// recognizers of the focus's subtree and output, then the focus's chain. Delivered as
    /// given: `location` and `surfaceLocation` are not recomputed.
    public func routeTouchpadGesture(_ gestureEvent: TouchpadGestureEvent) {
        let focus = unchecked.pointer.focus
        if gestures.deliverTouchpadGestureToRecognizers(in: self, gestureEvent, focus: focus) { return }
        gestures.noteTouchpadGestureDelivered()
        if walkChain(from: focus, target: focus, kind: .touchpadGesture, { responder, context in
            responder.touchpadGesture(gestureEvent, context: context)
        }) == false {
            reportDropped(.touchpadGesture, .touchpadGesture(gestureEvent))
        }
    }
}

/// A pointer motion's delegate step: ``Router/askDelegate(_:pointerMotion:target:)``, the same
/// as the closures' (`pointerMoved`, then the drop reported while the delegate is still the one
/// the walk read), with no call through a closure.
struct PointerMotionDelegateStep: WalkDelegateStep {
    let motion: PointerMotionEvent
    /// The motion's walk goes from the root to its output unretained.
    static var followsOutputUnretained: Bool { true }

    /// The link walk compiled in, with this step at the delegate.
    @inline(__always)
    func walk(on link: consuming ChainLink, in router: Router, target: Surface?, kind: RoutedEventKind,
              formerOutput: Unretained<Output>?, steps: Int, stopIf shouldStop: () -> Bool,
              reportingDrop: (any CompositorDelegate) -> Bool,
              _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        router.walkChain(on: link, target: target, kind: kind, formerOutput: formerOutput, steps: steps, stopIf: shouldStop,
                         reportingDrop: reportingDrop, delegateStep: self, ask)
    }

    @inline(__always)
    func ask(_ delegate: any CompositorDelegate, in router: Router, target: Surface?, kind: RoutedEventKind,
             reportingDrop: (any CompositorDelegate) -> Bool,
             _ ask: (any Responder, ResponderContext) -> ResponderResult) -> ChainLink?? {
        router.askDelegate(delegate, pointerMotion: motion, target: target)
    }
}
