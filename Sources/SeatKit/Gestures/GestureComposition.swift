// Composition (issue 30, goal 3): SwiftUI's sequenced(before:), exclusively(before:) and
// simultaneously(with:) as recognizers that host their parts.
//
// ```
//  router ─► composite (in the arenas, coordinated like any recognizer)
//              └─► its parts: the same touch calls, before or instead of each other;
//                  a part's state change goes to the composite, which decides the part's
//                  state and its own
// ```

/// A recognizer made of two others, its *parts* (built by ``GestureRecognizer/sequenced(before:name:)``,
/// ``GestureRecognizer/exclusively(before:name:)`` and ``GestureRecognizer/simultaneously(with:name:)``).
///
/// The composite is what you attach: it joins arenas, coordinates with other recognizers
/// (require-to-fail, delegates, priority, cancelling and delaying touches) and sends its
/// action like any recognizer. Its parts are detached from wherever they were (attaching a
/// part elsewhere later takes it out of the composite, reset) and see the
/// composite's input (its touches, pen strokes and drags as touches, touchpad gestures) in
/// the same calls a router would make, each only of the kinds in its own
/// ``GestureRecognizer/inputKinds``; their states are the composite's to decide, their targets
/// run at each of their transitions, and they reset with the composite. Their delegates are
/// not asked: the composite's is. Its ``GestureRecognizer/supportedInputKinds`` are those its
/// parts follow.
public class ComposedGestureRecognizer: GestureRecognizer {
    /// The first part (the one that goes first, or has precedence).
    public let first: GestureRecognizer
    /// The second part.
    public let second: GestureRecognizer

    init(name: String, first: GestureRecognizer, second: GestureRecognizer) {
        precondition(first !== second, "a recognizer cannot be composed with itself")
        self.first = first
        self.second = second
        super.init(name: name)
        unchecked.composition.allowed = .all   // the parts have filtered already
        adopt(first)
        adopt(second)
    }

    deinit {
        first.unchecked.composition.host = nil
        second.unchecked.composition.host = nil
    }

    private func adopt(_ part: GestureRecognizer) {
        part.detachFromHost()   // from a surface, an output or another composite
        part.unchecked.composition.host = Unretained(self)
    }

    /// A part attached elsewhere (a surface, an output, another composite): it is reset and
    /// this composite stops driving it (it then sees nothing and counts for nothing here).
    func release(_ part: GestureRecognizer) {
        guard part.unchecked.composition.host?.object === self else { return }
        resetPart(part)
        part.unchecked.composition.host = nil
    }

    /// Its parts' kinds.
    public override var supportedInputKinds: GestureInputKinds { first.inputKinds.union(second.inputKinds) }
    /// Touch when a part follows touches (pens and drags come as touches too).
    public override var receivesTouches: Bool { !supportedInputKinds.isDisjoint(with: .touchAndPen) }
    /// When a part takes touchpad gestures.
    public override var receivesTouchpadGestures: Bool { supportedInputKinds.contains(.touchpad) }
    /// When a part reads raw pointer events.
    public override var receivesPointerEvents: Bool { first.receivesPointerEvents || second.receivesPointerEvents }

    /// Whether `part` was attached elsewhere since: no longer this composite's.
    func isOut(_ part: GestureRecognizer) -> Bool { part.unchecked.composition.host?.object !== self }

    /// Whether `part` has failed for this composite: it failed, or it was attached elsewhere.
    func hasFailed(_ part: GestureRecognizer) -> Bool { isOut(part) || part.unchecked.storedState == .failed }

    /// The parts that see input now. Default: both.
    func isActive(_ part: GestureRecognizer) -> Bool { true }

    /// Whether `part` follows the input the composite follows now.
    private func follows(_ part: GestureRecognizer) -> Bool {
        guard part.unchecked.composition.host?.object === self, part.unchecked._isEnabled else { return false }
        let kind = unchecked.composition.inputKind
        if kind == .pointer && part.receivesPointerEvents { return false }   // raw events, not touches
        return part.inputKinds.contains(kind)
    }

