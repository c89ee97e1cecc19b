extension Router {
    /// The number of fingers down and routed (not counting touches a filter took).
    public var activeTouchCount: Int { unchecked.touches.records.reduce(0) { $1.isDown ? $0 + 1 : $0 } }

    /// The surface a touch is bound to, while it is down.
    public func surface(boundTo id: TouchID) -> Surface? {
        unchecked.touches.records.first { $0.unchecked.id == id && $0.isDown }?.unchecked.surface
    }

    /// Cancels every active touch for which `predicate` holds: the recognizers of its arena
    /// are told first, then each responder that saw it gets `touchesCancelled` (removed
    /// surfaces excepted), and later events of the touch are ignored until its up. Goes
    /// through no filter or grab; the grab's touches are cancelled like any other.
    public func cancelTouches(reason: String, where predicate: (TouchSnapshot) -> Bool) {
        cancelSequences(reason: reason) { predicate(TouchSnapshot($0)) }
    }

    /// What can be known about an active touch from outside the router.
    public struct TouchSnapshot {
        /// Which finger.
        public let id: TouchID
        /// The touchscreen it is on.
        public let device: DeviceID
        /// The surface it is bound to (hit-tested at its down); `nil` when it went down over
        /// no surface or its surface was removed.
        public let surface: Surface?
        /// The output it went down on.
        public let output: Output?
        /// Where the finger is now, in layout space.
        public let location: LayoutPoint

        init(_ s: TouchSequence) {
            id = s.unchecked.id
            device = s.unchecked.device
            surface = s.unchecked.surface
            output = s.unchecked.output
            location = s.unchecked.location
        }
    }

    // MARK: Input

    // A touch event's way in, the same for ``inject(_:)`` (`firstFilter` 0) and for a touch a
    // filter routes past itself (``injectTouch(_:afterFilter:)``: the filters after it): the
    // filters from `firstFilter` on, spies, the touch grab, then the default rule. Only the
    // filters' asking looks at `firstFilter` (``runTouchFilters(_:kind:from:)``).

    // `touchDown` and `touchTakenByFilter` stay out of line, as they were before the two ways
    // in shared them: inlined into `inject(_:)`, they made its frame larger for every event
    // (pointer motion +18 instructions, touch motion + frame +12).
    @inline(never)
    func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, firstFilter: Int) {
        guard point.x.isFinite, point.y.isFinite else { return ignore(event, "non-finite position") }
        if unchecked.touches.takenByFilters.scanContains(id) || activeSequence(id) != nil {
            trace?.record(.ignored(event, reason: "touch id already down"))
            observe(event, consumed: true)
            return
        }
        if runTouchFilters(event, kind: .touchDowns, from: firstFilter) {
            unchecked.touches.takenByFilters.append(id)
            return
        }
        if let grab = unchecked.touches.grab {
            grab.touchDown(event, id: id, at: point, router: self)
            return
        }
        routeTouchDown(event, id: id, at: point)
    }

    func touchMotion(_ event: InputEvent, id: TouchID, to point: LayoutPoint, firstFilter: Int) {
        guard point.x.isFinite, point.y.isFinite else { return ignore(event, "non-finite position") }
        if touchTakenByFilter(event, id: id, lastEvent: false, firstFilter: firstFilter) { return }
        if let grab = unchecked.touches.grab {
            grab.touchMoved(event, id: id, to: point, router: self)
            return
        }
        routeTouchMotion(event, id: id, to: point)
    }

    func touchUp(_ event: InputEvent, id: TouchID, firstFilter: Int) {
        if touchTakenByFilter(event, id: id, lastEvent: true, firstFilter: firstFilter) { return }
        if let grab = unchecked.touches.grab {
            grab.touchUp(event, id: id, router: self)
            return
        }
        routeTouchUp(event, id: id)
    }

    func touchCancel(_ event: InputEvent, id: TouchID, firstFilter: Int) {
        if touchTakenByFilter(event, id: id, lastEvent: true, firstFilter: firstFilter) { return }
        if let grab = unchecked.touches.grab {
            grab.touchCancelled(event, id: id, router: self)
            return
        }
        cancelSequences(reason: "cancelled by the device") { $0.unchecked.id == id && $0.isDown }
    }

    /// Frames belong to the device, not to one touch: filters are not asked, and a frame
    /// always closes the changes of the touches routed so far.
    func touchFrame(_ event: InputEvent) {
        observe(event, consumed: false)
        if let grab = unchecked.touches.grab {
            grab.touchFrame(event, router: self)
            return
        }
        dispatchTouches(time: event.time)
    }

    /// Filters see whole touch sequences. True when the rest of touch `id` is a filter's:
    /// its down was taken, or a filter from `firstFilter` on takes it now, mid-touch (a lock
    /// screen engaging): then every responder and recognizer that saw it is told it was
    /// cancelled, and the filter gets the rest of it. Spies hear every event either way.
    @inline(never)
    private func touchTakenByFilter(_ event: InputEvent, id: TouchID, lastEvent: Bool, firstFilter: Int) -> Bool {
        if let index = unchecked.touches.takenByFilters.scanIndex(of: id) {
            takenTouchEvent(event, id: id, lastEvent: lastEvent, at: index, firstFilter: firstFilter)
            return true
        }
        if !unchecked.filterList.asks(.touches) {
            observe(event, consumed: false, oneOf: Self.touchKindsAfterDown)
            return false
        }
        guard runTouchFilters(event, kind: .touches, from: firstFilter) else { return false }
        if !lastEvent { unchecked.touches.takenByFilters.append(id) }
        cancelSequences(reason: "taken by a filter") { $0.unchecked.id == id && $0.isDown }
        return true
    }

    /// The kinds ``touchTakenByFilter(_:id:lastEvent:firstFilter:)`` is handed: a touch's
    /// motion, up or cancel.
    static let touchKindsAfterDown: InputEventKinds = [.touchMotion, .touchUp, .touchCancel]

    /// ``runFilters(_:kind:)`` from the filter at `firstFilter` on: all of them (the inline
    /// test for no filter asked, then only the spies) at 0, else out of line (rare).
    @inline(__always)
    private func runTouchFilters(_ event: InputEvent, kind: FilterInterests, from firstFilter: Int) -> Bool {
        if firstFilter == 0 { return runFilters(event, kind: kind) }
        return runFilters(event, kind: kind, from: firstFilter)
    }

    /// ``runFilters(_:kind:)`` asking only the filters from `firstFilter` (> 0) on.
    @inline(never)
    private func runFilters(_ event: InputEvent, kind: FilterInterests, from firstFilter: Int) -> Bool {
        let consumedBy = askTouchFilters(event, kind: kind, from: firstFilter)
        if let consumedBy { traceConsumed(event, by: consumedBy) }
        observe(event, consumed: consumedBy != nil)
        return consumedBy != nil
    }

    /// Asks the filters from `firstFilter` on that are asked about `kind`, if any; returns the
    /// index of the one that consumed the event.
    private func askTouchFilters(_ event: InputEvent, kind: FilterInterests, from firstFilter: Int) -> Int? {
        if firstFilter == 0 { return unchecked.filterList.asks(kind) ? askFilters(event, kind: kind) : nil }
        return unchecked.filterList.asks(kind, after: firstFilter - 1) ? askFilters(event, from: firstFilter) : nil
    }

    // MARK: A filter's touches, routed past it

    /// From now on, while `filter` is asked about touches, the motion of `finger` (whose
    /// down a filter took) is routed as the motion of `touch` from `device` past `filter`
    /// (``injectTouch(_:afterFilter:)``), without asking `filter`: for a filter that answers
    /// each motion of the finger so and does nothing else with it (touch accommodations'
    /// counted touch). The filters before it are still asked about the finger's motion, one
    /// by one; one of them consuming it stops it there, as asking in order would. While
    /// `filter` is not asked about touches (off, removed, or its lists are being rebuilt) the
    /// motion is asked of the filters as any taken touch's. Ends with the finger's up or
    /// cancel (which the filters are asked about as before), or ``stopFollowingFingers(byFilter:)``.
    func followFinger(_ finger: TouchID, asTouch touch: TouchID, device: DeviceID, byFilter filter: AnyObject) {
        unchecked.touches.followedFingers.removeAll { $0.finger == finger }
        // Only a finger whose down a filter took (its events come to ``takenTouchEvent``).
        guard unchecked.touches.takenByFilters.scanContains(finger) else { return }
        unchecked.touches.followedFingers.append(FollowedFinger(finger: finger, touch: touch, device: device,
                                                                filter: FilterList.address(of: filter)))
    }

    /// Stops following the fingers ``followFinger(_:asTouch:device:byFilter:)`` follows for `filter`.
    func stopFollowingFingers(byFilter filter: AnyObject) {
        let address = FilterList.address(of: filter)
        unchecked.touches.followedFingers.removeAll { $0.filter == address }
    }

    /// An event of a touch whose down a filter took (at `index` in the taken list): shown to
    /// the filters (a lock screen follows the finger), but taken whatever they answer; the
    /// motion of a followed finger routed as its filter's touch. Out of line: the touch
    /// with no filter keeps its code.
    ///
    /// `firstFilter`: the first filter asked (0 but for ``injectTouch(_:afterFilter:)``). A
    /// touch a filter routes past itself is not followed that way: its motion is shown to the
    /// filters from `firstFilter` on like any taken touch's.
    @inline(never)
    private func takenTouchEvent(_ event: InputEvent, id: TouchID, lastEvent: Bool, at index: Int, firstFilter: Int) {
        if lastEvent {
            unchecked.touches.takenByFilters.remove(at: index)
            if !unchecked.touches.followedFingers.isEmpty { unchecked.touches.followedFingers.removeAll { $0.finger == id } }
        } else if firstFilter == 0, !unchecked.touches.followedFingers.isEmpty, followedFingerMoved(event, id: id) {
            if trace != nil { traceFollowedConsumed(event) }
            observe(event, consumed: true)
            return
        }
        _ = askTouchFilters(event, kind: .touches, from: firstFilter)
        if trace != nil { traceFollowedConsumed(event) }
        observe(event, consumed: true)
    }

    /// Out of line: inline, the event was copied for the trace's entry at every call.
    @inline(never)
    private func traceFollowedConsumed(_ event: InputEvent) {
        trace?.record(.followedConsumed(event))
    }

    /// Moves the routed touch `id` to `point` (``routeTouchMotion(_:id:to:)`` without its
    /// event); false when no such touch is down.
    @inline(__always)
    private func moveTouch(_ id: TouchID, to point: LayoutPoint) -> Bool {
        guard let index = unchecked.touches.records.scanIndex(where: { $0.unchecked.id == id && $0.isDown }) else { return false }
        unchecked.touches.records[index].unchecked.location = point
        if !unchecked.touches.records[index].unchecked.beganPending { unchecked.touches.records[index].unchecked.movedPending = true }
        return true
    }

    /// The motion of a taken finger: true when it is followed and was routed so (the filters
    /// before its filter asked, then its touch's motion routed past it).
    @inline(__always)
    private func followedFingerMoved(_ event: InputEvent, id: TouchID) -> Bool {
        guard case .touchMotion(_, let point) = event.kind else { return false }
        return followedFingerMoved(at: event.time, device: event.device, id: id, to: point)
    }

    /// ``followedFingerMoved(_:id:)`` from the motion's parts (its event is
    /// `InputEvent(time: time, device: device, .touchMotion(id, point))`, made here only when
    /// filters before the finger's filter are asked). False, with nothing done, when `id` is
    /// not followed or its filter is not asked about touches. Also what
    /// ``injectTouchMotion(at:device:id:to:)`` calls for a taken finger when no trace or spy
    /// is there to see the finger's own event.
    @inline(__always)
    func followedFingerMoved(at time: Timestamp, device: DeviceID, id: TouchID, to point: LayoutPoint) -> Bool {
        guard let f = unchecked.touches.followedFingers.scanIndex(where: { $0.finger == id }) else { return false }
        let followed = unchecked.touches.followedFingers[f]
        guard let place = unchecked.filterList.askedPlace(of: followed.filter, .touches) else { return false }
        if place.afterOthers {
            if askFilters(InputEvent(time: time, device: device, .touchMotion(id, point)), before: place.index) != nil { return true }
            // Those filters' calls may have stopped the following (turned the filter off).
            guard unchecked.touches.followedFingers.scanIndex(where: { $0.finger == id && $0.filter == followed.filter }) != nil else { return true }
        }
        // Most often no filter after it asks about touches, no filter took its touch and no
        // grab is on: then the motion is routed as any touch's (``routeTouchMotion``), without
        // the general path, and its event is made only for a trace or spies.
        guard !place.beforeOthers, unchecked.touches.grab == nil,
              !unchecked.touches.takenByFilters.scanContains(followed.touch) else {
            injectTouch(InputEvent(time: time, device: followed.device, .touchMotion(followed.touch, point)), afterFilter: place.index)
            return true
        }
        if trace != nil || unchecked.spyList.wants(.touchMotion) {
            let motion = InputEvent(time: time, device: followed.device, .touchMotion(followed.touch, point))
            trace?.record(.received(motion))
            observe(motion, consumed: false)
        }
        if !moveTouch(followed.touch, to: point) {
            trace?.record(.ignored(InputEvent(time: time, device: followed.device, .touchMotion(followed.touch, point)), reason: "no such touch"))
        }
        return true
    }

    /// Routes a touch event that the filter at `filterIndex` among the asked filters makes in
    /// answer to the touches it takes (touch accommodations' counted touch): as
    /// ``inject(_:)``, except that only the filters **after** it are asked; the filters
    /// before it saw the finger itself, and do not see the touch it stands for. Then grabs and
    /// the default rule, as any touch (the same code as ``inject(_:)``'s touch cases, from
    /// filter `filterIndex + 1`); spies hear it and the trace records it as received.
    /// Called by such a filter while it is asked (`filterIndex` is that asking's index) or
    /// from its timer (its index looked up). Frames go through ``inject(_:)``: they are not
    /// asked of filters anyway (one handed here is injected). Layout-space points.
    func injectTouch(_ event: InputEvent, afterFilter filterIndex: Int) {
        let firstFilter = filterIndex + 1
        switch event.kind {
        case .touchDown(let id, let point):
            trace?.record(.received(event))
            touchDown(event, id: id, at: point, firstFilter: firstFilter)
        case .touchMotion(let id, let point):
            trace?.record(.received(event))
            touchMotion(event, id: id, to: point, firstFilter: firstFilter)
        case .touchUp(let id):
            trace?.record(.received(event))
            touchUp(event, id: id, firstFilter: firstFilter)
        case .touchCancel(let id):
            trace?.record(.received(event))
            touchCancel(event, id: id, firstFilter: firstFilter)
        default:
            inject(event)
        }
    }

    /// Routes one touch event by the default rule, after filters and grabs: a down is
    /// hit-tested (on the device's mapped output, if any) and bound to its surface for
    /// life, recognizers see each frame first, then the bound surface's chain. What a
    /// ``TouchGrab`` calls to forward. Layout-space points; other kinds of events are ignored.
    public func routeTouch(_ event: InputEvent) {
        switch event.kind {
        case .touchDown(let id, let point):
            guard point.x.isFinite, point.y.isFinite, activeSequence(id) == nil else {
                trace?.record(.ignored(event, reason: "touch id already down"))
                return
            }
            routeTouchDown(event, id: id, at: point)
        case .touchMotion(let id, let point):
            guard point.x.isFinite, point.y.isFinite else { return }
            routeTouchMotion(event, id: id, to: point)
        case .touchUp(let id): routeTouchUp(event, id: id)
        case .touchCancel(let id): cancelSequences(reason: "cancelled by the device") { $0.unchecked.id == id && $0.isDown }
        case .touchFrame: dispatchTouches(time: event.time)
        default: trace?.record(.ignored(event, reason: "not a touch event"))
        }
    }

    private func routeTouchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint) {
        let grabBefore = unchecked.touches.grab.map { ObjectIdentifier($0) }
        let editBefore = unchecked.treeEditCount
        let (output, surface, location) = touchTarget(at: point, device: event.device)
        // A touch grab started from inside the hit-test (refineHitTest) takes this touch too.
        if let grab = unchecked.touches.grab, ObjectIdentifier(grab) != grabBefore {
            grab.touchDown(event, id: id, at: point, router: self)
            return
        }
        // Its ID went up earlier in this frame (libinput reuses a slot on a finger roll): the
        // old touch's end goes out before this one's began.
        if let index = unchecked.touches.records.scanIndex(where: { $0.unchecked.id == id && !$0.unchecked.finished && $0.unchecked.upReceived && $0.unchecked.endedPending }) {
            unchecked.touches.records[index].unchecked.endsBeforeReuse = true
        }
        if let trace {
            trace.record(.hitTest(point, result: TraceSubject(surface)))
            trace.record(.touchBound(id, to: TraceSubject(surface)))
        }
        let sequence = unchecked.touches.pool.popLast() ?? TouchSequence()
        // The touch keeps its origin: the surface's, as the hit-test found it on the way down
        // (found again if a responder edited the tree or layout from inside the hit-test).
        var origin = LayoutPoint.zero
        if let surface {
            origin = LayoutPoint(x: point.x - location.x, y: point.y - location.y)
            if unchecked.treeEditCount != editBefore { origin = surface.layoutOrigin ?? origin }
        }
        sequence.reset(id: id, device: event.device, origin: origin, at: point, time: event.time)
        unchecked.touches.dueEdits &+= 1
        let arena = gestures.makeArena(in: self, surface: surface, output: output, touch: sequence.point())
        // The hit-test's references and the arena moved into the record, which holds none
        // (pooled or new): the surface was retained twice more and released twice, the output
        // once more, and three `nil`s were released (issue 25, sixteenth round).
        sequence.bind(surface: consume surface, output: consume output, arena: consume arena)
        // Handed to the list, not copied: a copy was retained and released around the append.
        unchecked.touches.records.append(consume sequence)
    }

    /// ``routeTouchMotion(_:id:to:)`` without its event: moves the routed touch `id` that is
    /// down to `point`; false (and nothing changed) when there is none. Read by index and
    /// unretained: nothing here calls out, and the list keeps the record.
    @inline(__always)
    func moveRoutedTouch(_ id: TouchID, to point: LayoutPoint) -> Bool {
        var i = 0
        while i < unchecked.touches.records.count {
            let moved = unchecked.touches.record(at: i).with { sequence in
                guard sequence.unchecked.id == id, sequence.isDown else { return false }
                sequence.unchecked.location = point
                if !sequence.unchecked.beganPending { sequence.unchecked.movedPending = true }
                return true
            }
            if moved { return true }
            i += 1
        }
        return false
    }

    private func routeTouchMotion(_ event: InputEvent, id: TouchID, to point: LayoutPoint) {
        // Found and updated without a retain: nothing here calls out, and the list keeps
        // the record (`activeSequence` hands out a strong reference).
        var found = false
        unchecked.touches.records.scanBorrowed { sequence in
            guard !found, sequence.unchecked.id == id, sequence.isDown else { return }
            found = true
            sequence.unchecked.location = point
            if !sequence.unchecked.beganPending { sequence.unchecked.movedPending = true }
        }
        if !found { trace?.record(.ignored(event, reason: "no such touch")) }
    }

    private func routeTouchUp(_ event: InputEvent, id: TouchID) {
        guard let sequence = activeSequence(id) else {
            trace?.record(.ignored(event, reason: "no such touch"))
            return
        }
        sequence.unchecked.endedPending = true
        sequence.unchecked.upReceived = true
        unchecked.touches.dueEdits &+= 1
    }

    /// The output and surface a touch down at `point` goes to (with the point in the surface's
    /// space, zero for none): on the output `device` is mapped to, if any (mirrored or
    /// overlapping outputs), else on the topmost output there. A `refineHitTest` that removes
    /// what it is asked about is answered by a new hit-test. The output and surface are handed
    /// out owned, for the touch's record to keep.
    private func touchTarget(at point: LayoutPoint, device: DeviceID) -> (Output?, Surface?, SurfacePoint) {
        var attempts = 0
        while attempts < 4 {
            attempts += 1
            let output = unchecked.deviceOutputs.isEmpty ? unchecked.layout.output(at: point) : (unchecked.deviceOutputs[device] ?? unchecked.layout.output(at: point))
            guard let output else { return (nil, nil, .zero) }
            // The root read unretained: `output` is held here, and its root is a constant of it
            // (rule 2 of ``Unretained``); read strongly, it was retained and released around the
            // hit-test (about 20 instructions a down).
            let local = SurfacePoint(x: point.x - output.position.x, y: point.y - output.position.y)
            let hit = Unretained(output.root).with { $0.hitTestLocating(local) }
            if output.isInLayout, hit?.surface.unchecked.isAttached ?? true {
                guard let hit else { return (output, nil, .zero) }
                return (output, hit.surface, hit.location)
            }
        }
        return (nil, nil, .zero)
    }

    private func activeSequence(_ id: TouchID) -> TouchSequence? {
        guard let index = unchecked.touches.records.scanIndex(where: { $0.unchecked.id == id && $0.isDown }) else { return nil }
        return unchecked.touches.records[index]
    }

    // MARK: Delivery

    /// Delivers what changed since the last frame: all began, then moved, then ended points,
    /// one event per phase and bound surface. The ends of touches whose IDs went down again
    /// in this frame go out first. A frame injected from inside a delivery is delivered right
    /// after this one, as a frame of its own: never in the middle of another frame.
    func dispatchTouches(time: Timestamp) {
        if unchecked.touches.isDelivering {
            unchecked.touches.deferredFrame = time
            return
        }
        // A surface moved under a still finger since the last frame: it hears where the finger
        // is now in its space with this frame.
        if unchecked.touches.checkedAtEdit != unchecked.treeEditCount { _ = markTouchesMovedUnder() }
        unchecked.touches.loops &+= 1
        // The frame's scan, made once: the settled lone move's lane is chosen from it, and
        // the general frame is handed it (issue 25, fifteenth round).
        // Not in a loop with the frames injected meanwhile: there, the settled lane was
        // compiled out of line (+42 a motion frame).
        let scan = scanFrame()
        if scan.isLoneMove && usesLoneMoveLane && settledLoneMoveGoesOn(at: scan.moveIndex) {
            dispatchSettledLoneMove(at: scan.moveIndex, time: time)
        } else {
            dispatchFrame(time: time, scan: scan)
        }
        if let next = unchecked.touches.deferredFrame {
            unchecked.touches.deferredFrame = nil
            dispatchFrames(from: next)
        }
        unchecked.touches.loops &-= 1
        unchecked.touches.pass = .settling
        gestures.settleGestures(in: self)
        unchecked.touches.pass = .idle
        compactTouches()
        touchFrameDidFinish()
    }

    /// Frames injected while one was delivered (`deferredFrame`), each in turn, from `time`.
    @inline(never)
    private func dispatchFrames(from time: Timestamp) {
        var frameTime = time
        while true {
            dispatchFrame(time: frameTime, scan: scanFrame())
            guard let next = unchecked.touches.deferredFrame else { break }
            unchecked.touches.deferredFrame = nil
            frameTime = next
        }
    }

    /// What a frame's scan of the records found (``scanFrame()``). The three findings are
    /// bits of one byte, not three `Bool`s: handed to ``dispatchFrame(time:scan:)``, the
    /// `Bool`s were packed into one register there (12 instructions a frame that is not a
    /// settled lone move), and the lone move's test read them one by one (issue 25, fifteenth
    /// round: a tap's two frames cost 33 more when the scan moved into `dispatchTouches`).
    struct FrameScan {
        /// Bits of ``flags``.
        static let reusedIDsBit: UInt8 = 1, beganPendingBit: UInt8 = 2, endedPendingBit: UInt8 = 4
        var flags: UInt8 = 0
        /// The records with a move due, and the last of them.
        var moves = 0
        var moveIndex = 0

        /// A record's ID went down again in this frame (its end goes first).
        @inline(__always)
        var reusedIDs: Bool { flags & Self.reusedIDsBit != 0 }
        @inline(__always)
        var beganPending: Bool { flags & Self.beganPendingBit != 0 }
        @inline(__always)
        var endedPending: Bool { flags & Self.endedPendingBit != 0 }

        /// One touch's move is the frame's only phase.
        @inline(__always)
        var isLoneMove: Bool { moves == 1 && flags == 0 }
    }

    /// One scan for an ID reused in this frame, for any began or end pending and for the
    /// records with a move due: most frames move fingers that are down already, and their
    /// began pass then costs nothing (issue 25, ninth round); most of those move one finger,
    /// and take the lone move's lane (issue 25, thirteenth round). Nothing here calls out.
    @inline(__always)
    private func scanFrame() -> FrameScan {
        var scan = FrameScan()
        var k = 0
        while k < unchecked.touches.records.count {
            unchecked.touches.record(at: k).with { sequence in
                if sequence.unchecked.endsBeforeReuse { scan.flags |= FrameScan.reusedIDsBit }
                if sequence.unchecked.beganPending { scan.flags |= FrameScan.beganPendingBit }
                if sequence.unchecked.endedPending { scan.flags |= FrameScan.endedPendingBit }
                if sequence.unchecked.movedPending && !sequence.unchecked.finished {
                    scan.moves += 1
                    scan.moveIndex = k
                }
            }
            k += 1
        }
        return scan
    }

    /// Whether the frame's lone move, of the record at `index` (``FrameScan/isLoneMove``), is
    /// a settled one: nothing is held by the recognizers, and the moving touch goes on to its
    /// surface's walk with no recognizer taking part: its arena (if any) has no live
    /// recognizer (so none delays it either: a settled arena delays nothing), it is not taken,
    /// nothing of it is held, its surface is attached. The frame the touchscreen makes most:
    /// one finger moving once the recognizers under it have settled. Nothing here calls out;
    /// the record is read unretained (the list keeps it, and `loops` > 0).
    @inline(__always)
    private func settledLoneMoveGoesOn(at index: Int) -> Bool {
        let goesOn = unchecked.touches.record(at: index).with { sequence -> Bool in
            if let arena = sequence.unchecked.arena.map(Unretained.init), !arena.with({ $0.unchecked.live.isEmpty }) { return false }
            guard !sequence.unchecked.taken, sequence.unchecked.heldCount == 0,
                  let surface = sequence.unchecked.surface.map(Unretained.init) else { return false }
            return surface.with { $0.unchecked.isAttached }
        }
        return goesOn && gestures.unchecked.heldTouches.withUnsafeBufferPointer { $0.isEmpty }
    }

    /// A frame whose only phase is the settled lone move of the record at `index`
    /// (``settledLoneMoveGoesOn(at:)``): what ``dispatchFrame(time:scan:)`` and the lone move's lane
    /// (``dispatchLoneMove(at:time:)``, ``deliverLoneMove(_:mark:time:)``) do for it, in one
    /// function, without checking again what ``settledLoneMoveGoesOn(at:)`` found (issue 25, fifteenth
    /// round): the frame counted, the pass begun and marked, the touch's point and event made,
    /// its walk; then, as there, the moves a handler made due after it, and the ended pass
    /// and the finishing scan when `dueEdits` moved meanwhile. The same calls out in the same
    /// order with the same events (`LoneMoveLaneTests`). The point goes out in the bound
    /// surface's space; no filter or grab is asked here (the touch's motion and frame passed
    /// them on the way in).
    @inline(__always)
    private func dispatchSettledLoneMove(at index: Int, time: Timestamp) {
        unchecked.touches.frameCount &+= 1
        unchecked.touches.pass = .phases
        let dueEditsBefore = unchecked.touches.dueEdits
        unchecked.touches.frameMark &+= 1
        let mark = unchecked.touches.frameMark
        let lead = unchecked.touches.record(at: index)
        #if DEBUG
        unchecked.touches.settledLoneMoveFrames += 1
        #endif
        deliverLoneMoveInline(lead, mark: mark, time: time)
        // Most often no record after the moving one has a move pending (a group is made only
        // of a due move) and nothing made an end due.
        guard unchecked.touches.dueEdits != dueEditsBefore || movePending(after: index) else { return }
        finishSettledLoneMove(after: index, mark: mark, dueEditsBefore: dueEditsBefore, time: time)
    }

    /// Whether a record after `index` has a move pending (what a move's group needs first,
    /// ``isDue(_:_:)``). Nothing here calls out.
    @inline(__always)
    private func movePending(after index: Int) -> Bool {
        var j = index + 1
        while j < unchecked.touches.records.count {
            if unchecked.touches.record(at: j).with({ $0.unchecked.movedPending }) { return true }
            j += 1
        }
        return false
    }

    /// The rest of ``dispatchSettledLoneMove(at:time:)`` when there is any: the groups of moves a
    /// handler made due after the lone move, then the ended pass and the finishing scan when
    /// `dueEdits` moved, as the lone move's lane does. Out of line: compiled into the lane, the
    /// general group's delivery made it too large to be inlined into `dispatchTouches`.
    @inline(never)
    private func finishSettledLoneMove(after index: Int, mark: UInt64, dueEditsBefore: UInt64, time: Timestamp) {
        var i = index + 1
        while i < unchecked.touches.records.count {
            i += 1
            unchecked.touches.record(at: i - 1).with { dispatchGroup(.moved, lead: $0, from: i - 1, mark: mark, time: time) }
        }
        guard unchecked.touches.dueEdits != dueEditsBefore else { return }
        dispatch(.ended, time: time)
        finishEndedRecords()
    }

    /// A frame, from its scan (``scanFrame()``, made with nothing called out since). Out of
    /// line: inlined into `dispatchTouches`, it left the settled lane there out of line (+41
    /// a motion frame).
    @inline(never)
    private func dispatchFrame(time: Timestamp, scan: FrameScan) {
        unchecked.touches.frameCount &+= 1
        let reusedIDs = scan.reusedIDs, beganPending = scan.beganPending
        if scan.isLoneMove && usesLoneMoveLane {
            unchecked.touches.pass = .phases
            return dispatchLoneMove(at: scan.moveIndex, time: time)
        }
        if reusedIDs {
            unchecked.touches.pass = .reusedEnds
            dispatch(.ended, time: time)
            unchecked.touches.records.scanBorrowed { sequence in
                if sequence.unchecked.endsBeforeReuse {
                    sequence.unchecked.endsBeforeReuse = false
                    if sequence.unchecked.endedPending {
                        sequence.unchecked.endedPending = false
                        sequence.unchecked.finished = true
                        unchecked.touches.finishes &+= 1
                    }
                }
            }
        }
        unchecked.touches.pass = .phases
        // Without reused ends nothing was called out since the scan, so no record can have
        // gained a began (a touch injected by a handler): no began is due.
        if beganPending || reusedIDs { dispatch(.began, time: time) }
        dispatch(.moved, time: time)
        dispatch(.ended, time: time)
        finishEndedRecords()
    }

    /// The frame's last step: each end delivered (pending, its began out) is finished.
    @inline(__always)
    private func finishEndedRecords() {
        unchecked.touches.records.scanBorrowed { sequence in
            if sequence.unchecked.endedPending && !sequence.unchecked.beganPending {
                sequence.unchecked.endedPending = false
                sequence.unchecked.finished = true
                unchecked.touches.finishes &+= 1
            }
        }
    }

    /// Whether frames may take the lone move's lane (``dispatchLoneMove(at:time:)``). Debug
    /// builds can turn it off, so that the seeded tests compare it with the general path.
    @inline(__always)
    private var usesLoneMoveLane: Bool {
        #if DEBUG
        !unchecked.touches.generalFramesOnly
        #else
        true
        #endif
    }

    /// A frame whose only due phase is one touch's move, at `index` in the records (no began,
    /// no end pending, no reused ID; TouchRouting's invariant 2 holds: `loops` > 0). What
    /// ``dispatch(_:time:)`` of each phase and ``dispatchDue(_:recognizersTakePart:time:)``
    /// would do for it, and in the same order, without their scans of the records, grouping,
    /// group lookup and end passes where nothing can be due: the recognizers first when the
    /// touch's arena has a live one (then the groups a handler of theirs made due before it,
    /// as the general pass would deliver them); then, when the move would be a group of its
    /// own that goes on to the responders (not taken, not delayed, nothing held, no other move
    /// due after it, its surface attached, not grouped already), its point and event made here
    /// and the moving touch's walk (``walkFollowingPhase(_:_:of:lead:surface:)``), else its
    /// group as the general pass makes it; then the groups of moves a handler made due after
    /// it. The ended pass and the frame's finishing scan run only when something that can make
    /// an end due happened meanwhile (`dueEdits` moved: a touch up, down or cancelled, a held
    /// phase put back or released): with no end pending when the frame began, they would find
    /// none. The same calls out, in the same order, with the same events, as the general path
    /// (`LoneMoveLaneTests` compares the two on seeded runs; issue 25, thirteenth round).
    /// The point goes out in its bound surface's space (by the origin the touch carries); no
    /// filter or grab is asked here (the touch's motion and frame passed them on the way in).
    private func dispatchLoneMove(at index: Int, time: Timestamp) {
        let dueEditsBefore = unchecked.touches.dueEdits
        let lead = unchecked.touches.record(at: index)
        // The arena read unretained: the record keeps it, and nothing here calls out.
        let recognizersTakePart = lead.with { sequence in
            sequence.unchecked.arena.map(Unretained.init)?.with { !$0.unchecked.live.isEmpty } ?? false
        }
        if recognizersTakePart { gestures.deliverToRecognizers(in: self, .moved, time: time) }
        unchecked.touches.frameMark &+= 1
        let mark = unchecked.touches.frameMark
        var i = 0
        // Before it, only moves a recognizer's handler made due (none without recognizers).
        if recognizersTakePart {
            while i < index {
                i += 1
                unchecked.touches.record(at: i - 1).with { dispatchGroup(.moved, lead: $0, from: i - 1, mark: mark, time: time) }
            }
        }
        i = index + 1
        if loneMoveGoesOn(lead, at: index, mark: mark, afterRecognizers: recognizersTakePart) {
            deliverLoneMove(lead, mark: mark, time: time)
        } else {
            lead.with { dispatchGroup(.moved, lead: $0, from: index, mark: mark, time: time) }
        }
        while i < unchecked.touches.records.count {
            i += 1
            unchecked.touches.record(at: i - 1).with { dispatchGroup(.moved, lead: $0, from: i - 1, mark: mark, time: time) }
        }
        guard unchecked.touches.dueEdits != dueEditsBefore else { return }
        dispatch(.ended, time: time)
        finishEndedRecords()
    }

    /// Whether the lone move at `index` would be a group of one touch that goes on to its
    /// surface's walk (``walkFollowingPhase(_:_:of:lead:surface:)``): due and not grouped in
    /// this pass yet, no other record grouped in it (after the recognizers, whose handlers may
    /// have made moves due), none due after it, not taken, nothing held, not delayed by a
    /// recognizer, bound to an attached surface. Nothing here calls out.
    @inline(__always)
    private func loneMoveGoesOn(_ lead: Unretained<TouchSequence>, at index: Int, mark: UInt64, afterRecognizers: Bool) -> Bool {
        // Through the buffer: `heldTouches.isEmpty` was an outlined `Array._getCount` call here.
        guard gestures.unchecked.heldTouches.withUnsafeBufferPointer({ $0.isEmpty }) else { return false }
        if afterRecognizers {
            var j = 0
            while j < unchecked.touches.records.count {
                let blocks = j != index && unchecked.touches.record(at: j).with { other in
                    other.unchecked.mark == mark || (j > index && isDue(other, .moved))
                }
                if blocks { return false }
                j += 1
            }
        }
        return lead.with { sequence in
            guard isDue(sequence, .moved), sequence.unchecked.mark != mark, !sequence.unchecked.taken,
                  sequence.unchecked.heldCount == 0,
                  let surface = sequence.unchecked.surface.map(Unretained.init), surface.with({ $0.unchecked.isAttached }) else { return false }
            return sequence.unchecked.arena == nil || !gestures.isDelayed(sequence, .moved)
        }
    }

    /// The lone move's delivery: what `dispatchGroup` and `deliverTouchGroup` do for a group
    /// of one touch that goes on (``loneMoveGoesOn(_:at:mark:afterRecognizers:)``), the touch's
    /// point made once and its event from the reused `scratch` buffer. Out of line: inlined
    /// into the lane, the buffer's append was left out of line (about 40 instructions a frame).
    @inline(never)
    private func deliverLoneMove(_ lead: Unretained<TouchSequence>, mark: UInt64, time: Timestamp) {
        deliverLoneMoveInline(lead, mark: mark, time: time)
    }

    /// ``deliverLoneMove(_:mark:time:)``'s body, compiled into the settled lone move's frame
    /// (``dispatchSettledLoneMove(at:time:)``) as well: a call less a motion frame there.
    @inline(__always)
    private func deliverLoneMoveInline(_ lead: Unretained<TouchSequence>, mark: UInt64, time: Timestamp) {
        if unchecked.touches.originsAtEdit != unchecked.treeEditCount { refreshTouchOrigins() }
        // The surface read unretained: the record keeps it for the whole frame (see
        // `dispatchGroup`).
        let surface = lead.with { sequence in
            sequence.unchecked.mark = mark
            sequence.unchecked.movedPending = false
            sequence.unchecked.withheld = false
            return sequence.unchecked.surface.map(Unretained.init)!
        }
        // The buffer made unique first, then the point made into it: made before, its ten
        // fields were kept on the stack across the uniqueness check's call (issue 25,
        // sixteenth round).
        var points = unchecked.touches.scratch.take() ?? []
        points.holdLonePoint { lead.with { $0.point(surfaceOrigin: $0.unchecked.surfaceOrigin) } }
        let event = TouchEvent(time: time, touches: consume points)
        #if DEBUG
        unchecked.touches.loneMoveFrames += 1
        #endif
        let handled = walkLoneMove(event, of: lead, surface: surface)
        if !handled && !lead.with({ $0.unchecked.finished }) { reportDropped(.touchesMoved, .touchesMoved(event)) }
        // Put back only into an empty place (it always is: nothing takes the buffer during
        // the walk, whose frames wait): stored over a value that may not be `nil`, the buffer
        // went back through a release of the one it replaced, a call a frame.
        if unchecked.touches.scratch == nil { unchecked.touches.scratch = (consume event).touches }
    }

    /// Surfaces (and outputs) that left the layout while a touch they saw goes on elsewhere
    /// (its bound surface was moved out of their subtree first): each is told the touch was
    /// cancelled, as removal promises, and is not asked about it again.
    func tellRemovedLinksOfLiveTouches() {
        unchecked.touches.loops += 1
        defer { unchecked.touches.loops -= 1 }
        var i = 0
        while i < unchecked.touches.records.count {
            let sequence = unchecked.touches.records[i]
            i += 1
            // An ending touch is being told it ended.
            guard !sequence.unchecked.finished, !sequence.unchecked.isEnding else { continue }
            var l = 0
            while l < sequence.unchecked.seen.count {
                let link = sequence.unchecked.seen[l]
                let gone: Bool
                switch link {
                case .surface(let s): gone = !s.unchecked.isAttached
                case .output(let o): gone = !o.isInLayout
                case .delegate: gone = false
                }
                guard gone else {
                    l += 1
                    continue
                }
                sequence.unchecked.seen.remove(at: l)
                // A handler may edit the list meanwhile: look at it again from the start.
                l = 0
                guard let responder = responder(for: link) else { continue }
                let event = TouchEvent(time: clock.now, touches: [touchPoint(of: sequence)])
                responder.touchesCancelled(event, context: ResponderContext(router: self, link: link, target: sequence.unchecked.surface))
                trace?.record(.told(TraceSubject(link), .touchesCancelled))
            }
        }
    }

    /// Called after `root` moved to another parent in this router's layout (still attached):
    /// each link that saw a touch bound in its subtree begin and is no longer on that
    /// surface's chain (a former ancestor or output left behind; the chain as the responders'
    /// ``Responder/nextResponder(after:)`` make it) is told `touchesCancelled` and follows
    /// the touch no more.
    func subtreeDidMove(_ root: Surface, formerParent: Surface) {
        guard !unchecked.touches.records.isEmpty else { return }
        unchecked.touches.loops += 1
        var i = 0
        while i < unchecked.touches.records.count {
            let sequence = unchecked.touches.records[i]
            i += 1
            // An ending touch is being told it ended: a link left behind hears the cancel at
            // the end of that walk if it was not told the end, and a link whose touchesEnded
            // handler moved the surface was told already (the gesture-graph soak, seed 18850).
            guard !sequence.unchecked.finished, !sequence.unchecked.isEnding, let bound = sequence.unchecked.surface,
                  bound === root || bound.isDescendant(of: root) else { continue }
            var l = 0
            while l < sequence.unchecked.seen.count {
                let link = sequence.unchecked.seen[l]
                guard !isOnChain(link, of: bound) else {
                    l += 1
                    continue
                }
                sequence.unchecked.seen.remove(at: l)
                // A handler may edit the list meanwhile: look at it again from the start.
                l = 0
                guard let responder = responder(for: link) else { continue }
                let event = TouchEvent(time: clock.now, touches: [touchPoint(of: sequence)])
                responder.touchesCancelled(event, context: ResponderContext(router: self, link: link, target: bound))
                trace?.record(.told(TraceSubject(link), .touchesCancelled))
            }
        }
        unchecked.touches.loops -= 1
        if !unchecked.touches.isDelivering { compactTouches() }
    }

    /// Whether a walk from `surface` reaches `link`.
    func isOnChain(_ link: ChainLink, of surface: Surface) -> Bool {
        var current: ChainLink? = .surface(surface)
        var steps = 0
        while let step = current, steps < chainStepLimit {
            if step.isSame(as: link) { return true }
            current = nextLink(after: step, responder: responder(for: step), formerOutput: nil)
            steps += 1
        }
        return false
    }

    /// Tells each surface that moved under a touch still down where the touch now is in its
    /// space: a `touchesMoved` (the finger's layout-space location unchanged, its
    /// `surfaceLocation` new) to the responders following the touch, in a touch frame of its
    /// own (a Wayland seat sends `wl_touch.motion` and `wl_touch.frame`), as
    /// ``refreshPointerFocus(time:)`` does for the pointer. Call it after moving surfaces
    /// (a window, a subsurface, an output) so that a finger that stays still is told at once;
    /// the router also does it itself at the next touch frame after any tree edit. Touches
    /// whose surface did not move, that a recognizer took or a filter took, and those of a
    /// removed surface are not told anything. Goes through no filter or grab: it is not an
    /// input event (the touches it tells about were routed already). Called from inside a
    /// touch handler, it is delivered right after the frame under way.
    public func refreshTouchLocations(time: Timestamp? = nil) {
        guard markTouchesMovedUnder() else { return }
        dispatchTouches(time: time ?? clock.now)
    }

    /// Marks a move of each routed touch whose bound surface moved under it since it was last
    /// delivered; returns whether there was one.
    func markTouchesMovedUnder() -> Bool {
        unchecked.touches.checkedAtEdit = unchecked.treeEditCount
        if unchecked.touches.originsAtEdit != unchecked.treeEditCount { refreshTouchOrigins() }
        var marked = false
        var i = 0
        while i < unchecked.touches.records.count {
            let sequence = unchecked.touches.records[i]
            i += 1
            guard sequence.isDown, !sequence.unchecked.taken, !sequence.unchecked.beganPending,
                  let surface = sequence.unchecked.surface, surface.unchecked.isAttached,
                  sequence.unchecked.surfaceOrigin != sequence.unchecked.lastSurfaceOrigin else { continue }
            sequence.unchecked.movedPending = true
            marked = true
        }
        return marked
    }

    /// `sequence` as its responders see it: in the space of its bound surface, by the origin
    /// the touch carries (brought up to date first if the tree or layout changed since); a
    /// removed surface's touch in the space it was last delivered in.
    @inline(__always)
    func touchPoint(of sequence: TouchSequence) -> TouchPoint {
        sequence.point(surfaceOrigin: surfaceOrigin(of: sequence))
    }

    /// The layout origin of `sequence`'s bound surface, carried (brought up to date first if
    /// the tree or layout changed); `nil` when the surface is removed or there is none.
    @inline(__always)
    func surfaceOrigin(of sequence: TouchSequence) -> LayoutPoint? {
        guard let surface = sequence.unchecked.surface, surface.unchecked.isAttached else { return nil }
        if unchecked.touches.originsAtEdit != unchecked.treeEditCount { refreshTouchOrigins() }
        return sequence.unchecked.surfaceOrigin
    }

    /// After an edit of the tree or layout: each touch's carried origin becomes its bound
    /// surface's layout origin now (one walk up the tree per touch, once per edit, not per
    /// event). A removed surface's touch keeps the origin it had.
    @inline(never)
    func refreshTouchOrigins() {
        unchecked.touches.originsAtEdit = unchecked.treeEditCount
        var i = 0
        while i < unchecked.touches.records.count {
            let sequence = unchecked.touches.records[i]
            i += 1
            if let surface = sequence.unchecked.surface, surface.unchecked.isAttached, let origin = surface.layoutOrigin {
                sequence.unchecked.surfaceOrigin = origin
            }
        }
    }

    /// Whether `sequence` has `phase` to deliver in the pass under way.
    @inline(__always)
    func isDue(_ sequence: TouchSequence, _ phase: TouchPhase) -> Bool {
        // An end being delivered (a handler injected a frame from inside it) is not due again.
        !sequence.unchecked.finished && sequence.isPending(phase) && (unchecked.touches.pass != .reusedEnds || sequence.unchecked.endsBeforeReuse)
            && (phase != .ended || !sequence.unchecked.isEnding)
            // A touch injected mid-frame, after the began pass: all of it waits for the next.
            && (phase == .began || !sequence.unchecked.beganPending)
    }

    /// One phase of the frame under way (`touches.loops` > 0: no record leaves `records` meanwhile,
    /// TouchRouting's invariant 2, so records are read from it without a retain each).
    ///
    /// Most frames carry one phase: the others cost one scan, no retain, and no call. The scan
    /// is inline in `dispatchFrame` (a loop of its own: as a `scanBorrowed` closure it was
    /// called out of line per record), the delivery out of line (``dispatchDue(_:recognizersTakePart:time:)``):
    /// a phase with nothing due no longer enters it (issue 25, tenth round).
    ///
    /// The recognizer pass runs when a due touch has an arena with a recognizer still live
    /// (any arena, for ends: settled recognizers still forget their ended touches). An arena
    /// whose recognizers have all settled (a long press that failed when the finger moved)
    /// has an empty live list once a pass has seen them settled: a begin or move pass over
    /// such arenas only would show nothing to anyone (its gather walks the live entries
    /// alone), and what it leaves behind is read by no one (its pass mark, and whether the
    /// arena delays, which ``GestureCoordinator/isDelayed(_:_:)`` answers the same from the
    /// empty list), so it is not run (issue 25, twelfth round).
    @inline(__always)
    private func dispatch(_ phase: TouchPhase, time: Timestamp) {
        var due = false, recognizersTakePart = false
        var k = 0
        while k < unchecked.touches.records.count {
            let (isDueNow, takesPart) = unchecked.touches.record(at: k).with { sequence -> (Bool, Bool) in
                // The arena read unretained: the record keeps it, and nothing here calls out.
                guard let arena = sequence.unchecked.arena.map(Unretained.init) else { return (isDue(sequence, phase), false) }
                return (isDue(sequence, phase), phase == .ended || arena.with { !$0.unchecked.live.isEmpty })
            }
            if isDueNow {
                due = true
                if takesPart { recognizersTakePart = true }
            }
            k += 1
        }
        if due { dispatchDue(phase, recognizersTakePart: recognizersTakePart, time: time) }
    }

    /// ``dispatch(_:time:)`` of a phase some record has due; `recognizersTakePart`: one of
    /// those has an arena with a live recognizer (any arena, for ends).
    @inline(never)
    private func dispatchDue(_ phase: TouchPhase, recognizersTakePart: Bool, time: Timestamp) {
        // Recognizers see the whole phase first, then decide what the responders get.
        if recognizersTakePart {
            gestures.deliverToRecognizers(in: self, phase, time: time)
            if phase == .ended && gestures.unchecked.arenaRules.contains(.sweepAtEnd) { gestures.sweepEndedTouches(in: self) }
        }
        unchecked.touches.frameMark &+= 1
        let mark = unchecked.touches.frameMark
        var i = 0
        while i < unchecked.touches.records.count {
            i += 1
            unchecked.touches.record(at: i - 1).with { lead in
                dispatchGroup(phase, lead: lead, from: i - 1, mark: mark, time: time)
            }
        }
    }

    /// The group of touches due in `phase` bound to `lead`'s surface, from `lead` (at `index`)
    /// on, unless `lead` is not due or was grouped already.
    @inline(__always)
    private func dispatchGroup(_ phase: TouchPhase, lead: TouchSequence, from index: Int, mark: UInt64, time: Timestamp) {
        guard isDue(lead, phase), lead.unchecked.mark != mark else { return }
        // The lead's surface, read unretained: the record keeps it for the whole frame (a
        // record's surface is set only when it is taken from the pool and cleared only when it
        // goes back, never while a frame is delivered: TouchRouting's invariant 2; rule 6 of
        // `Unretained`). Read strongly, it cost a retain and a release per group.
        if let link = lead.unchecked.surface.map(Unretained.init) {
            link.with { dispatchGroup(phase, lead: lead, surface: $0, link: link, from: index, mark: mark, time: time) }
        } else {
            dispatchGroup(phase, lead: lead, surface: nil, link: nil, from: index, mark: mark, time: time)
        }
    }

    /// `surface`: the lead's, read once (`link`: the same, unretained).
    @inline(__always)
    private func dispatchGroup(_ phase: TouchPhase, lead: TouchSequence, surface: Surface?, link: Unretained<Surface>?,
                               from index: Int, mark: UInt64, time: Timestamp) {
        if unchecked.touches.originsAtEdit != unchecked.treeEditCount { refreshTouchOrigins() }
        // Every touch of the group is bound to `surface`: they carry the same origin.
        let origin: LayoutPoint? = surface.map { $0.unchecked.isAttached ? lead.unchecked.surfaceOrigin : nil } ?? nil
        // Always there outside a group's walk (and no frame is grouped inside one: a frame
        // injected meanwhile waits).
        // Overwritten in place and cut to length after the scan, not emptied first: the last
        // group's points are still there (one, most groups), and a removal per point checked
        // the list's uniqueness each time (about 25 instructions a group; issue 25,
        // seventeenth round).
        if unchecked.touches.scratch == nil { unchecked.touches.scratch = [] }
        var filled = 0
        var j = index
        while j < unchecked.touches.records.count {
            unchecked.touches.record(at: j).with { other in
                guard isDue(other, phase), other.unchecked.mark != mark, isBound(other, to: surface) else { return }
                other.unchecked.mark = mark
                // An ended touch stays pending until the whole frame is out, and is then
                // finished (in dispatchFrame).
                if phase != .ended { other.clearPending(phase) }
                other.unchecked.withheld = false
                // Held phases of this touch or its surface go first: never deliver a later
                // phase past them. The recognizers decide whether it goes on (taken, delayed,
                // behind held phases) as it is grouped, in the same order as before: the group's
                // points were made once here and then made again by a second scan of the records
                // (issue 25, ninth round). Any held phase counts at the moment this touch is
                // looked at, so one held earlier in this group holds the later ones back.
                if other.unchecked.arena != nil || other.unchecked.taken || other.unchecked.heldCount > 0
                    || !gestures.unchecked.heldTouches.isEmpty {
                    if gestures.withhold(other, in: self, phase, surface: surface, origin: origin, time: time) { return }
                }
                let point = other.point(surfaceOrigin: origin)
                if filled < unchecked.touches.scratch!.count {
                    unchecked.touches.scratch![filled] = point
                } else {
                    unchecked.touches.scratch!.append(point)
                }
                filled += 1
            }
            j += 1
        }
        while unchecked.touches.scratch!.count > filled { unchecked.touches.scratch!.removeLast() }
        if filled == 0 { return }
        deliverTouchGroup(phase, lead: lead, surface: surface, link: link, mark: mark, time: time)
    }

    /// `surface`: the group's bound surface (`lead`'s, read once by the caller).
    private func deliverTouchGroup(_ phase: TouchPhase, lead: TouchSequence, surface: Surface?, link surfaceLink: Unretained<Surface>?,
                                   mark: UInt64, time: Timestamp) {
        // The group's points are moved into its event for the walk and back after it (taken
        // out of `scratch`, not copied): made from `scratch` by assignment, the event retained
        // the array and released it at the end (about 40 instructions per group; issue 25,
        // tenth round); swapped with an empty array, the empty array was released at the end
        // (18). Only the grouping (`dispatchGroup`, the coordinator's `withhold`) writes
        // `scratch`, and a frame injected meanwhile waits (TouchRouting's invariant 3), so
        // nothing reads it while it is out; a responder that keeps the event shares the
        // buffer, as it did.
        let event = TouchEvent(time: time, touches: unchecked.touches.scratch.take() ?? [])
        deliverTouchGroup(phase, event, lead: lead, surface: surface, link: surfaceLink, mark: mark)
        // Assigned, not put back with `putBack` (which saves the release of the `nil` it
        // replaces, about 9 instructions a group, 2 a frame in the Swift kiosk): this function
        // is compiled into `dispatchLoneMove`'s groupings too, and there the test cost the
        // motion frame 7 (issue 25, nineteenth round).
        unchecked.touches.scratch = (consume event).touches
    }

    /// ``deliverTouchGroup(_:lead:surface:link:mark:time:)`` with the group's event.
    @inline(__always)
    private func deliverTouchGroup(_ phase: TouchPhase, _ event: TouchEvent, lead: TouchSequence, surface: Surface?,
                                   link surfaceLink: Unretained<Surface>?, mark: UInt64) {
        // A group of one touch (see below) is found once, before the ending is marked: its
        // record is the one the scan marked (the same test), and a second scan of the records
        // cost about 15 instructions a lift (issue 25, seventeenth round).
        let only = event.touches.count == 1 ? onlyRecord(mark: mark, surface: surface) : nil
        if phase == .ended {
            if let only {
                only.with { $0.unchecked.isEnding = true }
            } else {
                unchecked.touches.records.scanBorrowed { sequence in
                    if sequence.unchecked.mark == mark && isBound(sequence, to: surface) && !sequence.unchecked.withheld { sequence.unchecked.isEnding = true }
                }
            }
        }
        // The group is asked about once per link. Who is in it is settled before the walk: a
        // record added meanwhile does not carry this pass's mark, no handler can set or clear
        // `withheld` (only this frame's grouping does, and a frame injected meanwhile waits),
        // and no record leaves the list while a frame is delivered (TouchRouting's invariant
        // 2). So a group of one touch (one finger moving, or one per surface: most frames) is
        // that record, read unretained from the list, with no scan per link; a larger group
        // is scanned from one copy of the list (scanning the router's own retained it once per
        // link), its touches read without a retain each.
        // The closures below capture only plain values where they can (the lead and the one
        // record unretained: the list keeps both): each strong reference a closure captures
        // is retained once per closure made for the out-of-line part of the walk.
        let leadLink = Unretained(lead)
        let handled: Bool
        if let single = only {
            if phase != .began, let surfaceLink, surfaceLink.with({ $0.unchecked.isAttached }) {
                // Handed on unretained: the record keeps it (see `dispatchGroup`); bound with
                // `if let` and passed strongly, it was retained around the walk.
                handled = walkFollowingPhase(phase, event, of: single, lead: leadLink, surface: surfaceLink)
            } else {
                handled = walkTouchPhase(phase, event, surface: surface, stopIf: { leadLink.with { $0.unchecked.finished } }) { body in
                    single.with(body)
                }
            }
        } else {
            let records = unchecked.touches.records
            handled = walkTouchPhase(phase, event, surface: surface, stopIf: { leadLink.with { $0.unchecked.finished } }) { body in
                records.scanBorrowed { sequence in
                    if sequence.unchecked.mark == mark && isBound(sequence, to: surface) && !sequence.unchecked.withheld { body(sequence) }
                }
            }
        }
        if !handled && !lead.unchecked.finished {
            switch phase {
            case .began: reportDropped(.touchesBegan, .touchesBegan(event))
            case .moved: reportDropped(.touchesMoved, .touchesMoved(event))
            case .ended: reportDropped(.touchesEnded, .touchesEnded(event))
            }
        }
    }

    /// Whether `sequence` is bound to `surface` (both `nil` included), compared by address:
    /// `===` is an out-of-line call, and the record's surface was retained and released around
    /// it (about 55 instructions per touch motion + frame, issue 25, tenth round).
    @inline(__always)
    private func isBound(_ sequence: TouchSequence, to surface: Surface?) -> Bool {
        sequence.unchecked.surface.map(ObjectIdentifier.init) == surface.map(ObjectIdentifier.init)
    }

    /// The one record of a group of one touch (see `deliverTouchGroup`), unretained: the
    /// list keeps it while the frame is delivered (rule 6 of ``Unretained``).
    @inline(__always)
    private func onlyRecord(mark: UInt64, surface: Surface?) -> Unretained<TouchSequence>? {
        var i = 0
        while i < unchecked.touches.records.count {
            let record = unchecked.touches.record(at: i)
            let matches = record.with { $0.unchecked.mark == mark && !$0.unchecked.withheld && isBound($0, to: surface) }
            if matches { return record }
            i += 1
        }
        return nil
    }

    /// Walks one phase of a group of touches bound to `surface` up its chain; `group` calls
    /// its argument with each touch of the group. A began goes to each link asked, which has
    /// then seen the touch. A moved or an ended goes only to the links that saw the touch
    /// begin (with those of the group's touches each saw): no responder gets a touch's later
    /// phases without its began. A link told a touch ended no longer follows it; after an
    /// ended walk, every link that saw a touch of the group begin and was not told it ended
    /// (a responder before it handled the end, or it left the chain meanwhile: removed, or
    /// moved off the surface's chain) is told `touchesCancelled`, once. Returns whether a
    /// responder handled the phase.
    @inline(__always)
    func walkTouchPhase(_ phase: TouchPhase, _ event: TouchEvent, surface: Surface?, stopIf shouldStop: () -> Bool,
                        group: ((TouchSequence) -> Void) -> Void) -> Bool {
        let handled = walkChain(from: surface, target: surface, kind: phase.kind, stopIf: shouldStop) { responder, context in
            guard phase == .began else {
                return askFollowingLink(phase, event, responder: responder, context: context, group: group)
            }
            // The link by its parts: its `ChainLink` made only when a record lists it
            // (`noteSeen(surface:output:)`).
            let link = context.linkParts
            // A touch of the group cancelled, or taken by a recognizer, by a handler earlier in
            // this walk is not shown to the links after it (they would see it begin and never
            // end: the gesture-graph soak, seeds 17682 and 6383).
            var cancelled = 0
            group {
                if $0.unchecked.finished || $0.unchecked.taken { cancelled += 1 } else { $0.noteSeen(surface: link.surface, output: link.output) }
            }
            if cancelled == 0 { return responder.touchesBegan(event, context: context) }
            return askAboutLiveTouchesBegan(event, responder: responder, context: context, group: group)
        }
        if phase == .ended { cancelLinksNotToldTheEnd(group: group) }
        return handled
    }

    /// ``walkTouchPhase(_:_:surface:stopIf:group:)`` from a surface linked unretained (`nil`:
    /// the delegate's chain): the caller's link stays valid for the walk (the gesture
    /// coordinator's held phases: the record, which the router's list keeps, holds its bound
    /// surface). Handed to the walk borrowed, not retained around it.
    @inline(__always)
    func walkTouchPhase(_ phase: TouchPhase, _ event: TouchEvent, surfaceLink link: Unretained<Surface>?, stopIf shouldStop: () -> Bool,
                        group: ((TouchSequence) -> Void) -> Void) -> Bool {
        guard let link else { return walkTouchPhase(phase, event, surface: nil, stopIf: shouldStop, group: group) }
        return link.with { walkTouchPhase(phase, event, surface: $0, stopIf: shouldStop, group: group) }
    }

    /// ``walkTouchPhase(_:_:surface:stopIf:group:)`` for a moved or ended phase of a group of
    /// one touch bound to an attached surface (most frames: one finger moving): the same walk,
    /// the same asks and the same cancels after an end, for one record read unretained
    /// (`record`; `lead` stops the walk once finished, as there). The shared walk there takes
    /// the group as a closure, called through two indirect calls per link, and its closures'
    /// captures (the router, the event's points, the surface) were retained around the walk
    /// (issue 25, ninth round); here the ask reads the record directly
    /// (``askFollowingLink(_:_:responder:context:record:)``). The walk itself is the shared one
    /// (``walkChain(from:target:kind:stopIf:reportingDrop:inliningTheRest:_:)``, the pointer's): the first link
    /// asked without a ``ChainLink``, default-chain parents followed unretained and pinned, the
    /// owning walk from the first responder with its own next link, the root's output or a
    /// surface detached mid-walk. Its loop over the parents is compiled in here
    /// (`inliningTheRest`), so that each link's ask and the stop are direct calls, not a call
    /// through a closure and its thunk per link (issue 25, tenth round). Layout space is not
    /// involved (the event's points are already surface-local); no grab or filter is asked here
    /// (the caller passed them).
    @inline(never)
    private func walkFollowingPhase(_ phase: TouchPhase, _ event: TouchEvent, of record: Unretained<TouchSequence>,
                                    lead: Unretained<TouchSequence>, surface: Unretained<Surface>) -> Bool {
        let handled = surface.with { surface in
            walkChain(from: surface, target: surface, kind: phase.kind, stopIf: { lead.with { $0.unchecked.finished } },
                      inliningTheRest: true) { responder, context in
                askFollowingLink(phase, event, responder: responder, context: context, record: record)
            }
        }
        if phase == .ended { cancelLinksNotToldTheEnd { record.with($0) } }
        return handled
    }

    /// ``walkFollowingPhase(_:_:of:lead:surface:)`` for the lone move (``deliverLoneMove(_:mark:time:)``):
    /// the moved phase of one record, which is also the one whose end stops the walk. The same
    /// walk and asks, compiled for the moved phase alone (no phase tested per link, no ended
    /// branch). Layout space is not involved; no grab or filter is asked here.
    @inline(never)
    private func walkLoneMove(_ event: TouchEvent, of record: Unretained<TouchSequence>, surface: Unretained<Surface>) -> Bool {
        surface.with { surface in
            walkChain(from: surface, target: surface, kind: .touchesMoved, stopIf: { record.with { $0.unchecked.finished } },
                      inliningTheRest: true) { responder, context in
                askFollowingLink(.moved, event, responder: responder, context: context, record: record)
            }
        }
    }

    /// ``askFollowingLink(_:_:responder:context:group:)`` for a group of one touch: the link is
    /// asked when it saw the touch begin (then it saw all of the group), else passed over.
    @inline(__always)
    private func askFollowingLink(_ phase: TouchPhase, _ event: TouchEvent, responder: any Responder, context: ResponderContext,
                                  record: Unretained<TouchSequence>) -> ResponderResult {
        let id = context.linkIdentity
        guard record.with({ $0.hasSeen(identity: id) }) else {
            if trace != nil { unchecked.askSkippedLink = true }
            return .notHandled
        }
        let result = phase == .moved ? responder.touchesMoved(event, context: context) : responder.touchesEnded(event, context: context)
        if phase == .ended { record.with { $0.forgetSeen(identity: id) } }
        return result
    }

    /// Asks one link about a moved or ended phase: only about the touches it saw begin, not at
    /// all when it saw none (the walk goes on).
    private func askFollowingLink(_ phase: TouchPhase, _ event: TouchEvent, responder: any Responder, context: ResponderContext,
                                  group: ((TouchSequence) -> Void) -> Void) -> ResponderResult {
        // Compared by identity: no retain of the link's object per responder asked.
        let id = context.linkIdentity
        var saw = 0, missed = 0
        group { if $0.hasSeen(identity: id) { saw += 1 } else { missed += 1 } }
        guard saw > 0 else {
            if trace != nil { unchecked.askSkippedLink = true }
            return .notHandled
        }
        let result: ResponderResult
        if missed == 0 {
            result = phase == .moved ? responder.touchesMoved(event, context: context) : responder.touchesEnded(event, context: context)
        } else {
            result = askAboutSeenTouches(phase, event, responder: responder, context: context, link: id, group: group)
        }
        if phase == .ended { group { $0.forgetSeen(identity: id) } }
        return result
    }

    /// The rare case of a began walk in which a handler cancelled some of the group's touches:
    /// the link is asked with the others, or not at all when none is left.
    @inline(never)
    private func askAboutLiveTouchesBegan(_ event: TouchEvent, responder: any Responder, context: ResponderContext,
                                          group: ((TouchSequence) -> Void) -> Void) -> ResponderResult {
        var points: [TouchPoint] = []
        for point in event.touches {
            var live = false
            group { sequence in
                if sequence.unchecked.id == point.id && sequence.unchecked.startTime == point.startTime && !sequence.unchecked.finished
                    && !sequence.unchecked.taken { live = true }
            }
            if live { points.append(point) }
        }
        guard !points.isEmpty else { return .notHandled }
        return responder.touchesBegan(TouchEvent(time: event.time, touches: points), context: context)
    }

    /// The rare case of a link that saw some of a group's touches begin: asked with those.
    @inline(never)
    private func askAboutSeenTouches(_ phase: TouchPhase, _ event: TouchEvent, responder: any Responder, context: ResponderContext,
                                     link id: ObjectIdentifier?, group: ((TouchSequence) -> Void) -> Void) -> ResponderResult {
        // Taken out of the router while in use, so that it stays uniquely referenced (no copy).
        var points = unchecked.touches.subsetScratch
        unchecked.touches.subsetScratch = []
        points.removeAll(keepingCapacity: true)
        for point in event.touches {
            var seen = false
            group { sequence in
                if sequence.unchecked.id == point.id && sequence.unchecked.startTime == point.startTime && sequence.hasSeen(identity: id) { seen = true }
            }
            if seen { points.append(point) }
        }
        let subset = TouchEvent(time: event.time, touches: points)
        let result = phase == .moved ? responder.touchesMoved(subset, context: context) : responder.touchesEnded(subset, context: context)
        points.removeAll(keepingCapacity: true)
        unchecked.touches.subsetScratch = points
        return result
    }

    /// After an ended walk: the links still following a touch of the group hear it cancelled.
    @inline(__always)
    private func cancelLinksNotToldTheEnd(group: ((TouchSequence) -> Void) -> Void) {
        var left = false
        group { if !$0.unchecked.seen.isEmpty { left = true } }
        if left { cancelLeftLinks(group: group) }
    }

    @inline(never)
    private func cancelLeftLinks(group: ((TouchSequence) -> Void) -> Void) {
        unchecked.touches.loops += 1
        var batch = unchecked.touches.cancelBatches.popLast() ?? []
        group { if !$0.unchecked.seen.isEmpty { batch.append($0) } }
        deliverCancels(of: batch, time: clock.now)
        batch.removeAll(keepingCapacity: true)
        unchecked.touches.cancelBatches.append(batch)
        unchecked.touches.loops -= 1
    }

    /// Cancels matching touches. Their recognizers are told first; then every link that saw
    /// one of them gets one `touchesCancelled` with all the cancelled touches it saw, removed
    /// surfaces included (removing tells). A cancel handler may cancel, remove or inject
    /// again: the touches of this batch are already finished, so none escapes the cancel and
    /// none is cancelled twice.
    func cancelSequences(reason: String, where predicate: (TouchSequence) -> Bool) {
        unchecked.touches.loops += 1
        var batch = unchecked.touches.cancelBatches.popLast() ?? []
        var i = 0
        while i < unchecked.touches.records.count {
            let sequence = unchecked.touches.records[i]
            i += 1
            guard !sequence.unchecked.finished, !sequence.unchecked.isEnding, predicate(sequence) else { continue }
            sequence.unchecked.finished = true
            unchecked.touches.dueEdits &+= 1
            trace?.record(.touchCancelled(sequence.unchecked.id, reason: reason))
            batch.append(sequence)
        }
        if !batch.isEmpty {
            let time = clock.now
            batch.scan { if $0.unchecked.arena != nil { gestures.cancelRecognizers(in: self, of: $0, time: time) } }
            deliverCancels(of: batch, time: time)
        }
        batch.removeAll(keepingCapacity: true)
        unchecked.touches.cancelBatches.append(batch)
        unchecked.touches.loops -= 1
        if !unchecked.touches.isDelivering {
            gestures.settleGestures(in: self)
            compactTouches()
        }
    }

    /// One `touchesCancelled` per link and bound surface (the event's `context.target`) with
    /// touches of `batch` that the link saw: the touches bound to that surface (each in its
    /// space), links in the order they first saw them. The touches go in a buffer reused per
    /// nesting level (a cancel handler may cancel again), so a warm router allocates nothing
    /// per cancel, however many responders saw it.
    func deliverCancels(of batch: [TouchSequence], time: Timestamp) {
        var points = unchecked.touches.cancelPointBuffers.popLast() ?? []
        var i = 0
        while i < batch.count {
            let sequence = batch[i]
            i += 1
            let target = sequence.unchecked.surface
            // Each link is taken out of every touch of the batch it is told about before it is
            // told: a handler that stops following touches (``stopFollowingTouches(where:_:)``),
            // cancels or removes never finds it again, and none is told twice.
            // Indexed, not `.first`: unspecialized (a debug build), `first` allocates.
            while !sequence.unchecked.seen.isEmpty {
                let link = sequence.unchecked.seen[0]
                points.removeAll(keepingCapacity: true)
                var k = i - 1
                while k < batch.count {
                    let other = batch[k]
                    k += 1
                    if other.unchecked.surface === target, other.removeSeen(link) {
                        points.append(touchPoint(of: other))
                    }
                }
                guard let responder = responder(for: link) else { continue }
                tellCancelled(responder, link: link, points: points, time: time, target: target)
            }
        }
        points.removeAll(keepingCapacity: true)
        unchecked.touches.cancelPointBuffers.append(points)
        batch.scan { $0.unchecked.seen.removeAll(keepingCapacity: true) }
    }

    /// The responders `predicate` picks (by touch and responder) stop following touches they
    /// ended themselves (a Wayland client sent `wl_touch.cancel`, which ends all of its touch
    /// points, or a destroyed surface's points ended with `wl_touch.up`): they are told nothing
    /// more of them, neither later phases nor a cancel, as if told the end. Every other link
    /// goes on following. `forgotten` is called once per touch and link let go. Goes through
    /// no filter or grab; safe from inside any handler, the cancel being delivered included.
    package func stopFollowingTouches(where predicate: (TouchID, any Responder) -> Bool,
                                      _ forgotten: (TouchID) -> Void = { _ in }) {
        unchecked.touches.loops += 1
        defer { unchecked.touches.loops -= 1 }
        var i = 0
        while i < unchecked.touches.records.count {
            let sequence = unchecked.touches.records[i]
            i += 1
            var l = 0
            while l < sequence.unchecked.seen.count {
                let link = sequence.unchecked.seen[l]
                guard let responder = responder(for: link), predicate(sequence.unchecked.id, responder) else {
                    l += 1
                    continue
                }
                sequence.unchecked.seen.remove(at: l)
                sequence.unchecked.seenHint = 0
                forgotten(sequence.unchecked.id)
            }
        }
    }

    /// One `touchesCancelled`. Out of line: the event's hold on `points` ends when this
    /// returns, so the caller's buffer is again its own to reuse without a copy.
    @inline(never)
    private func tellCancelled(_ responder: any Responder, link: ChainLink, points: [TouchPoint], time: Timestamp, target: Surface?) {
        responder.touchesCancelled(TouchEvent(time: time, touches: points), context: ResponderContext(router: self, link: link, target: target))
        trace?.record(.told(TraceSubject(link), .touchesCancelled))
    }

    /// Returns finished sequences to the pool. Most frames finish none: the scan for one is
    /// inline, the returning out of line (``compactTouches(from:)``). And most frames (a finger
    /// moving) finish none with nothing that could have finished one since the last
    /// compaction: every record finished bumps `dueEdits` or `finishes` (TouchRouting.swift),
    /// so while both are where the last compaction left them no record is finished, and the
    /// scan is skipped (issue 25, fourteenth round; debug builds check it).
    @inline(__always)
    func compactTouches() {
        guard unchecked.touches.loops == 0 else { return }
        if unchecked.touches.dueEdits == unchecked.touches.compactedAtDueEdits
            && unchecked.touches.finishes == unchecked.touches.compactedAtFinishes {
            #if DEBUG
            // Indexed: unspecialized (a debug build), `contains(where:)` allocates.
            var i = 0
            while i < unchecked.touches.records.count {
                precondition(!unchecked.touches.records[i].unchecked.finished,
                             "a record was finished with neither dueEdits nor finishes bumped")
                i += 1
            }
            #endif
            return endInterceptionRequestsIfIdle()
        }
        scanAndCompactTouches()
    }

    /// ``compactTouches()``'s scan, when something may have finished a record since the last.
    /// The counters are read before the scan: a record finished while the finished ones go
    /// back to the pool (a deinit that cancels) moves them again, and is found next time.
    @inline(never)
    private func scanAndCompactTouches() {
        let dueEdits = unchecked.touches.dueEdits, finishes = unchecked.touches.finishes
        var i = 0, found = false
        while i < unchecked.touches.records.count {
            if unchecked.touches.records[i].unchecked.finished {
                found = true
                break
            }
            i += 1
        }
        if found { compactTouches(from: i) } else { endInterceptionRequestsIfIdle() }
        // No record that was finished when the scan began is left.
        unchecked.touches.compactedAtDueEdits = dueEdits
        unchecked.touches.compactedAtFinishes = finishes
    }

    /// ``compactTouches()`` from the first finished record, at `first`.
    @inline(never)
    private func compactTouches(from first: Int) {
        var i = first
        while i < unchecked.touches.records.count {
            if unchecked.touches.records[i].unchecked.finished {
                // The last record (a lone finger's, most often) without `remove(at:)`'s move
                // of the records after it (a `memmove` call of nothing).
                let sequence = i == unchecked.touches.records.count - 1 ? unchecked.touches.records.removeLast() : unchecked.touches.records.remove(at: i)
                sequence.unchecked.surface = nil
                sequence.unchecked.output = nil
                // Most often empty already (an ended touch's links are dropped as they are
                // told): `removeAll(keepingCapacity:)` is a generic `replaceSubrange` call of
                // about 75 instructions even then.
                if !sequence.unchecked.seen.isEmpty { sequence.unchecked.seen.removeAllKeepingStorage() }
                gestures.purgeHeld(of: sequence)
                // The arena moved out of the record into the coordinator's pool: read and
                // handed on as copies, it was retained twice and released three times (issue
                // 25, sixteenth round).
                if let arena = sequence.unchecked.arena.take() { gestures.recycle(arena) }
                // Handed to the pool, not copied (a retain and a release around the append).
                unchecked.touches.pool.append(consume sequence)
            } else {
                i += 1
            }
        }
        endInterceptionRequestsIfIdle()
    }
}

extension Array where Element == TouchPoint {
    /// Makes the buffer hold `point` alone, in the storage it has. The lone move's buffer
    /// already holds one point (the last frame's) most of the time: that one is written over
    /// through one uniqueness check (emptied and appended to, it took two, and the removal's
    /// loop), issue 25, fourteenth round.
    /// The point is made by `point` once the buffer is unique (nothing is kept across the
    /// uniqueness check's call then); `point` must not touch the buffer.
    @inline(__always)
    mutating func holdLonePoint(_ point: () -> TouchPoint) {
        if count == 1 {
            withUnsafeMutableBufferPointer { $0[0] = point() }
        } else {
            removeAllKeepingStorage()
            append(point())
        }
    }
}
