/// Public initializers for the events a grab forwards or sends: an adapter (the C API, a
/// scripted test) that receives an event in its own form builds SeatKit's from it to call
/// ``Router/routePointerMotion(_:)``, ``Router/sendPointerButton(_:to:)`` and the like.
/// `surfaceLocation` is zero. The send doors (``Router/sendPointerMotion(_:to:)``, …) and
/// ``Router/routePointerMotion(_:)`` recompute it for the surface they deliver to;
/// ``Router/routePointerButton(_:)``, ``Router/routePointerAxis(_:)`` and
/// ``Router/routeTouchpadGesture(_:)`` deliver the event as given, so responders then see a
/// zero `surfaceLocation` (and the given `location`, not ``Router/pointerLocation``).

extension PointerMotionEvent {
    /// A motion to `location` (layout space), with `surfaceLocation` zero; `delta` and
    /// `unacceleratedDelta` in logical units.
    public init(time: Timestamp, device: DeviceID = DeviceID(0), location: LayoutPoint,
                delta: Vector = .zero, unacceleratedDelta: Vector = .zero) {
        self.time = time
        self.device = device
        self.location = location
        self.surfaceLocation = .zero
        self.delta = delta
        self.unacceleratedDelta = unacceleratedDelta
    }
}

extension PointerButtonEvent {
    /// A press or release of `button` (evdev code) at `location` (layout space), with
    /// `surfaceLocation` zero and `isCancelled` false.
    public init(time: Timestamp, device: DeviceID = DeviceID(0), button: UInt32, state: ButtonState,
                location: LayoutPoint) {
        self.time = time
        self.device = device
        self.button = button
        self.state = state
        self.location = location
        self.surfaceLocation = .zero
    }
}

extension PointerAxisEvent {
    /// Scrolling at `location` (layout space), with `surfaceLocation` zero.
    public init(time: Timestamp, device: DeviceID = DeviceID(0), motion: AxisMotion, location: LayoutPoint) {
        self.time = time
        self.device = device
        self.motion = motion
        self.location = location
        self.surfaceLocation = .zero
    }
}

extension TouchpadGestureEvent {
    /// A touchpad gesture at `location` (the pointer's, layout space), with `surfaceLocation` zero.
    public init(time: Timestamp, device: DeviceID = DeviceID(0), gesture: TouchpadGesture, location: LayoutPoint) {
        self.time = time
        self.device = device
        self.gesture = gesture
        self.location = location
        self.surfaceLocation = .zero
    }
}
