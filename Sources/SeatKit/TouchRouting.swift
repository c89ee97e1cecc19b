/// The router's touch state, apart from the pointer's and the keyboard's: one record per
/// touch, and where the delivery of a device frame stands. Read with Router+Touch.swift.
///
/// Invariants (``checkInvariants(treeEditCount:held:)`` checks them between events; the
/// fault-script soak calls it after every step):
/// 1. **One record per touch.** `records` holds a ``TouchSequence`` for each touch from its
///    down to the end of the frame that ends it: its bound surface, its carried origin, its
///    pending phases, its arena, and the links that saw it begin (`seen`). Nothing else lists
///    touches: recognizers' held phases point at records, a client responder asks the router
///    which touches it follows, and a link that ends a touch itself lets go of it with
///    ``Router/stopFollowingTouches(where:_:)``. At most one record per ``TouchID`` is down.
///    Between events no record is `finished` (an ended or cancelled touch's record goes back
///    to `pool` when the outermost loop over `records` ends), no record is in `pool` too, and
///    a pooled record keeps no surface, output, link or arena. `takenByFilters` lists each ID
///    once, and none of them is down in `records` (a filter that takes a down cancels it).
///    Each of `followedFingers` is a finger in `takenByFilters` (its up or cancel forgets it).
/// 2. **Stable while in use.** While `loops` > 0 (a loop over `records` calls out), records are
///    only appended to; finished ones go back to `pool` when no loop is under way. Between
///    events `loops` is 0.
/// 3. **Frames stay frames.** `pass` is `.idle` between device frames. A frame goes
///    `.reusedEnds` (only when a record `endsBeforeReuse`: an ID lifted and put down again in
///    the frame) → `.phases` (began, moved, ended) → `.settling` (recognizers settle, held
///    phases are released) → `.idle`. A frame that arrives while one is delivered
///    (`isDelivering`) waits in `deferredFrame` and goes right after, as a frame of its own;
///    `deferredFrame` is `nil` whenever `pass` is `.idle`.
/// 4. **Points carried, not recomputed.** A record's surface origin is brought up to date
///    once per tree edit (`originsAtEdit`), not per event: when `originsAtEdit` is the
///    router's `treeEditCount`, each record bound to an attached surface carries that
///    surface's layout origin as a walk up the tree finds it, and a record on no surface
///    carries zero. `originsAtEdit` and `checkedAtEdit` are never ahead of the tree.
/// 5. **A record agrees with its finger and its followers.** A pending end has had its up
///    (`endedPending` → `upReceived`), a pending move its began delivered, a record that
///    `endsBeforeReuse` is up with its end pending and its ID down again in another record;
///    between events no record is mid-end (`isEnding`) or blocked in a flush. `heldCount` is
///    the number of the recognizers' held phases that point at the record, and every held
///    phase points at a record in `records`. A live record's `seen` lists each link once, and
///    only links still in the layout (a surface attached, an output in the layout, or the
///    delegate): a link that leaves is told the cancel and let go before the edit returns.
/// 6. **Interception requests end with the touches.** `disallowedInterceptions` is empty
///    when no record is left.
///
/// Stored in the router's unchecked hot state (UnsafeFoundations.swift): no access to it is
/// held across a call out.
/// A finger a filter took whose motion the router routes as a touch of the filter's own
/// (``Router/followFinger(_:asTouch:device:byFilter:)``).
struct FollowedFinger {
    /// The real finger (its down was taken).
    var finger: TouchID
    /// The touch that stands for it, from `device`.
    var touch: TouchID
    var device: DeviceID
    /// The filter, by address (compared, never called).
    var filter: UnsafeMutableRawPointer
}

struct TouchRouting {
    /// Where the delivery of a device frame stands (invariant 3).
    enum Pass {
        case idle
        /// The ends of touches whose IDs went down again in this frame, ahead of the rest.
        case reusedEnds
        /// Began, moved and ended phases, in that order.
        case phases
        /// The frame is out: recognizers settle and held phases are released; its end is
        /// told to the frame observers once, after.
        case settling
    }

