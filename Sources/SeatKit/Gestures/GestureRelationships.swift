// Relationships beyond UIKit's (issue 30, goal 3): Mutter's ClutterGesture "can not cancel",
// "recognize independently from" and "inhibit until cancelled", and the arena rules of
// Flutter's gesture arena (the last member not to reject wins; a sweep at the end of the
// input gives the win to the first member still possible). Cold paths only: they are read
// when a recognizer begins, is recognized, fails or settles, never per event.

/// A recognizer held weakly (relationships must not keep recognizers alive, nor make cycles).
struct WeakRecognizer {
    weak var object: GestureRecognizer?
}

/// A recognizer's Mutter-style relationships (a recognizer's `HotState`, under `composition`).
struct GestureRelationships {
    /// Recognizers this one's begin or recognition does not stop.
    var cannotCancel: [WeakRecognizer] = []
    /// Recognizers this one and which neither stop nor wait for each other (kept on both).
    var independent: [WeakRecognizer] = []
    /// Recognizers whose recognition waits while this one may still begin or is in progress
    /// (Mutter's inhibit until cancelled): this one is their inhibitor.
    var inhibits: [WeakRecognizer] = []
    /// The mirror of `inhibits`: the recognizers that inhibit this one.
    var inhibitedBy: [WeakRecognizer] = []
    /// The generation in which the arena rules last gave it the win (each win is told once).
    var wonGeneration = UInt64.max

    var isEmpty: Bool { cannotCancel.isEmpty && independent.isEmpty && inhibits.isEmpty && inhibitedBy.isEmpty }

    static func contains(_ list: [WeakRecognizer], _ recognizer: GestureRecognizer) -> Bool {
        var i = 0
        while i < list.count {
            if list[i].object === recognizer { return true }
            i += 1
        }
        return false
    }

    static func add(_ recognizer: GestureRecognizer, to list: inout [WeakRecognizer]) {
        list.removeAll { $0.object == nil }
        if !contains(list, recognizer) { list.append(WeakRecognizer(object: recognizer)) }
    }

    static func remove(_ recognizer: GestureRecognizer, from list: inout [WeakRecognizer]) {
        list.removeAll { $0.object == nil || $0.object === recognizer }
    }
}

/// Which of the rules of Flutter's gesture arena the router applies on top of its own
/// (``Router/gestureArenaRules``).
///
/// SeatKit's arenas always follow Flutter's *eager win*: the first recognizer to begin or be
/// recognized wins, and the others that are still possible fail (unless a delegate, a
/// ``GestureRecognizer/cannotCancel(_:)`` or ``GestureRecognizer/recognizeIndependently(of:)``
/// lets them go on). These rules add Flutter's other two ways to win. A *member* is a
/// recognizer taking part in the input: the touch's, the pen stroke's, the pointer press's or
/// the touchpad gesture's arena.
public struct GestureArenaRules: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The last member not to reject wins: once every other member of an arena has failed and
    /// none has begun or been recognized, the one still possible wins at once (it need not
    /// wait for the input to end).
    public static let lastRemainingWins = GestureArenaRules(rawValue: 1 << 0)
    /// The sweep: when the input of an arena ends (the last finger of a touch lifts, the pen
    /// tip or the last button is released, the touchpad gesture ends) and no member has begun
    /// or been recognized, the first member still possible (deepest surface first, then in
    /// the order attached, the output's last) wins and the others that are still possible
    /// fail.
    public static let sweepAtEnd = GestureArenaRules(rawValue: 1 << 1)
    /// Neither: UIKit's rules alone (the default).
    public static let none: GestureArenaRules = []
}

extension GestureRecognizer {
    /// Mutter's `clutter_gesture_can_not_cancel`: this recognizer's begin or recognition no
    /// longer stops `other` over shared input. `other`, still possible, stays possible; `other`
    /// may begin while this one is in progress. The other way round is unchanged: `other`
    /// beginning first still makes this one fail, unless `other.cannotCancel(self)` too (then
    /// the pair may both be recognized, as with a delegate's simultaneous recognition).
    /// Failure requirements and high priority still apply. Both are held weakly.
    public func cannotCancel(_ other: GestureRecognizer) {
        guard other !== self else { return }
        GestureRelationships.add(other, to: &unchecked.composition.relationships.cannotCancel)
    }

    /// Whether this recognizer's begin or recognition stops `other` (a still-possible `other`
    /// fails; `other` may not begin while this one is in progress): false after
    /// ``cannotCancel(_:)`` or ``recognizeIndependently(of:)``, or when a delegate lets the
    /// pair recognize simultaneously.
    public func cancels(_ other: GestureRecognizer) -> Bool {
        guard other !== self else { return false }
        return excludes(other)
    }