    /// Calls `body` with the first part, then the second (no array: nothing allocated per event).
    @inline(__always)
    func forEachPart(_ body: (GestureRecognizer) -> Void) {
        body(first)
        body(second)
    }

    /// Shows `event` to each active part that follows it, first then second. `activeBefore`:
    /// the parts active when the event came are the ones shown it (a sequence's second part,
    /// started by the first part's begin from the touches down now, is not shown the same
    /// began again: it followed that touch twice and never saw it end, the gesture-graph
    /// soak's seeds 2785 and 3245). Once a handler run by the first part's delivery has reset
    /// the composite (it removed the surface, cancelled the touch, detached or disabled the
    /// composite), the second part is shown nothing: the gesture it belonged to is over
    /// (seeds 36, 4086, 7081, 7756, 8519, 8532 and 9580: the second part began the reset
    /// composite, following no input).
    private func forward(_ event: TouchEvent, activeBefore: Bool = false, _ body: (GestureRecognizer, TouchEvent) -> Void) {
        let generation = unchecked.generation
        let secondWasActive = isActive(second)
        deliver(event, to: first, isActive(first), body)
        guard unchecked.generation == generation else { return }
        deliver(event, to: second, activeBefore ? secondWasActive : isActive(second), body)
    }

    @inline(__always)
    private func deliver(_ event: TouchEvent, to part: GestureRecognizer, _ active: Bool, _ body: (GestureRecognizer, TouchEvent) -> Void) {
        guard active && follows(part) else { return }
        part.unchecked.composition.inputKind = unchecked.composition.inputKind
        if part.unchecked.storedState.isFinal {
            part.forgetTouches(event)   // settled: bookkeeping only
        } else {
            body(part, event)
        }
    }

    /// Calls `body` with the first part, then with the second unless a handler run meanwhile
    /// reset the composite (see `forward`).
    @inline(__always)
    private func forEachPartOfThisGesture(_ body: (GestureRecognizer) -> Void) {
        let generation = unchecked.generation
        body(first)
        if unchecked.generation == generation { body(second) }
    }

    /// Shows the parts the touches.
    public override func touchesBegan(_ event: TouchEvent) { forward(event, activeBefore: true) { $0.beginTouches($1) } }
    /// Shows the parts the motion.
    public override func touchesMoved(_ event: TouchEvent) { forward(event, activeBefore: true) { $0.moveTouches($1) } }
    /// Shows the parts the lifted touches.
    public override func touchesEnded(_ event: TouchEvent) {
        forward(event) { part, event in
            part.updateTouches(event)
            part.touchesEnded(event)
        }
        forEachPart { if !isOut($0) { $0.forgetTouches(event) } }
    }
    /// Shows the parts the cancel, then settles as any recognizer (in progress: cancelled,
    /// possible: failed).
    public override func touchesCancelled(_ event: TouchEvent) {
        let generation = unchecked.generation
        forward(event) { part, event in
            part.updateTouches(event)
            part.touchesCancelled(event)
        }
        forEachPart { if !isOut($0) { $0.forgetTouches(event) } }
        // Reset by a part's handler meanwhile: that gesture is over, the reset one has none.
        if unchecked.generation == generation { super.touchesCancelled(event) }
    }
    /// Shows the parts that take touchpad gestures the event.
    public override func touchpadGesture(_ event: TouchpadGestureEvent) {
        forEachPartOfThisGesture { part in
            guard isActive(part) && part.unchecked._isEnabled && part.inputKinds.contains(.touchpad) && !part.unchecked.storedState.isFinal else { return }
            part.unchecked.composition.inputKind = .touchpad
            part.touchpadGesture(event)
        }
    }
    /// Shows the parts that read pointer events the button.
    public override func pointerButton(_ event: PointerButtonEvent) {
        forEachPartOfThisGesture { part in
            if isActive(part) && part.unchecked._isEnabled && part.receivesPointerEvents && !part.unchecked.storedState.isFinal { part.pointerButton(event) }
        }
    }
    /// Shows the parts that read pointer events the motion.
    public override func pointerMoved(_ event: PointerMotionEvent) {
        forEachPartOfThisGesture { part in
            if isActive(part) && part.unchecked._isEnabled && part.receivesPointerEvents && !part.unchecked.storedState.isFinal { part.pointerMoved(event) }
        }
    }

