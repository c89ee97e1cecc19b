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
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let right = Direction(rawValue: 1 << 0)
        public static let left = Direction(rawValue: 1 << 1)
        public static let up = Direction(rawValue: 1 << 2)
        public static let down = Direction(rawValue: 1 << 3)
    }

    public var direction: Direction {
        get { _direction }
        set { _direction = newValue }
    }
    @exclusivity(unchecked) var _direction: Direction
    public var numberOfTouchesRequired: Int {
        get { _numberOfTouchesRequired }
        set { _numberOfTouchesRequired = newValue }
    }
    @exclusivity(unchecked) var _numberOfTouchesRequired: Int
    /// Travel needed, in millimetres.
    public var minimumDistance: Double {
        get { _minimumDistance }
        set { _minimumDistance = newValue }
    }
    @exclusivity(unchecked) var _minimumDistance: Double
    public var maximumDuration: TimeSpan {
        get { _maximumDuration }
        set { _maximumDuration = newValue }
    }
    @exclusivity(unchecked) var _maximumDuration: TimeSpan
    /// The direction recognized.
    @exclusivity(unchecked) public private(set) var recognizedDirection: Direction = []
    @exclusivity(unchecked) private var startTime = Timestamp.zero

    public init(name: String = "swipe", direction: Direction = .right, touches: Int = 1,
                minimumDistance: Double = 15, maximumDuration: TimeSpan = .milliseconds(400)) {
        self._direction = direction
        self._numberOfTouchesRequired = touches
        self._minimumDistance = minimumDistance
        self._maximumDuration = maximumDuration
        super.init(name: name)
    }

    public override func touchesBegan(_ event: TouchEvent) {
        if touches.count > numberOfTouchesRequired { return failIfPossible() }
        if touches.count == event.touches.count {
            startTime = event.time
            schedule(at: event.time + maximumDuration)
        }
    }

    /// Too slow to be a swipe.
    public override func deadlineReached() { failIfPossible() }

    public override func touchesMoved(_ event: TouchEvent) {
        guard state == .possible else { return }
        if event.time - startTime > maximumDuration { return failIfPossible() }
        guard touches.count == numberOfTouchesRequired else { return }
        let d = TouchGeometry.meanDisplacement(touches)
        let needed = minimumDistance * layoutUnitsPerMillimetre
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

    public override func touchesEnded(_ event: TouchEvent) { failIfPossible() }

    public override func reset() { recognizedDirection = [] }
}
