/// Recognizes two or more fingers moving apart or together (continuous: began once their
/// mean distance from their centroid has changed by ``minimumSpanChange`` millimetres,
/// ended when fewer than two remain).
public final class PinchGestureRecognizer: GestureRecognizer {
    /// Change of the fingers' span before the pinch begins, in millimetres.
    public var minimumSpanChange: Double {
        get { _minimumSpanChange }
        set { _minimumSpanChange = newValue }
    }
    private var _minimumSpanChange: Double
    /// Change of ``scale`` away from 1 at which the pinch commits (0.3: a third larger or
    /// smaller): ``GestureRecognizer/progress`` goes from 0 to 1 over it while the fingers
    /// move, and fingers lifting short of it cancel the gesture (undo) instead of ending it.
    /// `nil` (the default): no threshold, progress stays 0.
    public var commitScaleChange: Double? {
        get { _commitScaleChange }
        set { _commitScaleChange = newValue }
    }
    private var _commitScaleChange: Double?
    /// The span now over the span when the fingers went down (1 at the start).
    public private(set) var scale = 1.0
    /// Change of ``scale`` per second (least squares over the last 100 ms, see
    /// ``VelocityTracker``); at the end, the rate the fingers lifted with (zero if they rested
    /// over 40 ms first).
    public var velocity: Double { velocityEstimate.perSecond.dx }
    /// Change of the fingers' span (their mean distance from their centroid) in layout units
    /// per second, at the same moments as ``velocity``.
    public var spanVelocity: Double { velocityEstimate.perSecond.dy }
    /// ``spanVelocity`` in millimetres per second of the touch device.
    public var spanVelocityInMillimetres: Double { layoutUnitsPerMillimetre > 0 ? spanVelocity / layoutUnitsPerMillimetre : 0 }
    /// The estimate behind both: `dx` the scale's rate, `dy` the span's; with its confidence.
    public var velocityEstimate: VelocityEstimate { endEstimate ?? tracker.estimate() }
    private var tracker = VelocityTracker()
    private var endEstimate: VelocityEstimate?
    private var baseScale = 1.0
    private var initialSpan = 0.0
    /// The span the tracker follows: it continues across fingers joining or leaving.
    private var trackedSpan = 0.0
    private var spanOffset = 0.0
    private var needsRebase = false

    /// A pinch that begins after the span changes by `minimumSpanChange` millimetres;
    /// `commitScaleChange` makes it a compositor gesture with ``GestureRecognizer/progress``.
    public init(name: String = "pinch", minimumSpanChange: Double = 3, commitScaleChange: Double? = nil) {
        self._minimumSpanChange = minimumSpanChange
        self._commitScaleChange = commitScaleChange
        super.init(name: name)
    }

    /// Touch and touchpad: one engine for two fingers on a screen and libinput's touchpad
    /// pinch. It follows touch only unless ``GestureRecognizer/allowedInputKinds`` adds
    /// ``GestureInputKinds/touchpad``.
    public override var supportedInputKinds: GestureInputKinds { .touchAndTouchpad }

    /// A touchpad pinch (when ``GestureRecognizer/allowedInputKinds`` has
    /// ``GestureInputKinds/touchpad``): began at libinput's begin (libinput has applied its
    /// own threshold), ``scale`` is libinput's, changed per update, ended at its end
    /// (cancelled when libinput cancels or, with a ``commitScaleChange``, short of it).
    /// ``spanVelocity`` is 0 (the touchpad reports no span). Another kind or one finger fails it.
    public override func touchpadGesture(_ event: TouchpadGestureEvent) {
        let g = event.gesture
        guard g.kind == .pinch, g.fingers >= 2 else { return failIfPossible() }
        if case .end = g.phase {
            endEstimate = tracker.estimate(at: event.time)
        } else {
            scale = g.scale
            tracker.add(x: scale, y: 0, time: event.time)
        }
        if let commit = commitScaleChange { progress = commit > 0 ? abs(scale - 1) / commit : 1 }
        switch g.phase {
        case .begin: if state == .possible { state = .began }
        case .update: if state.isInProgress { state = .changed }
        case .end(let cancelled):
            let commits = commitScaleChange == nil || progress >= 1
            if state.isInProgress { state = cancelled || !commits ? .cancelled : .ended } else { failIfPossible() }
        }
    }

    /// Measures from the new set of fingers, keeping ``scale``.
    public override func touchesBegan(_ event: TouchEvent) {
        rebase(time: event.time)
    }

    /// Fingers joined or left: keep the scale, measure from the new span.
    private func rebase(time: Timestamp) {
        baseScale = scale
        initialSpan = TouchGeometry.span(unchecked.touches)
        spanOffset = trackedSpan - initialSpan
        if tracker.count == 0 { tracker.add(x: scale, y: initialSpan + spanOffset, time: time) }
        needsRebase = false
    }

    /// Updates ``scale`` and ``velocity``; begins past ``minimumSpanChange``, else changes.
    public override func touchesMoved(_ event: TouchEvent) {
        if needsRebase { return rebase(time: event.time) }
        guard unchecked.touches.count >= 2, initialSpan > 0 else { return }
        let span = TouchGeometry.span(unchecked.touches)
        scale = baseScale * span / initialSpan
        trackedSpan = span + spanOffset
        tracker.add(x: scale, y: trackedSpan, time: event.time)
        if let commit = commitScaleChange { progress = commit > 0 ? abs(scale - 1) / commit : 1 }
        if state == .possible {
            if abs(span - initialSpan) >= minimumSpanChange * unchecked.layoutUnitsPerMillimetre { state = .began }
        } else if state.isInProgress {
            state = .changed
        }
    }

    /// Ends (or fails) once fewer than two fingers remain; with a ``commitScaleChange`` not
    /// reached, it is cancelled instead of ended.
    public override func touchesEnded(_ event: TouchEvent) {
        endWhenFewerThanTwoRemain(event, commits: commitScaleChange == nil || progress >= 1) {
            endEstimate = tracker.estimate(at: event.time)
        }
        needsRebase = true
    }

    /// Scale back to 1, velocity samples forgotten.
    public override func reset() {
        scale = 1
        tracker.reset()
        endEstimate = nil
        trackedSpan = 0
        spanOffset = 0
        baseScale = 1
        initialSpan = 0
        needsRebase = false
    }
}
