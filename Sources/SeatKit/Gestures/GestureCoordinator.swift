/// How the router lets gesture recognizers see input first and settles their conflicts.
///
/// ```
///  touch down ─► arena: recognizers of the hit surface, its ancestors, its output
///  each frame, per phase (began, moved, ended):
///     1. every recognizer of the pending touches' arenas, once, with all its touches of
///        that phase (deepest first) ─► state changes and conflicts settle here
///     2. per bound surface, each touch:
///        ├─ taken by a recognizer             ─► responders get nothing more
///        ├─ a possible recognizer delays it,
///        │  or its surface has phases held    ─► held, in order
///        └─ otherwise                         ─► responder chain, as without recognizers
///  after the frame (or a recognizer's timer, or a cancel): held phases whose recognizers
///  all gave up go to the responders in order; those of taken touches are dropped
///  pointer: press that starts the implicit grab … last release ─► pointer arena
///  touchpad: libinput begin … end ─► touchpad arena
/// ```
extension Router {
    /// The DPI assumed when a device does not report its physical size: 96.
    public static let defaultFallbackDotsPerInch = 96.0

    /// Layout units per millimetre at a layout-space point for `device`: the output's
    /// logical size over the device's ``DeviceInfo/physicalSize`` when the device reports it
    /// (a touchscreen covering that output), else ``fallbackDotsPerInch`` / 25.4.
    ///
    /// Kept per device until a device, mapping rule or output changes (Router+DeviceMapping.swift).
    public func unitsPerMillimetre(device: DeviceID, at point: LayoutPoint) -> Double {
        keptUnitsPerMillimetre(device: device, at: point)
    }
}

extension Router {
    // What recognizers, surfaces and outputs ask of gesture coordination goes through the
    // router, which owns the coordinator.

    /// A recognizer set its state (the transition is already checked legal).
    func gestureRecognizer(_ recognizer: GestureRecognizer, requests newState: GestureRecognizerState) {
        gestures.gestureRecognizer(in: self, recognizer, requests: newState)
    }

    /// A recognizer's timer fired: held touches it released go out now, unless a frame is
    /// being dispatched (which settles them at its end).
    func settleAfterGestureTimer() { gestures.settleAfterGestureTimer(in: self) }

    /// A recognizer was removed from its surface or output.
    func gestureRecognizerWasDetached(_ recognizer: GestureRecognizer) {
        gestures.gestureRecognizerWasDetached(in: self, recognizer)
    }

    /// A recognizer's `isEnabled` went to false: stopped as if removed.
    func gestureRecognizerWasDisabled(_ recognizer: GestureRecognizer) {
        gestures.gestureRecognizerWasDetached(in: self, recognizer, reason: "disabled")
    }
}

/// Lets gesture recognizers see input before the responders and settles their conflicts:
/// the arenas of touches, the pointer's implicit grab and touchpad gestures; the queue of
/// touch phases held back from the responders; require-to-fail and exclusion.
///
/// The router owns one and calls it at each step of its flow (see ``Router``); every call
/// passes the router, which the coordinator calls back for what the router owns: the
/// touches, chain walks, actions, the trace and the clock. It keeps no reference to the
/// router. One thread, like the router; its arrays are reused, so a warm one allocates
/// nothing per event.
final class GestureCoordinator {
    /// A recognizer gathered for a delivery pass, and its generation then.
    struct PassEntry {
        let recognizer: Unretained<GestureRecognizer>
        let generation: UInt64
    }

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// Arenas of finished touches, reused.
        var arenaPool: [GestureArena] = []
        /// Recognizers that have seen input since their last reset.
        var engagedRecognizers: [GestureRecognizer] = []
        /// Recognizers whose transition's side effects are running (see `commit`), with the
        /// transitions and abort deferred until their targets have heard it.
        var transitionsUnderWay: [DeferredTransitions] = []
        /// A recognizer was withdrawn from a touch's arena during the delivery pass under way:
        /// its gathered touches are checked against the arenas again.
        var arenasEditedInPass = false
        /// Recognizers whose recognition waits for others they require to fail.
        var waitingRecognizers: [GestureRecognizer] = []
        /// Touch phases held back from the responders, in the order they happened.
        var heldTouches: [HeldTouch] = []
        var gestureScratch: [TouchPoint] = []
        var heldScratch: [TouchPoint] = []
        /// Held phases being released together (one frame, phase and surface) after the
        /// group's first, which `settleHeldGestures` reads where it is in `heldTouches` (most
        /// groups are of one touch: no copy into this list and no emptying it).
        var releaseGroup: [HeldTouch] = []
        /// The points of the release group's event, moved into the event for the walk and
        /// back after it (`deliverReleaseGroup`): made from the list by assignment, the event
        /// retained it and released it at the end.
        var releasePoints: [TouchPoint]? = []
        /// Marks recognizers shown a phase in the current pass (each sees it once).
        var gesturePassMark: UInt64 = 0
        /// Bumped when an engaged recognizer's `delaysTouchesBegan` is set (see
        /// `GestureArena.HotState.undelayedPass`), and when any recognizer's
        /// `delaysTouchesEnded` is.
        var delaySettingEdits: UInt64 = 0
        /// Bumped at every edit that can let a held phase go which no held record shows:
        /// a recognizer asks for a state or is made to settle, is aborted, detached or
        /// disabled, withdrawn from an arena, or held phases are purged (see
        /// `settleHeldGestures`, which skips a settle when nothing of the kind happened since
        /// the last one began).
        var heldEdits: UInt64 = 0
        /// `heldEdits` and `delaySettingEdits` when the last full settle began.
        var settledAtHeldEdits: UInt64 = .max
        var settledAtDelayEdits: UInt64 = .max
        #if DEBUG
        /// Every settle runs in full (the seeded comparison of `HeldSettleSkipTests`).
        var settlesEveryTime = false
        /// Settles skipped because nothing could release a held phase.
        var skippedSettles = 0
        #endif
        /// The recognizers of the pass under way, in the order they are shown the phase. Raw
        /// memory kept across passes (freed in `deinit`), not an array: an array's store
        /// checks its bounds and the uniqueness of its buffer, about 15 instructions per
        /// recognizer and pass, and emptying it is a generic `replaceSubrange` call of about 75
        /// (issue 25, seventh round). Its entries are trivial (an unretained link and a
        /// generation), so it never initializes or destroys anything.
        var passRecognizers = ChildHitIndex.Storage<PassEntry>()
        /// The points shown to the recognizer being delivered to, and whose touches they are
        /// (the first index, the count, the rest, the tree edit they were made at): the next
        /// recognizer with the same touches gets the same array. `nil` while a pass has them
        /// in its event (moved out, so that nothing is left behind to release at the end).
        var passPoints: [TouchPoint]? = []
        var passPointsCount = -1
        var passPointsFirst = 0
        var passPointsRest: [Int] = []
        var passPointsEdit: UInt64 = 0
        /// The router's `touches.dueEdits` when `passPoints` were built.
        var passPointsDueEdits: UInt64 = 0
        /// Bumped each time `passPoints` is rebuilt.
        var passPointsVersion: UInt64 = 0
        var isSettlingGestures = false
        var touchpadGestureTaken = false
        var touchpadGestureSeenByResponders = false
        var pointerGestureTaken = false
        var pointerPressSeenByResponders = false
        /// The pen stroke the pen arena follows (GestureInputKinds.swift).
        var penStroke = PenStrokeGestures()
        /// Flutter's arena rules in force (GestureRelationships.swift).
        var arenaRules = GestureArenaRules.none
    }

    @exclusivity(unchecked) var unchecked = HotState()

    /// The recognizers following the current touchpad gesture.
    let touchpadArena = GestureArena()
    /// The recognizers following the pointer's implicit grab (first press to last release).
    let pointerArena = GestureArena()
    /// The recognizers following the current pen stroke (tip down to tip up) as a touch.
    let penArena = GestureArena()

    deinit { unchecked.passRecognizers.free() }
}

extension GestureCoordinator {
    // MARK: Arenas

    /// The arena of a new touch, or `nil` when no recognizer takes part (then the touch is
    /// routed exactly as without recognizers).
    func makeArena(in router: Router, surface: Surface?, output: Output?, touch: TouchPoint) -> GestureArena? {
        if !router.unchecked.touches.disallowedInterceptions.isEmpty { return makeArenaWithoutInterceptors(in: router, surface: surface, output: output, touch: touch) }
        var arena: GestureArena?
        forEachRecognizer(of: surface, output: output) { recognizer in join(in: router, recognizer, arena: &arena, touch: touch) }
        return arena
    }

