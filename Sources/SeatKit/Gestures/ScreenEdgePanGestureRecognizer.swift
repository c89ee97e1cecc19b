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
    /// The edge the finger started from.
    public private(set) var startEdge: Edges = []
    /// Movement since touch down, in layout units.
    public private(set) var translation = Vector.zero
    /// Layout units per second.
    public private(set) var velocity = Vector.zero
    private var tracker = VelocityTracker()

    /// An edge pan from `edges`, landing within `edgeWidth` and travelling `minimumDistance`
    /// inward (both in millimetres).
    public init(name: String = "edge-pan", edges: Edges = .left, edgeWidth: Double = 5, minimumDistance: Double = 5) {
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
        tracker.reset(at: p, time: event.time)
    }

    /// Updates ``translation`` and ``velocity``; begins once the inward travel reaches
    /// ``minimumDistance`` and exceeds the sideways one.
    public override func touchesMoved(_ event: TouchEvent) {
        guard let touch = unchecked.touches.first else { return }
        translation = touch.location.vector(from: touch.startLocation)
        tracker.add(touch.location, time: event.time)
        velocity = tracker.velocity
        if state == .possible {
            let inward: Double, sideways: Double
            switch startEdge {
            case .left: (inward, sideways) = (translation.dx, translation.dy)
            case .right: (inward, sideways) = (-translation.dx, translation.dy)
            case .top: (inward, sideways) = (translation.dy, translation.dx)
            default: (inward, sideways) = (-translation.dy, translation.dx)
            }
            if inward >= minimumDistance * unchecked.layoutUnitsPerMillimetre && inward > abs(sideways) { state = .began }
        } else if state.isInProgress {
            state = .changed
        }
    }

    /// Ends (or fails) when the finger lifts.
    public override func touchesEnded(_ event: TouchEvent) {
        guard unchecked.touches.count == event.touches.count else { return }
        velocity = tracker.velocity(at: event.time)
        if state.isInProgress { state = .ended } else { failIfPossible() }
    }

    /// Clears ``startEdge``, ``translation`` and ``velocity``.
    public override func reset() {
        startEdge = []
        translation = .zero
        velocity = .zero
        tracker = VelocityTracker()
    }
}
