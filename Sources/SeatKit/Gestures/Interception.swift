/// Interception (issue 30, goal 4; Android's `onInterceptTouchEvent` and
/// `requestDisallowInterceptTouchEvent`).
///
/// An ancestor takes a descendant's touches mid-way with a recognizer: recognizers of a
/// surface see the touches of its whole subtree before any responder, and one that begins (or
/// is recognized) with ``GestureRecognizer/cancelsTouchesInView`` takes them: every responder
/// that saw them gets `touchesCancelled` once (a client surface's client gets
/// `wl_touch.cancel`) and no later phase. A scroll container is a surface with a
/// ``PanGestureRecognizer``: the child follows the finger until the pan passes its slop, then
/// the container has the stream.
///
/// A descendant keeps its stream by asking its ancestors not to intercept it
/// (``Router/requestDisallowInterception(by:)``, or ``ResponderContext/requestDisallowInterception()``
/// from inside a handler): until every touch has ended, the recognizers attached to the
/// surface's ancestors take no touch bound to the surface or its subtree.
///
/// ```
///  child.touchesBegan ─► context.requestDisallowInterception()
///     ancestors' possible recognizers ─► told the touches were cancelled (they fail),
///                                        and follow those touches no more
///     touches going down in the child's subtree meanwhile ─► ancestors' recognizers do not join
///  last touch on the router ends ─► the request ends
/// ```
extension Router {
    /// Asks that the recognizers attached to `surface`'s ancestors (its parent, grandparent,
    /// … up to the output's root surface) take none of the touches bound to `surface` or its
    /// subtree, until every touch on this router has ended (the next gesture starts without
    /// it; a request made while no touch is down covers the next gesture).
    ///
    /// Ancestor recognizers that are still `.possible` are told at once that the touches of
    /// the subtree were cancelled (by default a possible recognizer then fails) and follow
    /// those touches no more: they no longer delay them, and the touches they held back go to
    /// the responders in order. One that has already begun or been recognized has taken the
    /// touches: the request is too late for it, and it goes on. Touches that go down in the
    /// subtree while the request lasts have no ancestor recognizer in their arena. The
    /// surface's own recognizers and the output's (global, compositor gestures) are not
    /// affected. Safe from any callback; goes through no filter or grab.
    ///
    /// - Returns: false when `surface` is not in this router's layout (nothing is changed).
    @discardableResult
    public func requestDisallowInterception(by surface: Surface) -> Bool {
        guard surface.unchecked.isAttached, surface.output?.router === self else { return false }
        if unchecked.touches.disallowedInterceptions.scanIndex(where: { $0 === surface }) == nil {
            unchecked.touches.disallowedInterceptions.append(surface)
        }
        unchecked.touches.loops += 1
        var i = 0
        while i < unchecked.touches.records.count {
            let sequence = unchecked.touches.records[i]
            i += 1
            guard !sequence.unchecked.finished, sequence.unchecked.arena != nil, let bound = sequence.unchecked.surface,
                  bound === surface || bound.isDescendant(of: surface) else { continue }
            gestures.withdrawInterceptors(in: self, of: sequence, below: surface)
        }
        unchecked.touches.loops -= 1
        if !unchecked.touches.isDelivering {
            gestures.settleGestures(in: self)
            compactTouches()
        }
        return true
    }

    /// Whether `surface` asked its ancestors not to intercept its touches and the request
    /// still lasts (no moment with every touch ended has come since).
    public func isInterceptionDisallowed(by surface: Surface) -> Bool {
        unchecked.touches.disallowedInterceptions.scanIndex(where: { $0 === surface }) != nil
    }

    /// Ends the requests once no touch is left (called where finished touches are compacted).
    @inline(__always)
    func endInterceptionRequestsIfIdle() {
        if !unchecked.touches.disallowedInterceptions.isEmpty && unchecked.touches.records.isEmpty {
            unchecked.touches.disallowedInterceptions.removeAll(keepingCapacity: true)
        }
    }
}

extension ResponderContext {
    /// Asks the ancestors of the surface being asked (``surface``) not to intercept its
    /// touches until every touch has ended: ``Router/requestDisallowInterception(by:)``.
    /// Does nothing when the link being asked is an output or the compositor delegate.
    public func requestDisallowInterception() {
        guard let surface else { return }
        router.requestDisallowInterception(by: surface)
    }
}

extension GestureCoordinator {
    /// The arena of a touch going down on `surface` while some surfaces disallow
    /// interception: recognizers of surfaces above the deepest requesting surface on the
    /// path do not join. Otherwise as `makeArena(in:surface:output:touch:)`.
    func makeArenaWithoutInterceptors(in router: Router, surface: Surface?, output: Output?, touch: TouchPoint) -> GestureArena? {
        var arena: GestureArena?
        var blocked = false
        var node = surface
        while let current = node {
            if !blocked { current.gestureRecognizers.scan { join(in: router, $0, arena: &arena, touch: touch) } }
            if router.unchecked.touches.disallowedInterceptions.scanIndex(where: { $0 === current }) != nil { blocked = true }
            node = current.parent
        }
        output?.gestureRecognizers.scan { join(in: router, $0, arena: &arena, touch: touch) }
        return arena
    }

