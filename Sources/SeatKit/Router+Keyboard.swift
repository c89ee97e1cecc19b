extension Router {
    // MARK: Keys

    func key(_ event: InputEvent, keycode: UInt32, state: KeyState) {
        var keyEvent = KeyEvent(time: event.time, device: event.device, keycode: keycode, state: state)
        // The interpreter sees every key, consumed or not, so modifiers never drift.
        if let interpreterCall = unchecked.interpreterCallLink {
            unchecked.formerInterpreterCalls.enter()
            interpreterCall.with { $0.interpret(&keyEvent) }
            if unchecked.formerInterpreterCalls.leave() { _ = unchecked.formerInterpreterCalls.takeKept() }
        }
        // A press of a key already held (no release between: not from a real keyboard, but
        // injected) must not take the release a responder that saw the first press is owed.
        var pressOfHeldKey = false
        switch state {
        case .pressed:
            if unchecked.pressedKeys.scanContains(keycode) { pressOfHeldKey = true } else { unchecked.pressedKeys.append(keycode) }
        case .released:
            // Typing releases the key pressed last: take it off the end, moving nothing.
            let count = unchecked.pressedKeys.count
            if count > 0, unchecked.pressedKeys[count - 1] == keycode {
                unchecked.pressedKeys.removeLast()
            } else if let index = unchecked.pressedKeys.scanIndex(of: keycode) {
                unchecked.pressedKeys.remove(at: index)
            }
            if !unchecked.keysHeldBeforeFocus.isEmpty, let index = unchecked.keysHeldBeforeFocus.scanIndex(of: keycode) {
                unchecked.keysHeldBeforeFocus.remove(at: index)
            }
        case .repeated:
            break
        }

        // A key whose press was taken (by a filter or a key command) is taken to the end.
        if !unchecked.swallowedKeys.isEmpty, let index = unchecked.swallowedKeys.scanIndex(of: keycode) {
            if state == .released { unchecked.swallowedKeys.remove(at: index) }
            trace?.record(.followedConsumed(event))
            observe(event, consumed: true)
            return
        }
        // Most seats have no filter and no spy: skip even loading the lists.
        if !unchecked.filters.isEmpty || !unchecked.spies.isEmpty {
            // Each filter is asked about the raw event, then about the interpreted key
            // (presses and repeats); spies hear once, with the verdict.
            var consumedBy = unchecked.filters.scanIndex { $0.filter(event, router: self) == .consume }
            // A release follows its press: the press was delivered (a taken one's release
            // was swallowed above), so a filter cannot take it and leave the key stuck.
            if state == .released { consumedBy = nil }
            if consumedBy == nil, state != .released {
                consumedBy = unchecked.filters.scanIndex { $0.filterKey(keyEvent, router: self) == .consume }
            }
            if let consumedBy { trace?.record(.consumed(event, filter: consumedBy)) }
            observe(event, consumed: consumedBy != nil)
            if consumedBy != nil {
                // Only a taken press takes the rest of the key: a filter that takes a repeat
                // of a key whose press was delivered must leave its release to the client.
                if state == .pressed, !pressOfHeldKey, !unchecked.swallowedKeys.scanContains(keycode) { unchecked.swallowedKeys.append(keycode) }
                return
            }
        }
        if let grab = unchecked.keyboardGrab {
            grab.key(keyEvent, router: self)
            return
        }
        deliverKey(keyEvent)
    }

    /// Keys held now whose presses the first responder may have seen: ``pressedKeys`` less
    /// those taken by a filter, a key command or a cancelled release. What a focus change
    /// reports as held (`wl_keyboard.enter` lists these).
    public var heldKeysForFocus: [UInt32] {
        unchecked.swallowedKeys.isEmpty ? unchecked.pressedKeys : unchecked.pressedKeys.filter { !unchecked.swallowedKeys.contains($0) }
    }

    /// Routes a key by the default rule, after filters and grabs: to the first responder
    /// (the delegate without one) and up its chain, matching key commands on the way. The
    /// keyboard state is the caller's business. What a ``KeyboardGrab`` calls to forward, and
    /// what key repeat generators call (repeats skip filters, spies and grabs). The event is
    /// delivered as given: the interpreter is not asked again.
    public func deliverKey(_ keyEvent: KeyEvent) {
        guard let focus = unchecked.firstResponderLink else {
            deliverKey(keyEvent, walking: {
                walkChain(on: .delegate, target: nil, kind: $0, formerOutput: nil, steps: 0, stopIf: { false }, $1)
            })
            return
        }
        // The first responder is owned by `firstResponder`; one replaced during the delivery
        // is kept until it ends (see `firstResponder`), so the delivery need not retain it.
        // A press of a key held since before this focus (a second press with no release
        // between): now the focus has seen it pressed.
        if !unchecked.keysHeldBeforeFocus.isEmpty, keyEvent.state == .pressed,
           let index = unchecked.keysHeldBeforeFocus.scanIndex(of: keyEvent.keycode) {
            unchecked.keysHeldBeforeFocus.remove(at: index)
        }
        unchecked.formerFirstResponders.enter()
        focus.with { surface in
            deliverKey(keyEvent, walking: { walkChain(from: surface, target: surface, kind: $0, $1) })
        }
        if unchecked.formerFirstResponders.leave() { _ = unchecked.formerFirstResponders.takeKept() }
    }

    /// Delivers a key down or up through `walk`, which walks the chain for an event kind.
    @inline(__always)
    private func deliverKey(_ keyEvent: KeyEvent,
                            walking walk: (RoutedEventKind, (any Responder, ResponderContext) -> ResponderResult) -> Bool) {
        if keyEvent.state == .released {
            if !walk(.keyUp, { responder, context in responder.keyUp(keyEvent, context: context) }) {
                reportDropped(.keyUp, .keyUp(keyEvent))
            }
            return
        }
        // A router field, not a captured local: a captured var is checked for exclusivity
        // at run time on every key. Saved and restored, and set only after the action
        // returns, because an action may deliver other keys through here.
        let outerMatched = unchecked.keyCommandMatched
        unchecked.keyCommandMatched = false
        let handled = walk(.keyDown) { responder, context in
            let commands = responder.keyCommands
            if !commands.isEmpty, let index = commands.scanIndex(where: { $0.matches(keyEvent) }) {
                let action = commands[index].action
                trace?.record(.keyCommand(TraceSubject(context.link), action))
                responder.perform(action, context: context)
                unchecked.keyCommandMatched = true
                return .handled
            }
            return responder.keyDown(keyEvent, context: context)
        }
        let matched = unchecked.keyCommandMatched
        unchecked.keyCommandMatched = outerMatched
        if matched, keyEvent.state == .pressed, !unchecked.swallowedKeys.scanContains(keyEvent.keycode) {
            unchecked.swallowedKeys.append(keyEvent.keycode)
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
        if surface === unchecked.firstResponder { return true }
        guard surface.unchecked.isAttached, surface.responder.canBecomeFirstResponder else { return false }
        return moveFirstResponder(to: surface)
    }

    /// Clears the first responder, if it agrees to resign (returns false if not). Keys then
    /// go to the delegate. No filter, spy or grab is involved.
    @discardableResult
    public func resignFirstResponder() -> Bool {
        guard unchecked.firstResponder != nil else { return true }
        return moveFirstResponder(to: nil)
    }

    private func moveFirstResponder(to surface: Surface?) -> Bool {
        let old = unchecked.firstResponder
        if let old, old.unchecked.isAttached, !old.responder.canResignFirstResponder { return false }
        unchecked.focusGeneration &+= 1
        let generation = unchecked.focusGeneration
        trace?.record(.keyboardFocus(from: TraceSubject(old), to: TraceSubject(surface)))
        if let old {
            unchecked.firstResponder = nil
            rememberFocus(old)
            old.responder.didResignFirstResponder(context: ResponderContext(router: self, link: .surface(old), target: old))
            guard generation == unchecked.focusGeneration else { return surface != nil && unchecked.firstResponder === surface }
        }
        guard let surface else { return true }
        // The resign handler may have removed it or changed its responder.
        guard surface.unchecked.isAttached, surface.responder.canBecomeFirstResponder else { return false }
        unchecked.firstResponder = surface
        noteKeysHeldBeforeFocus()
        surface.responder.didBecomeFirstResponder(context: ResponderContext(router: self, link: .surface(surface), target: surface))
        return true
    }

    /// Remembers which keys are held as a new first responder (or a keyboard grab's end)
    /// takes the keys: their presses were not its, so a removal owes it no release of them.
    /// Keys held now that are not in this list were pressed at the first responder.
    func noteKeysHeldBeforeFocus() {
        unchecked.keysHeldBeforeFocus.removeAll(keepingCapacity: true)
        var i = 0
        while i < unchecked.pressedKeys.count {
            let keycode = unchecked.pressedKeys[i]
            i += 1
            if !unchecked.swallowedKeys.scanContains(keycode) { unchecked.keysHeldBeforeFocus.append(keycode) }
        }
    }

    /// Keys held now whose presses the first responder was delivered: ``heldKeysForFocus``
    /// less those held when it took focus.
    var keysPressedAtFocus: [UInt32] {
        heldKeysForFocus.filter { !unchecked.keysHeldBeforeFocus.contains($0) }
    }

    /// Keeps `surface` as the most recent former first responder (once).
    private func rememberFocus(_ surface: Surface) {
        focusHistory.removeAll { $0.surface == nil || $0.surface === surface }
        focusHistory.append(WeakSurface(surface: surface))
        if focusHistory.count > 32 { focusHistory.removeFirst(focusHistory.count - 32) }
    }

    /// The most recent former first responder that can take focus again.
    private func previousFocus() -> Surface? {
        while let last = focusHistory.popLast() {
            if let s = last.surface, s.unchecked.isAttached, s.responder.canBecomeFirstResponder { return s }
        }
        return nil
    }

    /// The first responder left the layout: it hears a cancelled release of each key it may
    /// have seen pressed (their real releases are swallowed), then `didResignFirstResponder`.
    /// Focus then goes back to the surface that had it before, if it still can take it,
    /// else where the delegate's rule says, unless a handler chose a focus meanwhile.
    func firstResponderWasRemoved(_ removed: Surface, formerParent: Surface) {
        unchecked.focusGeneration &+= 1
        let generation = unchecked.focusGeneration
        unchecked.firstResponder = nil
        if unchecked.keyboardGrab == nil { tellCancelledKeys(to: removed, swallowing: true) }
        removed.responder.didResignFirstResponder(context: ResponderContext(router: self, link: .surface(removed), target: removed))
        guard generation == unchecked.focusGeneration, unchecked.firstResponder == nil else { return }
        var replacement = previousFocus()
        if replacement == nil {
            if let delegate {
                replacement = delegate.router(self, firstResponderAfterRemoving: removed, formerParent: formerParent)
            } else {
                replacement = nearestAncestorThatCanBecomeFirstResponder(startingAt: formerParent)
            }
        }
        guard generation == unchecked.focusGeneration, unchecked.firstResponder == nil else { return }
        trace?.record(.keyboardFocus(from: TraceSubject(removed), to: TraceSubject(replacement)))
        if let replacement { becomeFirstResponder(replacement) }
    }

    /// The nearest attached surface, from `surface` up through its ancestors, whose
    /// responder can become first responder: the default focus rule after a removal.
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
        let focus = unchecked.firstResponder
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