    /// The composite reached a final state (ended, recognized, cancelled or failed) and its
    /// targets heard it: a part still in progress is cancelled now, so that its targets, told
    /// it began, hear that it is over (a sequence's first part once the second has finished;
    /// a part whose begin the composite could not follow, because a rival was in progress or
    /// a delegate refused).
    override func didSettle() {
        forEachPart { part in
            if !isOut(part) && part.unchecked.storedState.isInProgress { settle(part, at: .cancelled) }
        }
    }

    /// Resets both parts (their timers cancelled, back to `.possible`, their ``reset()``). A
    /// part still in progress (a composite stopped without passing through a final state the
    /// router saw) is first cancelled, as when the composite settles.
    public override func reset() {
        forEachPart { part in
            guard part.unchecked.composition.host?.object === self else { return }
            if part.unchecked.storedState.isInProgress { settle(part, at: .cancelled) }
            resetPart(part)
        }
        resetComposition()
    }

    /// Clears the composite's own per-gesture state. Default: nothing.
    func resetComposition() {}

    private func resetPart(_ part: GestureRecognizer) {
        part.cancelTimers()
        part.unchecked.storedState = .possible
        part.unchecked.generation &+= 1
        part.unchecked.touches.removeAll(keepingCapacity: true)
        part.unchecked.composition.emulatedTouch = nil
        part.progress = 0
        part.reset()
    }

    /// A part set its state: the composite decides. Once the composite has settled (it
    /// failed, say, because another recognizer began), its parts' moves are dropped and their
    /// timers stopped until the composite resets.
    final func part(_ part: GestureRecognizer, requests newState: GestureRecognizerState) {
        guard !unchecked.storedState.isFinal, part.unchecked.composition.host?.object === self else {
            part.cancelTimers()
            return
        }
        let outer = decidingGeneration
        decidingGeneration = unchecked.generation
        decide(part, newState)
        decidingGeneration = outer
    }

    /// The composite's generation when the part's move being decided came in (nil outside
    /// `decide`).
    private var decidingGeneration: UInt64?

    /// A handler run by the decision (a part's target that removed the surface, cancelled the
    /// touch or disabled the composite) ended the composite's gesture and reset it: the rest
    /// of the decision is stale and must not touch the reset composite or its parts (the
    /// gesture-graph soak, seed 192: a composite left began, engaged in nothing).
    var isStale: Bool {
        guard let generation = decidingGeneration else { return false }
        return generation != unchecked.generation
    }

    /// What a part's move does to it and to the composite. Default: the part's state is applied.
    func decide(_ part: GestureRecognizer, _ newState: GestureRecognizerState) {
        apply(newState, to: part)
    }

    /// Sets a part's state and runs its targets.
    func apply(_ newState: GestureRecognizerState, to part: GestureRecognizer) {
        guard !isStale else { return }
        settle(part, at: newState)
    }

    /// Sets a part's state and runs its targets, stale decision or not (the composite's own
    /// settling and reset, which may run inside a decision a handler made stale: seed 5315).
    private func settle(_ part: GestureRecognizer, at newState: GestureRecognizerState) {
        guard GestureRecognizerState.canTransition(from: part.unchecked.storedState, to: newState) else { return }
        part.unchecked.storedState = newState
        if newState.isFinal { part.cancelTimers() }
        var t = 0
        while t < part.unchecked.targets.count {
            part.unchecked.targets[t](part)
            t += 1
        }
    }

    /// Moves the composite toward `wanted` by a legal step: a begin from possible, a change
    /// while in progress, an end or cancel while in progress (a possible composite fails
    /// instead), a recognition from possible.
    func move(toward wanted: GestureRecognizerState) {
        guard !isStale else { return }
        let s = unchecked.storedState
        switch wanted {
        case .began: if s == .possible && !isWaitingForFailure { state = .began }
        case .changed:
            if s.isInProgress { state = .changed } else if s == .possible && !isWaitingForFailure { state = .began }
        case .ended: if s.isInProgress { state = .ended } else { failIfPossible() }
        case .cancelled: if s.isInProgress { state = .cancelled } else { failIfPossible() }
        case .recognized: if s == .possible && !isWaitingForFailure { state = .recognized }
        case .failed: if s.isInProgress { state = .cancelled } else { failIfPossible() }
        case .possible: break
        }
    }
}

