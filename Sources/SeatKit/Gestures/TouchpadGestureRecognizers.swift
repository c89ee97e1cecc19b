/// Recognizes a touchpad swipe of ``numberOfFingers`` fingers, from libinput's swipe
/// gesture events (continuous: began at libinput's begin, changed per update, ended at its
/// end, cancelled when libinput cancels). Another kind or finger count fails it.
///
/// Sees the touchpad gestures aimed at the pointer focus inside its surface's subtree (or,
/// on an output, while the pointer is on it), before the focus's responders; the implicit
/// pointer grab decides the focus, so it respects that grab.
public final class TouchpadSwipeGestureRecognizer: GestureRecognizer {
    /// Fingers the swipe takes; another count fails it. Default 3.
    public var numberOfFingers: Int {
        get { _numberOfFingers }
        set { _numberOfFingers = newValue }
    }
    private var _numberOfFingers: Int
    /// Sum of the (accelerated) deltas since the begin, in layout units.
    public private(set) var translation = Vector.zero

    /// A touchpad swipe of `fingers` fingers.
    public init(name: String = "touchpad-swipe", fingers: Int = 3) {
        self._numberOfFingers = fingers
        super.init(name: name)
    }

    /// False: touchscreen touches are not for it.
    public override var receivesTouches: Bool { false }
    /// True: it follows touchpad gestures.
    public override var receivesTouchpadGestures: Bool { true }

    /// Follows libinput's swipe phases, adding each delta to ``translation``; another kind
    /// or finger count fails it.
    public override func touchpadGesture(_ event: TouchpadGestureEvent) {
        let g = event.gesture
        guard g.kind == .swipe, g.fingers == numberOfFingers else { return failIfPossible() }
        translation = Vector(dx: translation.dx + g.delta.dx, dy: translation.dy + g.delta.dy)
        followContinuous(g.phase)
    }

    /// Zeroes ``translation``.
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
    private var _minimumFingers: Int
    /// libinput's scale: the fingers' span over their span at the begin (1 at the begin).
    public private(set) var scale = 1.0
    /// Sum of libinput's rotation updates since the begin, in degrees, clockwise.
    public private(set) var rotation = 0.0

    /// A touchpad pinch of at least `minimumFingers` fingers.
    public init(name: String = "touchpad-pinch", minimumFingers: Int = 2) {
        self._minimumFingers = minimumFingers
        super.init(name: name)
    }

    /// False: touchscreen touches are not for it.
    public override var receivesTouches: Bool { false }
    /// True: it follows touchpad gestures.
    public override var receivesTouchpadGestures: Bool { true }

    /// Follows libinput's pinch phases, updating ``scale`` and ``rotation``; another kind
    /// or too few fingers fail it.
    public override func touchpadGesture(_ event: TouchpadGestureEvent) {
        let g = event.gesture
        guard g.kind == .pinch, g.fingers >= minimumFingers else { return failIfPossible() }
        scale = g.scale
        rotation += g.rotation
        followContinuous(g.phase)
    }

    /// Scale back to 1, rotation to 0.
    public override func reset() {
        scale = 1
        rotation = 0
    }
}

/// Recognizes fingers resting on the touchpad, from libinput's hold gesture events
/// (discrete: recognized when libinput ends the hold normally after at least
/// ``minimumDuration``; a hold that libinput cancels, because the fingers moved, fails).
public final class TouchpadHoldGestureRecognizer: GestureRecognizer {
    /// Fingers the hold takes; another count fails it. Default 1.
    public var numberOfFingers: Int {
        get { _numberOfFingers }
        set { _numberOfFingers = newValue }
    }
    private var _numberOfFingers: Int
    /// Shortest hold recognized, from libinput's begin to its end. Default 0.
    public var minimumDuration: TimeSpan {
        get { _minimumDuration }
        set { _minimumDuration = newValue }
    }
    private var _minimumDuration: TimeSpan
    private var beganAt: Timestamp?

    /// A touchpad hold of `fingers` fingers lasting at least `minimumDuration`.
    public init(name: String = "touchpad-hold", fingers: Int = 1, minimumDuration: TimeSpan = .milliseconds(0)) {
        self._numberOfFingers = fingers
        self._minimumDuration = minimumDuration
        super.init(name: name)
    }

    /// False: touchscreen touches are not for it.
    public override var receivesTouches: Bool { false }
    /// True: it follows touchpad gestures.
    public override var receivesTouchpadGestures: Bool { true }

    /// Notes the begin; at an uncancelled end after ``minimumDuration`` it is recognized,
    /// else it fails.
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

    /// Forgets the begin.
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