    /// Mutter's `clutter_gesture_recognize_independently_from`, on SeatKit's per-arena model:
    /// this recognizer and `other` take no notice of each other. Neither's begin or recognition
    /// stops the other, neither waits for the other (a ``require(toFail:)`` between them, an
    /// ``inhibitUntilCancelled(_:)`` between them or a high-priority one above the other no
    /// longer holds them), and each begins while the other is in progress. Symmetric; held
    /// weakly on both.
    public func recognizeIndependently(of other: GestureRecognizer) {
        guard other !== self else { return }
        GestureRelationships.add(other, to: &unchecked.composition.relationships.independent)
        GestureRelationships.add(self, to: &other.unchecked.composition.relationships.independent)
    }

    /// Whether ``recognizeIndependently(of:)`` relates the two.
    public func isIndependent(of other: GestureRecognizer) -> Bool {
        let relations = unchecked.composition.relationships
        return !relations.independent.isEmpty && GestureRelationships.contains(relations.independent, other)
    }

    /// Mutter's inhibit until cancelled: `other`'s recognition waits while this one may still
    /// begin or is in progress, and goes ahead once this one fails or is *cancelled*; if this
    /// one ends or is recognized, `other` fails. Unlike `other.require(toFail: self)`, a
    /// gesture of this one that began and was then cancelled (lifted short of its commit
    /// threshold, say) lets `other` go on. This one's begin still makes a possible `other`
    /// fail, as any conflict does, unless `cannotCancel(other)` (then `other` waits through
    /// the begin, as in Mutter where a gesture that inhibits another usually cannot cancel
    /// it). Counts only while this one follows input: an idle one counts as failed.
    ///
    /// - Throws: ``GestureRequirementError/cycle(_:)`` when `other` would wait for itself,
    ///   through failure requirements and inhibitions together; nothing is changed then.
    public func inhibitUntilCancelled(_ other: GestureRecognizer) throws(GestureRequirementError) {
        if other === self { throw .cycle([name, name]) }
        // `other` would wait for this one: refused if this one already waits for `other`.
        if let path = requirementPath(to: other) { throw .cycle([other.name] + path.map(\.name)) }
        GestureRelationships.add(other, to: &unchecked.composition.relationships.inhibits)
        GestureRelationships.add(self, to: &other.unchecked.composition.relationships.inhibitedBy)
    }

    /// Whether this recognizer inhibits `other` until cancelled (``inhibitUntilCancelled(_:)``).
    public func inhibits(_ other: GestureRecognizer) -> Bool {
        GestureRelationships.contains(unchecked.composition.relationships.inhibits, other)
    }

    /// Undoes ``cannotCancel(_:)``, ``recognizeIndependently(of:)`` and
    /// ``inhibitUntilCancelled(_:)`` between this recognizer and `other`, in both directions
    /// (failure requirements stay). Takes effect at the next begin, recognition or failure.
    public func removeRelationships(with other: GestureRecognizer) {
        GestureRelationships.remove(other, from: &unchecked.composition.relationships.cannotCancel)
        GestureRelationships.remove(self, from: &other.unchecked.composition.relationships.cannotCancel)
        GestureRelationships.remove(other, from: &unchecked.composition.relationships.independent)
        GestureRelationships.remove(self, from: &other.unchecked.composition.relationships.independent)
        GestureRelationships.remove(other, from: &unchecked.composition.relationships.inhibits)
        GestureRelationships.remove(self, from: &other.unchecked.composition.relationships.inhibitedBy)
        GestureRelationships.remove(self, from: &other.unchecked.composition.relationships.inhibits)
        GestureRelationships.remove(other, from: &unchecked.composition.relationships.inhibitedBy)
    }

    /// Whether this recognizer's begin or recognition stops `other` (the router's rule):
    /// they conflict (no delegate allows both) and no relationship spares `other`.
    func excludes(_ other: GestureRecognizer) -> Bool {
        let relations = unchecked.composition.relationships
        if !relations.isEmpty {
            if GestureRelationships.contains(relations.cannotCancel, other) { return false }
            if GestureRelationships.contains(relations.independent, other) { return false }
        }
        return conflicts(with: other)
    }

    /// The recognizers this one waits for, directly: those it requires to fail and those that
    /// inhibit it.
    func forEachAwaited(_ body: (GestureRecognizer) -> Bool) -> Bool {
        for next in unchecked.failureRequirements where body(next) { return true }
        for next in unchecked.composition.relationships.inhibitedBy {
            if let next = next.object, body(next) { return true }
        }
        return false
    }
}

extension GestureCoordinator {
    /// The inhibitors of `recognizer` that hold it: `.possible(other)` while one may still
    /// begin or is in progress, `.recognized(other)` once one ended or was recognized.
    func inhibitionStatus(of recognizer: GestureRecognizer) -> (waitFor: GestureRecognizer?, refusedBy: GestureRecognizer?) {
        let inhibitors = recognizer.unchecked.composition.relationships.inhibitedBy
        var i = 0
        while i < inhibitors.count {
            let other = inhibitors[i].object
            i += 1
            guard let other, other.unchecked.isEngaged, !recognizer.isIndependent(of: other) else { continue }
            switch other.unchecked.storedState {
            case .failed, .cancelled: continue
            case .possible, .began, .changed: return (other, nil)
            case .ended, .recognized: return (nil, other)
            }
        }
        return (nil, nil)
    }
}