    /// Every routed touch, in the order they went down (invariant 1).
    var records: [TouchSequence] = []
    /// Finished records, reused: a warm router allocates none.
    var pool = TouchRecordPool()
    /// Touch IDs whose down a filter took: the rest of each touch is the filter's.
    var takenByFilters: [TouchID] = [] {
        didSet { noteSideRoute(Self.takenSide, !takenByFilters.isEmpty) }
    }
    /// Fingers a filter took whose motion goes on as a touch of the filter's own, routed
    /// past it without asking it (``Router/followFinger(_:asTouch:device:byFilter:)``).
    var followedFingers: [FollowedFinger] = []
    /// Backs `Router.touchGrab`.
    var grab: (any TouchGrab)? {
        didSet { noteSideRoute(Self.grabSide, grab != nil) }
    }
    /// What a touch motion or frame must be routed past besides its record, one bit each
    /// (``tracedSide``, ``takenSide``, ``grabSide``): kept by their writers (the trace's setter,
    /// these properties' observers), so that the router's motion and frame entries
    /// (`Router.injectTouchMotion(at:device:id:to:)`, `Router.injectTouchFrame(at:device:)`)
    /// test one byte where they tested the trace, the taken touches and the grab each (five
    /// instructions a motion, issue 25, eighteenth round).
    private(set) var sideRoutes: UInt8 = 0
    /// A trace is set (`Router.trace`).
    static let tracedSide: UInt8 = 1
    /// Some touch is taken by a filter (``takenByFilters`` is not empty).
    static let takenSide: UInt8 = 2
    /// A touch grab is active (``grab``).
    static let grabSide: UInt8 = 4

    /// Sets or clears one of ``sideRoutes``' bits.
    @inline(__always)
    mutating func noteSideRoute(_ bit: UInt8, _ on: Bool) {
        sideRoutes = on ? sideRoutes | bit : sideRoutes & ~bit
    }
    /// Told the end of each frame, not kept alive (``Router/addTouchFrameObserver(_:)``).
    var frameObservers: [WeakTouchFrameObserver] = []
    /// Told the end of each frame, kept alive (`Router.addTouchFrameSink(_:)`), never removed.
    var frameSinks = TouchFrameSinks()
    var pass = Pass.idle
    /// A touch frame injected while one was delivered: delivered right after, at this time.
    var deferredFrame: Timestamp?
    /// Loops over `records` that call out (dispatch, cancel, take, settle) under way
    /// (invariant 2).
    var loops = 0
    /// Device frames dispatched so far: held phases of one frame are released together.
    var frameCount: UInt64 = 0
    /// Marks the records grouped in the delivery pass under way.
    var frameMark: UInt64 = 0
    /// Bumped by each change that can make a record's phase stop being due
    /// (``Router/isDue(_:_:)``) while the recognizers are shown a phase: a touch down (a record
    /// reset, an earlier one's end marked to go first), up or cancelled, a held phase put back
    /// or released by the gesture coordinator. The recognizer pass notes it when it builds the
    /// points it shows, and while it has not moved shows them to the next recognizer with the
    /// same touches without asking each whether it is still due (issue 25, tenth round).
    /// The frame's own bookkeeping (`pass`, the pending flags cleared as a phase is grouped,
    /// `isEnding`, the finished ends) does not bump it: it never runs inside a recognizer pass
    /// (a frame injected meanwhile waits, invariant 3, and the pass starts afresh each time).
    /// A pending phase marked (a move, an end) makes a touch due, never undue: not counted.
    var dueEdits: UInt64 = 0
    /// Bumped by the frame's own finishing of ended records (Router+Touch.swift), which does
    /// not bump `dueEdits`; every other way a record is finished (a cancel, a held end
    /// released or dropped) bumps `dueEdits`. With both where `compactTouches` last left them
    /// (`compactedAtDueEdits`, `compactedAtFinishes`), no record is finished, and the frame's
    /// compaction has nothing to scan for.
    var finishes: UInt64 = 0
    var compactedAtDueEdits: UInt64 = 0
    var compactedAtFinishes: UInt64 = 0
    /// `treeEditCount` when the touches' surfaces were last checked for having moved under
    /// them (``Router/refreshTouchLocations(time:)``, and before each touch frame).
    var checkedAtEdit: UInt64 = 0
    /// `treeEditCount` when each record's carried surface origin was last brought up to date
    /// (invariant 4).
    var originsAtEdit: UInt64 = 0
    /// Surfaces whose ancestors may not intercept their touches until every touch has
    /// ended (`requestDisallowInterception(by:)`, Gestures/Interception.swift).
    var disallowedInterceptions: [Surface] = []
    /// The points of the group being grouped; `nil` while its event has them (moved into it
    /// for the walk, ``Router`` `deliverTouchGroup`).
    var scratch: [TouchPoint]? = []
    /// The touches of a group that one link saw begin, when it did not see them all.
    var subsetScratch: [TouchPoint] = []
    /// Buffers for batches of cancelled touches, reused (one per nesting level).
    var cancelBatches: [[TouchSequence]] = []
    /// Buffers for the touches of one `touchesCancelled`, reused (one per nesting level).
    var cancelPointBuffers: [[TouchPoint]] = []
    /// Buffers for lists of links being told a cancel, reused.
    var linkBuffers: [[ChainLink]] = []
    #if DEBUG
    /// Every frame goes the general way, none through the lone move's lane (Router+Touch.swift's
    /// `dispatchLoneMove`): what the seeded tests compare the lane with.
    var generalFramesOnly = false
    /// Moves delivered through the lone move's lane so far (the seeded tests check that it ran).
    var loneMoveFrames = 0
    /// Of those, the frames that took the settled lone move's lane (no recognizer live on the
    /// touch: Router+Touch.swift's `dispatchSettledLoneMove`, from `dispatchTouches`).
    var settledLoneMoveFrames = 0
    #endif

