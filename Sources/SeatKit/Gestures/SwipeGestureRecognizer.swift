/// Recognizes a quick straight stroke in one of the allowed directions (discrete:
/// possible → recognized as soon as the fingers have travelled ``minimumDistance``
/// millimetres that way, within ``maximumDuration`` of touching down).
///
/// The stroke is the fingers' mean displacement from where each went down; it counts for a
/// direction when its component that way is at least twice the sideways one. Too slow, the
/// wrong way or the wrong number of fingers: it fails.
public final class SwipeGestureRecognizer: GestureRecognizer {
    /// Directions in layout space (y grows downward).
    public struct Direction: OptionSet, Sendable, Hashable {
        /// The direction bits.
        public var rawValue: UInt8
        /// Directions from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Towards growing x.
        public static let right = Direction(rawValue: 1 << 0)
        /// Towards shrinking x.
        public static let left = Direction(rawValue: 1 << 1)
        /// Towards shrinking y (up on screen).
        public static let up = Direction(rawValue: 1 << 2)
        /// Towards growing y (down on screen).
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// The directions accepted (several may be set). Default: right.
    public var direction: Direction {
        get { _direction }
        set { _direction = newValue }
    }
    private var _direction: Direction
    /// Fingers the swipe takes; more fail it. Default 1.
    public var numberOfTouchesRequired: Int {
        get { _numberOfTouchesRequired }
        set { _numberOfTouchesRequired = newValue }
    }
    private var _numberOfTouchesRequired: Int
    /// Travel needed, in millimetres.
    public var minimumDistance: Double {
        get { _minimumDistance }
        set { _minimumDistance = newValue }
    }
    private var _minimumDistance: Double
    /// Time from touch down within which the travel must be made. Default 400 ms.
    public var maximumDuration: TimeSpan {
        get { _maximumDuration }
        set { _maximumDuration = newValue }
    }
    private var _maximumDuration: TimeSpan
    /// The direction recognized.
    public private(set) var recognizedDirection: Direction = []
    private var startTime = Timestamp.zero

    /// A swipe of `touches` fingers travelling `minimumDistance` millimetres in `direction`
    /// within `maximumDuration`.
    public init(name: String = "swipe", direction: Direction = .right, touches: Int = 1,
                minimumDistance: Double = 15, maximumDuration: TimeSpan = .milliseconds(400)) {
        self._direction = direction
        self._numberOfTouchesRequired = touches
        self._minimumDistance = minimumDistance
        self._maximumDuration = maximumDuration
        super.init(name: name)
    }

    /// Starts the clock at the first fingers down; too many fingers fail it.
    public override func touchesBegan(_ event: TouchEvent) {
        if unchecked.touches.count > numberOfTouchesRequired { return failIfPossible() }
        if unchecked.touches.count == event.touches.count {
            startTime = event.time
            schedule(at: event.time + maximumDuration)
        }
    }

    /// Too slow to be a swipe.
    public override func deadlineReached() { failIfPossible() }

    /// Recognized once the mean displacement reaches ``minimumDistance`` in an allowed
    /// direction; fails for a disallowed one or when too slow.
    public override func touchesMoved(_ event: TouchEvent) {
        guard state == .possible else { return }
        if event.time - startTime > maximumDuration { return failIfPossible() }
        guard unchecked.touches.count == numberOfTouchesRequired else { return }
        let d = TouchGeometry.meanDisplacement(unchecked.touches)
        let needed = minimumDistance * unchecked.layoutUnitsPerMillimetre
        let matched: Direction
        if abs(d.dx) >= 2 * abs(d.dy) {
            matched = d.dx > 0 ? .right : .left
            guard abs(d.dx) >= needed else { return }
        } else if abs(d.dy) >= 2 * abs(d.dx) {
            matched = d.dy > 0 ? .down : .up
            guard abs(d.dy) >= needed else { return }
        } else {
            return
        }
        guard direction.contains(matched) else { return failIfPossible() }
        recognizedDirection = matched
        state = .recognized
    }

    /// A finger lifted before the swipe was recognized: it fails.
    public override func touchesEnded(_ event: TouchEvent) { failIfPossible() }

    /// Clears ``recognizedDirection``.
    public override func reset() { recognizedDirection = [] }
}
