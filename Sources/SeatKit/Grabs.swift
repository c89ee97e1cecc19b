/// Grabs: who gets a device class's input instead of the router's default rule, as in
/// wlr_seat.
///
/// ```
///  inject(event) ─► filters ─► grab of its device class, if one is active
///                              │  each handler's default forwards:
///                              └─► route…(_:)  recognizers, hit-test or focus, the chain
///  send…(_:to:)  raw: one surface's chain, no filters, no grab, no recognizers
/// ```
///
/// Three doors, named for what they go through:
/// - ``Router/inject(_:)``: filters, then the active grab (or the default rule), then
///   recognizers and the responder chain. What a backend calls.
/// - `route…` (``Router/routePointerMotion(_:)``, ``Router/routeTouch(_:)``, …, and
///   ``Router/deliverKey(_:)`` for keys): the default rule alone, after filters and grabs:
///   what a grab calls to forward an event.
/// - `send…` (``Router/sendPointerButton(_:to:)``, …): raw delivery up one surface's chain.
///   You probably want ``Router/inject(_:)`` instead.
///
/// A grab implements only what it takes: every handler defaults to forwarding. Starting a
/// grab leaves or cancels what the old target had; ending one (or starting another) calls
/// its `cancel(router:)`, restores the default rule and, for touch, cancels the touches
/// routed while it was active. A grab lives on the event loop's thread like the router.

/// What every grab has: it can be told that it ended.
public protocol Grab: AnyObject {
    /// The grab ended: its `end…Grab` was called, or another grab of its device class
    /// started. Called once per start, after the router stopped sending it events. Default:
    /// nothing.
    func cancel(router: Router)
}

extension Grab {
    /// Does nothing. The router has already restored the default rule (and, for touch,
    /// cancelled the grab's routed touches); a grab with state of its own (a move or resize
    /// under way, a popup to close) must override this to clean it up, or that state stays.
    public func cancel(router: Router) {}
}

/// Takes pointer input (motion, buttons, axes, touchpad gestures) while active.
///
/// Events reach a grab after filters, with ``Router/pointerLocation`` already updated for
/// motion and ``Router/heldButtons`` for buttons; locations are in layout space, and
/// `surfaceLocation` in the space of the current ``Router/pointerFocus`` (zero without one).
public protocol PointerGrab: Grab {
    /// Motion. Default: ``Router/routePointerMotion(_:)``. If an override does not forward,
    /// focus stays where the grab put it and no responder or recognizer sees the motion.
    func pointerMoved(_ event: PointerMotionEvent, router: Router)
    /// A button. Default: ``Router/routePointerButton(_:)``. If an override does not forward,
    /// no responder sees the button; a grab that swallows a press should swallow its release.
    func pointerButton(_ event: PointerButtonEvent, router: Router)
    /// Scrolling. Default: ``Router/routePointerAxis(_:)``; not forwarded, it is lost.
    func pointerAxis(_ event: PointerAxisEvent, router: Router)
    /// A touchpad gesture. Default: ``Router/routeTouchpadGesture(_:)``; not forwarded, it
    /// is lost (recognizers included).
    func touchpadGesture(_ event: TouchpadGestureEvent, router: Router)
}

extension PointerGrab {
    /// Forwards to ``Router/routePointerMotion(_:)``: hit-testing moves focus (unless a button
    /// is held), then recognizers and the focus's chain see the motion.
    public func pointerMoved(_ event: PointerMotionEvent, router: Router) { router.routePointerMotion(event) }
    /// Forwards to ``Router/routePointerButton(_:)``: recognizers and the focus's chain.
    public func pointerButton(_ event: PointerButtonEvent, router: Router) { router.routePointerButton(event) }
    /// Forwards to ``Router/routePointerAxis(_:)``: the focus's chain.
    public func pointerAxis(_ event: PointerAxisEvent, router: Router) { router.routePointerAxis(event) }
    /// Forwards to ``Router/routeTouchpadGesture(_:)``: touchpad recognizers, then the focus's
    /// chain.
    public func touchpadGesture(_ event: TouchpadGestureEvent, router: Router) { router.routeTouchpadGesture(event) }
}