    /// Calls `body` with the recognizers of `surface` and its ancestors, deepest first, then
    /// with those of `output`: the order in which they join an arena.
    /// A recognizer whose ``GestureRecognizer/mask`` leaves out subviews keeps those of the
    /// surfaces below its own out (GestureComposition.swift).
    ///
    /// A surface with no recognizer is passed through its parent link, unretained (rule 1 of
    /// ``Unretained``: nothing is called out there, so the tree keeps it): read through
    /// `parent` and `gestureRecognizers`, each level cost two retains and two releases, about
    /// 45 instructions, per touch down (issue 25, fourteenth round). A surface with
    /// recognizers is held, and its list read once, as before: `body` calls out (delegates,
    /// overrides), which may edit the tree or the list.
    /// The list read is scanned with `scanBorrowed` (rule 5 of ``Unretained``: the copy read
    /// keeps every recognizer in it for the whole scan, whatever `body` edits): through
    /// `scan`, each recognizer was retained and released around `body`, and again around its
    /// `supportedInputKinds` (issue 25, fifteenth round).
    func forEachRecognizer(of surface: Surface?, output: Output?, _ body: (GestureRecognizer) -> Void) {
        // The walk up only when its start says a surface has recognizers: bound first and
        // walked in the same test, the surface was retained around a walk that had nothing
        // to do (no recognizer on any surface: the kiosks' touch downs; issue 25, nineteenth
        // round).
        if let surface, let start = recognizerWalkStart(from: surface, output: output) {
            var node: Unretained<Surface>? = start
            while let link = node {
                if link.with({ $0.unchecked.gestureRecognizers.isEmpty }) {
                    node = link.with { $0.unchecked.parentLink }
                    continue
                }
                let current = link.object
                current.gestureRecognizers.scanBorrowed(body)
                node = current.unchecked.parentLink
            }
        }
        output?.gestureRecognizers.scanBorrowed(body)
    }

    func join(in router: Router, _ recognizer: GestureRecognizer, arena: inout GestureArena?, touch: TouchPoint) {
        guard recognizer.isEnabled, recognizer.takesPart(.touch), !recognizer.unchecked.storedState.isFinal,
              recognizer.unchecked.pendingState == nil else { return }
        if let delegate = recognizer.delegateIfSet, !delegate.gestureRecognizer(recognizer, shouldReceive: touch) { return }
        // The arena used in place, not through a local copy (a retain and a release per
        // recognizer joining), and reached unretained for `add` (rule 4 of ``Unretained``:
        // the caller's `arena` holds it for the call, and `add` calls nothing out): read
        // from the optional, it was retained and released around the call (issue 25,
        // fifteenth round).
        if arena == nil { arena = unchecked.arenaPool.popLast() ?? GestureArena() }
        recognizer.unchecked.composition.inputKind = .touch
        Unretained(arena.unsafelyUnwrapped).with { $0.add(recognizer) }
        engage(in: router, recognizer)
    }

    private func engage(in router: Router, _ recognizer: GestureRecognizer) {
        guard !recognizer.unchecked.isEngaged else { return }
        recognizer.unchecked.isEngaged = true
        recognizer.engagedRouter = router
        unchecked.engagedRecognizers.append(recognizer)
    }

    /// Clears a lifted touch's arena and keeps it for the next down (``makeArena(in:surface:output:touch:)``
    /// takes from the pool), moved in: no retain and release around the append.
    @inline(__always)
    func recycle(_ arena: consuming GestureArena) {
        arena.clear()
        unchecked.arenaPool.append(arena)
    }

    // MARK: Touch delivery

    /// Shows one phase of a frame to every recognizer of the pending touches' arenas, each
    /// once, with all of its touches of that phase whatever surface they are bound to (a
    /// three-finger swipe spans surfaces). Runs before any responder sees the phase.
    ///
    /// Linear in touches × arena entries (issue 30, goal 7): one walk over the due touches'
    /// arenas gathers each recognizer (in the order first met) with the indices of its due
    /// touches, then each is shown its own. Recognizers with the same touches share one array
    /// of points, built once while the tree stays unedited. A recognizer that has failed,
    /// been cancelled or ended leaves the arena's live entries at the first begin or move
    /// after it settled and costs nothing at later ones; it still hears ends, to forget its
    /// touches and reset.
    func deliverToRecognizers(in router: Router, _ phase: TouchPhase, time: Timestamp) {
        router.unchecked.touches.loops += 1
        defer { router.unchecked.touches.loops -= 1 }
        unchecked.gesturePassMark &+= 1
        unchecked.arenasEditedInPass = false
        let pass = unchecked.gesturePassMark
        unchecked.passRecognizers.removeAll()
        // Gather. The active touches keep their indices for the whole pass (the router
        // compacts them only outside its touch loops; touches added meanwhile go at the end).
        // Nothing here calls out: the touches are read without a retain each (their array
        // holds them, rule 6 of `Unretained`).
        // By index (`record(at:)`), not `scanBorrowedWithIndex`: the scan took a copy of the
        // list, one retain and release of it per pass.
        var index = 0
        while index < router.unchecked.touches.records.count {
            router.unchecked.touches.record(at: index).with { sequence in
                // The arena read unretained: the record keeps it (it is recycled only outside the
                // router's touch loops), and nothing here calls out.
                guard router.isDue(sequence, phase), let arenaLink = sequence.unchecked.arena.map(Unretained.init) else { return }
                arenaLink.with { arena in gatherRecognizers(of: arena, touch: index, phase, pass: pass) }
            }
            index += 1
        }
        // Deliver. The arenas keep every gathered recognizer alive until the pass is over
        // (they are recycled only outside the router's touch loops).
        // The event shown is held here, a local, and rebuilt only when the points are: showing
        // the same points to the next recognizer costs no reference counting (a `TouchEvent`
        // made per recognizer from `passPoints` retained and released its array each time).
        // `passPointsVersion` tells whether the points were rebuilt meanwhile (by this pass,
        // or by a pass nested in a handler).
        // The points live in the event for the pass: `passPoints`' buffer is moved into it and
        // back at the end (swapped, not copied), so that the event holds the only reference and
        // is rebuilt in place. Assigned to and from `passPoints`, the array was retained once and
        // released twice per pass (about 60 instructions; issue 25, tenth round). A pass nested
        // in a handler finds `passPoints` taken, builds its own and leaves it there; this pass
        // then sees the version move and rebuilds its own points before showing them again,
        // and puts its own back at the end. Taken out of an optional and put back from the
        // consumed event, the buffer leaves nothing behind to release: swapped with an empty
        // array, the empty array was released at the end (18 instructions a pass).
        unchecked.passPointsCount = -1
        var event = TouchEvent(time: time, touches: unchecked.passPoints.take() ?? [])
        var eventVersion = unchecked.passPointsVersion &- 1
        var r = 0
        while r < unchecked.passRecognizers.count {
            let passEntry = unchecked.passRecognizers[r]
            r += 1
            passEntry.recognizer.with { recognizer in
                // Reset by an earlier recognizer's handler: it finished with these touches.
                guard recognizer.unchecked.generation == passEntry.generation else { return }
                if eventVersion != unchecked.passPointsVersion || !passPointsFit(in: router, recognizer, phase) {
                    guard rebuildPassPoints(in: router, for: recognizer, phase, into: &event.touches) else { return }
                    eventVersion = unchecked.passPointsVersion
                }
                if recognizer.unchecked.storedState.isFinal {
                    // Settled already: only keep its bookkeeping of the touches.
                    if phase == .ended {
                        recognizer.forgetTouches(event)
                        resetIfSettled(in: router, recognizer)
                    }
                    return
                }
                if let trace = router.trace { trace.record(.gestureSaw(recognizer.description, phase.kind)) }
                switch phase {
                case .began: recognizer.beginTouches(event, in: router)
                case .moved: recognizer.moveTouches(event)
                case .ended:
                    recognizer.endTouches(event)
                    resetIfSettled(in: router, recognizer)
                }
            }
        }
        // Assigned, not put back with `putBack` (which saves the release of the `nil` it
        // replaces, about 9 instructions a pass): in this function the test moved the block
        // layout of the per-recognizer loop, +26 a motion with ten recognizers (issue 25,
        // nineteenth round).
        let shown = consume event
        unchecked.passPoints = shown.touches
        unchecked.passRecognizers.removeAll()
    }

    /// The gather of ``deliverToRecognizers(in:_:time:)`` for one due touch (at `index` in the
    /// router's records) and its arena. Calls nothing out.
    @inline(__always)
    private func gatherRecognizers(of arena: GestureArena, touch index: Int, _ phase: TouchPhase, pass: UInt64) {
        if phase == .ended {
            // Every entry: a settled recognizer still forgets its ended touches and resets.
            // By index, each entry's trivial fields only (its unretained link and generation):
            // through `withUnsafeBufferPointer` and a copy of each entry, the walk retained
            // and released the list and each recognizer (issue 25, fifteenth round). Nothing
            // here calls out, so the arena keeps every recognizer.
            var e = 0
            while e < arena.unchecked.entries.count {
                let link = arena.unchecked.entries[e].link
                let generation = arena.unchecked.entries[e].generation
                e += 1
                guard link.with({ $0.unchecked.generation }) == generation else { continue }
                gather(link, generation: generation, touch: index, pass: pass)
            }
            return
        }
        // Begins and moves: the live entries, dropping those found settled or stale for
        // good (GestureArena.live), so that they cost nothing at the next motion. Read by
        // index, not through `withUnsafeMutableBufferPointer` (its uniqueness check and write
        // back cost about 15 per due touch and pass; issue 25, tenth round; moved out of the
        // arena into a local for the walk, the local's release cost 32 more a pass): most
        // passes drop nothing, and one that does compacts the list after the walk.
        // It also notes whether any of them delays touches began (`isDelayed`).
        var dropped = false, delays = false
        var e = 0
        while e < arena.unchecked.live.count {
            let entry = arena.unchecked.live[e]
            e += 1
            guard arena.isLive(entry) else {
                dropped = true
                continue
            }
            if entry.recognizer.with({ $0.unchecked._delaysTouchesBegan }) { delays = true }
            gather(entry.recognizer, generation: entry.generation, touch: index, pass: pass)
        }
        if dropped { arena.dropSettledLiveEntries() }
        if !delays {
            arena.unchecked.undelayedPass = pass
            arena.unchecked.undelayedEdits = unchecked.delaySettingEdits
        }
    }