/// ``GestureRecognizer/sequenced(before:name:)``: the second part sees input only once the first
/// has succeeded (SwiftUI's `SequenceGesture`).
///
/// The composite begins when the first part begins or is recognized; the second part then
/// starts from the touches down at that moment (or, if none are, from the next ones), and
/// the composite changes with it and ends when it ends or is recognized. The first part
/// fails: the composite fails. The second part fails or is cancelled: the composite is
/// cancelled. The first part stays in the state it reached and sees no more input; a first
/// part that began hears `.cancelled` once the composite settles.
///
/// ```swift
/// let hold = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(400))
/// let drag = PanGestureRecognizer(minimumDistance: 1)
/// let holdThenDrag = hold.sequenced(before: drag)
/// ```
public final class SequenceGestureRecognizer: ComposedGestureRecognizer {
    /// Which part sees input now.
    public enum Stage: Sendable, Hashable {
        case first, second
    }
    /// ``Stage/first`` until the first part succeeds.
    public private(set) var stage = Stage.first

    override func isActive(_ part: GestureRecognizer) -> Bool {
        stage == .first ? part === first : part === second
    }

    override func decide(_ part: GestureRecognizer, _ newState: GestureRecognizerState) {
        if part === first {
            guard stage == .first else { return apply(newState, to: part) }
            apply(newState, to: part)
            if isStale { return }
            switch newState {
            case .began, .recognized:
                stage = .second
                if hasFailed(second) { return move(toward: .failed) }
                move(toward: .began)
                if !isStale, !unchecked.touches.isEmpty, !second.unchecked.storedState.isFinal {
                    // The second part starts from the touches down now.
                    var points = unchecked.touches
                    var i = 0
                    while i < points.count {
                        points[i].startLocation = points[i].location
                        i += 1
                    }
                    let time = router?.clock.now ?? Timestamp(microseconds: 0)
                    second.unchecked.composition.inputKind = unchecked.composition.inputKind
                    second.beginTouches(TouchEvent(time: time, touches: points))
                }
            case .failed, .cancelled:
                move(toward: .failed)
            default:
                break
            }
        } else {
            apply(newState, to: part)
            guard stage == .second else { return }
            switch newState {
            case .began, .changed: move(toward: .changed)
            case .ended, .recognized: move(toward: .ended)
            case .failed, .cancelled: move(toward: .cancelled)
            case .possible: break
            }
        }
    }

    override func resetComposition() { stage = .first }
}

/// ``GestureRecognizer/exclusively(before:name:)``: one part wins, the first with precedence
/// (SwiftUI's `ExclusiveGesture`).
///
/// Both parts see the input. The first part's begin or recognition is the composite's and
/// makes the second fail; the second's waits until the first has failed (then it is the
/// composite's), as if it required the first to fail. Both fail: the composite fails. The
/// composite then follows the winner's states.
///
/// ```swift
/// let zoom = TapGestureRecognizer(name: "zoom", taps: 2)
/// let select = TapGestureRecognizer(name: "select")
/// let tapOrDoubleTap = zoom.exclusively(before: select)
/// ```
public final class ExclusiveGestureRecognizer: ComposedGestureRecognizer {
    /// The part that won, once one has.
    public private(set) var winner: GestureRecognizer?
    /// The second part's recognition waiting for the first to fail.
    private var pendingSecond: GestureRecognizerState?

