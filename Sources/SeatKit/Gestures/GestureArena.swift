/// The recognizers taking part in one touch sequence (or in the current touchpad gesture):
/// those of the hit-test surface and its ancestors, deepest first, then the output's.
/// Pooled by the router with the touch sequences, so a warm router allocates none.
final class GestureArena {
    struct Entry {
        let recognizer: GestureRecognizer
        /// The recognizer's generation when it joined: after its reset, this arena no longer
        /// holds it (it finished with these touches).
        let generation: UInt64

        var isCurrent: Bool { recognizer.generation == generation }
    }

    var entries: [Entry] = []

    init() { entries.reserveCapacity(8) }

    func contains(_ recognizer: GestureRecognizer) -> Bool {
        // Index loops: in unoptimized builds, for-in over an array of structs allocates.
        var i = 0
        while i < entries.count {
            if entries[i].recognizer === recognizer && entries[i].isCurrent { return true }
            i += 1
        }
        return false
    }

    func clear() { entries.removeAll(keepingCapacity: true) }
}

/// A phase of a touch held back from the responders while a recognizer might still take it.
struct HeldTouch {
    let sequence: TouchSequence
    let phase: TouchPhase
    /// The touch as it was when held, in layout space and the bound surface's space.
    var point: TouchPoint
    var time: Timestamp
}