    /// Takes `sequence` away from the still-possible recognizers of its arena that are
    /// attached to strict ancestors of `surface`: each is told the touch was cancelled (and is
    /// made to settle when it has no touch left), and its arena entry stops counting.
    func withdrawInterceptors(in router: Router, of sequence: TouchSequence, below surface: Surface) {
        guard let arena = sequence.unchecked.arena else { return }
        var i = 0
        while i < arena.unchecked.entries.count {
            let entry = arena.unchecked.entries[i]
            i += 1
            guard entry.isCurrent else { continue }
            let recognizer = entry.recognizer
            guard let host = recognizer.surface, surface.isDescendant(of: host),
                  recognizer.unchecked.storedState == .possible else { continue }
            // Never current again (generations count up from 0): the entry stays in place, so
            // that loops over the arena running meanwhile keep their indices.
            arena.withdraw(at: i - 1)
            // May release held phases (`settleHeldGestures`).
            unchecked.heldEdits &+= 1
            // A pass under way may have gathered it with this touch, to show it later.
            unchecked.arenasEditedInPass = true
            if let trace = router.trace {
                trace.record(.gestureRefused(recognizer.description, .possible, reason: "\(surface.name) disallowed interception"))
            }
            guard recognizer.unchecked.touches.scanIndex(where: { $0.id == sequence.unchecked.id }) != nil else {
                resetIfSettled(in: router, recognizer)
                continue
            }
            unchecked.gestureScratch.removeAll(keepingCapacity: true)
            unchecked.gestureScratch.append(router.touchPoint(of: sequence))
            let event = TouchEvent(time: router.clock.now, touches: unchecked.gestureScratch)
            recognizer.cancelTouches(event)
            if recognizer.unchecked.touches.isEmpty { forceSettle(in: router, recognizer) }
            resetIfSettled(in: router, recognizer)
        }
    }
}

/// A recognizer whose transition is under way (its side effects run before its targets hear
/// it), with what handlers asked of it meanwhile.
struct DeferredTransitions {
    let recognizer: GestureRecognizer
    /// The recognizer's generation during the transition: once it has been reset, what was
    /// deferred is over with the gesture.
    let generation: UInt64
    var states: [GestureRecognizerState] = []
    var abortReason: String?
}

extension GestureCoordinator {
    private func transitionUnderWayIndex(_ recognizer: GestureRecognizer) -> Int? {
        var i = unchecked.transitionsUnderWay.count
        while i > 0 {
            i -= 1
            if unchecked.transitionsUnderWay[i].recognizer === recognizer { return i }
        }
        return nil
    }

    func isTransitionUnderWay(_ recognizer: GestureRecognizer) -> Bool {
        !unchecked.transitionsUnderWay.isEmpty && transitionUnderWayIndex(recognizer) != nil
    }

    /// True when `newState` was deferred: the recognizer's previous transition is under way.
    /// The recognizer keeps its state meanwhile (so later requests are checked against it).
    func deferCommit(_ recognizer: GestureRecognizer, _ newState: GestureRecognizerState) -> Bool {
        guard !unchecked.transitionsUnderWay.isEmpty, let i = transitionUnderWayIndex(recognizer) else { return false }
        unchecked.transitionsUnderWay[i].states.append(newState)
        return true
    }

    /// True when the abort was deferred until the targets have heard the transition under way.
    func deferAbort(_ recognizer: GestureRecognizer, reason: String) -> Bool {
        guard !unchecked.transitionsUnderWay.isEmpty, let i = transitionUnderWayIndex(recognizer) else { return false }
        if unchecked.transitionsUnderWay[i].abortReason == nil { unchecked.transitionsUnderWay[i].abortReason = reason }
        return true
    }

    func endTransitionUnderWay(_ recognizer: GestureRecognizer) -> DeferredTransitions? {
        guard let i = transitionUnderWayIndex(recognizer) else { return nil }
        // Most often the last (transitions nest): `removeLast` then, not the generic `remove(at:)`.
        let entry = i == unchecked.transitionsUnderWay.count - 1 ? unchecked.transitionsUnderWay.removeLast() : unchecked.transitionsUnderWay.remove(at: i)
        return entry.states.isEmpty && entry.abortReason == nil ? nil : entry
    }

    /// Applies the deferred transitions in order (those no longer legal are dropped: an
    /// earlier one ended the gesture), then the deferred abort; nothing once the recognizer
    /// has been reset (a replayed cancel settled it: the gesture is over).
    func replay(in router: Router, _ deferred: DeferredTransitions) {
        let recognizer = deferred.recognizer
        var k = 0
        while k < deferred.states.count, recognizer.unchecked.generation == deferred.generation {
            let state = deferred.states[k]
            k += 1
            if GestureRecognizerState.canTransition(from: recognizer.unchecked.storedState, to: state) {
                gestureRecognizer(in: router, recognizer, requests: state)
            }
        }
        if let reason = deferred.abortReason, recognizer.unchecked.generation == deferred.generation {
            abort(in: router, recognizer, reason: reason)
        }
    }
}