    override func decide(_ part: GestureRecognizer, _ newState: GestureRecognizerState) {
        if let winner {
            // Decided: the winner's moves are the composite's; the other's are its own.
            apply(newState, to: part)
            if part === winner { follow(newState) }
            return
        }
        if part === first {
            apply(newState, to: part)
            if isStale { return }
            switch newState {
            case .began, .recognized:
                winner = first
                pendingSecond = nil
                if !second.unchecked.storedState.isFinal { apply(.failed, to: second) }
                follow(newState)
            case .failed:
                if let pending = pendingSecond, !hasFailed(second) {
                    pendingSecond = nil
                    win(second, pending)
                } else if hasFailed(second) {
                    move(toward: .failed)
                }
            default:
                break
            }
        } else {
            switch newState {
            case .began, .recognized:
                if hasFailed(first) {
                    win(second, newState)
                } else {
                    pendingSecond = newState   // waits for the first to fail
                }
            case .failed:
                pendingSecond = nil
                apply(.failed, to: part)
                if !isStale && hasFailed(first) { move(toward: .failed) }
            default:
                apply(newState, to: part)
            }
        }
    }

    private func win(_ part: GestureRecognizer, _ newState: GestureRecognizerState) {
        winner = part
        apply(newState, to: part)
        if isStale {
            winner = nil
            return
        }
        follow(newState)
    }

    private func follow(_ newState: GestureRecognizerState) {
        switch newState {
        case .began: move(toward: .began)
        case .changed: move(toward: .changed)
        case .ended: move(toward: .ended)
        case .cancelled: move(toward: .cancelled)
        case .recognized: move(toward: .recognized)
        case .failed: move(toward: .failed)
        case .possible: break
        }
    }

    override func resetComposition() {
        winner = nil
        pendingSecond = nil
    }
}

/// ``GestureRecognizer/simultaneously(with:name:)``: both parts run over the same input (SwiftUI's
/// `SimultaneousGesture`).
///
/// The composite begins when either part begins or is recognized, changes as either
/// changes, and once both have settled ends if either succeeded (ended or recognized), else
/// is cancelled (or fails, if it never began).
///
/// ```swift
/// let zoom = PinchGestureRecognizer()
/// let turn = RotationGestureRecognizer()
/// let zoomAndTurn = zoom.simultaneously(with: turn)
/// ```
public final class SimultaneousGestureRecognizer: ComposedGestureRecognizer {
    override func decide(_ part: GestureRecognizer, _ newState: GestureRecognizerState) {
        apply(newState, to: part)
        switch newState {
        case .began, .recognized, .changed:
            move(toward: .changed)
        default:
            break
        }
        // A part attached elsewhere counts as failed.
        let a = hasFailed(first) ? .failed : first.unchecked.storedState
        let b = hasFailed(second) ? .failed : second.unchecked.storedState
        guard a.isFinal && b.isFinal else { return }
        let succeeded = a == .ended || a == .recognized || b == .ended || b == .recognized
        move(toward: succeeded ? .ended : .failed)
    }
}

extension GestureRecognizer {
    /// A recognizer that runs `second` only once this one has succeeded (begun or been
    /// recognized): see ``SequenceGestureRecognizer``. Both are detached from wherever they
    /// were; attach the result.
    public func sequenced(before second: GestureRecognizer, name: String? = nil) -> SequenceGestureRecognizer {
        SequenceGestureRecognizer(name: name ?? "\(self.name)>\(second.name)", first: self, second: second)
    }

    /// A recognizer where this one and `second` compete and this one has precedence: see
    /// ``ExclusiveGestureRecognizer``. Both are detached; attach the result.
    public func exclusively(before second: GestureRecognizer, name: String? = nil) -> ExclusiveGestureRecognizer {
        ExclusiveGestureRecognizer(name: name ?? "\(self.name)|\(second.name)", first: self, second: second)
    }

    /// A recognizer running this one and `other` together: see
    /// ``SimultaneousGestureRecognizer``. Both are detached; attach the result.
    public func simultaneously(with other: GestureRecognizer, name: String? = nil) -> SimultaneousGestureRecognizer {
        SimultaneousGestureRecognizer(name: name ?? "\(self.name)+\(other.name)", first: self, second: other)
    }

    /// The composed recognizer this one is a part of, if any.
    public var composite: ComposedGestureRecognizer? { unchecked.composition.host?.object }
}