/// Takes touch input while active. Handlers get the device's events one by one, as
/// ``Router/inject(_:)`` got them, after filters; points are in layout space.
public protocol TouchGrab: Grab {
    /// A finger down. Default: ``Router/routeTouch(_:)`` (hit-test, bind, recognizers). If an
    /// override does not forward, the touch belongs to the grab: no responder sees any of it.
    func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, router: Router)
    /// A finger moved. Default: forwards (ignored by the router unless it routed the down).
    func touchMoved(_ event: InputEvent, id: TouchID, to point: LayoutPoint, router: Router)
    /// A finger up. Default: forwards; a routed touch not forwarded stays down until the grab
    /// ends (which cancels it).
    func touchUp(_ event: InputEvent, id: TouchID, router: Router)
    /// The device cancelled a touch. Default: forwards; not forwarded, a routed touch stays
    /// down until the grab ends (which cancels it).
    func touchCancelled(_ event: InputEvent, id: TouchID, router: Router)
    /// The end of a device frame. Default: forwards; a grab that forwards touches must forward
    /// frames too, or their changes are never delivered.
    func touchFrame(_ event: InputEvent, router: Router)
}

extension TouchGrab {
    /// Forwards to ``Router/routeTouch(_:)``: hit-tested and bound to its surface, with
    /// recognizers.
    public func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, router: Router) { router.routeTouch(event) }
    /// Forwards to ``Router/routeTouch(_:)``.
    public func touchMoved(_ event: InputEvent, id: TouchID, to point: LayoutPoint, router: Router) { router.routeTouch(event) }
    /// Forwards to ``Router/routeTouch(_:)``.
    public func touchUp(_ event: InputEvent, id: TouchID, router: Router) { router.routeTouch(event) }
    /// Forwards to ``Router/routeTouch(_:)``: the touch is cancelled for its responders and
    /// recognizers.
    public func touchCancelled(_ event: InputEvent, id: TouchID, router: Router) { router.routeTouch(event) }
    /// Forwards to ``Router/routeTouch(_:)``: the frame's changes are delivered.
    public func touchFrame(_ event: InputEvent, router: Router) { router.routeTouch(event) }
}

/// What a keyboard grab does to the first responder when it begins
/// (``Router/startKeyboardGrab(_:focus:)``), as Smithay's `Focus::Keep` and `Focus::Clear`.
public enum KeyboardGrabFocus: Sendable {
    /// The first responder keeps focus but sees no key the grab does not forward: held keys
    /// whose presses it saw are released (cancelled, ``KeyEvent/keepsFocus``; a client is sent
    /// `wl_keyboard.key` released).
    case keep
    /// The first responder resigns (a client is sent `wl_keyboard.leave`, which ends its held
    /// keys) and gets focus back when the grab ends.
    case clear
}

/// Takes keys while active, after filters and the key interpreter (keysym, text and
/// modifiers are filled in).
public protocol KeyboardGrab: Grab {
    /// A key press, repeat or release. Default: ``Router/deliverKey(_:)`` (the first
    /// responder and its chain, key commands included). Not forwarded, it is lost to the
    /// responders; the router keeps pairing either way: the release of a press the grab kept
    /// reaches no responder, and a responder that saw a forwarded press hears a (cancelled)
    /// release if the grab keeps the real one.
    func key(_ event: KeyEvent, router: Router)
}

extension KeyboardGrab {
    /// Forwards to ``Router/deliverKey(_:)``: the first responder's chain, key commands
    /// included.
    public func key(_ event: KeyEvent, router: Router) { router.deliverKey(event) }
}

extension Router {
    // MARK: Starting and ending grabs

