/// Recognizes one finger that lands within ``edgeWidth`` millimetres of an edge of its
/// output and drags inward (continuous, like ``PanGestureRecognizer``): a kiosk's hidden
/// admin gesture, a system panel pulled from the edge.
///
/// A finger landing elsewhere fails it at once; so does a second finger before it begins.
/// Attach it to the output (global) or to a surface; the edges are always the output's.
public final class ScreenEdgePanGestureRecognizer: GestureRecognizer {
    /// Edges of the output (in layout space, after the output's transform).
    public struct Edges: OptionSet, Sendable, Hashable {
        /// The edge bits.
        public var rawValue: UInt8
        /// Edges from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The left edge.
        public static let left = Edges(rawValue: 1 << 0)
        /// The right edge.
        public static let right = Edges(rawValue: 1 << 1)
        /// The top edge.
        public static let top = Edges(rawValue: 1 << 2)
        /// The bottom edge.
        public static let bottom = Edges(rawValue: 1 << 3)
        /// Any edge.
        public static let all: Edges = [.left, .right, .top, .bottom]
    }

    /// The edges a finger may start from. Default: left.
    public var edges: Edges {
        get { _edges }
        set { _edges = newValue }
    }
    private var _edges: Edges
    /// Depth of the zone along each edge where the finger must land, in millimetres.
    public var edgeWidth: Double {
        get { _edgeWidth }
        set { _edgeWidth = newValue }
    }
    private var _edgeWidth: Double
    /// Inward travel before it begins, in millimetres.
    public var minimumDistance: Double {
        get { _minimumDistance }
        set { _minimumDistance = newValue }
    }
    private var _minimumDistance: Double
    /// Inward travel at which the gesture commits, in millimetres (a panel pulled far enough
    /// stays open): ``GestureRecognizer/progress`` goes from 0 to 1 over it while the finger
    /// moves, and a lift short of it cancels the gesture (undo) instead of ending it. `nil`
    /// (the default): no threshold, progress stays 0 and every lift ends it.
    public var commitDistance: Double? {
        get { _commitDistance }
        set { _commitDistance = newValue }
    }
    private var _commitDistance: Double?
    /// The edge the finger started from.
    public private(set) var startEdge: Edges = []
    /// Movement since touch down, in layout units.
    public private(set) var translation = Vector.zero
    /// Velocity of the finger in layout units per second (least squares over the last 100
    /// ms, see ``VelocityTracker``); at the end, the velocity it lifted with for a fling
    /// (zero if it rested over 40 ms first).
    public var velocity: Vector { velocityEstimate.perSecond }
    /// ``velocity`` in millimetres per second of the touch device.
    public var velocityInMillimetres: Vector { velocity.perMillimetre(layoutUnitsPerMillimetre) }
    /// The estimate behind ``velocity``, with its confidence.
    public var velocityEstimate: VelocityEstimate { endEstimate ?? tracker.estimate() }
    private var tracker = VelocityTracker()
    private var endEstimate: VelocityEstimate?

    /// An edge pan from `edges`, landing within `edgeWidth` and travelling `minimumDistance`
    /// inward (both in millimetres); `commitDistance` (millimetres) makes it a compositor
    /// gesture with ``GestureRecognizer/progress``.
    public init(name: String = "edge-pan", edges: Edges = .left, edgeWidth: Double = 5, minimumDistance: Double = 5,
                commitDistance: Double? = nil) {
        self._commitDistance = commitDistance
        self._edges = edges
        self._edgeWidth = edgeWidth
        self._minimumDistance = minimumDistance
        super.init(name: name)
    }

    /// Fails unless one finger lands in the zone of an allowed edge of the output it is on.
    public override func touchesBegan(_ event: TouchEvent) {
        guard state == .possible else { return }
        guard unchecked.touches.count == 1, let touch = unchecked.touches.first,
              let frame = router?.unchecked.layout.output(at: touch.startLocation)?.unchecked.layoutFrame else { return failIfPossible() }
        let zone = edgeWidth * unchecked.layoutUnitsPerMillimetre
        let p = touch.startLocation
        if edges.contains(.left) && p.x - frame.minX < zone {
            startEdge = .left
        } else if edges.contains(.right) && frame.maxX - p.x <= zone {
            startEdge = .right
        } else if edges.contains(.top) && p.y - frame.minY < zone {
            startEdge = .top
        } else if edges.contains(.bottom) && frame.maxY - p.y <= zone {
            startEdge = .bottom
        } else {
            return failIfPossible()
        }
        tracker.add(Vector.zero, time: event.time)
    }

    /// Travel from the edge toward the output's inside, and across it.
    private func inwardAndSideways() -> (inward: Double, sideways: Double) {
        switch startEdge {
        case .left: return (translation.dx, translation.dy)
        case .right: return (-translation.dx, translation.dy)
        case .top: return (translation.dy, translation.dx)
        default: return (-translation.dy, translation.dx)
        }
    }

    /// Updates ``translation`` and ``velocity``; begins once the inward travel reaches
    /// ``minimumDistance`` and exceeds the sideways one.
    public override func touchesMoved(_ event: TouchEvent) {
        guard let touch = unchecked.touches.first else { return }
        translation = touch.location.vector(from: touch.startLocation)
        tracker.add(translation, time: event.time)
        let (inward, sideways) = inwardAndSideways()
        if let commit = commitDistance { progress = commit > 0 ? inward / (commit * unchecked.layoutUnitsPerMillimetre) : 1 }
        if state == .possible {
            if inward >= minimumDistance * unchecked.layoutUnitsPerMillimetre && inward > abs(sideways) { state = .began }
        } else if state.isInProgress {
            state = .changed
        }
    }

    /// Ends (or fails) when the finger lifts; with a ``commitDistance`` not reached, it is
    /// cancelled instead of ended.
    public override func touchesEnded(_ event: TouchEvent) {
        guard unchecked.touches.count == event.touches.count else { return }
        endEstimate = tracker.estimate(at: event.time)
        if state.isInProgress { state = commitDistance == nil || progress >= 1 ? .ended : .cancelled } else { failIfPossible() }
    }

    /// Clears ``startEdge``, ``translation`` and the velocity samples.
    public override func reset() {
        startEdge = []
        translation = .zero
        tracker.reset()
        endEstimate = nil
    }
}
