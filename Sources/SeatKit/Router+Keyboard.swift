extension Router {
    // MARK: Keys

    /// Routes a key from ``inject(_:)``. A press gets a ``HeldKey`` record before anyone sees
    /// it, saying where it went (filter, grab, the first responder's chain); its release goes
    /// there and nowhere else, so no press lacks its release and no release lacks its press:
    /// - taken by a filter or by the first responder's own key command: the release is
    ///   swallowed here (spies hear it consumed);
    /// - otherwise the release passes filters (which cannot take it) and spies, then reaches
    ///   the keyboard grab if one is active (a grab sees every release), else ``deliverKey(_:)``,
    ///   which delivers it only if the first responder's chain saw the press and has not
    ///   heard a release of it yet.
    /// A release of a key that is not held (no press came) is ignored and traced.
    @inline(__always)
    func key(_ event: InputEvent, keycode: UInt32, state: KeyState) {
        key(RawKey(time: event.time, device: event.device, keycode: keycode, state: state))
    }

    /// ``key(_:keycode:state:)`` from the key's parts: the event is made again
    /// (``RawKey/event``) only for whoever looks at it (filters, spies, a trace). Passed
    /// along, the event was copied to the stack twice per key on its way to the filters.
    func key(_ raw: RawKey) {
        let keycode = raw.keycode, state = raw.state
        var keyEvent = KeyEvent(time: raw.time, device: raw.device, keycode: keycode, state: state)
        // The interpreter sees every key, consumed or not, so modifiers never drift; but not
        // the rest of a key whose press a filter that discards taken presses took: it heard
        // that press released at once (``releaseTakenPressFromInterpreter(_:at:)``), so a
        // press slow or bounce keys drop never reaches the keyboard's state.
        if let interpreterCall = unchecked.keyboard.interpreterCallLink, !isHiddenFromInterpreter(keycode) {
            unchecked.keyboard.formerInterpreterCalls.enter()
            interpreterCall.with { $0.interpret(&keyEvent) }
            if unchecked.keyboard.formerInterpreterCalls.leave() { _ = unchecked.keyboard.formerInterpreterCalls.takeKept() }
        }
        switch state {
        case .pressed:
            // A press of a key already held (no release between: not from a real keyboard, but
            // injected) keeps the record of the first press, so that the release owed to whoever
            // saw it is not lost; it is routed as a repeat would be.
            if let index = heldKeyIndex(keycode) {
                if unchecked.keyboard.heldKeys[index].press == .taken { return followTaken(raw) }
                routeKey(raw, keyEvent, record: false)
            } else {
                // Recorded before any filter runs: a filter that moves focus (Alt+Tab) makes an
                // enter that does not list this key, whatever the filter then decides.
                unchecked.keyboard.heldKeys.append(HeldKey(keycode: keycode, press: .routing))
                routeKey(raw, keyEvent, record: true)
            }
        case .repeated:
            if unchecked.keyboard.isHeld(keycode, pressWentTo: .taken) { return followTaken(raw) }
            routeKey(raw, keyEvent, record: false)
        case .released:
            guard let index = heldKeyIndex(keycode) else { return ignoreKey(raw, "release of a key not held") }
            // No longer held from here on (not listed by an enter a handler causes), but the
            // record says where the press went until the release has been routed.
            unchecked.keyboard.heldKeys[index].isReleased = true
            if unchecked.keyboard.heldKeys[index].press == .taken {
                removeReleasedKey(keycode)
                return followTaken(raw)
            }
            routeKey(raw, keyEvent, record: false)
            // A grab that got the release and did not forward it: the first responder that
            // saw the press still hears a release (made up: the grab took the real one).
            guard let after = releasedKeyIndex(keycode) else { return }
            let press = unchecked.keyboard.heldKeys[after].press
            unchecked.keyboard.removeRecord(at: after)
            if case .focus = press, let focus = unchecked.keyboard.firstResponder {
                tellCancelledKey(keycode, to: focus, keepsFocus: true)
            }
        }
    }

    /// A key from its parts, routed as ``inject(_:)`` routes a key: what a backend in another
    /// module calls for its keys (SeatKitLibinput). The event is made here, where its kind is
    /// known: made in the backend and handed to the inlined `inject`, it was copied and
    /// destroyed through the event's outlined value witnesses (~140 instructions a key,
    /// issue 25, twelfth round).
    package func injectKey(at time: Timestamp, device: DeviceID, keycode: UInt32, state: KeyState) {
        let raw = RawKey(time: time, device: device, keycode: keycode, state: state)
        if trace != nil { traceReceived(raw.event) }
        key(raw)
    }

    /// The rest of a key whose press was taken: swallowed, and spies hear it consumed.
    @inline(never)
    private func followTaken(_ raw: RawKey) {
        // The event only for a trace or spies (a bounce's or a slow key's swallowed release
        // with neither makes none).
        trace?.record(.followedConsumed(raw.event))
        if !unchecked.spyList.isEmpty { observe(raw.event, consumed: true) }
    }

    /// A release of a key not held: ignored, traced. Out of line: rare.
    @inline(never)
    private func ignoreKey(_ raw: RawKey, _ reason: String) {
        ignore(raw.event, reason)
    }

    /// Filters, spies, then the grab or the default rule. `record`: the event is the press
    /// that created the last ``HeldKey`` record of its key, which this marks as it goes.
    private func routeKey(_ raw: RawKey, _ keyEvent: KeyEvent, record: Bool) {
        // Most seats have no filter and no spy of keys: skip even loading the lists.
        // Filters that are off are not in the asked lists (FilterRoster).
        let asked: FilterInterests = keyEvent.state == .released ? .keyReleases : .keysAndInterpretedKeys
        if unchecked.filterList.asks(asked) || unchecked.spyList.wants(.key) {
            return routeKeyThroughFilters(raw, keyEvent, record: record)
        }
        routeUnfilteredKey(keyEvent, record: record)
    }

    /// ``routeKey(_:_:record:)`` with filters or spies: out of line, so that the key with
    /// neither keeps its code, and the lone filter of a class is asked inline here
    /// (``askRawKeyFilters(_:kind:lone:)``) without a further call to an asking. A key the
    /// filters passed, with no modifiers changed, no trace and no spy goes straight on to the
    /// grab or the default rule; the rest is ``finishFilteredKey(_:_:consumedBy:record:)``.
    /// The key's ``InputEvent`` is made only for whoever needs it (a filter that takes no
    /// parts, spies, a trace, a taken key): made here for every key, it was destroyed through
    /// its outlined value witnesses (~45 instructions a key, issue 28), which the key with no
    /// filter does not pay.
    @inline(never)
    private func routeKeyThroughFilters(_ raw: RawKey, _ keyEvent: KeyEvent, record: Bool) {
        let released = keyEvent.state == .released
        // Each filter is asked about the raw event, then about the interpreted key
        // (presses and repeats); spies hear once, with the verdict.
        unchecked.keyboard.filterDepth &+= 1
        // (Raw releases are a class of their own: a filter acting on presses as
        // interpreted and on releases raw is asked once per key.)
        // (One branch per class, so that each asks its lone filter with the class known.)
        let consumedBy: Int?
        if released {
            // A release follows its press, which was not taken (a taken one's release was
            // swallowed before): a filter cannot take it and leave the key stuck.
            _ = askRawKeyFilters(raw, kind: .keyReleases, lone: unchecked.filterList.loneRawKeyFilter(released: true))
            consumedBy = nil
        } else {
            consumedBy = askRawKeyFilters(raw, kind: .keys, lone: unchecked.filterList.loneRawKeyFilter(released: false))
                ?? askInterpretedKeyFilters(keyEvent)
        }
        unchecked.keyboard.filterDepth &-= 1
        if consumedBy == nil, unchecked.keyboard.filteredModifierMasks == nil, trace == nil {
            // Passed, modifiers unchanged, no trace: spies hear it (a compositor's idle spy),
            // then the grab or the default rule, without `finishFilteredKey`'s call, which
            // read the whole event for its rare paths first (~45 instructions a key, issue
            // 25, twelfth round).
            if unchecked.spyList.wants(.key) { tellKeySpies(raw.event, consumed: false) }
            return routeUnfilteredKey(keyEvent, record: record)
        }
        finishFilteredKey(raw, keyEvent, consumedBy: consumedBy, record: record)
    }

    /// The rest of ``routeKeyThroughFilters(_:_:record:)`` for a key a filter took or changed
    /// the modifiers of, or with a trace or spies: out of line, so that the event is not
    /// copied for it on the way of a key the filters passed.
    @inline(never)
    private func finishFilteredKey(_ raw: RawKey, _ keyEvent: KeyEvent, consumedBy: Int?, record: Bool) {
        if let masks = unchecked.keyboard.filteredModifierMasks {
            // A filter changed the modifiers (sticky keys): the key carries them to
            // whoever gets it, after it, as `wl_keyboard.modifiers` follows a key.
            unchecked.keyboard.filteredModifierMasks = nil
            let announce = unchecked.keyboard.announceModifiers
            unchecked.keyboard.announceModifiers = nil
            if consumedBy == nil {
                var changed = keyEvent
                changed.modifierMasks = masks
                return routeFilteredKey(raw, changed, record: record)
            }
            announce?(masks)
        }
        // The event only for a trace or spies (a taken key with neither makes none).
        if let consumedBy { trace?.record(.consumed(raw.event, filter: consumedBy)) }
        if unchecked.spyList.wants(.key) { observe(raw.event, consumed: consumedBy != nil) }
        if let consumedBy {
            // Only a taken press takes the rest of the key: a filter that takes a repeat
            // of a key whose press was delivered leaves its release to the client.
            if record, let index = heldKeyIndex(keyEvent.keycode), unchecked.keyboard.heldKeys[index].press == .routing {
                unchecked.keyboard.heldKeys[index].press = .taken
                if filterDiscardsTakenKeyPresses(at: consumedBy) { releaseTakenPressFromInterpreter(keyEvent, at: index) }
            }
            return
        }
        routeUnfilteredKey(keyEvent, record: record)
    }

    /// The rest of ``routeKey(_:_:record:)`` for a key a filter changed the modifiers of:
    /// spies, then the grab or the default rule. Out of line: rare.
    @inline(never)
    private func routeFilteredKey(_ raw: RawKey, _ keyEvent: KeyEvent, record: Bool) {
        if !unchecked.spyList.isEmpty { observe(raw.event, consumed: false) }
        routeUnfilteredKey(keyEvent, record: record)
    }

    /// The grab or the default rule, after filters and spies.
    @inline(__always)
    private func routeUnfilteredKey(_ keyEvent: KeyEvent, record: Bool) {
        let keycode = keyEvent.keycode
        if let grab = unchecked.keyboard.grab {
            // The grab has the press unless it forwards it (``deliverKey(_:)`` then marks it).
            if record, let index = heldKeyIndex(keycode), unchecked.keyboard.heldKeys[index].press == .routing {
                unchecked.keyboard.heldKeys[index].press = .grabbed
            }
            grab.key(keyEvent, router: self)
            return
        }
        deliverKey(keyEvent)
    }

    /// Whether a keyboard grab is active: ``keyboardGrab`` `!= nil` without loading the grab
    /// (an existential: a retain and a release per question).
    package var hasKeyboardGrab: Bool { unchecked.keyboard.grab != nil }

    /// The record of `keycode` while it is held (not the one of a release under way).
    @inline(__always)
    func heldKeyIndex(_ keycode: UInt32) -> Int? {
        unchecked.keyboard.heldIndex(of: keycode)
    }

    /// The record of `keycode` whose release is being routed.
    @inline(__always)
    private func releasedKeyIndex(_ keycode: UInt32) -> Int? {
        unchecked.keyboard.releasedIndex(of: keycode)
    }

    /// True when `keycode` is held and its press, taken by a filter, was released to the key
    /// interpreter: the interpreter hears nothing more of the key until a filter routes the
    /// press (``routeTakenPress(_:after:)``).
    @inline(__always)
    private func isHiddenFromInterpreter(_ keycode: UInt32) -> Bool {
        guard let index = unchecked.keyboard.heldKeys.scanIndex(where: { $0.keycode == keycode }) else { return false }
        return unchecked.keyboard.heldKeys[index].hiddenFromInterpreter
    }

    /// A filter that discards taken presses (``InputFilter/discardsTakenKeyPresses``) took the
    /// press of the held key at `index`: the interpreter, which updated its
    /// state with the press before any filter ran, hears the key released, so the press leaves
    /// no trace in the keyboard's state (modifiers, key repeat) while it waits or once it is
    /// dropped. Out of line: rare.
    @inline(never)
    private func releaseTakenPressFromInterpreter(_ keyEvent: KeyEvent, at index: Int) {
        guard let interpreterCall = unchecked.keyboard.interpreterCallLink else { return }
        unchecked.keyboard.heldKeys[index].hiddenFromInterpreter = true
        unchecked.keyboard.formerInterpreterCalls.enter()
        interpreterCall.with { $0.discardPress(keyEvent) }
        if unchecked.keyboard.formerInterpreterCalls.leave() { _ = unchecked.keyboard.formerInterpreterCalls.takeKept() }
    }

    /// A filter routes the taken press at `index` (slow keys accepted it): the interpreter,
    /// which heard it released when it was taken, hears it pressed now, and `keyEvent` gets
    /// the keysym, text and modifiers of this moment.
    @inline(never)
    private func pressTakenKeyAgainInInterpreter(_ keyEvent: inout KeyEvent, at index: Int) {
        unchecked.keyboard.heldKeys[index].hiddenFromInterpreter = false
        guard let interpreterCall = unchecked.keyboard.interpreterCallLink else { return }
        unchecked.keyboard.formerInterpreterCalls.enter()
        interpreterCall.with { $0.restorePress(&keyEvent) }
        if unchecked.keyboard.formerInterpreterCalls.leave() { _ = unchecked.keyboard.formerInterpreterCalls.takeKept() }
    }

    private func removeReleasedKey(_ keycode: UInt32) {
        if let index = releasedKeyIndex(keycode) { unchecked.keyboard.removeRecord(at: index) }
    }

    /// Keys held now whose presses the first responder's chain saw and whose releases it has
    /// not heard: what a focus change reports as held (`wl_keyboard.enter` lists these), and
    /// whose releases then go to the new first responder. Keys taken by a filter, a key
    /// command or a grab, keys whose press is still being routed, and keys the first
    /// responder was told a cancelled release of are not listed.
    public var heldKeysForFocus: [UInt32] { unchecked.keyboard.keysForFocus }

    /// Routes a key by the default rule, after filters and grabs: to the first responder
    /// (the delegate without one) and up its chain, matching key commands on the way. The
    /// keyboard state is the caller's business. What a ``KeyboardGrab`` calls to forward, and
    /// what key repeat generators call (repeats skip filters, spies and grabs). The event is
    /// delivered as given: the interpreter is not asked again.
    ///
    /// Pairing holds whoever calls this: for a key held now (injected), a press marks the key
    /// as seen by the first responder's chain; a release or a repeat is delivered only if that
    /// chain saw the press and has not heard its release yet (a second forward of one release,
    /// the release of a key a grab or a filter took, or of a key the first responder was told
    /// a cancelled release of, goes nowhere). A key command that takes a press after
    /// responders below it saw the keyDown: those responders, and only those, hear the keyUp.
    /// Keys that are not held (typed by an action) are delivered as given.
    public func deliverKey(_ keyEvent: KeyEvent) {
        // A first responder whose surface is leaving the tree (a handler of its removal typed)
        // is no first responder: the walk starts at the delegate (as for any detached surface),
        // and such a press is the delegate's alone.
        let focus = unchecked.keyboard.firstResponderLink
        let focusIsLeaving = focus?.with { !$0.unchecked.isAttached } ?? false
        var toDelegate = focus == nil || focusIsLeaving
        var depth = 0
        switch keyEvent.state {
        case .pressed:
            if let index = heldKeyIndex(keyEvent.keycode) {
                // Marked before the walk: a handler that removes the first responder or starts
                // a grab owes it the release of this press.
                unchecked.keyboard.heldKeys[index].press = focusIsLeaving ? .delegate : .focus(depth: 0)
            }
        case .repeated:
            // Repeats go only where the whole press went (not to a key command's action).
            if let index = heldKeyIndex(keyEvent.keycode), unchecked.keyboard.heldKeys[index].press != .focus(depth: 0) { return }
        case .released:
            if let index = releasedKeyIndex(keyEvent.keycode) ?? heldKeyIndex(keyEvent.keycode) {
                switch unchecked.keyboard.heldKeys[index].press {
                case .focus(let limit): depth = limit
                case .delegate: toDelegate = true
                default:
                    trace?.record(.dropped(.keyUp))
                    return
                }
                unchecked.keyboard.heldKeys[index].press = .ended
            }
        }
        guard !toDelegate, let focus else {
            deliverKey(keyEvent, depth: depth, walking: {
                walkChain(on: .delegate, target: nil, kind: $0, formerOutput: nil, steps: 0, stopIf: $1, $2)
            })
            return
        }
        // The first responder is owned by `firstResponder`; one replaced during the delivery
        // is kept until it ends (see `firstResponder`), so the delivery need not retain it.
        unchecked.keyboard.formerFirstResponders.enter()
        focus.with { surface in
            deliverKey(keyEvent, depth: depth, walking: { walkChain(from: surface, target: surface, kind: $0, stopIf: $1, $2) })
        }
        if unchecked.keyboard.formerFirstResponders.leave() { _ = unchecked.keyboard.formerFirstResponders.takeKept() }
    }

    /// Delivers a key down or up through `walk`, which walks the chain for an event kind
    /// (stopping when asked). `depth`: for a release, how many responders saw the press (0:
    /// all that are asked).
    @inline(__always)
    private func deliverKey(_ keyEvent: KeyEvent, depth: Int,
                            walking walk: (RoutedEventKind, () -> Bool, (any Responder, ResponderContext) -> ResponderResult) -> Bool) {
        // Router fields, not captured locals: a captured var is checked for exclusivity at
        // run time on every key. Saved and restored, and read only after the walk returns,
        // because a handler may deliver other keys through here.
        let outerAsked = unchecked.keyboard.chainAsked
        let outerLimit = unchecked.keyboard.chainLimit
        let outerMatched = unchecked.keyboard.commandDepth
        unchecked.keyboard.chainAsked = 0
        unchecked.keyboard.chainLimit = depth
        defer {
            unchecked.keyboard.chainAsked = outerAsked
            unchecked.keyboard.chainLimit = outerLimit
        }
        if keyEvent.state == .released {
            let delivered = walk(.keyUp, { self.unchecked.keyboard.chainLimit > 0 && self.unchecked.keyboard.chainAsked >= self.unchecked.keyboard.chainLimit }) { responder, context in
                self.unchecked.keyboard.chainAsked += 1
                return responder.keyUp(keyEvent, context: context)
            }
            if !delivered, depth == 0 { reportDropped(.keyUp, .keyUp(keyEvent)) }
            return
        }
        unchecked.keyboard.commandDepth = -1
        let handled = walk(.keyDown, { false }) { responder, context in
            let commands = responder.keyCommands
            if !commands.isEmpty, let index = commands.scanIndex(where: { $0.matches(keyEvent) }) {
                let action = commands[index].action
                trace?.record(.keyCommand(TraceSubject(context.link), action))
                // The responders asked before this one saw the keyDown; this one did not.
                unchecked.keyboard.commandDepth = unchecked.keyboard.chainAsked
                responder.perform(action, context: context)
                return .handled
            }
            unchecked.keyboard.chainAsked += 1
            return responder.keyDown(keyEvent, context: context)
        }
        let matchedAt = unchecked.keyboard.commandDepth
        unchecked.keyboard.commandDepth = outerMatched
        if matchedAt >= 0, keyEvent.state == .pressed, let index = heldKeyIndex(keyEvent.keycode),
           unchecked.keyboard.heldKeys[index].press == .focus(depth: 0) {
            // Nobody saw it: taken whole. Else those who saw the keyDown hear the keyUp.
            unchecked.keyboard.heldKeys[index].press = matchedAt == 0 ? .taken : .focus(depth: matchedAt)
        }
        if !handled { reportDropped(.keyDown, .keyDown(keyEvent)) }
    }

    // MARK: First responder

    /// Makes `surface`'s responder the first responder: keys go to it first. Fails (returns
    /// false) when the surface is not attached (removed, or on an output that is not in the
    /// layout), its responder cannot become first responder, or the current first responder
    /// refuses to resign. The old one gets `didResignFirstResponder`, then the new one
    /// `didBecomeFirstResponder`; the two always pair, whatever their handlers do (a resign
    /// handler that moves focus itself decides where it goes, and this call returns false).
    /// No filter, spy, grab or recognizer is involved; under a keyboard grab the first
    /// responder changes all the same, and gets keys when the grab ends.
    @discardableResult
    public func becomeFirstResponder(_ surface: Surface) -> Bool {
        if surface === unchecked.keyboard.firstResponder { return true }
        guard surface.unchecked.isAttached, surface.responder.canBecomeFirstResponder else { return false }
        return moveFirstResponder(to: surface)
    }

    /// Clears the first responder, if it agrees to resign (returns false if not). Keys then
    /// go to the delegate. No filter, spy or grab is involved.
    @discardableResult
    public func resignFirstResponder() -> Bool {
        guard unchecked.keyboard.firstResponder != nil else { return true }
        return moveFirstResponder(to: nil)
    }

    private func moveFirstResponder(to surface: Surface?) -> Bool {
        let old = unchecked.keyboard.firstResponder
        if let old, old.unchecked.isAttached, !old.responder.canResignFirstResponder { return false }
        unchecked.keyboard.focusGeneration &+= 1
        let generation = unchecked.keyboard.focusGeneration
        trace?.record(.keyboardFocus(from: TraceSubject(old), to: TraceSubject(surface)))
        if let old {
            unchecked.keyboard.firstResponder = nil
            rememberFocus(old)
            // Resigning while its surface leaves the tree (a handler of the removal moved
            // focus first): the removal's cancelled releases are owed all the same.
            if !old.unchecked.isAttached { tellCancelledKeys(to: old, keepsFocus: false) }
            old.responder.didResignFirstResponder(context: ResponderContext(router: self, link: .surface(old), target: old))
            guard generation == unchecked.keyboard.focusGeneration else { return surface != nil && unchecked.keyboard.firstResponder === surface }
        }
        guard let surface else { return true }
        // The resign handler may have removed it or changed its responder.
        guard surface.unchecked.isAttached, surface.responder.canBecomeFirstResponder else { return false }
        unchecked.keyboard.firstResponder = surface
        surface.responder.didBecomeFirstResponder(context: ResponderContext(router: self, link: .surface(surface), target: surface))
        return true
    }

    /// A keyboard grab that clears focus began: the first responder hears a cancelled
    /// release of each held key its chain saw pressed, then resigns, whether or not it agrees
    /// (a lock screen does not ask); it is remembered, so the grab's end gives focus back.
    func clearFirstResponderForGrab() {
        guard let old = unchecked.keyboard.firstResponder else { return }
        unchecked.keyboard.focusGeneration &+= 1
        trace?.record(.keyboardFocus(from: TraceSubject(old), to: .none))
        unchecked.keyboard.firstResponder = nil
        rememberFocus(old)
        tellCancelledKeys(to: old, keepsFocus: false)
        old.responder.didResignFirstResponder(context: ResponderContext(router: self, link: .surface(old), target: old))
    }

    /// Keeps `surface` as the most recent former first responder (once).
    func rememberFocus(_ surface: Surface) {
        unchecked.keyboard.remember(surface)
    }

    /// The most recent former first responder that can take focus again.
    func previousFocus() -> Surface? {
        while let last = unchecked.keyboard.history.popLast() {
            if let s = last.surface, s.unchecked.isAttached, s.responder.canBecomeFirstResponder { return s }
        }
        return nil
    }

    /// The first responder left the layout: it hears a cancelled release of each held key
    /// whose press its chain saw (their real releases go nowhere), then
    /// `didResignFirstResponder`. Focus then goes where the delegate's rule says
    /// (``CompositorDelegate/router(_:firstResponderAfterRemoving:formerParent:)``, asked
    /// first; its default, and the rule without a delegate, is
    /// ``defaultFirstResponder(afterRemoving:formerParent:)``), unless a handler chose a
    /// focus meanwhile.
    func firstResponderWasRemoved(_ removed: Surface, formerParent: Surface) {
        unchecked.keyboard.focusGeneration &+= 1
        let generation = unchecked.keyboard.focusGeneration
        unchecked.keyboard.firstResponder = nil
        tellCancelledKeys(to: removed, keepsFocus: false)
        removed.responder.didResignFirstResponder(context: ResponderContext(router: self, link: .surface(removed), target: removed))
        guard generation == unchecked.keyboard.focusGeneration, unchecked.keyboard.firstResponder == nil else { return }
        let replacement: Surface?
        if let delegate {
            replacement = delegate.router(self, firstResponderAfterRemoving: removed, formerParent: formerParent)
        } else {
            replacement = defaultFirstResponder(afterRemoving: removed, formerParent: formerParent)
        }
        guard generation == unchecked.keyboard.focusGeneration, unchecked.keyboard.firstResponder == nil else { return }
        trace?.record(.keyboardFocus(from: TraceSubject(removed), to: TraceSubject(replacement)))
        if let replacement { becomeFirstResponder(replacement) }
    }

    /// Where keyboard focus goes by default when the first responder's surface is removed:
    /// back to the most recent former first responder that is still in the layout and can
    /// become first responder (focus history: the surfaces that resigned, most recent
    /// first, at most 32), else the nearest attached surface from `formerParent` up that can
    /// (``nearestAncestorThatCanBecomeFirstResponder(startingAt:)``). What the delegate's
    /// ``CompositorDelegate/router(_:firstResponderAfterRemoving:formerParent:)`` returns
    /// when not implemented, and what a compositor's own rule can fall back on. Former first
    /// responders passed over (removed, or unable to take focus) are forgotten. Moves no
    /// focus itself.
    public func defaultFirstResponder(afterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        previousFocus() ?? nearestAncestorThatCanBecomeFirstResponder(startingAt: formerParent)
    }

    /// The nearest attached surface, from `surface` up through its ancestors, whose
    /// responder can become first responder: the default focus rule's fallback after a
    /// removal, when no former first responder can take focus again.
    public func nearestAncestorThatCanBecomeFirstResponder(startingAt surface: Surface) -> Surface? {
        var node: Surface? = surface
        while let current = node {
            if current.unchecked.isAttached, current.responder.canBecomeFirstResponder { return current }
            node = current.parent
        }
        return nil
    }

    // MARK: Actions

    /// Sends a named action. With a target, straight to that surface's responder; without
    /// one, up the chain from the first responder (the delegate when there is none) to the
    /// first responder that can perform it, as UIKit's `sendAction` with a nil target.
    /// Returns whether someone performed it; otherwise the delegate is told it was dropped.
    /// Not an input event: no filter, spy, grab or recognizer sees it, and under a keyboard
    /// grab it still goes to the first responder's chain.
    @discardableResult
    public func sendAction(_ action: Action, to target: Surface? = nil) -> Bool {
        if let target {
            guard target.unchecked.isAttached, target.responder.canPerform(action) else {
                reportDropped(.action, .action(action))
                return false
            }
            target.responder.perform(action, context: ResponderContext(router: self, link: .surface(target), target: target))
            trace?.record(.asked(TraceSubject(target), .action, .handled))
            return true
        }
        let focus = unchecked.keyboard.firstResponder
        let handled = walkChain(from: focus, target: focus, kind: .action) { responder, context in
            guard responder.canPerform(action) else { return .notHandled }
            responder.perform(action, context: context)
            return .handled
        }
        if !handled {
            reportDropped(.action, .action(action))
            return false
        }
        return true
    }
}