    init() {
        records.reserveCapacity(16)
        takenByFilters.reserveCapacity(16)
        followedFingers.reserveCapacity(16)
        scratch?.reserveCapacity(16)
        subsetScratch.reserveCapacity(16)
        cancelBatches.reserveCapacity(4)
        cancelPointBuffers.reserveCapacity(4)
    }

    /// The record at `index`, not retained: only while `loops` > 0, when no record leaves
    /// `records` (invariant 2), so the list keeps it alive across calls out (rule 6 of
    /// ``Unretained``).
    @inline(__always)
    func record(at index: Int) -> Unretained<TouchSequence> {
        records.unretainedElement(at: index)
    }

    /// Whether anyone is told the end of a frame.
    @inline(__always)
    var hasFrameObservers: Bool { !frameObservers.isEmpty || !frameSinks.isEmpty }

    /// A frame's phases are being delivered: a frame injected now waits for it.
    @inline(__always)
    var isDelivering: Bool { pass == .reusedEnds || pass == .phases }

    /// The frame is out and its recognizers settle: its end is told once, after.
    @inline(__always)
    var isSettling: Bool { pass == .settling }

    /// The invariants above that do not hold now, one line each (empty: all hold). Meant
    /// between events: during one, records are appended, finished and grouped. `held`: the
    /// recognizers' held phases (`GestureCoordinator`'s `heldTouches`).
    func checkInvariants(treeEditCount: UInt64, held: [HeldTouch]) -> [String] {
        var broken: [String] = []
        // 1. One record per touch.
        var i = 0
        while i < records.count {
            let record = records[i]
            let r = record.unchecked
            if r.finished { broken.append("1. touch \(r.id)'s record is finished but still listed") }
            var j = i + 1
            while j < records.count {
                if records[j] === record { broken.append("1. touch \(r.id)'s record is listed twice") }
                if record.isDown, records[j].isDown, records[j].unchecked.id == r.id {
                    broken.append("1. touch \(r.id) has two records down")
                }
                j += 1
            }
            if pool.contains(where: { $0 === record }) { broken.append("1. touch \(r.id)'s record is in the pool too") }
            if r.nextPooled != nil { broken.append("1. touch \(r.id)'s record links into the pool") }
            if record.isDown, takenByFilters.contains(r.id) {
                broken.append("1. touch \(r.id) is down in a record and taken by a filter")
            }
            i += 1
        }
        for record in pool where record.unchecked.surface != nil || record.unchecked.output != nil
            || !record.unchecked.seen.isEmpty || record.unchecked.arena != nil {
            broken.append("1. a pooled record keeps touch \(record.unchecked.id)'s surface, output, links or arena")
        }
        i = 0
        while i < takenByFilters.count {
            if takenByFilters[(i + 1)...].contains(takenByFilters[i]) {
                broken.append("1. touch \(takenByFilters[i]) is listed twice as taken by a filter")
            }
            i += 1
        }
        for followed in followedFingers where !takenByFilters.contains(followed.finger) {
            broken.append("1. finger \(followed.finger) is followed but no filter holds its touch")
        }
        // 2, 3. At rest between frames.
        if loops != 0 { broken.append("2. \(loops) loops over the records are under way") }
        if pass != .idle { broken.append("3. a frame is under way (\(pass))") }
        if deferredFrame != nil { broken.append("3. a frame waits for one that is not being delivered") }
        // 4. Points carried.
        if originsAtEdit > treeEditCount {
            broken.append("4. origins were brought up to date at edit \(originsAtEdit), after the tree's \(treeEditCount)")
        }
        if checkedAtEdit > treeEditCount {
            broken.append("4. touches were checked at edit \(checkedAtEdit), after the tree's \(treeEditCount)")
        }
        if originsAtEdit == treeEditCount {
            for record in records where !record.unchecked.finished {
                let r = record.unchecked
                if let surface = r.surface {
                    guard surface.unchecked.isAttached, let walked = surface.layoutOrigin else { continue }
                    if abs(walked.x - r.surfaceOrigin.x) > 1e-6 || abs(walked.y - r.surfaceOrigin.y) > 1e-6 {
                        broken.append("4. touch \(r.id) carries origin \(r.surfaceOrigin), a walk up the tree finds \(walked)")
                    }
                } else if r.surfaceOrigin != .zero {
                    broken.append("4. touch \(r.id) is on no surface but carries origin \(r.surfaceOrigin)")
                }
            }
        }
        // 5. Each record agrees with its finger and its followers.
        for record in records {
            let r = record.unchecked
            if r.endedPending && !r.upReceived { broken.append("5. touch \(r.id)'s end is pending but it is not up") }
            if r.movedPending && r.beganPending { broken.append("5. touch \(r.id) has a move pending before its began") }
            if r.endsBeforeReuse {
                if !r.upReceived || !r.endedPending {
                    broken.append("5. touch \(r.id) ends before its ID's reuse but its end is not pending")
                }
                if !records.contains(where: { $0 !== record && $0.isDown && $0.unchecked.id == r.id }) {
                    broken.append("5. touch \(r.id) ends before its ID's reuse but its ID is not down again")
                }
            }
            if r.isEnding { broken.append("5. touch \(r.id) is still being told it ended") }
            if r.flushBlocked { broken.append("5. touch \(r.id) is still blocked in a flush of held phases") }
            var heldPhases = 0
            for entry in held where entry.sequence === record { heldPhases += 1 }
            if heldPhases != r.heldCount {
                broken.append("5. touch \(r.id) counts \(r.heldCount) held phases, the recognizers hold \(heldPhases)")
            }
            guard !r.finished else { continue }
            var l = 0
            while l < r.seen.count {
                let link = r.seen[l]
                var m = l + 1
                while m < r.seen.count {
                    if r.seen[m].isSame(as: link) { broken.append("5. touch \(r.id) lists \(link) twice as a follower") }
                    m += 1
                }
                switch link {
                case .surface(let s) where !s.unchecked.isAttached:
                    broken.append("5. touch \(r.id) is followed by \(s.name), which left the layout")
                case .output(let o) where !o.isInLayout:
                    broken.append("5. touch \(r.id) is followed by output \(o.name), which left the layout")
                default: break
                }
                l += 1
            }
        }
        for entry in held where !records.contains(where: { $0 === entry.sequence }) {
            broken.append("5. a held \(entry.phase) phase of touch \(entry.sequence.unchecked.id) points at no record")
        }
        // 6. Interception requests.
        if records.isEmpty && !disallowedInterceptions.isEmpty {
            broken.append("6. \(disallowedInterceptions.count) interception requests outlive every touch")
        }
        return broken
    }
}