    /// Notes that `recognizer` is due the touch at `touch` (an index in the router's active
    /// touches) in pass `pass`: the first time, it joins `passRecognizers`; later, the touch
    /// joins its list. The recognizer is reached unretained (its arena entry holds it; rule 5
    /// of `Unretained`): a strong reference was retained and released around the appends.
    @inline(__always)
    private func gather(_ link: Unretained<GestureRecognizer>, generation: UInt64, touch index: Int, pass: UInt64) {
        // Joins `passRecognizers` after the recognizer's own fields are written, outside the
        // closure that reads it: appended inside, the recognizer was retained and released
        // around the append (about 25 instructions per recognizer and touch down; issue 25,
        // fourteenth round).
        let joins = link.with { recognizer -> Bool in
            if recognizer.unchecked.passMark != pass {
                recognizer.unchecked.passMark = pass
                recognizer.unchecked.passFirstTouch = index
                recognizer.unchecked.passTouchCount = 1
                return true
            } else {
                // Overwritten in place, never emptied (`removeAll(keepingCapacity:)` is a
                // generic call of about 80 instructions): only the first `passTouchCount - 1`
                // entries are this pass's.
                let k = recognizer.unchecked.passTouchCount - 1
                recognizer.unchecked.passTouchCount += 1
                if k < recognizer.unchecked.passTouches.count {
                    recognizer.unchecked.passTouches[k] = index
                } else {
                    recognizer.unchecked.passTouches.append(index)
                }
                return false
            }
        }
        if joins { unchecked.passRecognizers.append(PassEntry(recognizer: link, generation: generation)) }
    }

    /// Whether `passPoints` are `recognizer`'s touches still due in this pass, in the bound
    /// surfaces' space as they are now: the previous recognizer had the same touches, all of
    /// them still due (a handler may have cancelled or delivered one meanwhile), and the tree
    /// (or layout) has not been edited since they were made.
    /// Each touch is asked whether it is still due only when the router's `touches.dueEdits`
    /// moved since the points were built (a handler downed, lifted or cancelled a touch, or
    /// held or released a phase): asked each time, the first touch's check cost about 30
    /// instructions per recognizer after the first (issue 25, tenth round). A debug build
    /// checks that the answer is the same.
    @inline(__always)
    private func passPointsFit(in router: Router, _ recognizer: GestureRecognizer, _ phase: TouchPhase) -> Bool {
        let count = recognizer.unchecked.passTouchCount
        let first = recognizer.unchecked.passFirstTouch
        guard count == unchecked.passPointsCount && first == unchecked.passPointsFirst
                && router.unchecked.treeEditCount == unchecked.passPointsEdit && !unchecked.arenasEditedInPass else { return false }
        let unedited = router.unchecked.touches.dueEdits == unchecked.passPointsDueEdits
        assert(!unedited || router.unchecked.touches.record(at: first).with({ router.isDue($0, phase) }),
               "a touch's phase stopped being due without a bump of touches.dueEdits")
        guard unedited || router.unchecked.touches.record(at: first).with({ router.isDue($0, phase) }) else { return false }
        var k = 0
        while k < count &- 1 {
            let index = recognizer.unchecked.passTouches[k]
            if index != unchecked.passPointsRest[k] { return false }
            assert(!unedited || router.unchecked.touches.record(at: index).with({ router.isDue($0, phase) }),
                   "a touch's phase stopped being due without a bump of touches.dueEdits")
            if !unedited && !router.unchecked.touches.record(at: index).with({ router.isDue($0, phase) }) { return false }
            k += 1
        }
        return true
    }

    /// Fills `points` (the pass's event's, `passPoints` moved out for the pass) with
    /// `recognizer`'s touches still due in this pass, in the bound surfaces' space as they are
    /// now; false when none is left (an earlier recognizer's handler cancelled them). Only a
    /// complete set is shared with the next recognizer (`passPointsFit`).
    /// A recognizer with one due touch (one finger moving: most passes) is filled inline, with
    /// no loop over the others (issue 25, tenth round); more go through
    /// ``rebuildPassPoints(in:for:_:into:count:first:)``.
    @inline(__always)
    private func rebuildPassPoints(in router: Router, for recognizer: GestureRecognizer, _ phase: TouchPhase,
                                   into points: inout [TouchPoint]) -> Bool {
        let count = recognizer.unchecked.passTouchCount
        let first = recognizer.unchecked.passFirstTouch
        guard count == 1 else { return rebuildPassPoints(in: router, for: recognizer, phase, into: &points, count: count, first: first) }
        unchecked.passPointsVersion &+= 1
        unchecked.passPointsFirst = first
        unchecked.passPointsEdit = router.unchecked.treeEditCount
        unchecked.passPointsDueEdits = router.unchecked.touches.dueEdits
        guard let point = passPoint(in: router, at: first, for: recognizer, phase) else {
            // Not shown: the next recognizer rebuilds (the version moved), so what is left in
            // `points` is never shown.
            unchecked.passPointsCount = -1
            return false
        }
        if points.count == 1 {
            points[0] = point
        } else {
            points.removeAll(keepingCapacity: true)
            points.append(point)
        }
        unchecked.passPointsCount = 1
        return true
    }

    /// ``rebuildPassPoints(in:for:_:into:)`` for a recognizer with several due touches.
    @inline(never)
    private func rebuildPassPoints(in router: Router, for recognizer: GestureRecognizer, _ phase: TouchPhase,
                                   into points: inout [TouchPoint], count: Int, first: Int) -> Bool {
        unchecked.passPointsVersion &+= 1
        // Both lists are overwritten in place and only then cut to length: emptying them first
        // (`removeAll(keepingCapacity:)`, a generic call) cost about 140 instructions a pass.
        var filled = 0
        var complete = true
        var k = -1
        while k < count - 1 {
            let index = k < 0 ? first : recognizer.unchecked.passTouches[k]
            if k >= 0 {
                if k < unchecked.passPointsRest.count { unchecked.passPointsRest[k] = index } else { unchecked.passPointsRest.append(index) }
            }
            k += 1
            guard let point = passPoint(in: router, at: index, for: recognizer, phase) else {
                complete = false
                continue
            }
            if filled < points.count { points[filled] = point } else { points.append(point) }
            filled += 1
        }
        while points.count > filled { points.removeLast() }
        while unchecked.passPointsRest.count > count - 1 { unchecked.passPointsRest.removeLast() }
        unchecked.passPointsCount = complete ? count : -1
        unchecked.passPointsFirst = first
        unchecked.passPointsEdit = router.unchecked.treeEditCount
        unchecked.passPointsDueEdits = router.unchecked.touches.dueEdits
        return !points.isEmpty
    }

    /// The point of the touch at `index` in the router's records as `recognizer` is shown it,
    /// or `nil` when it is no longer due to it.
    @inline(__always)
    private func passPoint(in router: Router, at index: Int, for recognizer: GestureRecognizer, _ phase: TouchPhase) -> TouchPoint? {
        // Read unretained: the pass runs inside the router's touch loops, so the list keeps
        // the record (rule 6 of `Unretained`), and nothing here calls out. Read with
        // `records[index]`, it cost a retain and a release per touch and rebuild.
        router.unchecked.touches.record(at: index).with { other in
            // Cancelled or delivered meanwhile by an earlier recognizer's handler.
            guard router.isDue(other, phase) else { return nil }
            // Withdrawn from this touch meanwhile (a disallowed interception, Interception.swift).
            if unchecked.arenasEditedInPass, let arena = other.unchecked.arena, !arena.contains(recognizer) { return nil }
            return router.touchPoint(of: other)
        }
    }

    /// Decides whether `sequence`, just grouped for `phase` with the touches bound to `surface`,
    /// goes on to the responders (false: the router adds its point to the group's) or is
    /// withheld (true): a taken one is dropped, a delayed one, or one behind held phases, joins
    /// the held queue. Called by the router for each touch of a group, in order, as it groups it.
    @inline(__always)
    func withhold(_ sequence: TouchSequence, in router: Router, _ phase: TouchPhase, surface: Surface?,
                  origin: LayoutPoint?, time: Timestamp) -> Bool {
        if sequence.unchecked.taken {
            sequence.unchecked.withheld = true
            return true
        }
        // The held list looked at only when it has entries (two calls per grouped touch
        // otherwise; issue 25, tenth round).
        if sequence.unchecked.heldCount > 0
            || (!unchecked.heldTouches.isEmpty && (hasHeldTouch(boundTo: surface) || hasHeldTouch(withID: sequence.unchecked.id))) {
            holdBehindHeldPhases(sequence, in: router, phase, origin: origin, time: time)
            return true
        }
        if isDelayed(sequence, phase) {
            sequence.unchecked.withheld = true
            // The recognizer itself only names the hold in the trace: handed out, it cost a
            // retain and a release per held phase.
            hold(in: router, sequence, phase, origin: origin, time: time, by: router.trace == nil ? nil : delayingRecognizer(sequence, phase))
            return true
        }
        sequence.unchecked.withheld = false
        return false
    }