extension Router {
    /// Flutter's gesture-arena rules applied on top of UIKit's (see ``GestureArenaRules``).
    /// Default ``GestureArenaRules/none``. Takes effect at the next failure or end of input.
    public var gestureArenaRules: GestureArenaRules {
        get { gestures.unchecked.arenaRules }
        set { gestures.unchecked.arenaRules = newValue }
    }
}

extension GestureCoordinator {
    /// Whether a member of `arena` has won already: one has begun, is in progress, ended, was
    /// recognized or cancelled after beginning.
    private func hasWinner(_ arena: GestureArena) -> Bool {
        var i = 0
        while i < arena.unchecked.entries.count {
            let entry = arena.unchecked.entries[i]
            i += 1
            guard entry.isCurrent else { continue }
            switch entry.recognizer.unchecked.storedState {
            case .began, .changed, .ended, .recognized, .cancelled: return true
            case .possible, .failed: continue
            }
        }
        return false
    }

    /// The sweep (``GestureArenaRules/sweepAtEnd``): without a winner yet, the first member
    /// still possible wins and the other possible members fail.
    func sweep(in router: Router, _ arena: GestureArena) {
        guard !hasWinner(arena) else { return }
        var winner: GestureRecognizer?
        var i = 0
        while i < arena.unchecked.entries.count {
            let entry = arena.unchecked.entries[i]
            i += 1
            if entry.isCurrent && entry.recognizer.unchecked.storedState == .possible {
                winner = entry.recognizer
                break
            }
        }
        guard let winner else { return }
        award(in: router, winner, in: arena, reason: "the sweep gave \(winner.name) the arena")
    }

    /// The sweep for each touch whose end the recognizers have just seen.
    func sweepEndedTouches(in router: Router) {
        // The sweep calls out: no record leaves the list meanwhile (TouchRouting's invariant 2).
        router.unchecked.touches.loops += 1
        defer { router.unchecked.touches.loops -= 1 }
        var k = 0
        while k < router.unchecked.touches.records.count {
            let sequence = router.unchecked.touches.records[k]
            k += 1
            guard router.isDue(sequence, .ended), let arena = sequence.unchecked.arena else { continue }
            sweep(in: router, arena)
        }
    }

    /// ``GestureArenaRules/lastRemainingWins``: `failed` just failed; in each arena it shared
    /// without a winner, a single member left possible wins.
    func awardLastRemaining(in router: Router, after failed: GestureRecognizer) {
        func check(_ arena: GestureArena) {
            guard arena.contains(failed), !hasWinner(arena) else { return }
            var remaining: GestureRecognizer?
            var count = 0
            var i = 0
            while i < arena.unchecked.entries.count {
                let entry = arena.unchecked.entries[i]
                i += 1
                guard entry.isCurrent, entry.recognizer.unchecked.storedState == .possible else { continue }
                if remaining !== entry.recognizer { count += 1 }
                remaining = entry.recognizer
            }
            guard count == 1, let remaining else { return }
            award(in: router, remaining, in: arena, reason: "every other member failed")
        }
        // An award calls out: no record leaves the list meanwhile (TouchRouting's invariant 2).
        router.unchecked.touches.loops += 1
        var k = 0
        while k < router.unchecked.touches.records.count {
            let sequence = router.unchecked.touches.records[k]
            k += 1
            guard !sequence.unchecked.finished, let arena = sequence.unchecked.arena else { continue }
            check(arena)
        }
        router.unchecked.touches.loops -= 1
        check(pointerArena)
        check(penArena)
        check(touchpadArena)
    }

    /// Gives `winner` the arena: the other members still possible fail, then it hears
    /// ``GestureRecognizer/gestureArenaWon()``.
    private func award(in router: Router, _ winner: GestureRecognizer, in arena: GestureArena, reason: @autoclosure () -> String) {
        let generation = winner.unchecked.generation
        guard winner.unchecked.composition.relationships.wonGeneration != generation else { return }
        winner.unchecked.composition.relationships.wonGeneration = generation
        var i = 0
        while i < arena.unchecked.entries.count {
            let entry = arena.unchecked.entries[i]
            i += 1
            guard entry.isCurrent, entry.recognizer !== winner, entry.recognizer.unchecked.storedState == .possible else { continue }
            if let trace = router.trace { trace.record(.gestureRefused(entry.recognizer.description, .possible, reason: reason())) }
            gestureRecognizer(in: router, entry.recognizer, requests: .failed)
        }
        guard winner.unchecked.generation == generation, winner.unchecked.storedState == .possible else { return }
        winner.gestureArenaWon()
    }
}