    /// Makes `grab` take pointer input. The current focus first hears what it is owed: a
    /// cancelled release of each held button, then `pointerLeft`; focus is then the grab's
    /// to set (``setPointerFocus(_:time:)``). The buttons stay held: their releases reach the
    /// grab. A grab already active is ended first (its `cancel`).
    public func startPointerGrab(_ grab: any PointerGrab) {
        if unchecked.pointer.grab != nil { endPointerGrab() }
        unchecked.pointer.grab = grab
        // A focus change under way (this grab started from inside a leave) stops here.
        unchecked.pointer.focusGeneration &+= 1
        gestures.endPointerArena(in: self)
        if let focus = unchecked.pointer.focus {
            unchecked.pointer.focusGeneration &+= 1
            unchecked.pointer.focus = nil
            trace?.record(.pointerFocus(from: TraceSubject(focus), to: .none))
            tellCancelledButtons(to: focus, time: clock.now)
            tellPointerLeft(focus, time: clock.now)
        }
    }

    /// Ends the pointer grab, if any: its `cancel` runs, and focus follows the default rule
    /// again (at once unless a button is held; then at the last release). A held button
    /// whose press the focus did not see (the grab took it, or the focus changed since) is
    /// no longer the pointer's: its release is swallowed, and it does not hold focus. A held
    /// button the grab forwarded to the focus keeps it, as the implicit grab; its release
    /// goes there.
    public func endPointerGrab() {
        guard let grab = unchecked.pointer.grab else { return }
        unchecked.pointer.grab = nil
        var i = 0
        while i < unchecked.pointer.pressedButtons.count {
            let button = unchecked.pointer.pressedButtons[i]
            if unchecked.pointer.buttonsSeenByFocus.scanContains(button) {
                i += 1
            } else {
                unchecked.pointer.pressedButtons.remove(at: i)
                unchecked.pointer.swallowRelease(of: button)
            }
        }
        grab.cancel(router: self)
        if unchecked.pointer.grab == nil { refreshPointerFocus() }
    }

    /// Makes `grab` take touch input. Every touch routed so far is cancelled (each responder
    /// that saw one is told); later events of those fingers reach the grab. A grab already
    /// active is ended first.
    public func startTouchGrab(_ grab: any TouchGrab) {
        if unchecked.touches.grab != nil { endTouchGrab() }
        unchecked.touches.grab = grab
        cancelSequences(reason: "a touch grab began") { _ in true }
    }

    /// Ends the touch grab, if any: touches routed while it was active are cancelled, then its
    /// `cancel` runs. Fingers still down stay the grab's: the router ignores the rest of them.
    public func endTouchGrab() {
        guard let grab = unchecked.touches.grab else { return }
        unchecked.touches.grab = nil
        cancelSequences(reason: "the touch grab ended") { _ in true }
        grab.cancel(router: self)
    }

    /// Makes `grab` take keys: from now on every key (after filters and the interpreter)
    /// reaches `grab`, and a responder gets only what the grab forwards
    /// (``Router/deliverKey(_:)``). Whatever the grab does and however it ends, each press a
    /// responder saw gets exactly one release and no release reaches a responder that did not
    /// see its press (the router keeps a held-key record per key). With `focus`:
    /// - ``KeyboardGrabFocus/keep`` (the default): the first responder stays first responder
    ///   and first hears a cancelled release (``KeyEvent/keepsFocus``) of each held key whose
    ///   press it saw (a client is sent `wl_keyboard.key` released);
    /// - ``KeyboardGrabFocus/clear``: the first responder hears those cancelled releases, then
    ///   resigns, whatever `canResignFirstResponder` says (a client is sent `wl_keyboard.leave`);
    ///   focus comes back when the grab ends.
    /// The real releases of those keys reach the grab (a forwarded one is delivered to no
    /// responder). A grab already active is ended first.
    public func startKeyboardGrab(_ grab: any KeyboardGrab, focus: KeyboardGrabFocus = .keep) {
        if unchecked.keyboard.grab != nil { endKeyboardGrab() }
        unchecked.keyboard.grab = grab
        unchecked.keyboard.grabGeneration &+= 1
        unchecked.keyboard.grabFocus = focus
        switch focus {
        case .keep:
            if let first = unchecked.keyboard.firstResponder { tellCancelledKeys(to: first, keepsFocus: true) }
        case .clear:
            clearFirstResponderForGrab()
        }
    }