/// The router's finished touch records, kept for the next touches (``TouchRouting/pool``): a
/// stack linked through the records themselves (`TouchSequence.HotState.nextPooled`), last in,
/// first out, as the array it replaces was used. A record goes in at its compaction and out
/// at a touch down, each a few moves of references: the array's `append` and `popLast` each
/// made it unique through a runtime call first (`_makeUniqueAndReserveCapacityIfNotUnique`,
/// 20 instructions, and `popLast`'s 23; issue 25, nineteenth round). A pooled record holds the
/// next one; a routed record holds none (`nextPooled` is `nil`: taken out on the way out).
struct TouchRecordPool: Sequence, ExpressibleByArrayLiteral {
    private var head: TouchSequence?

    init() {}

    /// A pool of `records` (tests).
    init(arrayLiteral records: TouchSequence...) {
        for record in records { append(record) }
    }

    /// Puts `record` (finished, off the records, holding no surface, output, link or arena)
    /// on top. Both stores go over `nil` (`storeOverNil`): the record's link (it was routed)
    /// and the head (just taken), so neither releases anything.
    @inline(__always)
    mutating func append(_ record: consuming TouchSequence) {
        let rest = head.take()
        storeOverNil(&record.unchecked.nextPooled, rest)
        storeOverNil(&head, record)
    }

    /// Takes the record on top, if any, with its link to the next one cleared.
    @inline(__always)
    mutating func popLast() -> TouchSequence? {
        guard let record = head.take() else { return nil }
        storeOverNil(&head, record.unchecked.nextPooled.take())
        return record
    }

    /// Empties the pool one record at a time, each record's link to the next taken out before
    /// it goes (``Router``'s deinit): released as a list, a record's release would release the
    /// next one inside it, as deep as the pool is long. (Written as ``popLast()`` in a loop, it
    /// stopped Swift 6.3.1's optimizer on an ownership error of its own.)
    mutating func removeAll() {
        var next = head.take()
        while let record = next {
            next = record.unchecked.nextPooled.take()
        }
    }

    /// The number of pooled records (a walk down the list: tests and checks only).
    var count: Int {
        var n = 0
        for _ in self { n += 1 }
        return n
    }

    func makeIterator() -> Iterator { Iterator(current: head) }

    struct Iterator: IteratorProtocol {
        var current: TouchSequence?
        mutating func next() -> TouchSequence? {
            guard let record = current else { return nil }
            current = record.unchecked.nextPooled
            return record
        }
    }
}
