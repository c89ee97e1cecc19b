/// The recognizers taking part in one touch sequence (or in the current touchpad gesture):
/// those of the hit-test surface and its ancestors, deepest first, then the output's.
/// Pooled by the router with the touch sequences, so a warm router allocates none.
final class GestureArena {
    struct Entry {
        let recognizer: GestureRecognizer
        /// The recognizer's generation when it joined: after its reset, this arena no longer
        /// holds it (it finished with these touches).
        let generation: UInt64
        /// `recognizer`, unretained (rule 2 of ``Unretained``: owned beside it, by
        /// `recognizer`): the gather of a lift reads it and `generation`, trivial fields, so
        /// that walking the entries costs no reference counting. Copied out of the list whole,
        /// an entry retained and released its recognizer and the walk held the list's buffer:
        /// about 50 instructions per recognizer and lift (issue 25, fifteenth round).
        let link: Unretained<GestureRecognizer>

        init(recognizer: GestureRecognizer, generation: UInt64) {
            self.recognizer = recognizer
            self.generation = generation
            link = Unretained(recognizer)
        }

        var isCurrent: Bool { recognizer.unchecked.generation == generation }
    }

    /// An entry of `live`: the recognizer unretained (rule 2 of ``Unretained``: `entries`,
    /// which changes with it, owns it; `live` only loses entries until ``clear()`` empties
    /// both), so that walking it costs no reference counting.
    struct LiveEntry {
        let recognizer: Unretained<GestureRecognizer>
        let generation: UInt64
    }

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// Every recognizer that joined, in the order they joined. Entries are never moved or
        /// removed until ``clear()`` (a withdrawn one is overwritten in place, no longer
        /// current): loops over them that call out keep their indices.
        var entries: [Entry] = []
        /// The entries a touch's begins and moves are shown to: `entries` less those a
        /// delivery pass found settled (failed, cancelled, ended, recognized) or reset since
        /// they joined. Neither comes back before the arena is cleared (a settled recognizer
        /// only leaves its final state by the reset that makes its entry stale), so a failed
        /// recognizer costs nothing per later motion (issue 30, goal 7). Only the gathering
        /// walk of `GestureCoordinator.deliverToRecognizers`, which calls nothing out, drops
        /// entries from it.
        var live: [LiveEntry] = []
        /// The delivery pass (`GestureCoordinator`'s `gesturePassMark`) whose gather found no
        /// live entry that delays touches began, at the coordinator's `delaySettingEdits`
        /// `undelayedEdits`; 0 when none has. Until an entry joins or an engaged recognizer's
        /// `delaysTouchesBegan` is set, no recognizer here delays a begin or a move (live
        /// entries only leave, a settled recognizer only comes back reset, its entry stale),
        /// so `GestureCoordinator.isDelayed` answers without walking them (issue 25, tenth round).
        var undelayedPass: UInt64 = 0
        var undelayedEdits: UInt64 = 0
    }

    @exclusivity(unchecked) var unchecked = HotState()

    init() {
        unchecked.entries.reserveCapacity(8)
        unchecked.live.reserveCapacity(8)
    }

    /// Adds `recognizer` at its current generation.
    func add(_ recognizer: GestureRecognizer) {
        // The entry made in the append, not kept in a local read after it (a second retain
        // of the recognizer and its release; issue 25, fifteenth round).
        let generation = recognizer.unchecked.generation
        unchecked.entries.append(Entry(recognizer: recognizer, generation: generation))
        unchecked.live.append(LiveEntry(recognizer: Unretained(recognizer), generation: generation))
        unchecked.undelayedPass = 0
    }

    /// Withdraws the entry at `index` of `entries`: it stays in place, never current again
    /// (generations count up from 0), and leaves `live`.
    func withdraw(at index: Int) {
        let recognizer = unchecked.entries[index].recognizer
        unchecked.entries[index] = Entry(recognizer: recognizer, generation: .max)
        unchecked.live.removeAll { $0.recognizer.refers(to: recognizer) }
    }

    /// Whether `entry` of `live` stays there: its recognizer is at the generation it joined
    /// at and not settled. Once false, false until ``clear()`` (see `live`).
    @inline(__always)
    func isLive(_ entry: LiveEntry) -> Bool {
        entry.recognizer.with { recognizer in
            recognizer.unchecked.generation == entry.generation && !recognizer.unchecked.storedState.isFinal
        }
    }

    /// Drops from `live` the entries that are no longer live (``isLive(_:)``), keeping the
    /// order of the others. Called by the gathering walk of
    /// `GestureCoordinator.deliverToRecognizers` after it found one, with nothing called out
    /// in between.
    /// Compacted in place (the entries are trivial: moved down by plain copies) and cut to
    /// length: `removeAll(where:)` was a generic call of about 135 instructions for a list of
    /// one (issue 25, seventeenth round).
    @inline(never)
    func dropSettledLiveEntries() {
        var write = 0
        var read = 0
        while read < unchecked.live.count {
            let entry = unchecked.live[read]
            read += 1
            guard isLive(entry) else { continue }
            if write != read - 1 { unchecked.live[write] = entry }
            write += 1
        }
        while unchecked.live.count > write { unchecked.live.removeLast() }
    }

    func contains(_ recognizer: GestureRecognizer) -> Bool {
        // Index loops: in unoptimized builds, for-in over an array of structs allocates.
        var i = 0
        while i < unchecked.entries.count {
            if unchecked.entries[i].recognizer === recognizer && unchecked.entries[i].isCurrent { return true }
            i += 1
        }
        return false
    }

    /// The first current recognizer other than `recognizer` for which `body` holds, when
    /// `recognizer` is itself current here.
    func firstPeer(of recognizer: GestureRecognizer, where body: (GestureRecognizer) -> Bool) -> GestureRecognizer? {
        guard contains(recognizer) else { return nil }
        var i = 0
        while i < unchecked.entries.count {
            let entry = unchecked.entries[i]
            i += 1
            guard entry.isCurrent && entry.recognizer !== recognizer else { continue }
            if body(entry.recognizer) { return entry.recognizer }
        }
        return nil
    }

    /// The first current recognizer that takes its input from the responders: it cancels
    /// touches in view and has begun, ended or been recognized.
    func firstTaker() -> GestureRecognizer? {
        var i = 0
        while i < unchecked.entries.count {
            let entry = unchecked.entries[i]
            i += 1
            guard entry.isCurrent && entry.recognizer.cancelsTouchesInView else { continue }
            let s = entry.recognizer.unchecked.storedState
            if s.isInProgress || s == .ended || s == .recognized { return entry.recognizer }
        }
        return nil
    }

    /// Empties both lists, keeping their storage: element by element (an arena holds a few),
    /// not by `removeAll(keepingCapacity:)`, a generic `replaceSubrange` call of about 75
    /// instructions per list (twice per touch; issue 25, fourteenth round). The entries go
    /// last to first, releasing their recognizers in that order.
    func clear() {
        unchecked.entries.removeAllKeepingStorage()
        unchecked.live.removeAllKeepingStorage()
    }
}

