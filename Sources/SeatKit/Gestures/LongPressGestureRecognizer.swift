/// Recognizes fingers held still (continuous: began when the press has lasted
/// ``minimumPressDuration``, changed as they then move, ended when one lifts).
///
/// Before it begins, a finger moving more than ``allowableMovement`` millimetres fails it.
/// The deadline is the touch-down time of the frame in which the required number of
/// fingers was reached, plus ``minimumPressDuration``, on the router's clock: under a
/// ``VirtualClock`` it begins exactly then.
public final class LongPressGestureRecognizer: GestureRecognizer {
    /// How long the fingers must stay down and still before it begins. Default 500 ms.
    public var minimumPressDuration: TimeSpan {
        get { _minimumPressDuration }
        set { _minimumPressDuration = newValue }
    }
    private var _minimumPressDuration: TimeSpan
    /// How many fingers the press takes; more fingers fail it. Default 1.
    public var numberOfTouchesRequired: Int {
        get { _numberOfTouchesRequired }
        set { _numberOfTouchesRequired = newValue }
    }
    private var _numberOfTouchesRequired: Int
    /// How far a finger may move before the press begins, in millimetres.
    public var allowableMovement: Double {
        get { _allowableMovement }
        set { _allowableMovement = newValue }
    }
    private var _allowableMovement: Double
    /// The fingers' centroid, in layout space.
    public var location: LayoutPoint { centroid }

    /// A long press of `touches` fingers held `minimumPressDuration`, moving at most
    /// `allowableMovement` millimetres.
    public init(name: String = "long-press", minimumPressDuration: TimeSpan = .milliseconds(500),
                touches: Int = 1, allowableMovement: Double = 10) {
        self._minimumPressDuration = minimumPressDuration
        self._numberOfTouchesRequired = touches
        self._allowableMovement = allowableMovement
        super.init(name: name)
        // Pens by default; mouse drags on request (GestureInputKinds.swift).
        unchecked.composition.allowed = .touchAndPen
    }

    /// Touch, pen and pointer: a pen stroke or a left-button drag is one touch to it. It
    /// follows touch and pen unless ``GestureRecognizer/allowedInputKinds`` says otherwise.
    public override var supportedInputKinds: GestureInputKinds { .touchPenPointer }

    /// Arms the deadline once the required fingers are down; one finger too many fails it.
    public override func touchesBegan(_ event: TouchEvent) {
        guard state == .possible else { return }
        if unchecked.touches.count > numberOfTouchesRequired { return failIfPossible() }
        if unchecked.touches.count == numberOfTouchesRequired {
            schedule(at: event.time + minimumPressDuration)
        }
    }

    /// Held long enough: it begins, if the fingers are still the ones it needs.
    public override func deadlineReached() {
        if state == .possible && unchecked.touches.count == numberOfTouchesRequired { state = .began }
    }

    /// Before the deadline, a finger beyond ``allowableMovement`` fails it; after, each
    /// move is a change.
    public override func touchesMoved(_ event: TouchEvent) {
        if state.isInProgress {
            state = .changed
            return
        }
        if anyTouch(in: event, movedBeyond: allowableMovement) { failIfPossible() }
    }

    /// A lifted finger ends a begun press and fails one not yet begun.
    public override func touchesEnded(_ event: TouchEvent) {
        if state.isInProgress { state = .ended } else { failIfPossible() }
    }
}