    /// ``withhold(_:in:_:surface:origin:time:)`` of a phase behind held phases of its own, of
    /// its surface's other touches, or of an earlier touch with its ID (a reused slot whose
    /// end is held): held, to keep the order in which they happened. Out of line: inlined into
    /// every grouping (the lone move's lane among them), its check below cost the lane's
    /// motion frame about 6 instructions (issue 25, eighteenth round).
    @inline(never)
    private func holdBehindHeldPhases(_ sequence: TouchSequence, in router: Router, _ phase: TouchPhase, origin: LayoutPoint?, time: Timestamp) {
        sequence.unchecked.withheld = true
        // Held for the phases before it, not for a recognizer that delays it: whether the
        // next settle lets it go is theirs to say, so that settle is not skipped
        // (`settleHeldGestures`; its touch's own count of held phases may also be all that
        // holds it). Unless the next settle runs in full anyway (an edit since the last one
        // began), or a recognizer of its own arena delays it too: then that settle keeps it
        // whatever happens to the phases before it, as it keeps them (nothing that could let
        // one go happened, or it would have counted an edit), so it may be skipped. A held
        // touch's small moves (the wlroots kiosk's long press, within its 10 mm) no longer
        // each cost a settle that releases nothing (issue 25, eighteenth round).
        if unchecked.heldEdits == unchecked.settledAtHeldEdits && !isDelayed(sequence, phase) { unchecked.heldEdits &+= 1 }
        hold(in: router, sequence, phase, origin: origin, time: time, by: nil)
    }

    // The held list is read in place (`withUnsafeBufferPointer`), its records compared by
    // identity and read unretained (`HeldTouch.record`): a strong copy of the entry retained
    // and released its record for every entry looked at, on every withheld phase while a
    // long press holds a touch back (the kiosk's secondary click: ~1.4 copies per touch
    // frame, issue 24). Nothing here calls out.

    private func hasHeldTouch(withID id: TouchID) -> Bool {
        unchecked.heldTouches.withUnsafeBufferPointer { held in
            var i = 0
            while i < held.count {
                if held[i].record.with({ $0.unchecked.id }) == id { return true }
                i += 1
            }
            return false
        }
    }

    private func hasHeldTouch(boundTo surface: Surface?) -> Bool {
        let target = surface.map(ObjectIdentifier.init)
        return unchecked.heldTouches.withUnsafeBufferPointer { held in
            var i = 0
            while i < held.count {
                if held[i].record.with({ $0.unchecked.surface.map(ObjectIdentifier.init) }) == target { return true }
                i += 1
            }
            return false
        }
    }

    /// The index of the last held phase of `sequence`, if it is a move (consecutive moves
    /// of a held touch collapse into the latest one).
    private func lastHeldMove(of sequence: TouchSequence) -> Int? {
        let target = ObjectIdentifier(sequence)
        return unchecked.heldTouches.withUnsafeBufferPointer { held in
            var last = held.count - 1
            while last >= 0 && held[last].record.identity != target { last -= 1 }
            return last >= 0 && held[last].phase == .moved ? last : nil
        }
    }

    /// A recognizer of the touch's arena that is still possible and wants `phase` held.
    /// Only the live entries: a possible recognizer is never dropped from them.
    func delayingRecognizer(_ sequence: TouchSequence, _ phase: TouchPhase) -> GestureRecognizer? {
        delayingEntry(sequence, phase).map { sequence.unchecked.arena!.unchecked.live[$0].recognizer.object }
    }

    /// Whether a recognizer of the touch's arena delays `phase`: ``delayingRecognizer(_:_:)``
    /// without handing one out (a retain and a release per held phase and frame).
    /// A begin or move of a touch whose arena the last delivery pass found delaying none
    /// (`GestureArena.HotState.undelayedPass`) is answered without a walk.
    @inline(__always)
    func isDelayed(_ sequence: TouchSequence, _ phase: TouchPhase) -> Bool {
        if phase != .ended, let arena = sequence.unchecked.arena.map(Unretained.init),
           arena.with({ $0.unchecked.undelayedPass == unchecked.gesturePassMark && $0.unchecked.undelayedEdits == unchecked.delaySettingEdits }) {
            return false
        }
        return delayingEntry(sequence, phase) != nil
    }

    /// The index in the arena's live entries of ``delayingRecognizer(_:_:)``.
    private func delayingEntry(_ sequence: TouchSequence, _ phase: TouchPhase) -> Int? {
        guard let arena = sequence.unchecked.arena else { return nil }
        var i = 0
        while i < arena.unchecked.live.count {
            let entry = arena.unchecked.live[i]
            i += 1
            // Whether it delays this phase first: most recognizers delay no begin or move, and
            // that one load settles them (the same answer in any order: nothing here has effects).
            let delays = entry.recognizer.with { r in
                (r.unchecked._delaysTouchesBegan || (phase == .ended && r.unchecked._delaysTouchesEnded))
                    && r.unchecked.generation == entry.generation && r.unchecked.storedState == .possible
            }
            if delays { return i - 1 }
        }
        return nil
    }

    private func hold(in router: Router, _ sequence: TouchSequence, _ phase: TouchPhase, origin: LayoutPoint?, time: Timestamp, by recognizer: GestureRecognizer?) {
        let point = sequence.point(surfaceOrigin: origin)
        if phase == .ended {
            sequence.unchecked.endedPending = false
            router.unchecked.touches.dueEdits &+= 1
        }
        if let trace = router.trace {
            trace.record(.touchDelayed(sequence.unchecked.id, phase.kind, by: recognizer?.description ?? "earlier held phases on its surface"))
        }
        // Consecutive moves of a held touch collapse into the latest one.
        if phase == .moved, sequence.unchecked.heldCount > 0, let last = lastHeldMove(of: sequence) {
            unchecked.heldTouches[last].point = point
            unchecked.heldTouches[last].time = time
            return
        }
        unchecked.heldTouches.append(HeldTouch(sequence: sequence, phase: phase, point: point, time: time, frame: router.unchecked.touches.frameCount))
        sequence.unchecked.heldCount += 1
        // Held while a settle delivers (a frame a responder injected from a released phase's
        // walk): the settle under way may not look at it, so the next one must not be skipped.
        if unchecked.isSettlingGestures { unchecked.heldEdits &+= 1 }
    }

    /// Withdraws the touches of `recognizer`'s arenas from the responders: each responder
    /// that saw one is told `touchesCancelled`, once.
    private func takeTouches(in router: Router, for recognizer: GestureRecognizer) {
        guard recognizer.cancelsTouchesInView else { return }
        router.unchecked.touches.loops += 1
        defer { router.unchecked.touches.loops -= 1 }
        var sequenceIndex = 0
        while sequenceIndex < router.unchecked.touches.records.count {
            let sequence = router.unchecked.touches.records[sequenceIndex]
            sequenceIndex += 1
            guard !sequence.unchecked.finished && !sequence.unchecked.taken else { continue }
            guard let arena = sequence.unchecked.arena, arena.contains(recognizer) else { continue }
            sequence.unchecked.taken = true
            if let trace = router.trace { trace.record(.touchTaken(sequence.unchecked.id, by: recognizer.description)) }
            guard !sequence.unchecked.seen.isEmpty else { continue }
            unchecked.heldScratch.removeAll(keepingCapacity: true)
            unchecked.heldScratch.append(router.touchPoint(of: sequence))
            let event = TouchEvent(time: router.clock.now, touches: unchecked.heldScratch)
            // The links are taken out of the sequence before any is told: a cancel handler
            // that removes or cancels must not find them again (one cancel per link).
            var links = router.unchecked.touches.linkBuffers.popLast() ?? []
            swap(&links, &sequence.unchecked.seen)
            var linkIndex = 0
            while linkIndex < links.count {
                let link = links[linkIndex]
                linkIndex += 1
                guard let responder = router.responder(for: link) else { continue }
                responder.touchesCancelled(event, context: ResponderContext(router: router, link: link, target: sequence.unchecked.surface))
                router.trace?.record(.told(TraceSubject(link), .touchesCancelled))
            }
            links.removeAll(keepingCapacity: true)
            router.unchecked.touches.linkBuffers.append(links)
        }
    }

    /// Tells the recognizers of a cancelled touch's arena; those left without touches that
    /// did not settle are made to (in progress → cancelled, possible → failed).
    func cancelRecognizers(in router: Router, of sequence: TouchSequence, time: Timestamp) {
        guard let arena = sequence.unchecked.arena else { return }
        var entryIndex = 0
        while entryIndex < arena.unchecked.entries.count {
            let entry = arena.unchecked.entries[entryIndex]
            entryIndex += 1
            guard entry.isCurrent else { continue }
            let recognizer = entry.recognizer
            guard recognizer.unchecked.touches.scanIndex(where: { $0.id == sequence.unchecked.id }) != nil else { continue }
            unchecked.gestureScratch.removeAll(keepingCapacity: true)
            unchecked.gestureScratch.append(router.touchPoint(of: sequence))
            let event = TouchEvent(time: time, touches: unchecked.gestureScratch)
            if recognizer.unchecked.storedState.isFinal {
                recognizer.forgetTouches(event)
            } else {
                if let trace = router.trace { trace.record(.gestureSaw(recognizer.description, .touchesCancelled)) }
                recognizer.cancelTouches(event)
                if recognizer.unchecked.touches.isEmpty { forceSettle(in: router, recognizer) }
            }
            resetIfSettled(in: router, recognizer)
        }
    }

