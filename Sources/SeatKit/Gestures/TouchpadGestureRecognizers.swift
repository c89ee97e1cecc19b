/// Recognizes a touchpad swipe of ``numberOfFingers`` fingers, from libinput's swipe
/// gesture events (continuous: began at libinput's begin, changed per update, ended at its
/// end, cancelled when libinput cancels). Another kind or finger count fails it.
///
/// Sees the touchpad gestures aimed at the pointer focus inside its surface's subtree (or,
/// on an output, while the pointer is on it), before the focus's responders; the implicit
/// pointer grab decides the focus, so it respects that grab.
public final class TouchpadSwipeGestureRecognizer: GestureRecognizer {
    public var numberOfFingers: Int {
        get { _numberOfFingers }
        set { _numberOfFingers = newValue }
    }
    @exclusivity(unchecked) var _numberOfFingers: Int
    /// Sum of the (accelerated) deltas since the begin, in layout units.
    @exclusivity(unchecked) public private(set) var translation = Vector.zero

    public init(name: String = "touchpad-swipe", fingers: Int = 3) {
        self._numberOfFingers = fingers
        super.init(name: name)
    }

    public override var receivesTouches: Bool { false }
    public override var receivesTouchpadGestures: Bool { true }

    public override func touchpadGesture(_ event: TouchpadGestureEvent) {
        let g = event.gesture
        guard g.kind == .swipe, g.fingers == numberOfFingers else { return failIfPossible() }
        translation = Vector(dx: translation.dx + g.delta.dx, dy: translation.dy + g.delta.dy)
        followContinuous(g.phase)
    }

    public override func reset() { translation = .zero }
}

/// Recognizes a touchpad pinch (with its rotation), from libinput's pinch gesture events.
/// Continuous, like ``TouchpadSwipeGestureRecognizer``; ``scale`` is libinput's (1 at the
/// begin) and ``rotation`` the sum of its updates, in degrees clockwise.
public final class TouchpadPinchGestureRecognizer: GestureRecognizer {
    /// Fewest fingers accepted (libinput pinches with two or more).
    public var minimumFingers: Int {
        get { _minimumFingers }
        set { _minimumFingers = newValue }
    }
    @exclusivity(unchecked) var _minimumFingers: Int
    @exclusivity(unchecked) public private(set) var scale = 1.0
    @exclusivity(unchecked) public private(set) var rotation = 0.0

    public init(name: String = "touchpad-pinch", minimumFingers: Int = 2) {
        self._minimumFingers = minimumFingers
        super.init(name: name)
    }

    public override var receivesTouches: Bool { false }
    public override var receivesTouchpadGestures: Bool { true }

    public override func touchpadGesture(_ event: TouchpadGestureEvent) {
        let g = event.gesture
        guard g.kind == .pinch, g.fingers >= minimumFingers else { return failIfPossible() }
        scale = g.scale
        rotation += g.rotation
        followContinuous(g.phase)
    }

    public override func reset() {
        scale = 1
        rotation = 0
    }
}

/// Recognizes fingers resting on the touchpad, from libinput's hold gesture events
/// (discrete: recognized when libinput ends the hold normally after at least
/// ``minimumDuration``; a hold that libinput cancels, because the fingers moved, fails).
public final class TouchpadHoldGestureRecognizer: GestureRecognizer {
    public var numberOfFingers: Int {
        get { _numberOfFingers }
        set { _numberOfFingers = newValue }
    }
    @exclusivity(unchecked) var _numberOfFingers: Int
    public var minimumDuration: TimeSpan {
        get { _minimumDuration }
        set { _minimumDuration = newValue }
    }
    @exclusivity(unchecked) var _minimumDuration: TimeSpan
    @exclusivity(unchecked) private var beganAt: Timestamp?

    public init(name: String = "touchpad-hold", fingers: Int = 1, minimumDuration: TimeSpan = .milliseconds(0)) {
        self._numberOfFingers = fingers
        self._minimumDuration = minimumDuration
        super.init(name: name)
    }

    public override var receivesTouches: Bool { false }
    public override var receivesTouchpadGestures: Bool { true }

    public override func touchpadGesture(_ event: TouchpadGestureEvent) {
        let g = event.gesture
        guard g.kind == .hold, g.fingers == numberOfFingers else { return failIfPossible() }
        switch g.phase {
        case .begin: beganAt = event.time
        case .update: break
        case .end(let cancelled):
            if !cancelled, let beganAt, event.time - beganAt >= minimumDuration, state == .possible {
                state = .recognized
            } else {
                failIfPossible()
            }
        }
    }

    public override func reset() { beganAt = nil }
}

extension GestureRecognizer {
    /// The continuous touchpad recognizers (swipe, pinch) follow libinput's phases: began at
    /// its begin, changed per update, ended at its end or cancelled when it cancels; an end
    /// before the gesture began fails it.
    fileprivate func followContinuous(_ phase: GesturePhase) {
        switch phase {
        case .begin: if state == .possible { state = .began }
        case .update: if state.isInProgress { state = .changed }
        case .end(let cancelled): if state.isInProgress { state = cancelled ? .cancelled : .ended } else { failIfPossible() }
        }
    }
}