    /// Ends the keyboard grab, if any, and runs its `cancel`. Keys go to the first responder
    /// again; releases of keys the grab took go nowhere, those of keys it forwarded to the
    /// first responder's chain go there. After a grab that cleared focus, the most recent
    /// former first responder that can take focus becomes first responder again, unless a
    /// first responder was set meanwhile.
    public func endKeyboardGrab() {
        guard let grab = unchecked.keyboard.grab else { return }
        unchecked.keyboard.grab = nil
        unchecked.keyboard.grabGeneration &+= 1
        let focus = unchecked.keyboard.grabFocus
        unchecked.keyboard.grabFocus = .keep
        grab.cancel(router: self)
        if focus == .clear, unchecked.keyboard.grab == nil, unchecked.keyboard.firstResponder == nil, let previous = previousFocus() {
            becomeFirstResponder(previous)
        }
    }

    /// Cancelled releases of the held buttons whose presses `surface` (the pointer focus) saw,
    /// to its responder alone.
    func tellCancelledButtons(to surface: Surface, time: Timestamp) {
        let buttons = unchecked.pointer.buttonsSeenByFocus
        unchecked.pointer.buttonsSeenByFocus.removeAll(keepingCapacity: true)
        var i = 0
        while i < buttons.count {
            let button = buttons[i]
            i += 1
            guard unchecked.pointer.pressedButtons.scanContains(button) else { continue }
            var release = PointerButtonEvent(time: time, device: DeviceID(0), button: button, state: .released,
                                             location: unchecked.pointer.location, surfaceLocation: surface.convert(unchecked.pointer.location) ?? .zero)
            release.isCancelled = true
            _ = surface.withResponder { $0.pointerButton(release, context: ResponderContext(router: self, surface: surface, target: surface)) }
            trace?.record(.told(TraceSubject(surface), .pointerButton))
        }
    }

    /// Cancelled releases of the held keys whose presses the first responder's chain saw
    /// and has not heard released, to `surface`'s responder (the first responder) alone;
    /// their real releases then go to no responder. `keepsFocus`: whether it stays first
    /// responder (``KeyEvent/keepsFocus``).
    func tellCancelledKeys(to surface: Surface, keepsFocus: Bool) {
        // Each is marked ended before its call out, so a handler that edits the keys or asks
        // again cannot be told one twice.
        while let index = unchecked.keyboard.heldKeys.scanIndex(where: { key in
            if !key.isReleased, case .focus = key.press { return true }
            return false
        }) {
            unchecked.keyboard.heldKeys[index].press = .ended
            tellCancelledKey(unchecked.keyboard.heldKeys[index].keycode, to: surface, keepsFocus: keepsFocus)
        }
    }

    /// A cancelled release of `keycode`, whose press `surface`'s responder saw, to it alone.
    func tellCancelledKey(_ keycode: UInt32, to surface: Surface, keepsFocus: Bool) {
        var release = KeyEvent(time: clock.now, keycode: keycode, state: .released)
        release.isCancelled = true
        release.keepsFocus = keepsFocus
        _ = surface.responder.keyUp(release, context: ResponderContext(router: self, link: .surface(surface), target: surface))
        trace?.record(.told(TraceSubject(surface), .keyUp))
    }

    // MARK: Raw delivery

    /// Sends pointer motion up `surface`'s chain (the delegate's when `nil`), with
    /// `surfaceLocation` recomputed for it. Raw: no filters, grabs, recognizers or focus
    /// change; you probably want ``inject(_:)``. Returns whether a responder handled it.
    @discardableResult
    public func sendPointerMotion(_ event: PointerMotionEvent, to surface: Surface?) -> Bool {
        var event = event
        event.surfaceLocation = surface?.convert(event.location) ?? .zero
        return walkChain(from: surface, target: surface, kind: .pointerMoved) { $0.pointerMoved(event, context: $1) }
    }