/// A phase of a touch held back from the responders while a recognizer might still take it.
///
/// Trivial (no reference counted field): its record is linked unretained, so that holding,
/// moving, grouping and dropping a phase copies a few words and calls no value witness.
/// Held strongly, each phase's copy into the release group, its swap when kept and its
/// removal retained or released its record through `HeldTouch`'s outlined copy and destroy
/// (about 60 instructions a touch frame on the wlroots kiosk's touchscreen, whose long press
/// holds every touch's first phases; issue 25, thirteenth round).
struct HeldTouch {
    /// The touch's record. Rule 2 of ``Unretained`` (owned beside it): every held phase points
    /// at a record in the router's `touches.records` (TouchRouting's invariant 5), which owns
    /// it; a record leaves that list only in `Router.compactTouches`, which purges its held
    /// phases first (``GestureCoordinator/purgeHeld(of:)``), and only when no loop over the
    /// records is under way (invariant 2), so a phase being released keeps its record.
    let record: Unretained<TouchSequence>
    let phase: TouchPhase
    /// The touch as it was when held, in layout space and the bound surface's space then
    /// (released in the surface's space at the release: ``TouchPoint/inSurface(at:)``).
    var point: TouchPoint
    var time: Timestamp
    /// The device frame it came in (`TouchRouting.frameCount`): phases of one frame, one
    /// phase and one surface are released together, as one event.
    var frame: UInt64

    init(sequence: TouchSequence, phase: TouchPhase, point: TouchPoint, time: Timestamp, frame: UInt64) {
        record = Unretained(sequence)
        self.phase = phase
        self.point = point
        self.time = time
        self.frame = frame
    }

    /// An owning reference to the record (a retain): for checks and tests, not the held path.
    var sequence: TouchSequence { record.object }
}
