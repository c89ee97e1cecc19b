/// Recognizes one or more taps of one or more fingers (discrete: possible → recognized).
///
/// A tap is the required number of fingers going down and up without any of them moving
/// more than ``allowableMovement`` millimetres from where it went down, within
/// ``maximumPressDuration``; successive taps must start within ``maximumTapInterval`` of the
/// previous tap's last finger up. For "a tap but not a double tap", make the single tap
/// ``GestureRecognizer/require(toFail:)`` the double tap.
public final class TapGestureRecognizer: GestureRecognizer {
    /// Taps in the sequence (2 for a double tap). Default 1.
    public var numberOfTapsRequired: Int {
        get { _numberOfTapsRequired }
        set { _numberOfTapsRequired = newValue }
    }
    private var _numberOfTapsRequired: Int
    /// Fingers per tap; a tap with more or fewer fails it. Default 1.
    public var numberOfTouchesRequired: Int {
        get { _numberOfTouchesRequired }
        set { _numberOfTouchesRequired = newValue }
    }
    private var _numberOfTouchesRequired: Int
    /// How far each finger may move from its touch-down point, in millimetres (see
    /// ``Router/unitsPerMillimetre(device:at:)``).
    public var allowableMovement: Double {
        get { _allowableMovement }
        set { _allowableMovement = newValue }
    }
    private var _allowableMovement: Double
    /// Longest time from one tap's last finger up to the next tap's first finger down.
    public var maximumTapInterval: TimeSpan {
        get { _maximumTapInterval }
        set { _maximumTapInterval = newValue }
    }
    private var _maximumTapInterval: TimeSpan
    /// Longest time a tap's fingers may stay down.
    public var maximumPressDuration: TimeSpan {
        get { _maximumPressDuration }
        set { _maximumPressDuration = newValue }
    }
    private var _maximumPressDuration: TimeSpan
    /// Taps completed in the current sequence.
    public private(set) var tapCount = 0
    /// Where the last tap's fingers were when they lifted (their centroid), in layout space.
    public private(set) var location = LayoutPoint.zero
    private var touchesInThisTap = 0

    /// A tap recognizer. `taps` and `touches` must be at least 1 (a precondition: zero stops the
    /// process); `allowableMovement` is in millimetres.
    public init(name: String = "tap", taps: Int = 1, touches: Int = 1, allowableMovement: Double = 5,
                maximumTapInterval: TimeSpan = .milliseconds(300), maximumPressDuration: TimeSpan = .milliseconds(500)) {
        precondition(taps >= 1 && touches >= 1, "a tap needs at least one tap of one finger")
        self._numberOfTapsRequired = taps
        self._numberOfTouchesRequired = touches
        self._allowableMovement = allowableMovement
        self._maximumTapInterval = maximumTapInterval
        self._maximumPressDuration = maximumPressDuration
        super.init(name: name)
        // Pens by default; mouse drags on request (GestureInputKinds.swift).
        unchecked.composition.allowed = .touchAndPen
    }

    /// Touch, pen and pointer: a pen stroke or a left-button drag is one touch to it. It
    /// follows touch and pen unless ``GestureRecognizer/allowedInputKinds`` says otherwise.
    public override var supportedInputKinds: GestureInputKinds { .touchPenPointer }

    /// Starts a tap (arming ``maximumPressDuration``); too many fingers fail it.
    public override func touchesBegan(_ event: TouchEvent) {
        if unchecked.touches.count > numberOfTouchesRequired { return failIfPossible() }
        if touchesInThisTap == 0 {
            cancelTimers()  // the interval timer: the next tap came in time
            schedule(at: event.time + maximumPressDuration)
        }
        touchesInThisTap += event.touches.count
    }

    /// A finger beyond ``allowableMovement`` fails it.
    public override func touchesMoved(_ event: TouchEvent) {
        if anyTouch(in: event, movedBeyond: allowableMovement) { failIfPossible() }
    }

    /// The last finger up completes a tap: recognized at the required count, else the
    /// ``maximumTapInterval`` timer is armed.
    public override func touchesEnded(_ event: TouchEvent) {
        guard unchecked.touches.count == event.touches.count else { return }  // fingers still down
        location = centroid
        cancelTimers()
        guard touchesInThisTap == numberOfTouchesRequired else { return failIfPossible() }
        touchesInThisTap = 0
        tapCount += 1
        if tapCount >= numberOfTapsRequired {
            if state == .possible { state = .recognized }
        } else {
            schedule(at: event.time + maximumTapInterval)
        }
    }

    /// The press lasted too long, or the next tap did not come in time.
    public override func deadlineReached() { failIfPossible() }

    /// Forgets the taps counted.
    public override func reset() {
        tapCount = 0
        touchesInThisTap = 0
    }
}
