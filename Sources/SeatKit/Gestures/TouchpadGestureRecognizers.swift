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
    /// Length of ``translation`` at which the swipe commits, in layout units (the
    /// accelerated deltas' units): ``GestureRecognizer/progress`` goes from 0 to 1 over it
    /// while the fingers move, and libinput's end short of it cancels the gesture (undo)
    /// instead of ending it. `nil` (the default): no threshold, progress stays 0.
    public var commitDistance: Double? {
        get { _commitDistance }
        set { _commitDistance = newValue }
    }
    private var _commitDistance: Double?
    /// Sum of the (accelerated) deltas since the begin, in layout units.
    public private(set) var translation = Vector.zero
    /// Velocity of ``translation`` in layout units per second (least squares over the last
    /// 100 ms, see ``VelocityTracker``); at the end, the velocity the fingers lifted with
    /// (zero if they rested over 40 ms before libinput's end).
    public var velocity: Vector { velocityEstimate.perSecond }
    /// The fingers' velocity on the touchpad in millimetres per second, from libinput's
    /// unaccelerated deltas (normalized to a 1000 dpi device: 0.0254 mm each).
    public var velocityInMillimetres: Vector {
        let v = endUnaccelerated?.perSecond ?? unacceleratedTracker.estimate().perSecond
        return Vector(dx: v.dx * 0.0254, dy: v.dy * 0.0254)
    }
    /// The estimate behind ``velocity``, with its confidence.
    public var velocityEstimate: VelocityEstimate { endEstimate ?? tracker.estimate() }
    private var tracker = VelocityTracker()
    private var unacceleratedTracker = VelocityTracker()
    private var unaccelerated = Vector.zero
    private var endEstimate: VelocityEstimate?
    private var endUnaccelerated: VelocityEstimate?

    /// A touchpad swipe of `fingers` fingers; `commitDistance` (layout units) makes it a
    /// compositor gesture with ``GestureRecognizer/progress``.
    public init(name: String = "touchpad-swipe", fingers: Int = 3, commitDistance: Double? = nil) {
        self._numberOfFingers = fingers
        self._commitDistance = commitDistance
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
        unaccelerated = Vector(dx: unaccelerated.dx + g.unacceleratedDelta.dx, dy: unaccelerated.dy + g.unacceleratedDelta.dy)
        if case .end = g.phase {
            endEstimate = tracker.estimate(at: event.time)
            endUnaccelerated = unacceleratedTracker.estimate(at: event.time)
        } else {
            tracker.add(translation, time: event.time)
            unacceleratedTracker.add(unaccelerated, time: event.time)
        }
        if let commit = commitDistance { progress = commit > 0 ? translation.length / commit : 1 }
        followContinuous(g.phase, commits: commitDistance == nil || progress >= 1)
    }

    /// Zeroes ``translation`` and forgets the velocity samples.
    public override func reset() {
        translation = .zero
        unaccelerated = .zero
        tracker.reset()
        unacceleratedTracker.reset()
        endEstimate = nil
        endUnaccelerated = nil
    }
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
    /// Change of ``scale`` away from 1 at which the pinch commits: ``GestureRecognizer/progress``
    /// goes from 0 to 1 over it, and libinput's end short of it cancels the gesture (undo)
    /// instead of ending it. `nil` (the default): no threshold, progress stays 0.
    public var commitScaleChange: Double? {
        get { _commitScaleChange }
        set { _commitScaleChange = newValue }
    }
    private var _commitScaleChange: Double?
    /// Change of ``scale`` per second (least squares over the last 100 ms, see
    /// ``VelocityTracker``); at the end, the rate the fingers lifted with (zero if they rested
    /// over 40 ms before libinput's end).
    public var velocity: Double { velocityEstimate.perSecond.dx }
    /// Change of ``rotation`` in degrees per second, at the same moments as ``velocity``.
    public var rotationVelocity: Double { velocityEstimate.perSecond.dy }
    /// The estimate behind both (`dx` the scale's rate, `dy` the rotation's), with its
    /// confidence.
    public var velocityEstimate: VelocityEstimate { endEstimate ?? tracker.estimate() }
    private var tracker = VelocityTracker()
    private var endEstimate: VelocityEstimate?

    /// A touchpad pinch of at least `minimumFingers` fingers; `commitScaleChange` makes it a
    /// compositor gesture with ``GestureRecognizer/progress``.
    public init(name: String = "touchpad-pinch", minimumFingers: Int = 2, commitScaleChange: Double? = nil) {
        self._minimumFingers = minimumFingers
        self._commitScaleChange = commitScaleChange
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
        if case .end = g.phase {
            endEstimate = tracker.estimate(at: event.time)
        } else {
            scale = g.scale
            rotation += g.rotation
            tracker.add(x: scale, y: rotation, time: event.time)
        }
        if let commit = commitScaleChange { progress = commit > 0 ? abs(scale - 1) / commit : 1 }
        followContinuous(g.phase, commits: commitScaleChange == nil || progress >= 1)
    }

    /// Scale back to 1, rotation to 0, velocity samples forgotten.
    public override func reset() {
        scale = 1
        rotation = 0
        tracker.reset()
        endEstimate = nil
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
    /// its begin, changed per update, ended at its end (cancelled when libinput cancels, or
    /// when `commits` is false: short of the commit threshold); an end before the gesture
    /// began fails it.
    fileprivate func followContinuous(_ phase: GesturePhase, commits: Bool) {
        switch phase {
        case .begin: if state == .possible { state = .began }
        case .update: if state.isInProgress { state = .changed }
        case .end(let cancelled): if state.isInProgress { state = cancelled || !commits ? .cancelled : .ended } else { failIfPossible() }
        }
    }
}
