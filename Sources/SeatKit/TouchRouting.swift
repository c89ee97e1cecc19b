/// The router's touch state, apart from the pointer's and the keyboard's: one record per
/// touch, and where the delivery of a device frame stands. Read with Router+Touch.swift.
///
/// Invariants (the fault-script and gesture-graph soaks check what they imply):
/// 1. **One record per touch.** `records` holds a ``TouchSequence`` for each touch from its
///    down to the end of the frame that ends it: its bound surface, its carried origin, its
///    pending phases, its arena, and the links that saw it begin (`seen`). Nothing else lists
///    touches: recognizers' held phases point at records, a client responder asks the router
///    which touches it follows, and a link that ends a touch itself lets go of it with
///    ``Router/stopFollowingTouches(where:_:)``. At most one record per ``TouchID`` is down.
/// 2. **Stable while in use.** While `loops` > 0 (a loop over `records` calls out), records are
///    only appended to; finished ones go back to `pool` when no loop is under way.
/// 3. **Frames stay frames.** `pass` is `.idle` between device frames. A frame goes
///    `.reusedEnds` (only when a record `endsBeforeReuse`: an ID lifted and put down again in
///    the frame) → `.phases` (began, moved, ended) → `.settling` (recognizers settle, held
///    phases are released) → `.idle`. A frame that arrives while one is delivered
///    (`isDelivering`) waits in `deferredFrame` and goes right after, as a frame of its own;
///    `deferredFrame` is `nil` whenever `pass` is `.idle`.
/// 4. **Points carried, not recomputed.** A record's surface origin is brought up to date
///    once per tree edit (`originsAtEdit`), not per event.
///
/// Stored in the router's unchecked hot state (UnsafeFoundations.swift): no access to it is
/// held across a call out.
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
    var pool: [TouchSequence] = []
    /// Touch IDs whose down a filter took: the rest of each touch is the filter's.
    var takenByFilters: [TouchID] = []
    /// Backs `Router.touchGrab`.
    var grab: (any TouchGrab)?
    /// Told the end of each frame, not kept alive (``Router/addTouchFrameObserver(_:)``).
    var frameObservers: [WeakTouchFrameObserver] = []
    /// Told the end of each frame, kept alive (`Router.addTouchFrameSink(_:)`).
    var frameSinks: [any TouchFrameObserver] = []
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
    /// `treeEditCount` when the touches' surfaces were last checked for having moved under
    /// them (``Router/refreshTouchLocations(time:)``, and before each touch frame).
    var checkedAtEdit: UInt64 = 0
    /// `treeEditCount` when each record's carried surface origin was last brought up to date
    /// (invariant 4).
    var originsAtEdit: UInt64 = 0
    /// Surfaces whose ancestors may not intercept their touches until every touch has
    /// ended (`requestDisallowInterception(by:)`, Gestures/Interception.swift).
    var disallowedInterceptions: [Surface] = []
    /// The points of the group being delivered.
    var scratch: [TouchPoint] = []
    /// The touches of a group that one link saw begin, when it did not see them all.
    var subsetScratch: [TouchPoint] = []
    /// Buffers for batches of cancelled touches, reused (one per nesting level).
    var cancelBatches: [[TouchSequence]] = []
    /// Buffers for the touches of one `touchesCancelled`, reused (one per nesting level).
    var cancelPointBuffers: [[TouchPoint]] = []
    /// Buffers for lists of links being told a cancel, reused.
    var linkBuffers: [[ChainLink]] = []

    init() {
        records.reserveCapacity(16)
        pool.reserveCapacity(16)
        takenByFilters.reserveCapacity(16)
        scratch.reserveCapacity(16)
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
}