extension Router {
    // MARK: Accessibility hooks

    /// Sets the key interpreter's sticky modifiers (``KeyInterpreter/setStickyModifiers(latched:locked:)``).
    /// Called by a filter while it is asked about a key, the key goes out with the new
    /// modifier masks (clients hear them after the key); if a filter takes the key, or when
    /// no key is being filtered (a filter turned off, a timer), `announce` gets them, to tell
    /// clients at once.
    func setStickyModifiers(latched: KeyModifiers, locked: KeyModifiers, announce: ((ModifierMasks) -> Void)?) {
        guard let interpreter = keyInterpreter,
              let masks = interpreter.setStickyModifiers(latched: latched, locked: locked) else { return }
        if unchecked.keyboard.filterDepth > 0 {
            unchecked.keyboard.filteredModifierMasks = masks
            unchecked.keyboard.announceModifiers = announce
        } else {
            announce?(masks)
        }
    }

    /// Routes the press of a held key that `filter` took (slow keys: it counts once held long
    /// enough): the filters after `filter` are asked about it (raw, then interpreted), and
    /// unless one takes it, it goes to the keyboard grab, else by the default rule. Spies,
    /// which heard the press taken, are not told again. Returns false (and does nothing)
    /// when the key is not held now or its press was not taken.
    @discardableResult
    func routeTakenPress(_ keyEvent: KeyEvent, after filter: any InputFilter) -> Bool {
        guard let index = heldKeyIndex(keyEvent.keycode), unchecked.keyboard.heldKeys[index].press == .taken else { return false }
        var keyEvent = keyEvent
        if unchecked.keyboard.heldKeys[index].hiddenFromInterpreter { pressTakenKeyAgainInInterpreter(&keyEvent, at: index) }
        let start = (unchecked.filterList.index(of: filter) ?? unchecked.filterList.count) + 1
        let event = InputEvent(time: keyEvent.time, device: keyEvent.device, .key(keycode: keyEvent.keycode, state: .pressed))
        unchecked.keyboard.filterDepth += 1
        var consumedBy = askFilters(event, from: start)
        if consumedBy == nil { consumedBy = askFilters(key: keyEvent, from: start) }
        unchecked.keyboard.filterDepth -= 1
        var changedMasks: ModifierMasks?
        if let masks = unchecked.keyboard.filteredModifierMasks {
            unchecked.keyboard.filteredModifierMasks = nil
            let announce = unchecked.keyboard.announceModifiers
            unchecked.keyboard.announceModifiers = nil
            if consumedBy == nil { changedMasks = masks } else { announce?(masks) }
        }
        if let consumedBy {
            trace?.record(.consumed(event, filter: consumedBy))
            // Taken again: hidden from the interpreter again.
            if let now = heldKeyIndex(keyEvent.keycode), unchecked.keyboard.heldKeys[now].press == .taken,
               !unchecked.keyboard.heldKeys[now].hiddenFromInterpreter, filterDiscardsTakenKeyPresses(at: consumedBy) {
                releaseTakenPressFromInterpreter(keyEvent, at: now)
            }
            return true
        }
        // Looked up again: a filter may have injected keys meanwhile.
        guard let now = heldKeyIndex(keyEvent.keycode), unchecked.keyboard.heldKeys[now].press == .taken else { return false }
        unchecked.keyboard.heldKeys[now].press = .routing
        if let changedMasks {
            var changed = keyEvent
            changed.modifierMasks = changedMasks
            routeAcceptedPress(changed)
        } else {
            routeAcceptedPress(keyEvent)
        }
        return true
    }

    /// The grab or the default rule for a press ``routeTakenPress(_:after:)`` accepted. Out of
    /// line: rare.
    @inline(never)
    private func routeAcceptedPress(_ keyEvent: KeyEvent) {
        routeUnfilteredKey(keyEvent, record: true)
    }
}

/// A key as a backend gave it (``Router/key(_:)``): the parts of its ``InputEvent``, made
/// again from them for filters, spies and a trace. Its kind is always `.key`, whose payload
/// holds no reference.
struct RawKey {
    var time: Timestamp
    var device: DeviceID
    var keycode: UInt32
    var state: KeyState

    /// The key's event.
    @inline(__always)
    var event: InputEvent { InputEvent(time: time, device: device, .key(keycode: keycode, state: state)) }
}
