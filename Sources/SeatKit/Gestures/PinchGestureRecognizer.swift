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
    /// The span now over the span when the fingers went down (1 at the start).
    public private(set) var scale = 1.0
    /// Change of ``scale`` per second.
    public private(set) var velocity = 0.0
    private var baseScale = 1.0
    private var initialSpan = 0.0
    private var lastTime = Timestamp.zero
    private var needsRebase = false

    /// A pinch that begins after the span changes by `minimumSpanChange` millimetres.
    public init(name: String = "pinch", minimumSpanChange: Double = 3) {
        self._minimumSpanChange = minimumSpanChange
        super.init(name: name)
    }

    /// Measures from the new set of fingers, keeping ``scale``.
    public override func touchesBegan(_ event: TouchEvent) {
        rebase(time: event.time)
    }

    /// Fingers joined or left: keep the scale, measure from the new span.
    private func rebase(time: Timestamp) {
        baseScale = scale
        initialSpan = TouchGeometry.span(unchecked.touches)
        lastTime = time
        needsRebase = false
    }

    /// Updates ``scale`` and ``velocity``; begins past ``minimumSpanChange``, else changes.
    public override func touchesMoved(_ event: TouchEvent) {
        if needsRebase { return rebase(time: event.time) }
        guard unchecked.touches.count >= 2, initialSpan > 0 else { return }
        let span = TouchGeometry.span(unchecked.touches)
        let newScale = baseScale * span / initialSpan
        let dt = (event.time - lastTime).seconds
        if dt > 0 { velocity = (newScale - scale) / dt }
        scale = newScale
        lastTime = event.time
        if state == .possible {
            if abs(span - initialSpan) >= minimumSpanChange * unchecked.layoutUnitsPerMillimetre { state = .began }
        } else if state.isInProgress {
            state = .changed
        }
    }

    /// Ends (or fails) once fewer than two fingers remain.
    public override func touchesEnded(_ event: TouchEvent) {
        endWhenFewerThanTwoRemain(event, lastMoved: lastTime) { velocity = 0 }
        needsRebase = true
    }

    /// Scale back to 1, velocity to 0.
    public override func reset() {
        scale = 1
        velocity = 0
        baseScale = 1
        initialSpan = 0
        needsRebase = false
    }
}