    /// Moves a recognizer that can no longer go on to its end: cancelled if in progress,
    /// failed if possible.
    func forceSettle(in router: Router, _ recognizer: GestureRecognizer) {
        unchecked.heldEdits &+= 1
        if recognizer.unchecked.storedState.isInProgress {
            commit(in: router, recognizer, .cancelled)
        } else if recognizer.unchecked.storedState == .possible {
            gestureRecognizer(in: router, recognizer, requests: .failed)
        }
    }

    // MARK: Held touches

    /// Delivers held phases whose recognizers have all given up, in the order they were
    /// held; drops those of taken or finished touches. Called at the end of a frame, after a
    /// recognizer's timer and after cancels.
    /// Inlined to its first check: with nothing held (most frames) it costs a load, not a
    /// call (issue 25, tenth round).
    @inline(__always)
    func settleGestures(in router: Router) {
        guard !unchecked.heldTouches.isEmpty, !unchecked.isSettlingGestures else { return }
        settleHeldGestures(in: router)
    }

    /// ``settleGestures(in:)`` with something held.
    @inline(never)
    private func settleHeldGestures(in router: Router) {
        // Nothing that can let a held phase go happened since the last settle began: every
        // phase held then stayed (or went), and every phase held since was held by a
        // recognizer that still delays it or behind a phase that stays. What decides whether
        // a phase stays: its touch finished or taken (read here), its arena's recognizers'
        // states and delay settings and the arena's entries (`heldEdits`,
        // `delaySettingEdits`), the kept phases of its surface and ID before it (the same
        // list, each kept for these reasons). A settle that would release nothing (the
        // kiosk's long press holding a touch at its down: 20 of 36 settles a touchscreen
        // playback, issue 25, sixteenth round) is then its compaction alone.
        if unchecked.heldEdits == unchecked.settledAtHeldEdits && unchecked.delaySettingEdits == unchecked.settledAtDelayEdits
            && !settlesEveryTime && !anyHeldTouchIsOver() {
            #if DEBUG
            unchecked.skippedSettles += 1
            #endif
            if !router.unchecked.touches.isDelivering { router.compactTouches() }
            return
        }
        unchecked.settledAtHeldEdits = unchecked.heldEdits
        unchecked.settledAtDelayEdits = unchecked.delaySettingEdits
        unchecked.isSettlingGestures = true
        router.unchecked.touches.loops += 1
        var releasedAny = false
        // Where the first phase of the group being gathered is in `heldTouches` (released
        // phases stay there until the list is cut at the end: moved, not copied; -1 for
        // none); the rest are in `releaseGroup`.
        var lead = -1
        var write = 0
        var i = 0
        while i < unchecked.heldTouches.count {
            let index = i
            i += 1
            // The entry is trivial (its record unretained): copied, kept (moved) or grouped
            // without a retain, a release or a value witness. The record is the router's
            // (`HeldTouch.record`), and nothing here calls out before the entry is either
            // moved, dropped or copied into `releaseGroup`.
            let entry = unchecked.heldTouches[index]
            let phase = entry.phase
            let stays = entry.record.with { sequence -> Bool in
                if sequence.unchecked.finished || sequence.unchecked.taken { return false }
                guard sequence.unchecked.flushBlocked || isDelayed(sequence, phase)
                    || keptEntry(boundTo: sequence.unchecked.surface, withID: sequence.unchecked.id, before: write) else { return false }
                sequence.unchecked.flushBlocked = true
                return true
            }
            if stays {
                if write != index {
                    unchecked.heldTouches.swapAt(write, index)
                    if lead == write { lead = index }
                }
                write += 1
                continue
            }
            let dropped = entry.record.with { sequence -> Bool in
                sequence.unchecked.heldCount -= 1
                guard sequence.unchecked.finished || sequence.unchecked.taken else { return false }
                if let trace = router.trace { trace.record(.heldTouchDropped(sequence.unchecked.id, phase.kind, reason: sequence.unchecked.taken ? "taken by a recognizer" : "touch cancelled")) }
                if phase == .ended {
                    sequence.unchecked.finished = true
                    router.unchecked.touches.dueEdits &+= 1
                }
                return true
            }
            if dropped { continue }
            // Phases of one frame, one phase and one surface go out as one event.
            if lead >= 0 {
                let sameGroup = unchecked.heldTouches.withUnsafeBufferPointer { held in
                    held[lead].frame == entry.frame && held[lead].phase == phase
                        && held[lead].record.with({ $0.unchecked.surface.map(ObjectIdentifier.init) }) == entry.record.with({ $0.unchecked.surface.map(ObjectIdentifier.init) })
                }
                if sameGroup {
                    unchecked.releaseGroup.append(entry)
                } else {
                    deliverReleaseGroup(in: router, lead: lead)
                    lead = index
                }
            } else {
                lead = index
            }
            releasedAny = true
        }
        if lead >= 0 { deliverReleaseGroup(in: router, lead: lead) }
        // Phases held while the last group went out (a frame a responder injected from its
        // call) come after every phase the loop looked at: kept, after the kept ones, for the
        // next settle (`hold` counted them as an edit, so it is not skipped). Cut with the
        // released ones, their touch lost them and its count of held phases stayed raised.
        while i < unchecked.heldTouches.count {
            if write != i { unchecked.heldTouches.swapAt(write, i) }
            write += 1
            i += 1
        }
        while unchecked.heldTouches.count > write { unchecked.heldTouches.removeLast() }
        var k = 0
        while k < unchecked.heldTouches.count {
            unchecked.heldTouches[k].record.with { $0.unchecked.flushBlocked = false }
            k += 1
        }
        unchecked.isSettlingGestures = false
        router.unchecked.touches.loops -= 1
        if !router.unchecked.touches.isDelivering {
            router.compactTouches()
            // Held touches released outside a frame (a timer, a cancel) close their own.
            if releasedAny && !router.unchecked.touches.isSettling && router.unchecked.touches.hasFrameObservers { router.touchFrameDidFinish() }
        }
    }

    /// Whether settles may be skipped (``settleHeldGestures(in:)``): always in release builds;
    /// debug builds can turn it off, so that the seeded tests compare it with settling each time.
    @inline(__always)
    private var settlesEveryTime: Bool {
        #if DEBUG
        unchecked.settlesEveryTime
        #else
        false
        #endif
    }

    /// Whether a held phase's touch was cancelled or taken: its phase goes (dropped).
    private func anyHeldTouchIsOver() -> Bool {
        unchecked.heldTouches.withUnsafeBufferPointer { held in
            var i = 0
            while i < held.count {
                if held[i].record.with({ $0.unchecked.finished || $0.unchecked.taken }) { return true }
                i += 1
            }
            return false
        }
    }

    /// True when one of the first `count` entries (those kept so far) is bound to `surface`
    /// or has touch ID `id`: a surface's held phases, and those of one ID, go out in order or
    /// not at all.
    private func keptEntry(boundTo surface: Surface?, withID id: TouchID, before count: Int) -> Bool {
        let target = surface.map(ObjectIdentifier.init)
        return unchecked.heldTouches.withUnsafeBufferPointer { held in
            var i = 0
            while i < count {
                let found = held[i].record.with { kept in
                    kept.unchecked.surface.map(ObjectIdentifier.init) == target || kept.unchecked.id == id
                }
                if found { return true }
                i += 1
            }
            return false
        }
    }

