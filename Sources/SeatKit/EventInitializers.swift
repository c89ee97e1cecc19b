/// Public initializers for the events a grab forwards or sends: an adapter (the C API, a
/// scripted test) that receives an event in its own form builds SeatKit's from it to call
/// ``Router/routePointerMotion(_:)``, ``Router/sendPointerButton(_:to:)`` and the like.
/// `surfaceLocation` is zero: the route and send doors recompute it for the surface they
/// deliver to.

extension PointerMotionEvent {
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
    public init(time: Timestamp, device: DeviceID = DeviceID(0), motion: AxisMotion, location: LayoutPoint) {
        self.time = time
        self.device = device
        self.motion = motion
        self.location = location
        self.surfaceLocation = .zero
    }
}

extension TouchpadGestureEvent {
    public init(time: Timestamp, device: DeviceID = DeviceID(0), gesture: TouchpadGesture, location: LayoutPoint) {
        self.time = time
        self.device = device
        self.gesture = gesture
        self.location = location
        self.surfaceLocation = .zero
    }
}
