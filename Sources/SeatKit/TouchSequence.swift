/// One finger from down to up or cancel: the surface it is bound to and every responder
/// that has seen it. Pooled by the router, so a warm router allocates none.
final class TouchSequence {
    @exclusivity(unchecked) var id = TouchID(0)
    @exclusivity(unchecked) var device = DeviceID(0)
    /// The hit-test surface at touch down; `nil` when the finger landed on no surface, and
    /// the touch goes straight to the delegate.
    @exclusivity(unchecked) var surface: Surface?
    @exclusivity(unchecked) var output: Output?
    @exclusivity(unchecked) var startLocation = LayoutPoint.zero
    @exclusivity(unchecked) var startTime = Timestamp.zero
    @exclusivity(unchecked) var location = LayoutPoint.zero
    /// Every chain link that was asked about this touch; cancel goes to each of them.
    @exclusivity(unchecked) var seen: [ChainLink] = []
    @exclusivity(unchecked) var beganPending = false
    @exclusivity(unchecked) var movedPending = false
    @exclusivity(unchecked) var endedPending = false
    /// Ended or cancelled; waiting to be returned to the pool.
    @exclusivity(unchecked) var finished = false
    /// Marks the sequence as grouped in the current delivery pass.
    @exclusivity(unchecked) var mark: UInt64 = 0
    /// The recognizers taking part (pooled by the router); `nil` when none does.
    @exclusivity(unchecked) var arena: GestureArena?
    /// A recognizer took the touch: responders see none of its later phases.
    @exclusivity(unchecked) var taken = false
    /// Phases waiting in the router's held queue; while any waits, later phases wait too.
    @exclusivity(unchecked) var heldCount = 0
    /// Kept from the responders in the current delivery pass (held or taken).
    @exclusivity(unchecked) var withheld = false
    /// The finger is up, though its ended phase may still be held back.
    @exclusivity(unchecked) var upReceived = false
    /// Scratch flag of the held-queue flush: an earlier phase of this touch stays held.
    @exclusivity(unchecked) var flushBlocked = false
    /// Its ID went down again in the frame that lifted it: its end goes out first.
    @exclusivity(unchecked) var endsBeforeReuse = false
    /// Its ended phase is being delivered: a removal or cancel met on the way no longer
    /// cancels it (its responders are being told it ended).
    @exclusivity(unchecked) var isEnding = false

    init() { seen.reserveCapacity(8) }

    func reset(id: TouchID, device: DeviceID, surface: Surface?, output: Output?, at location: LayoutPoint, time: Timestamp) {
        self.id = id
        self.device = device
        self.surface = surface
        self.output = output
        self.startLocation = location
        self.startTime = time
        self.location = location
        lastSurfaceOrigin = surface?.layoutOrigin ?? .zero
        seen.removeAll(keepingCapacity: true)
        beganPending = true
        movedPending = false
        endedPending = false
        finished = false
        mark = 0
        taken = false
        heldCount = 0
        withheld = false
        upReceived = false
        flushBlocked = false
        endsBeforeReuse = false
        isEnding = false
    }

    /// Its surface (or, for a touch that landed on no surface, its output) left the layout.
    var isOrphaned: Bool {
        if let surface { return !surface.isAttached }
        if let output { return !output.isInLayout }
        return false
    }

    /// Down and not yet up: what `TouchID` lookups see.
    var isDown: Bool { !finished && !upReceived }

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

    /// The bound surface's layout origin when last known: a surface removed mid-touch has
    /// none, and its cancel is still given in the space it had.
    @exclusivity(unchecked) var lastSurfaceOrigin = LayoutPoint.zero

    /// The touch as a responder sees it, with `origin` the bound surface's layout origin (the
    /// last one known when `nil`).
    func point(surfaceOrigin origin: LayoutPoint?) -> TouchPoint {
        if let origin { lastSurfaceOrigin = origin }
        let o = origin ?? lastSurfaceOrigin
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
