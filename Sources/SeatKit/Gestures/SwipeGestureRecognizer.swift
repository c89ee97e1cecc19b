/// Recognizes a quick straight stroke in one of the allowed directions (discrete:
/// possible → recognized as soon as the fingers have travelled ``minimumDistance``
/// millimetres that way, within ``maximumDuration`` of touching down).
///
/// The stroke is the fingers' mean displacement from where each went down; it counts for a
/// direction when its component that way is at least twice the sideways one. Too slow, the
/// wrong way or the wrong number of fingers: it fails.
///
/// With ``reportsProgress`` it is a compositor gesture that follows the fingers instead
/// (continuous, as KWin's global swipes): it begins once the stroke has a direction (3 mm,
/// or ``minimumDistance`` if shorter), reports ``GestureRecognizer/progress`` toward
/// ``minimumDistance`` while the fingers move (with no time limit), and when a finger lifts it
/// ends (commit) if the progress reached 1, else it is cancelled (undo what was shown).
///
/// A swipe of several fingers waits, by default, for as long as fewer are down: a one-finger
/// drag keeps it possible, and so shown every motion, until the finger lifts.
/// ``maximumTravelUntilAllTouches`` and ``maximumDelayUntilAllTouches`` (off by default) fail
/// it as soon as the touches cannot become the swipe's fingers, which lets the router stop
/// showing it their motions.
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
    /// A compositor gesture that follows the fingers (see the type's description): began,
    /// changed with ``GestureRecognizer/progress``, then ended or cancelled. Default: false
    /// (discrete, UIKit's swipe). Change it only while the recognizer is idle.
    public var reportsProgress: Bool {
        get { _reportsProgress }
        set { _reportsProgress = newValue }
    }
    private var _reportsProgress = false

    /// The farthest, in millimetres (measured in layout space as ``minimumDistance`` is,
    /// with ``GestureRecognizer/layoutUnitsPerMillimetre``), that any finger may travel from
    /// where it went down while fewer than ``numberOfTouchesRequired`` fingers are down; a
    /// finger that goes farther fails the swipe at that motion. `nil` (the default): no
    /// limit, the swipe waits for its fingers however far the first ones move. Once all the
    /// fingers are down it no longer applies.
    ///
    /// No peer has this limit as such. libinput fixes a touchpad gesture's finger count once
    /// its fingers have moved (a later change is debounced for 100 ms and ends the gesture),
    /// but a lone finger's motion is pointer motion there, which starts no gesture, so fingers
    /// may still join it; Clutter's `GestureAction` (GNOME Shell's touchscreen swipes) waits
    /// for its points with no limit; UIKit documents none. This applies libinput's "motion
    /// fixes the count" from the first finger, because on a touchscreen that finger's motion
    /// has already gone to the app (a scroll, a drag), which a swipe recognized later would
    /// take away with a cancel. A finger's travel, not the mean displacement, so that fingers
    /// resting while another moves do not hide it. Change it only while the recognizer is
    /// idle.
    public var maximumTravelUntilAllTouches: Double? {
        get { _maximumTravelUntilAllTouches }
        set { _maximumTravelUntilAllTouches = newValue }
    }
    private var _maximumTravelUntilAllTouches: Double?

    /// The longest time from the first finger landing to the last of the
    /// ``numberOfTouchesRequired`` landing; a finger that lands later fails the swipe, and so
    /// does a motion later than that while fewer fingers are down. `nil` (the default): no
    /// limit. Event times only (each touch's device time): no timer is set, so a swipe whose
    /// fingers rest fails at their next motion or down, or when one lifts.
    ///
    /// The rule is KWin's for its touchscreen gestures (each finger must land within 250 ms
    /// of the one before, or the gesture is cancelled), measured here from the first finger,
    /// so that the whole wait is bounded whatever the count; the GNUstep gesture recognizers
    /// modelled on UIKit's give all the fingers of a swipe 0.3 s. Real three-finger swipes
    /// land within about 100 to 150 ms. Change it only while the recognizer is idle.
    public var maximumDelayUntilAllTouches: TimeSpan? {
        get { _maximumDelayUntilAllTouches }
        set { _maximumDelayUntilAllTouches = newValue }
    }
    private var _maximumDelayUntilAllTouches: TimeSpan?
    /// The direction recognized (with ``reportsProgress``: the direction it follows, from
    /// `.began`).
    public var recognizedDirection: Direction { _recognizedDirection }
    /// Backs ``recognizedDirection``: private storage, so the optimizer drops the run-time
    /// exclusivity checks a public stored property keeps (each reset wrote it through one).
    private var _recognizedDirection: Direction = []
    /// Velocity of the stroke (the fingers' mean displacement) in layout units per second,
    /// least squares over the last 100 ms (see ``VelocityTracker``): at recognition, how fast
    /// the swipe went; with ``reportsProgress``, at the end, the velocity the fingers lifted
    /// with (zero if they rested over 40 ms first).
    public var velocity: Vector { velocityEstimate.perSecond }
    /// ``velocity`` in millimetres per second of the touch device.
    public var velocityInMillimetres: Vector { velocity.perMillimetre(layoutUnitsPerMillimetre) }
    /// The estimate behind ``velocity``, with its confidence.
    public var velocityEstimate: VelocityEstimate { endEstimate ?? tracker.estimate() }
    private var tracker = VelocityTracker()
    private var endEstimate: VelocityEstimate?
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

    /// Starts the clock at the first fingers down; too many fingers fail it, and so do
    /// fingers landing later than ``maximumDelayUntilAllTouches`` after the first.
    public override func touchesBegan(_ event: TouchEvent) {
        if unchecked.touches.count > numberOfTouchesRequired { return failIfPossible() }
        if unchecked.touches.count == event.touches.count {
            startTime = event.time
            tracker.add(Vector.zero, time: event.time)
            if !reportsProgress { schedule(at: event.time + maximumDuration) }
        } else if let limit = maximumDelayUntilAllTouches, event.time - startTime > limit {
            failIfPossible()
        }
    }

    /// Too slow to be a swipe.
    public override func deadlineReached() { failIfPossible() }

    /// Recognized once the mean displacement reaches ``minimumDistance`` in an allowed
    /// direction; fails for a disallowed one or when too slow, and while fewer than
    /// ``numberOfTouchesRequired`` fingers are down, past ``maximumTravelUntilAllTouches`` or
    /// ``maximumDelayUntilAllTouches``.
    public override func touchesMoved(_ event: TouchEvent) {
        if unchecked.touches.count < numberOfTouchesRequired, state == .possible,
           cannotGatherAllTouches(at: event.time) {
            return failIfPossible()
        }
        let d = TouchGeometry.meanDisplacement(unchecked.touches)
        tracker.add(d, time: event.time)
        if reportsProgress { return followFingers(d) }
        guard state == .possible else { return }
        if event.time - startTime > maximumDuration { return failIfPossible() }
        guard unchecked.touches.count == numberOfTouchesRequired else { return }
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
        _recognizedDirection = matched
        state = .recognized
    }

    /// While fewer fingers than the swipe's are down: whether a finger has travelled past
    /// ``maximumTravelUntilAllTouches`` or the time is past ``maximumDelayUntilAllTouches``.
    private func cannotGatherAllTouches(at time: Timestamp) -> Bool {
        if let limit = maximumDelayUntilAllTouches, time - startTime > limit { return true }
        guard let travel = maximumTravelUntilAllTouches else { return false }
        let reach = travel * unchecked.layoutUnitsPerMillimetre
        let reachSquared = reach * reach
        let touches = unchecked.touches
        var i = 0
        while i < touches.count {
            let dx = touches[i].location.x - touches[i].startLocation.x
            let dy = touches[i].location.y - touches[i].startLocation.y
            if dx * dx + dy * dy > reachSquared { return true }
            i += 1
        }
        return false
    }

    /// With ``reportsProgress``: begins once the stroke has a direction, then reports the
    /// progress along it toward ``minimumDistance``.
    private func followFingers(_ d: Vector) {
        let needed = minimumDistance * unchecked.layoutUnitsPerMillimetre
        if state == .possible {
            guard unchecked.touches.count == numberOfTouchesRequired else { return }
            let lock = min(3 * unchecked.layoutUnitsPerMillimetre, needed)
            let matched: Direction
            if abs(d.dx) >= 2 * abs(d.dy) {
                guard abs(d.dx) >= lock, abs(d.dx) > 0 else { return }
                matched = d.dx > 0 ? .right : .left
            } else if abs(d.dy) >= 2 * abs(d.dx) {
                guard abs(d.dy) >= lock else { return }
                matched = d.dy > 0 ? .down : .up
            } else {
                return
            }
            guard direction.contains(matched) else { return failIfPossible() }
            _recognizedDirection = matched
            progress = Self.along(d, matched) / max(needed, .leastNonzeroMagnitude)
            state = .began
        } else if state.isInProgress {
            progress = Self.along(d, recognizedDirection) / max(needed, .leastNonzeroMagnitude)
            state = .changed
        }
    }

    /// The component of `d` in `direction` (negative when the stroke went back past its start).
    private static func along(_ d: Vector, _ direction: Direction) -> Double {
        switch direction {
        case .right: return d.dx
        case .left: return -d.dx
        case .down: return d.dy
        default: return -d.dy
        }
    }

    /// A finger lifted: before recognition it fails; with ``reportsProgress``, a swipe in
    /// progress ends if its progress reached 1 and is cancelled otherwise.
    public override func touchesEnded(_ event: TouchEvent) {
        if state.isInProgress {
            endEstimate = tracker.estimate(at: event.time)
            state = progress >= 1 ? .ended : .cancelled
            return
        }
        failIfPossible()
    }

    /// Clears ``recognizedDirection`` and the velocity samples.
    public override func reset() {
        _recognizedDirection = []
        tracker.reset()
        endEstimate = nil
    }
}