    /// Sends a pointer button up `surface`'s chain. Raw, as ``sendPointerMotion(_:to:)``.
    @discardableResult
    public func sendPointerButton(_ event: PointerButtonEvent, to surface: Surface?) -> Bool {
        var event = event
        event.surfaceLocation = surface?.convert(event.location) ?? .zero
        noteButtonDelivered(event, to: surface)
        return walkChain(from: surface, target: surface, kind: .pointerButton) { $0.pointerButton(event, context: $1) }
    }

    /// Sends scrolling up `surface`'s chain. Raw, as ``sendPointerMotion(_:to:)``.
    @discardableResult
    public func sendPointerAxis(_ event: PointerAxisEvent, to surface: Surface?) -> Bool {
        var event = event
        event.surfaceLocation = surface?.convert(event.location) ?? .zero
        return walkChain(from: surface, target: surface, kind: .pointerAxis) { $0.pointerAxis(event, context: $1) }
    }
}

/// A popup's grab (xdg_popup.grab): pointer and touch input reach the popup's subtree (and
/// those of the popups it is nested in) only; a button press or a touch down anywhere else
/// dismisses the whole chain and is not delivered. Keys go on to the first responder (make
/// the popup, or what it wants, first responder).
///
/// Start it with ``Router/startPopupGrab(_:)``. Grabs nest as wlroots' xdg_popup grabs: a grab
/// whose `parent` is the innermost popup grab active stacks on it, and dismissing a grab
/// dismisses those nested in it first. `dismiss` runs once, when the grab ends for any reason
/// (a press outside, its popup or a popup it is nested in removed from the layout or
/// dismissed, ``Router/endGrab(_:)``, another grab replacing it), and should close the popup.
///
/// A popup shown on several outputs (a compositor that spans an app over them keeps one
/// surface per output, each delivering to the same client surface) is one grab over all of
/// them: `parts` are the popup's surfaces on the other outputs, and input on any of them, or
/// their descendants, reaches it; a press outside all of them dismisses it as on one output.
public final class PopupGrab: PointerGrab, TouchGrab {
    /// The popup surface: it and its descendants take input. Its removal from the layout
    /// dismisses the grab.
    public let popup: Surface
    /// The popup's surfaces on other outputs (see the type's summary): they and their
    /// descendants take input too. Removing one dismisses nothing; it no longer takes input.
    public let parts: [Surface]
    /// The popup grab this one is nested in (the xdg_popup's parent popup), if any.
    public let parent: PopupGrab?
    private var onDismiss: (() -> Void)?

    /// A grab for `popup` (and its `parts` on other outputs, if it is shown on several),
    /// nested in `parent`'s if that is the innermost popup grab active when this one starts;
    /// `dismiss` runs once, when the grab ends for any reason.
    public init(popup: Surface, parts: [Surface] = [], parent: PopupGrab? = nil, dismiss: @escaping () -> Void) {
        self.popup = popup
        self.parts = parts
        self.parent = parent
        self.onDismiss = dismiss
    }

    /// Whether `surface` belongs to the popup (one of its parts included), or to a popup
    /// this one is nested in.
    public func contains(_ surface: Surface?) -> Bool {
        guard let surface else { return false }
        var grab: PopupGrab? = self
        while let current = grab {
            if surface === current.popup || surface.isDescendant(of: current.popup) { return true }
            var i = 0
            while i < current.parts.count {
                let part = current.parts[i]
                if surface === part || surface.isDescendant(of: part) { return true }
                i += 1
            }
            grab = current.parent
        }
        return false
    }

    /// Whether `dismiss` has run (or is running).
    public var isDismissed: Bool { onDismiss == nil }

