/// One finger from down to up or cancel: the surface it is bound to and every responder
/// that has seen it. Pooled by the router, so a warm router allocates none.
final class TouchSequence {
    var id = TouchID(0)
    var device = DeviceID(0)
    /// The hit-test surface at touch down; `nil` when the finger landed on no surface, and
    /// the touch goes straight to the delegate.
    var surface: Surface?
    var output: Output?
    var startLocation = LayoutPoint.zero
    var startTime = Timestamp.zero
    var location = LayoutPoint.zero
    /// Every chain link that was asked about this touch; cancel goes to each of them.
    var seen: [ChainLink] = []
    var beganPending = false
    var movedPending = false
    var endedPending = false
    /// Ended or cancelled; waiting to be returned to the pool.
    var finished = false
    /// Marks the sequence as grouped in the current delivery pass.
    var mark: UInt64 = 0

    init() { seen.reserveCapacity(8) }

    func reset(id: TouchID, device: DeviceID, surface: Surface?, output: Output?, at location: LayoutPoint, time: Timestamp) {
        self.id = id
        self.device = device
        self.surface = surface
        self.output = output
        self.startLocation = location
        self.startTime = time
        self.location = location
        seen.removeAll(keepingCapacity: true)
        beganPending = true
        movedPending = false
        endedPending = false
        finished = false
        mark = 0
    }

    func isPending(_ phase: TouchPhase) -> Bool {
        switch phase {
        case .began: return beganPending
        case .moved: return movedPending
        case .ended: return endedPending
        }
    }

    func clearPending(_ phase: TouchPhase) {
        switch phase {
        case .began: beganPending = false
        case .moved: movedPending = false
        case .ended: endedPending = false
        }
    }

    func noteSeen(_ link: ChainLink) {
        if seen.scanIndex(where: { $0.isSame(as: link) }) != nil { return }
        seen.append(link)
    }

    /// The touch as a responder sees it, with `origin` the bound surface's layout origin.
    func point(surfaceOrigin origin: LayoutPoint?) -> TouchPoint {
        let o = origin ?? .zero
        return TouchPoint(id: id, device: device, location: location,
                          surfaceLocation: SurfacePoint(x: location.x - o.x, y: location.y - o.y),
                          startLocation: startLocation, startTime: startTime)
    }
}

/// The delivered phases of a touch, in the order a frame delivers them.
enum TouchPhase: CaseIterable {
    case began, moved, ended

    var kind: RoutedEventKind {
        switch self {
        case .began: return .touchesBegan
        case .moved: return .touchesMoved
        case .ended: return .touchesEnded
        }
    }
}