    /// Delivers the held phase at `leadIndex` in `heldTouches` and `releaseGroup` after it
    /// (held phases of one frame, phase and surface) as one event, then empties the list.
    private func deliverReleaseGroup(in router: Router, lead leadIndex: Int) {
        // The group's entries are trivial and their records the router's (`HeldTouch.record`,
        // kept while `settleHeldGestures` counts a loop over the records): read unretained,
        // the walk's group closure and the checks after it retain nothing per touch.
        let lead = unchecked.heldTouches[leadIndex]
        let leadRecord = lead.record
        let phase = lead.phase
        // The bound surface, unretained for the walk: the record keeps it (rule 2 of
        // `Unretained`: a record's `surface` is cleared only by `Router.compactTouches`, which
        // waits for the settle's loop over the records, and the record stays in the list until
        // then). Owned, it was retained and released around every group's walk.
        let surfaceLink = leadRecord.with { $0.unchecked.surface.map(Unretained.init) }
        // Where the finger was when held, in the surface's space now: the surface may have
        // moved (or gone to another output) while its touch was held.
        let origin = leadRecord.with { router.surfaceOrigin(of: $0) }
        if let trace = router.trace { trace.record(.touchReleased(leadRecord.with { $0.unchecked.id }, phase.kind)) }
        // The event's points are moved out of `releasePoints` for the walk and back after it
        // (no retain and release of the list); the list holds the last event's one point
        // (most): overwritten in place, one uniqueness check instead of a removal's and an
        // append's.
        // Filled in the event itself, made around the list taken out: filled in a local and
        // then copied into the event, the list was retained and released twice a group
        // (about 80 instructions a released phase; issue 25, seventeenth round).
        let rest = unchecked.releaseGroup.count
        var event = TouchEvent(time: rest == 0 ? lead.time : unchecked.releaseGroup[rest - 1].time,
                               touches: unchecked.releasePoints.take() ?? [])
        if event.touches.count == 1 {
            event.touches[0] = lead.point.inSurface(at: origin)
        } else {
            event.touches.removeAllKeepingStorage()
            event.touches.append(lead.point.inSurface(at: origin))
        }
        if let origin { leadRecord.with { $0.unchecked.lastSurfaceOrigin = origin } }
        var i = 0
        while i < unchecked.releaseGroup.count {
            let entry = unchecked.releaseGroup[i]
            i += 1
            if let trace = router.trace { trace.record(.touchReleased(entry.record.with { $0.unchecked.id }, phase.kind)) }
            event.touches.append(entry.point.inSurface(at: origin))
            if let origin { entry.record.with { $0.unchecked.lastSurfaceOrigin = origin } }
        }
        if phase == .ended {
            leadRecord.with { $0.unchecked.isEnding = true }
            var j = 0
            while j < unchecked.releaseGroup.count {
                unchecked.releaseGroup[j].record.with { $0.unchecked.isEnding = true }
                j += 1
            }
            router.unchecked.touches.dueEdits &+= 1
        }
        // The walk calls the group closure once per link: a group of one (most) gets closures
        // that read no list (the group is fixed for the walk: a phase held meanwhile goes to
        // `heldTouches`, and no settle runs inside this one).
        let handled: Bool
        if unchecked.releaseGroup.isEmpty {
            handled = router.walkTouchPhase(phase, event, surfaceLink: surfaceLink,
                                            stopIf: { leadRecord.with { $0.unchecked.finished || $0.unchecked.taken } }) { body in
                leadRecord.with(body)
            }
        } else {
            handled = router.walkTouchPhase(phase, event, surfaceLink: surfaceLink, stopIf: { releaseGroupIsOver(lead: leadRecord) }) { body in
                leadRecord.with(body)
                var j = 0
                while j < unchecked.releaseGroup.count {
                    unchecked.releaseGroup[j].record.with(body)
                    j += 1
                }
            }
        }
        if !handled && !releaseGroupIsOver(lead: leadRecord) {
            switch phase {
            case .began: router.reportDropped(.touchesBegan, .touchesBegan(event))
            case .moved: router.reportDropped(.touchesMoved, .touchesMoved(event))
            case .ended: router.reportDropped(.touchesEnded, .touchesEnded(event))
            }
        }
        unchecked.releasePoints.putBack((consume event).touches)
        if phase == .ended {
            leadRecord.with { $0.unchecked.finished = true }
            var j = 0
            while j < unchecked.releaseGroup.count {
                unchecked.releaseGroup[j].record.with { $0.unchecked.finished = true }
                j += 1
            }
            router.unchecked.touches.dueEdits &+= 1
        }
        unchecked.releaseGroup.removeAllKeepingStorage()
    }

    /// Every touch of the group being released (`lead` and `releaseGroup`) was cancelled or
    /// taken meanwhile.
    private func releaseGroupIsOver(lead: Unretained<TouchSequence>) -> Bool {
        guard lead.with({ $0.unchecked.finished || $0.unchecked.taken }) else { return false }
        var j = 0
        while j < unchecked.releaseGroup.count {
            let over = unchecked.releaseGroup[j].record.with { $0.unchecked.finished || $0.unchecked.taken }
            if !over { return false }
            j += 1
        }
        return true
    }

    /// Forgets the held phases of a sequence going back to the pool.
    func purgeHeld(of sequence: TouchSequence) {
        guard sequence.unchecked.heldCount > 0 else { return }
        unchecked.heldEdits &+= 1
        unchecked.heldTouches.removeAll { $0.record.refers(to: sequence) }
        sequence.unchecked.heldCount = 0
    }

    func settleAfterGestureTimer(in router: Router) {
        if !router.unchecked.touches.isDelivering { settleGestures(in: router) }
    }

    // MARK: State machine and coordination

    /// A recognizer set its state (the transition is already checked legal). Applies
    /// require-to-fail, the delegate's veto and exclusion between conflicting recognizers.
    func gestureRecognizer(in router: Router, _ recognizer: GestureRecognizer, requests newState: GestureRecognizerState) {
        // May release held phases (`settleHeldGestures`).
        unchecked.heldEdits &+= 1
        switch newState {
        case .began, .recognized:
            if recognizer.unchecked.pendingState == newState { return }
            if let delegate = recognizer.delegateIfSet, !delegate.gestureRecognizerShouldBegin(recognizer) {
                refuse(in: router, recognizer, newState, reason: "its delegate said no")
                return
            }
            switch failureRequirementStatus(in: router, recognizer) {
            case .recognized(let other):
                refuse(in: router, recognizer, newState, reason: "\(other.name), which it requires to fail, was recognized")
                return
            case .possible(let other):
                if recognizer.unchecked.pendingState == nil {
                    unchecked.waitingRecognizers.append(recognizer)
                    if let trace = router.trace { trace.record(.gestureDeferred(recognizer.description, waitingFor: other.description)) }
                }
                recognizer.unchecked.pendingState = newState
                return
            case .failedOrIdle:
                break
            }
            if let rival = rivalInProgress(in: router, recognizer) {
                refuse(in: router, recognizer, newState, reason: "\(rival.name) is in progress")
                return
            }
            stopWaiting(recognizer)
            let generation = recognizer.unchecked.generation
            commit(in: router, recognizer, newState)
            // Not when a handler ended or reset it meanwhile: its rivals may go on.
            if recognizer.unchecked.generation == generation && recognizer.unchecked.storedState == newState {
                failConflictingPeers(in: router, of: recognizer)
            }
        case .failed:
            if recognizer.unchecked.pendingState != nil { stopWaiting(recognizer) }
            commit(in: router, recognizer, .failed)
        default:
            commit(in: router, recognizer, newState)
        }
    }

    private enum RequirementStatus {
        case failedOrIdle
        case possible(GestureRecognizer)
        case recognized(GestureRecognizer)
    }

    private func failureRequirementStatus(in router: Router, _ recognizer: GestureRecognizer) -> RequirementStatus {
        var requirementIndex = 0
        while requirementIndex < recognizer.unchecked.failureRequirements.count {
            let other = recognizer.unchecked.failureRequirements[requirementIndex]
            requirementIndex += 1
            guard other.unchecked.isEngaged, !recognizer.isIndependent(of: other) else { continue }
            switch other.unchecked.storedState {
            case .failed: continue
            case .possible: return .possible(other)
            case .began, .changed, .ended, .cancelled, .recognized: return .recognized(other)
            }
        }
        // Inhibitors (GestureRelationships.swift): wait while one may begin or is in progress.
        if !recognizer.unchecked.composition.relationships.inhibitedBy.isEmpty {
            let inhibition = inhibitionStatus(of: recognizer)
            if let other = inhibition.refusedBy { return .recognized(other) }
            if let other = inhibition.waitFor { return .possible(other) }
        }
        // A high-priority recognizer above it in its arenas counts as a failure requirement.
        if let other = highPriorityRival(in: router, of: recognizer) {
            return other.unchecked.storedState == .possible ? .possible(other) : .recognized(other)
        }
        return .failedOrIdle
    }

    /// Makes `recognizer` fail. The reason is built only when tracing is on.
    private func refuse(in router: Router, _ recognizer: GestureRecognizer, _ requested: GestureRecognizerState, reason: @autoclosure () -> String) {
        if let trace = router.trace { trace.record(.gestureRefused(recognizer.description, requested, reason: reason())) }
        stopWaiting(recognizer)
        commit(in: router, recognizer, .failed)
    }

    private func stopWaiting(_ recognizer: GestureRecognizer) {
        guard recognizer.unchecked.pendingState != nil else { return }
        recognizer.unchecked.pendingState = nil
        if let index = unchecked.waitingRecognizers.scanIndex(where: { $0 === recognizer }) { unchecked.waitingRecognizers.remove(at: index) }
    }

