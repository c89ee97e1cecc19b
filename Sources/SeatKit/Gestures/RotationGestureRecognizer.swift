/// Recognizes two fingers turning around each other (continuous: began once the line
/// between the first two fingers has turned ``minimumAngle`` radians, ended when fewer
/// than two remain).
public final class RotationGestureRecognizer: GestureRecognizer {
    /// Turn before the rotation begins, in radians.
    public var minimumAngle: Double {
        get { _minimumAngle }
        set { _minimumAngle = newValue }
    }
    private var _minimumAngle: Double
    /// Turn since the fingers went down, in radians, clockwise positive (layout space has y
    /// down, so clockwise on screen).
    public private(set) var rotation = 0.0
    /// Radians per second, clockwise positive (least squares over the last 100 ms, see
    /// ``VelocityTracker``); at the end, the rate the fingers lifted with (zero if they rested
    /// over 40 ms first).
    public var velocity: Double { velocityEstimate.perSecond.dx }
    /// The estimate behind ``velocity`` (in `dx`), with its confidence.
    public var velocityEstimate: VelocityEstimate { endEstimate ?? tracker.estimate() }
    private var tracker = VelocityTracker()
    private var endEstimate: VelocityEstimate?
    private var lastAngle: Double?

    /// A rotation that begins after a turn of `minimumAngle` radians (0.07 ≈ 4°).
    public init(name: String = "rotation", minimumAngle: Double = 0.07) {
        self._minimumAngle = minimumAngle
        super.init(name: name)
    }

    /// Measures the angle of the new set of fingers.
    public override func touchesBegan(_ event: TouchEvent) {
        lastAngle = TouchGeometry.angle(unchecked.touches)
        if tracker.count == 0 { tracker.add(x: rotation, y: 0, time: event.time) }
    }

    /// Adds the turn to ``rotation`` and ``velocity``; begins past ``minimumAngle``, else
    /// changes.
    public override func touchesMoved(_ event: TouchEvent) {
        guard let angle = TouchGeometry.angle(unchecked.touches) else { return }
        guard let previous = lastAngle else {
            lastAngle = angle
            return
        }
        let delta = TouchGeometry.angleDifference(angle, previous)
        rotation += delta
        tracker.add(x: rotation, y: 0, time: event.time)
        lastAngle = angle
        if state == .possible {
            if abs(rotation) >= minimumAngle { state = .began }
        } else if state.isInProgress {
            state = .changed
        }
    }

    /// Ends (or fails) once fewer than two fingers remain.
    public override func touchesEnded(_ event: TouchEvent) {
        endWhenFewerThanTwoRemain(event) { endEstimate = tracker.estimate(at: event.time) }
        lastAngle = nil  // measured afresh once the finger set is known again
    }

    /// Rotation back to 0, velocity samples forgotten.
    public override func reset() {
        rotation = 0
        tracker.reset()
        endEstimate = nil
        lastAngle = nil
    }
}
