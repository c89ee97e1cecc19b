/// Recognizes fingers dragging (continuous: began once their centroid has moved
/// ``minimumDistance`` millimetres, changed as it moves, ended when fewer than
/// ``minimumNumberOfTouches`` remain).
///
/// ``translation`` and ``velocity`` are in layout units (and per second); fingers joining or
/// leaving do not make the translation jump.
public final class PanGestureRecognizer: GestureRecognizer {
    /// Fewest fingers that pan; fewer left ends it. Default 1.
    public var minimumNumberOfTouches: Int {
        get { _minimumNumberOfTouches }
        set { _minimumNumberOfTouches = newValue }
    }
    private var _minimumNumberOfTouches: Int
    /// Most fingers that pan; more fail it before it begins. Default: no limit.
    public var maximumNumberOfTouches: Int {
        get { _maximumNumberOfTouches }
        set { _maximumNumberOfTouches = newValue }
    }
    private var _maximumNumberOfTouches: Int
    /// Movement of the centroid before the pan begins, in millimetres.
    public var minimumDistance: Double {
        get { _minimumDistance }
        set { _minimumDistance = newValue }
    }
    private var _minimumDistance: Double
    /// Movement of the fingers' centroid since they went down, in layout units (layout and
    /// surface units are the same size: surfaces are placed, not scaled).
    public var translation: Vector { _translation }
    /// Backs ``translation``: private storage, so the optimizer drops the run-time
    /// exclusivity checks a public stored property keeps (two per motion; issue 30, goal 7).
    private var _translation = Vector.zero
    /// Velocity of the centroid, in layout units per second, from the least-squares
    /// ``VelocityTracker`` over the last 100 ms; at the end, the velocity the fingers lifted
    /// with for a fling (zero if they rested over 40 ms first).
    public var velocity: Vector { velocityEstimate.perSecond }
    /// ``velocity`` in millimetres per second of the touch device.
    public var velocityInMillimetres: Vector { velocity.perMillimetre(layoutUnitsPerMillimetre) }
    /// The estimate behind ``velocity``, with its confidence.
    public var velocityEstimate: VelocityEstimate { endTime.map { tracker.estimate(at: $0) } ?? tracker.estimate() }
    private var tracker = VelocityTracker()
    /// When the fingers lifted: the end's estimate is the tracker's at that time, worked out
    /// when read. The tracker takes no sample after the end (a settled recognizer is shown no
    /// motion, and its reset empties both), so the answer is the one computed at the end;
    /// computed there, the fit cost about 350 instructions at every lift, read or not (issue
    /// 25, fourteenth round).
    private var endTime: Timestamp?
    private var lastCentroid = LayoutPoint.zero

    /// A pan of `minimumTouches`...`maximumTouches` fingers that begins after `minimumDistance`
    /// millimetres. `minimumTouches` must be at least 1 and at most `maximumTouches` (a
    /// precondition: bad counts stop the process).
    public init(name: String = "pan", minimumTouches: Int = 1, maximumTouches: Int = .max, minimumDistance: Double = 3) {
        precondition(minimumTouches >= 1 && maximumTouches >= minimumTouches, "bad touch counts")
        self._minimumNumberOfTouches = minimumTouches
        self._maximumNumberOfTouches = maximumTouches
        self._minimumDistance = minimumDistance
        super.init(name: name)
        // Pens by default; mouse drags on request (GestureInputKinds.swift).
        unchecked.composition.allowed = .touchAndPen
    }

    /// Touch, pen and pointer: a pen stroke or a left-button drag is one touch to it. It
    /// follows touch and pen unless ``GestureRecognizer/allowedInputKinds`` says otherwise.
    public override var supportedInputKinds: GestureInputKinds { .touchPenPointer }

    /// Measures from the new set of fingers (no jump in ``translation``).
    public override func touchesBegan(_ event: TouchEvent) {
        if unchecked.touches.count > maximumNumberOfTouches { return failIfPossible() }
        lastCentroid = centroid
        // The tracker follows the translation, which does not jump when fingers join.
        if unchecked.touches.count == event.touches.count { tracker.add(_translation, time: event.time) }
    }

    /// Adds the centroid's movement to ``translation`` and ``velocity``; begins past
    /// ``minimumDistance``, else changes.
    public override func touchesMoved(_ event: TouchEvent) {
        let c = centroid
        let delta = c.vector(from: lastCentroid)
        lastCentroid = c
        let moved = Vector(dx: _translation.dx + delta.dx, dy: _translation.dy + delta.dy)
        _translation = moved
        tracker.add(moved, time: event.time)
        if state == .possible {
            let count = unchecked.touches.count
            guard count >= _minimumNumberOfTouches, count <= _maximumNumberOfTouches else { return }
            if moved.length >= _minimumDistance * unchecked.layoutUnitsPerMillimetre { state = .began }
        } else if state.isInProgress {
            state = .changed
        }
    }

    /// Ends (or fails) once fewer than ``minimumNumberOfTouches`` remain.
    public override func touchesEnded(_ event: TouchEvent) {
        let remaining = unchecked.touches.count - event.touches.count
        if remaining < minimumNumberOfTouches {
            endTime = event.time
            if state.isInProgress { state = .ended } else { failIfPossible() }
            return
        }
        if let c = TouchGeometry.centroid(unchecked.touches, excluding: event.touches) { lastCentroid = c }
    }

    /// Zeroes ``translation`` and ``velocity``.
    public override func reset() {
        _translation = .zero
        tracker.reset()
        endTime = nil
    }
}