    /// Sets the state, then: a recognition takes the touches and fails those waiting for
    /// this one to fail; a failure lets them try again. Targets and the action follow.
    ///
    /// The responders' `touchesCancelled` and the waiters' recognitions run while the targets
    /// have not yet heard of this state; a handler there that ends or removes this recognizer
    /// (it removes the surface, cancels the touch) has that transition deferred until after
    /// the targets and the action (`deferCommit`): told in place, the targets heard `.cancelled`
    /// before `.began`, then `.possible` (the gesture-graph soak, seed 24).
    private func commit(in router: Router, _ recognizer: GestureRecognizer, _ newState: GestureRecognizerState) {
        if deferCommit(recognizer, newState) { return }
        if newState == .failed && unchecked.waitingRecognizers.isEmpty && !unchecked.arenaRules.contains(.lastRemainingWins) {
            return commitFailure(in: router, recognizer)
        }
        let old = recognizer.unchecked.storedState
        recognizer.unchecked.storedState = newState
        if let trace = router.trace { trace.record(.gestureState(recognizer.description, from: old, to: newState)) }
        var deferred: DeferredTransitions?
        switch newState {
        case .began, .recognized:
            unchecked.transitionsUnderWay.append(DeferredTransitions(recognizer: recognizer, generation: recognizer.unchecked.generation))
            takeTouches(in: router, for: recognizer)
            if !penArena.unchecked.entries.isEmpty { penArenaRecognizerCommitted(in: router, recognizer) }
            resolveWaiters(in: router, on: recognizer, failed: false)
            deferred = endTransitionUnderWay(recognizer)
        case .failed:
            // A failure's side effects are the waiters' and the last-remaining rule's; one
            // with neither took `commitFailure` above, so here there is one or the other.
            unchecked.transitionsUnderWay.append(DeferredTransitions(recognizer: recognizer, generation: recognizer.unchecked.generation))
            resolveWaiters(in: router, on: recognizer, failed: true)
            if unchecked.arenaRules.contains(.lastRemainingWins) { awardLastRemaining(in: router, after: recognizer) }
            deferred = endTransitionUnderWay(recognizer)
        case .cancelled, .ended:
            // An inhibitor's gesture is over (GestureRelationships.swift): those it inhibits
            // go ahead if it was cancelled, fail if it ended.
            if !recognizer.unchecked.composition.relationships.inhibits.isEmpty && !unchecked.waitingRecognizers.isEmpty {
                unchecked.transitionsUnderWay.append(DeferredTransitions(recognizer: recognizer, generation: recognizer.unchecked.generation))
                resolveInhibited(in: router, by: recognizer, cancelled: newState == .cancelled)
                deferred = endTransitionUnderWay(recognizer)
            }
        default:
            break
        }
        var t = 0
        while t < recognizer.unchecked.targets.count {
            recognizer.unchecked.targets[t](recognizer)
            t += 1
        }
        if newState == .recognized || newState == .ended, let action = recognizer.action {
            if let surface = recognizer.surface, surface.unchecked.isAttached, surface.responder.canPerform(action) {
                router.sendAction(action, to: surface)
            } else {
                router.sendAction(action)
            }
        }
        // A composite's parts still in progress hear that it is over (GestureComposition.swift).
        if newState.isFinal && recognizer.unchecked.storedState == newState { recognizer.didSettle() }
        if let deferred { replay(in: router, deferred) }
        resetIfSettled(in: router, recognizer)
    }

    /// ``commit(in:_:_:)`` of a failure with no recognizer waiting and no last-remaining
    /// rule (every recognizer that does not recognize a touch, at its lift): nothing runs
    /// before its targets, so nothing is deferred, and no action is sent. The same steps in
    /// the same order, without the general path's deferred transitions, whose optional was
    /// destroyed at every commit (issue 25, fifteenth round).
    @inline(__always)
    private func commitFailure(in router: Router, _ recognizer: GestureRecognizer) {
        let old = recognizer.unchecked.storedState
        recognizer.unchecked.storedState = .failed
        if let trace = router.trace { trace.record(.gestureState(recognizer.description, from: old, to: .failed)) }
        var t = 0
        while t < recognizer.unchecked.targets.count {
            recognizer.unchecked.targets[t](recognizer)
            t += 1
        }
        if recognizer.unchecked.storedState == .failed { recognizer.didSettle() }
        resetIfSettled(in: router, recognizer)
    }

    private func resolveWaiters(in router: Router, on recognizer: GestureRecognizer, failed: Bool) {
        var i = 0
        while i < unchecked.waitingRecognizers.count {
            let waiter = unchecked.waitingRecognizers[i]
            let required = waiter.unchecked.failureRequirements.scanIndex(where: { $0 === recognizer }) != nil
                && !waiter.isIndependent(of: recognizer)
            guard required || (recognizer.isHighPriority && highPriority(recognizer, holds: waiter, in: router))
                    || recognizer.inhibits(waiter),
                  let pending = waiter.unchecked.pendingState else {
                i += 1
                continue
            }
            if !failed && !required && !recognizer.isHighPriority {
                // Only an inhibitor's: its begin leaves the waiter waiting (until it is
                // cancelled or ends); its recognition ends the wait.
                if recognizer.unchecked.storedState != .recognized {
                    i += 1
                    continue
                }
            }
            if failed {
                if case .possible = failureRequirementStatus(in: router, waiter) {
                    i += 1
                    continue
                }
                waiter.unchecked.pendingState = nil
                unchecked.waitingRecognizers.remove(at: i)
                gestureRecognizer(in: router, waiter, requests: pending)
            } else {
                refuse(in: router, waiter, pending, reason: "\(recognizer.name), which it requires to fail, was recognized")
            }
            // The list may have changed under us; start over (it is short).
            i = 0
        }
    }

    /// The waiters `inhibitor` holds, once its gesture is over: cancelled, they go ahead
    /// unless something else still holds them; ended, they fail.
    private func resolveInhibited(in router: Router, by inhibitor: GestureRecognizer, cancelled: Bool) {
        var i = 0
        while i < unchecked.waitingRecognizers.count {
            let waiter = unchecked.waitingRecognizers[i]
            guard inhibitor.inhibits(waiter), !waiter.isIndependent(of: inhibitor), let pending = waiter.unchecked.pendingState else {
                i += 1
                continue
            }
            if cancelled {
                switch failureRequirementStatus(in: router, waiter) {
                case .possible:
                    i += 1
                    continue
                case .recognized(let other):
                    refuse(in: router, waiter, pending, reason: "\(other.name), which it waits for, was recognized")
                case .failedOrIdle:
                    waiter.unchecked.pendingState = nil
                    unchecked.waitingRecognizers.remove(at: i)
                    gestureRecognizer(in: router, waiter, requests: pending)
                }
            } else {
                refuse(in: router, waiter, pending, reason: "\(inhibitor.name), which inhibits it until cancelled, ended")
            }
            i = 0
        }
    }

    /// Calls `body` with every other current recognizer sharing an arena with `recognizer`.
    func forEachPeer(in router: Router, of recognizer: GestureRecognizer, _ body: (GestureRecognizer) -> Bool) -> GestureRecognizer? {
        var sequenceIndex = 0
        while sequenceIndex < router.unchecked.touches.records.count {
            let sequence = router.unchecked.touches.records[sequenceIndex]
            sequenceIndex += 1
            guard !sequence.unchecked.finished else { continue }
            if let peer = sequence.unchecked.arena?.firstPeer(of: recognizer, where: body) { return peer }
        }
        if let peer = pointerArena.firstPeer(of: recognizer, where: body) { return peer }
        if let peer = penArena.firstPeer(of: recognizer, where: body) { return peer }
        return touchpadArena.firstPeer(of: recognizer, where: body)
    }

    private func rivalInProgress(in router: Router, _ recognizer: GestureRecognizer) -> GestureRecognizer? {
        forEachPeer(in: router, of: recognizer) { other in
            other.unchecked.storedState.isInProgress && other.excludes(recognizer)
        }
    }

    private func failConflictingPeers(in router: Router, of recognizer: GestureRecognizer) {
        _ = forEachPeer(in: router, of: recognizer) { other in
            if other.unchecked.storedState == .possible && recognizer.excludes(other) {
                if let trace = router.trace { trace.record(.gestureRefused(other.description, .possible, reason: "\(recognizer.name) began")) }
                gestureRecognizer(in: router, other, requests: .failed)
            }
            return false
        }
    }

    func resetIfSettled(in router: Router, _ recognizer: GestureRecognizer) {
        if recognizer.isSettled && !isTransitionUnderWay(recognizer) { resetRecognizer(in: router, recognizer) }
    }

    private func resetRecognizer(in router: Router, _ recognizer: GestureRecognizer) {
        // The three lists emptied only when they hold something, and then element by element
        // (they hold one or two): `removeAll(keepingCapacity:)` is a generic `replaceSubrange`
        // call of about 60 to 110 instructions even on an empty list, three per reset, and
        // every touch ends in a reset of each recognizer of its arena (issue 25, fourteenth
        // round). The timers are cancelled first, in order, as before.
        if !recognizer.unchecked.timers.isEmpty {
            recognizer.unchecked.timers.scan { token in router.clock.cancel(token) }
            recognizer.unchecked.timers.removeAllKeepingStorage()
        }
        if !recognizer.unchecked.deadlines.isEmpty { recognizer.unchecked.deadlines.removeAllKeepingStorage() }
        // `stopWaiting` and `resolveIdleRequirement` called only when they have something to
        // do (a recognition pending; a waiter): about 20 instructions a call each otherwise.
        if recognizer.unchecked.pendingState != nil { stopWaiting(recognizer) }
        recognizer.unchecked.storedState = .possible
        recognizer.unchecked.generation &+= 1
        if !recognizer.unchecked.touches.isEmpty { recognizer.unchecked.touches.removeAllKeepingStorage() }
        recognizer.unchecked.followsPointerOrTouchpad = false
        recognizer.engagedRouter = nil
        if recognizer.unchecked.isEngaged {
            recognizer.unchecked.isEngaged = false
            if let index = unchecked.engagedRecognizers.scanIndex(where: { $0 === recognizer }) { unchecked.engagedRecognizers.removeKeepingOrder(at: index) }
        }
        if let trace = router.trace { trace.record(.gestureReset(recognizer.description)) }
        recognizer.progress = 0
        recognizer.reset()
        // Someone may have been waiting for this one, and an idle recognizer counts as failed.
        if !unchecked.waitingRecognizers.isEmpty { resolveIdleRequirement(in: router, recognizer) }
    }

    private func resolveIdleRequirement(in router: Router, _ recognizer: GestureRecognizer) {
        var i = 0
        while i < unchecked.waitingRecognizers.count {
            let waiter = unchecked.waitingRecognizers[i]
            if waiter.unchecked.failureRequirements.scanIndex(where: { $0 === recognizer }) != nil || recognizer.isHighPriority
                || recognizer.inhibits(waiter),
               let pending = waiter.unchecked.pendingState, !waiterStillBlocked(in: router, waiter) {
                waiter.unchecked.pendingState = nil
                unchecked.waitingRecognizers.remove(at: i)
                gestureRecognizer(in: router, waiter, requests: pending)
                i = 0
            } else {
                i += 1
            }
        }
    }