    /// Focus follows hit-testing within the popup's subtree (outside it there is no focus;
    /// with a button held, focus stays), and the focus's chain gets the motion raw
    /// (``Router/sendPointerMotion(_:to:)``: no recognizers). Without a focus it is lost.
    public func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        let hit = router.surface(at: event.location, device: event.device)
        let target = router.heldButtons.isEmpty ? (contains(hit) ? hit : nil) : router.unchecked.pointer.focus
        router.setPointerFocus(target, time: event.time)
        if let target, router.unchecked.pointer.grab === self { router.sendPointerMotion(event, to: target) }
    }

    /// A press outside the popup ends the grab (`dismiss` runs) and is not delivered, nor
    /// is its release (the router swallows it: no surface saw the press); other presses go
    /// raw to the focus's chain (``Router/sendPointerButton(_:to:)``: no recognizers), and
    /// a release goes there only if the focus saw its press (not one held when the grab
    /// began: the focus then was told a cancelled release).
    public func pointerButton(_ event: PointerButtonEvent, router: Router) {
        let focus = router.unchecked.pointer.focus
        if event.state == .released {
            if router.unchecked.pointer.buttonsSeenByFocus.scanContains(event.button) { router.sendPointerButton(event, to: focus) }
            return
        }
        if !contains(focus) {
            router.dismissPopupChain(of: self)
            return
        }
        router.sendPointerButton(event, to: focus)
    }

    /// Scrolling over the popup goes raw to the focus's chain; elsewhere it is lost.
    public func pointerAxis(_ event: PointerAxisEvent, router: Router) {
        if let focus = router.unchecked.pointer.focus, contains(focus) { router.sendPointerAxis(event, to: focus) }
    }

    /// Takes touchpad gestures and delivers none (not reported as dropped).
    public func touchpadGesture(_ event: TouchpadGestureEvent, router: Router) {}

    /// Routes the down (``Router/routeTouch(_:)``); one that lands outside the popup is
    /// cancelled before anyone sees it, ends the grab (`dismiss` runs), and the rest of that
    /// finger is ignored. Other touch events use the forwarding defaults.
    public func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, router: Router) {
        // One hit-test, the router's: route it, then look where it was bound.
        router.routeTouch(event)
        guard router.unchecked.touches.grab === self else { return }
        if !contains(router.surface(boundTo: id)) {
            // Outside: nobody has seen it yet (its frame has not come). It is cancelled, and
            // the touch that dismisses stays the grab's: the router ignores the rest of it.
            router.cancelTouches(reason: "outside the popup") { $0.id == id }
            router.dismissPopupChain(of: self)
        }
    }

    /// The router took a device from this grab (another grab started, or
    /// ``Router/endPointerGrab()`` or ``Router/endTouchGrab()`` was called): the whole chain
    /// it belongs to is dismissed, innermost first, so that no popup keeps a grab it lost.
    public func cancel(router: Router) {
        if isFinishing {
            runDismiss(router)
        } else if onDismiss != nil {
            router.dismissPopupChain(of: self)
        }
    }

    /// Ends both halves (pointer and touch) together and runs `dismiss` once, after the
    /// halves are released and before pointer focus follows the pointer again. With `parent`,
    /// the halves go to it instead (a nested grab ending alone).
    func finish(router: Router, handingTo parent: PopupGrab?) {
        if isFinishing {
            // Dismissed already, and a device came back to it (a handler started it again
            // from inside its start): it lets go, with no second dismiss.
            if onDismiss == nil {
                if router.unchecked.pointer.grab === self { router.endPointerGrab() }
                if router.unchecked.touches.grab === self { router.endTouchGrab() }
            }
            return
        }
        isFinishing = true
        if let parent, router.unchecked.pointer.grab === self || router.unchecked.touches.grab === self {
            router.handOverPopupGrab(to: parent)
        } else if router.unchecked.pointer.grab === self {
            router.endPointerGrab()   // its `cancel` ends the touch half and dismisses
        }
        runDismiss(router)
    }

    /// Set once `finish` began: the router's `cancel` then completes it.
    private var isFinishing = false

    private func runDismiss(_ router: Router) {
        if router.unchecked.touches.grab === self { router.endTouchGrab() }
        guard let dismiss = onDismiss else { return }
        onDismiss = nil
        dismiss()
    }
}

