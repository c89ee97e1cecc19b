/// One finger from down to up or cancel: the surface it is bound to and every responder
/// that has seen it. Pooled by the router, so a warm router allocates none.
final class TouchSequence {
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var id = TouchID(0)
        var device = DeviceID(0)
        /// The hit-test surface at touch down; `nil` when the finger landed on no surface, and
        /// the touch goes straight to the delegate.
        var surface: Surface?
        var output: Output?
        var startLocation = LayoutPoint.zero
        var startTime = Timestamp.zero
        var location = LayoutPoint.zero
        /// Every chain link that saw this touch begin and has not been told its end: its
        /// later phases go only to these, and a cancel goes to each of them.
        var seen: [ChainLink] = []
        /// Where a lookup in `seen` looks first (`seenIndex(of:)`).
        var seenHint = 0
        var beganPending = false
        var movedPending = false
        var endedPending = false
        /// Ended or cancelled; waiting to be returned to the pool.
        var finished = false
        /// Marks the sequence as grouped in the current delivery pass.
        var mark: UInt64 = 0
        /// The recognizers taking part (pooled by the router); `nil` when none does.
        var arena: GestureArena?
        /// A recognizer took the touch: responders see none of its later phases.
        var taken = false
        /// Phases waiting in the router's held queue; while any waits, later phases wait too.
        var heldCount = 0
        /// Kept from the responders in the current delivery pass (held or taken).
        var withheld = false
        /// The finger is up, though its ended phase may still be held back.
        var upReceived = false
        /// Scratch flag of the held-queue flush: an earlier phase of this touch stays held.
        var flushBlocked = false
        /// Its ID went down again in the frame that lifted it: its end goes out first.
        var endsBeforeReuse = false
        /// Its ended phase is being delivered: a removal or cancel met on the way no longer
        /// cancels it (its responders are being told it ended).
        var isEnding = false
        /// The bound surface's layout origin, carried from the touch-down's hit-test (the
        /// touch point minus the surface-local point it found) and brought up to date by the
        /// router only after an edit of the tree or layout (``Router/touchPoint(of:)``): every
        /// surface-local point of the touch is `location - surfaceOrigin`, with no walk up the
        /// tree per event. A surface removed mid-touch keeps the last one: its cancel is given
        /// in the space it had. Zero for a touch on no surface.
        var surfaceOrigin = LayoutPoint.zero
        /// `surfaceOrigin` as of the last point delivered: when the surface moved under a still
        /// finger since, the next frame tells it where the finger now is in its space.
        var lastSurfaceOrigin = LayoutPoint.zero
        /// The next record in the router's pool (``TouchRecordPool``) while this one is pooled;
        /// `nil` while it is routed.
        var nextPooled: TouchSequence?
    }

    @exclusivity(unchecked) var unchecked = HotState()

    init() { unchecked.seen.reserveCapacity(8) }

    /// A touch down's fields, all but its surface, output and arena, which a pooled or new
    /// record holds `nil` (TouchRouting's invariant 1) and ``bind(surface:output:arena:)``
    /// sets. `origin`: the layout origin of the surface the touch is bound to, as the hit-test
    /// found it (zero for none).
    func reset(id: TouchID, device: DeviceID, origin: LayoutPoint, at location: LayoutPoint, time: Timestamp) {
        self.unchecked.id = id
        self.unchecked.device = device
        self.unchecked.startLocation = location
        self.unchecked.startTime = time
        self.unchecked.location = location
        unchecked.surfaceOrigin = origin
        unchecked.lastSurfaceOrigin = origin
        // Most often empty already (an ended touch's links are dropped as they are told):
        // `removeAll(keepingCapacity:)` is a generic call of about 75 instructions even then.
        if !unchecked.seen.isEmpty { unchecked.seen.removeAllKeepingStorage() }
        unchecked.seenHint = 0
        unchecked.beganPending = true
        unchecked.movedPending = false
        unchecked.endedPending = false
        unchecked.finished = false
        unchecked.mark = 0
        unchecked.taken = false
        unchecked.heldCount = 0
        unchecked.withheld = false
        unchecked.upReceived = false
        unchecked.flushBlocked = false
        unchecked.endsBeforeReuse = false
        unchecked.isEnding = false
    }

    /// The surface and output a touch down is bound to and its arena, moved in (no retain):
    /// stored over the `nil`s a pooled or new record holds, without releasing them
    /// (``storeOverNil(_:_:)``; issue 25, sixteenth round).
    @inline(__always)
    func bind(surface: consuming Surface?, output: consuming Output?, arena: consuming GestureArena?) {
        storeOverNil(&unchecked.surface, surface)
        storeOverNil(&unchecked.output, output)
        storeOverNil(&unchecked.arena, arena)
    }

    /// Its surface (or, for a touch that landed on no surface, its output) left the layout.
    var isOrphaned: Bool {
        if let surface = unchecked.surface { return !surface.unchecked.isAttached }
        if let output = unchecked.output { return !output.isInLayout }
        return false
    }

    /// Down and not yet up: what `TouchID` lookups see.
    var isDown: Bool { !unchecked.finished && !unchecked.upReceived }

    func isPending(_ phase: TouchPhase) -> Bool {
        switch phase {
        case .began: return unchecked.beganPending
        case .moved: return unchecked.movedPending
        case .ended: return unchecked.endedPending
        }
    }

    func clearPending(_ phase: TouchPhase) {
        switch phase {
        case .began: unchecked.beganPending = false
        case .moved: unchecked.movedPending = false
        case .ended: unchecked.endedPending = false
        }
    }

    /// The link a began walk is asking saw this touch begin: listed once, in the order noted.
    /// Given by its parts (``ResponderContext/linkParts``): its ``ChainLink`` is made only when
    /// it is listed, and then once, moved into the list. Made first (`context.link`), the link
    /// was retained for the ask and released after it, beside the list's own retain (issue 25,
    /// nineteenth round: a retain and a release a link a touch down). A surface's link is
    /// looked for by its bits (``ChainLink/hasBits(of:)``: a surface's link is its pointer, so
    /// equal bits are that link and unequal bits another), an output's and the delegate's by
    /// identity. (It replaced a `noteSeen(_:)` of a whole link, which compared every listed
    /// link's bits with the link's.)
    func noteSeen(surface: Unretained<Surface>?, output: Unretained<Output>?) {
        let listed = unchecked.seen.withUnsafeBufferPointer { seen in
            var i = 0
            if let surface {
                let id = surface.identity
                while i < seen.count {
                    if seen[i].hasBits(of: id) { return true }
                    i += 1
                }
            } else {
                let id = output?.identity
                while i < seen.count {
                    if seen[i].identity == id { return true }
                    i += 1
                }
            }
            return false
        }
        #if DEBUG
        // Indexed: unspecialized (a debug build), `contains(where:)` allocates.
        let id = surface?.identity ?? output?.identity
        var found = false, j = 0
        while j < unchecked.seen.count {
            if unchecked.seen[j].identity == id { found = true }
            j += 1
        }
        precondition(listed == found, "a link's bits and its identity disagree")
        #endif
        if listed { return }
        if let surface {
            unchecked.seen.append(.surface(surface.object))
        } else if let output {
            unchecked.seen.append(.output(output.object))
        } else {
            unchecked.seen.append(.delegate)
        }
    }

    /// Whether `link` saw this touch begin and has not been told its end.
    @inline(__always)
    func hasSeen(_ link: ChainLink) -> Bool { seenIndex(of: link.identity) != nil }

    /// Whether the link with identity `id` (``ChainLink/identity``) saw this touch begin and
    /// has not been told its end.
    @inline(__always)
    func hasSeen(identity id: ObjectIdentifier?) -> Bool { seenIndex(of: id) != nil }

    /// Where the link with identity `id` is in `seen`. A walk asks links in the order they saw
    /// the touch begin, so the one after the last found is looked at first: one comparison a
    /// link on a moved walk, not a scan of the list.
    @inline(__always)
    func seenIndex(of id: ObjectIdentifier?) -> Int? {
        // Read through the buffer: the optimizer left `Array.count` out of line in a large
        // caller (the moving touch's walk), a call per read (issue 25, fourteenth round: the
        // buffer's count is one load).
        let hint = unchecked.seenHint
        let index: Int? = unchecked.seen.withUnsafeBufferPointer { seen in
            let count = seen.count
            let first = hint < count ? hint : 0
            if first < count {
                // A surface's link is found by its bits first (UnsafeFoundations.swift).
                if let id, seen[first].hasBits(of: id) { return first }
                if seen[first].identity == id { return first }
            }
            var i = 0
            while i < count {
                if seen[i].identity == id { return i }
                i += 1
            }
            return nil
        }
        if let index { unchecked.seenHint = index + 1 }
        return index
    }

    /// The link with identity `id` was told the touch ended: it follows it no more.
    @inline(__always)
    func forgetSeen(identity id: ObjectIdentifier?) {
        // Usually just found by `hasSeen`, at the hint's place before it moved on.
        let last = unchecked.seenHint - 1
        let index: Int?
        if last >= 0, last < unchecked.seen.count, unchecked.seen[last].identity == id { index = last } else { index = seenIndex(of: id) }
        guard let index else { return }
        unchecked.seen.remove(at: index)
        unchecked.seenHint = index
    }

    /// Takes `link` out of `seen`; returns whether it was there.
    func removeSeen(_ link: ChainLink) -> Bool {
        guard let index = seenIndex(of: link.identity) else { return false }
        unchecked.seen.remove(at: index)
        unchecked.seenHint = index
        return true
    }

    /// The touch as a responder sees it, in the space of its carried ``HotState/surfaceOrigin``
    /// (the router's ``Router/touchPoint(of:)`` brings that up to date first after an edit).
    @inline(__always)
    func point() -> TouchPoint { point(surfaceOrigin: unchecked.surfaceOrigin) }

    /// The touch as a responder sees it, with `origin` the bound surface's layout origin (the
    /// last one delivered when `nil`).
    @inline(__always)
    func point(surfaceOrigin origin: LayoutPoint?) -> TouchPoint {
        if let origin { unchecked.lastSurfaceOrigin = origin }
        let o = origin ?? unchecked.lastSurfaceOrigin
        return TouchPoint(id: unchecked.id, device: unchecked.device, location: unchecked.location,
                          surfaceLocation: SurfacePoint(x: unchecked.location.x - o.x, y: unchecked.location.y - o.y),
                          startLocation: unchecked.startLocation, startTime: unchecked.startTime)
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

extension TouchPoint {
    /// The same point with `surfaceLocation` in the space of a surface whose layout origin
    /// is `origin`; unchanged when `origin` is `nil` (the surface was removed: the space it
    /// last had).
    @inline(__always)
    func inSurface(at origin: LayoutPoint?) -> TouchPoint {
        guard let origin else { return self }
        var moved = self
        moved.surfaceLocation = SurfacePoint(x: location.x - origin.x, y: location.y - origin.y)
        return moved
    }
}