    private func waiterStillBlocked(in router: Router, _ waiter: GestureRecognizer) -> Bool {
        if case .possible = failureRequirementStatus(in: router, waiter) { return true }
        return false
    }

    /// Ends recognizers whose surface or output left this router: cancelled if in progress,
    /// failed if possible, then reset.
    func abortDetachedRecognizers(in router: Router) {
        var i = unchecked.engagedRecognizers.count
        while i > 0 {
            i -= 1
            guard i < unchecked.engagedRecognizers.count else { continue }
            let recognizer = unchecked.engagedRecognizers[i]
            guard recognizer.router !== router else { continue }
            abort(in: router, recognizer, reason: "its surface was removed")
        }
    }

    func gestureRecognizerWasDetached(in router: Router, _ recognizer: GestureRecognizer, reason: String = "removed from its surface") {
        unchecked.heldEdits &+= 1
        if recognizer.unchecked.isEngaged || recognizer.unchecked.storedState != .possible {
            abort(in: router, recognizer, reason: reason)
        }
        if !router.unchecked.touches.isDelivering { settleGestures(in: router) }
    }

    /// Stops a recognizer at once (detached or removed from its surface).
    func abort(in router: Router, _ recognizer: GestureRecognizer, reason: String) {
        unchecked.heldEdits &+= 1
        if deferAbort(recognizer, reason: reason) { return }
        if let trace = router.trace { trace.record(.gestureRefused(recognizer.description, recognizer.unchecked.storedState, reason: reason)) }
        recognizer.unchecked.touches.removeAll(keepingCapacity: true)
        recognizer.unchecked.followsPointerOrTouchpad = false
        if recognizer.unchecked.storedState.isInProgress {
            commit(in: router, recognizer, .cancelled)
        } else if recognizer.unchecked.storedState == .possible {
            stopWaiting(recognizer)
            commit(in: router, recognizer, .failed)
        }
        if recognizer.unchecked.storedState != .possible || recognizer.unchecked.isEngaged { resetRecognizer(in: router, recognizer) }
    }

    // MARK: Pointer presses

    /// Opens the pointer arena at the press that starts the implicit grab: the recognizers
    /// of the focus, its ancestors and its output that take pointer events.
    func beginPointerArena(in router: Router, focus: Surface?) {
        endPointerArena(in: router)
        unchecked.pointerGestureTaken = false
        unchecked.pointerPressSeenByResponders = false
        forEachRecognizer(of: focus, output: focus?.output ?? router.unchecked.layout.output(at: router.unchecked.pointer.location)) { recognizer in
            // One emulated touch at a time: one following a pen stroke as a touch sits this
            // press out.
            if recognizer.takesPart(.pointer) && recognizer.unchecked.composition.emulatedTouch == nil {
                follow(in: router, recognizer, in: pointerArena)
                recognizer.unchecked.composition.inputKind = .pointer
            }
        }
    }

    /// Shows a button to the pointer arena's recognizers. Returns true when the responders
    /// must not see it: a recognizer has taken the press, and the responders did not see the
    /// press (a release always follows a press they saw, so no client keeps a stuck button).
    func deliverPointerButtonToRecognizers(in router: Router, _ event: PointerButtonEvent) -> Bool {
        show(in: router, pointerArena, .pointerButton) { showPointerButton(in: router, event, to: $0) }
        notePointerTaken(in: router)
        if event.state == .released { return unchecked.pointerGestureTaken && !unchecked.pointerPressSeenByResponders }
        return unchecked.pointerGestureTaken
    }

    /// Shows motion to the pointer arena's recognizers; true when a recognizer has taken the
    /// press, so the motion goes no further.
    func deliverPointerMotionToRecognizers(in router: Router, _ event: PointerMotionEvent) -> Bool {
        show(in: router, pointerArena, .pointerMoved) { showPointerMotion(in: router, event, to: $0) }
        notePointerTaken(in: router)
        return unchecked.pointerGestureTaken
    }

    private func notePointerTaken(in router: Router) {
        guard !unchecked.pointerGestureTaken, let taker = pointerArena.firstTaker() else { return }
        unchecked.pointerGestureTaken = true
        if let trace = router.trace { trace.record(.pointerPressTaken(by: taker.description)) }
    }

    /// Ends the pointer arena; `sweep`: the last button was released (the arena rules'
    /// sweep may give the win first).
    func endPointerArena(in router: Router, sweep: Bool = false) {
        if sweep && unchecked.arenaRules.contains(.sweepAtEnd) { self.sweep(in: router, pointerArena) }
        end(in: router, pointerArena)
    }

    // MARK: Arenas that follow the pointer or the touchpad

    /// Adds an enabled, unsettled recognizer to the pointer or touchpad arena, which it then
    /// follows until that arena ends.
    func follow(in router: Router, _ recognizer: GestureRecognizer, in arena: GestureArena) {
        guard recognizer.isEnabled, !recognizer.unchecked.storedState.isFinal, recognizer.unchecked.pendingState == nil else { return }
        arena.add(recognizer)
        recognizer.unchecked.followsPointerOrTouchpad = true
        engage(in: router, recognizer)
    }

    /// Shows an event to each recognizer still in `arena` that has not settled, in order.
    func show(in router: Router, _ arena: GestureArena, _ kind: RoutedEventKind, to body: (GestureRecognizer) -> Void) {
        var i = 0
        while i < arena.unchecked.entries.count {
            let entry = arena.unchecked.entries[i]
            i += 1
            guard entry.isCurrent, !entry.recognizer.unchecked.storedState.isFinal else { continue }
            if let trace = router.trace { trace.record(.gestureSaw(entry.recognizer.description, kind)) }
            body(entry.recognizer)
        }
        settleAfterOtherInput(in: router)
    }

    /// A pointer, pen or touchpad event moved recognizers that may also hold touch phases
    /// back (a tap waiting for a pointer recognizer to fail, say): the phases they released
    /// go out now, as after a touch frame or a timer, rather than wait for the next touch
    /// frame that may never come (the gesture-graph soak, seed 518).
    func settleAfterOtherInput(in router: Router) {
        if !unchecked.heldTouches.isEmpty && !router.unchecked.touches.isDelivering { settleGestures(in: router) }
    }

    /// Ends the pointer or touchpad arena: its recognizers stop following it, are made to
    /// settle, and reset once settled.
    func end(in router: Router, _ arena: GestureArena) {
        guard !arena.unchecked.entries.isEmpty else { return }
        var i = 0
        while i < arena.unchecked.entries.count {
            let entry = arena.unchecked.entries[i]
            i += 1
            guard entry.isCurrent else { continue }
            entry.recognizer.unchecked.followsPointerOrTouchpad = false
            // A pen stroke or a drag it followed as a touch ends as a cancelled touch.
            if entry.recognizer.unchecked.composition.emulatedTouch != nil {
                cancelEmulatedTouch(in: router, of: entry.recognizer, time: router.clock.now)
                guard entry.isCurrent else { continue }
            }
            forceSettle(in: router, entry.recognizer)
            resetIfSettled(in: router, entry.recognizer)
        }
        arena.clear()
        settleAfterOtherInput(in: router)
    }

    // MARK: Touchpad gestures

    /// Shows a touchpad gesture event to the recognizers of the pointer focus's subtree and
    /// output. Returns true when one of them has taken the gesture from the responders.
    func deliverTouchpadGestureToRecognizers(in router: Router, _ event: TouchpadGestureEvent, focus: Surface?) -> Bool {
        if case .begin = event.gesture.phase {
            end(in: router, touchpadArena)
            unchecked.touchpadGestureTaken = false
            unchecked.touchpadGestureSeenByResponders = false
            forEachRecognizer(of: focus, output: focus?.output ?? router.unchecked.layout.output(at: event.location)) { recognizer in
                if recognizer.takesPart(.touchpad) {
                    follow(in: router, recognizer, in: touchpadArena)
                    recognizer.unchecked.composition.inputKind = .touchpad
                }
            }
        }
        guard !touchpadArena.unchecked.entries.isEmpty else { return false }
        show(in: router, touchpadArena, .touchpadGesture) { $0.touchpadGesture(event) }
        if !unchecked.touchpadGestureTaken, let taker = touchpadArena.firstTaker() {
            unchecked.touchpadGestureTaken = true
            if let trace = router.trace { trace.record(.touchpadGestureTaken(by: taker.description)) }
            if unchecked.touchpadGestureSeenByResponders {
                // Responders saw its start: end it for them, as libinput ends a cancelled one.
                var ending = event
                ending.gesture.phase = .end(cancelled: true)
                _ = router.walkChain(from: focus, target: focus, kind: .touchpadGesture) { responder, context in
                    responder.touchpadGesture(ending, context: context)
                }
            }
        }
        let taken = unchecked.touchpadGestureTaken
        if case .end(let cancelled) = event.gesture.phase {
            if !cancelled && unchecked.arenaRules.contains(.sweepAtEnd) { sweep(in: router, touchpadArena) }
            end(in: router, touchpadArena)
        }
        return taken
    }

    func noteTouchpadGestureDelivered() { unchecked.touchpadGestureSeenByResponders = true }
}