extension Router {
    /// Starts `grab` for the pointer and touch at once. If its `parent` is the innermost popup
    /// grab active now, it nests: the parent is not ended (its `dismiss` does not run), input
    /// reaches either popup, and the parent takes the pointer and touch back when this one
    /// ends alone. Otherwise the active grabs end first (a popup chain is dismissed whole).
    /// A popup that is not in the layout is dismissed at once. Either way the pointer focus is left and routed touches are cancelled, as for
    /// ``startPointerGrab(_:)`` and ``startTouchGrab(_:)``.
    public func startPopupGrab(_ grab: PopupGrab) {
        if let parent = grab.parent, popupGrabs.last === parent,
           unchecked.pointer.grab === parent || unchecked.touches.grab === parent {
            popupGrabs.append(grab)
            handOverPopupGrab(to: grab)
        } else {
            // The grabs active now end first (a popup chain is dismissed whole), so that the
            // chain is this grab alone before any handler its start calls can see it.
            if unchecked.pointer.grab != nil { endPointerGrab() }
            if unchecked.touches.grab != nil { endTouchGrab() }
            if let outermost = popupGrabs.first { dismissPopupGrab(outermost) }
            popupGrabs = [grab]
            startPointerGrab(grab)
            if !grab.isDismissed { startTouchGrab(grab) }
        }
        // Ended from inside its own start (a leave handler): it lets go of what it took.
        if grab.isDismissed { dismissPopupGrab(grab) }
        // A popup not in the layout (never was, or removed by a handler that ran above)
        // cannot hold a grab: it is dismissed at once.
        endPopupGrabsOfRemovedPopups()
    }

    /// Gives the pointer and touch to `grab`, taking them from the popup grab that holds them
    /// without ending it (no `cancel`, no re-hit-test in between).
    func handOverPopupGrab(to grab: PopupGrab) {
        unchecked.pointer.grab = nil
        unchecked.touches.grab = nil
        startPointerGrab(grab)
        if !grab.isDismissed { startTouchGrab(grab) }
    }

    /// Dismisses `grab` and the popup grabs nested in it, innermost first; the one it is
    /// nested in, if any, takes the pointer and touch back.
    func dismissPopupGrab(_ grab: PopupGrab) {
        guard let index = popupGrabs.firstIndex(where: { $0 === grab }) else {
            grab.finish(router: self, handingTo: nil)
            return
        }
        let parent = index > 0 ? popupGrabs[index - 1] : nil
        while popupGrabs.count > index {
            popupGrabs.removeLast().finish(router: self, handingTo: parent)
        }
    }

    /// Dismisses the whole chain `grab` belongs to, innermost first (a press outside every
    /// popup of it, or the router took a device from it).
    func dismissPopupChain(of grab: PopupGrab) {
        if popupGrabs.contains(where: { $0 === grab }), let outermost = popupGrabs.first {
            dismissPopupGrab(outermost)
        } else {
            dismissPopupGrab(grab)
        }
    }

    /// A popup grab whose popup left the layout (its client closed the menu) ends at once,
    /// with those nested in it: it must not take the next click or touch as one outside.
    func endPopupGrabsOfRemovedPopups() {
        guard !popupGrabs.isEmpty, let removed = popupGrabs.first(where: { !$0.popup.unchecked.isAttached }) else { return }
        dismissPopupGrab(removed)
    }

    /// Ends every grab `grab` holds (pointer, touch, keyboard). A ``PopupGrab`` is dismissed
    /// with the popup grabs nested in it, innermost first; the one it is nested in takes the
    /// pointer and touch back.
    public func endGrab(_ grab: AnyObject) {
        if let popup = grab as? PopupGrab {
            dismissPopupGrab(popup)
            return
        }
        if unchecked.pointer.grab === grab { endPointerGrab() }
        if unchecked.touches.grab === grab { endTouchGrab() }
        if unchecked.keyboard.grab === grab { endKeyboardGrab() }
    }
}
