/// The router's keyboard state, apart from the pointer's and the touches': the keys held and
/// where each press went, the first responder and its history, the keyboard grab, the key
/// interpreter's call, and the bookkeeping of a key walking the chain or being filtered.
/// Read with Router+Keyboard.swift (the routing) and Grabs.swift (the keyboard grab's start
/// and end).
///
/// Held keys live here and nowhere else in the core: ``Router/pressedKeys`` and
/// ``Router/heldKeysForFocus`` are read off `heldKeys`. Modifiers are the key interpreter's
/// (the xkb state); the router keeps only the masks a filter set while a key is filtered,
/// until that key goes out (`filteredModifierMasks`).
///
/// Invariants (``checkInvariants()`` checks them between events; the fault-script soak calls
/// it after every step):
/// 1. **One record per held key.** `heldKeys` holds at most one record per keycode that is
///    not `isReleased`, in press order. Between events no record is `isReleased` (a record
///    whose release is being routed goes when that routing ends) and none is `.routing` (a
///    press's routing always says where it went: taken, grabbed, the focus's chain or the
///    delegate).
/// 2. **Hidden from the interpreter only while taken.** A record is `hiddenFromInterpreter`
///    only while its press is `.taken`: a filter that routes the press again presses it again
///    in the interpreter first.
/// 3. **The first responder is in the layout.** Between events `firstResponder` is `nil` or an
///    attached surface (one that leaves is told its cancelled releases and resigns before the
///    edit returns), and `firstResponderLink` refers to it (both `nil` together). Every
///    change of first responder raises `focusGeneration`.
/// 4. **At rest between keys.** Between events no key walks the chain or is filtered:
///    `chainAsked` and `chainLimit` are 0, `commandDepth` is -1, `filterDepth` is 0, no
///    filtered modifier masks or announcement wait, and neither `formerFirstResponders` nor
///    `formerInterpreterCalls` is in use or keeps anything alive.
/// 5. **A grab's focus rule goes with it.** Without a keyboard grab, `grabFocus` is `.keep`.
/// 6. **A short history.** `history` keeps at most 32 former first responders.
///
/// Stored in the router's unchecked hot state (UnsafeFoundations.swift): no access to it is
/// held across a call out. What the exemption saves per key is in docs/BENCHMARKS.md (issue
/// 25, state per device class).
struct KeyboardRouting {
    /// The keys held now, in the order they were pressed, each with where its press went:
    /// the one owner of "who saw this key's press" (see ``HeldKey``). A record stays while
    /// its release is routed (`isReleased`), then goes (invariant 1).
    var heldKeys: [HeldKey] = []
    /// Backs `Router.firstResponder` (invariant 3).
    var firstResponder: Surface? {
        didSet {
            firstResponderLink = firstResponder.map(Unretained.init)
            if let oldValue, oldValue !== firstResponder { formerFirstResponders.keep(oldValue) }
        }
    }
    /// `firstResponder`, readable without a retain (rule 2 of ``Unretained``).
    var firstResponderLink: Unretained<Surface>?
    /// Key deliveries under way, and the first responders replaced meanwhile (rule 3 of
    /// ``Unretained``).
    var formerFirstResponders = KeptAliveWhileInUse<Surface>()
    /// Raised at every change of first responder, so that a caller that called out can tell
    /// whether a handler moved focus itself.
    var focusGeneration: UInt64 = 0
    /// Surfaces that were first responder before the current one, oldest first, at most 32:
    /// where focus goes back to when the focused surface is removed (invariant 6).
    var history: [WeakSurface] = []
    /// Backs `Router.keyboardGrab`.
    var grab: (any KeyboardGrab)?
    /// Raised when a keyboard grab starts or ends: a key repeater compares it, since the
    /// keys' receiver changed though the first responder did not.
    var grabGeneration: UInt64 = 0
    /// What the active keyboard grab did to the first responder when it began (invariant 5).
    var grabFocus = KeyboardGrabFocus.keep
    /// How the router calls `keyInterpreter` per key without an existential's retain and
    /// release (see ``KeyInterpreterCall``).
    var interpreterCall: KeyInterpreterCall?
    /// `interpreterCall`, unretained (rule 2 of ``Unretained``).
    var interpreterCallLink: Unretained<KeyInterpreterCall>?
    /// Calls to the interpreter under way (more than one if an interpreter injects a key),
    /// and the interpreters replaced meanwhile (rule 3 of ``Unretained``).
    var formerInterpreterCalls = KeptAliveWhileInUse<KeyInterpreterCall>()
    /// While a key walks the chain: the responders asked so far (key commands not counted).
    var chainAsked = 0
    /// While a release walks the chain: how many responders it may reach (0: no limit).
    var chainLimit = 0
    /// While a press walks the chain: how many responders had been asked when a key
    /// command took it (-1: none did).
    var commandDepth = -1
    /// Filters asking about a key are under way (``Router/setStickyModifiers(latched:locked:announce:)``).
    var filterDepth = 0
    /// Modifier masks a filter set while a key was being filtered: the key goes out with
    /// them, or, when it is taken, `announceModifiers` gets them.
    var filteredModifierMasks: ModifierMasks?
    var announceModifiers: ((ModifierMasks) -> Void)?

    init() {
        heldKeys.reserveCapacity(16)
    }

    /// The record of `keycode` while it is held (not the one of a release under way).
    @inline(__always)
    func heldIndex(of keycode: UInt32) -> Int? {
        heldKeys.scanIndex { $0.keycode == keycode && !$0.isReleased }
    }

    /// The record of `keycode` whose release is being routed.
    @inline(__always)
    func releasedIndex(of keycode: UInt32) -> Int? {
        heldKeys.scanIndex { $0.keycode == keycode && $0.isReleased }
    }

    /// Removes the record at `index`, keeping the others in press order. The key pressed last
    /// (what typing releases) goes without `remove(at:)`'s general move of the rest (~70
    /// instructions a release, issue 25, twelfth round).
    @inline(__always)
    mutating func removeRecord(at index: Int) {
        if index == heldKeys.count - 1 { heldKeys.removeLast() } else { heldKeys.remove(at: index) }
    }

    /// Whether the press of held `keycode` went to `press` (false when it is not held).
    @inline(__always)
    func isHeld(_ keycode: UInt32, pressWentTo press: HeldKey.Press) -> Bool {
        guard let index = heldIndex(of: keycode) else { return false }
        return heldKeys[index].press == press
    }

    /// Keys held now, in press order, whoever took their presses (``Router/pressedKeys``).
    var pressedKeys: [UInt32] {
        var keys: [UInt32] = []
        heldKeys.scan { if !$0.isReleased { keys.append($0.keycode) } }
        return keys
    }

    /// Keys held now whose presses the first responder's chain saw and has not heard
    /// released (``Router/heldKeysForFocus``).
    var keysForFocus: [UInt32] {
        var keys: [UInt32] = []
        heldKeys.scan { if !$0.isReleased, case .focus = $0.press { keys.append($0.keycode) } }
        return keys
    }

    /// Keeps `surface` as the most recent former first responder (once), forgetting those
    /// gone and the oldest past 32 (invariant 6).
    mutating func remember(_ surface: Surface) {
        history.removeAll { $0.surface == nil || $0.surface === surface }
        history.append(WeakSurface(surface: surface))
        if history.count > 32 { history.removeFirst(history.count - 32) }
    }

    /// The invariants above that do not hold now, one line each (empty: all hold). Meant
    /// between events: during one, a key's records and counters are under way.
    func checkInvariants() -> [String] {
        var broken: [String] = []
        var i = 0
        while i < heldKeys.count {
            let key = heldKeys[i]
            if key.isReleased { broken.append("1. key \(key.keycode)'s release is still being routed") }
            if key.press == .routing { broken.append("1. key \(key.keycode)'s press is still being routed") }
            if case .focus(let depth) = key.press, depth < 0 {
                broken.append("1. key \(key.keycode) was seen by \(depth) responders")
            }
            if key.hiddenFromInterpreter && key.press != .taken {
                broken.append("2. key \(key.keycode) is hidden from the interpreter but its press went to \(key.press)")
            }
            var j = i + 1
            while j < heldKeys.count {
                if heldKeys[j].keycode == key.keycode && !heldKeys[j].isReleased && !key.isReleased {
                    broken.append("1. key \(key.keycode) has two held records")
                }
                j += 1
            }
            i += 1
        }
        if let firstResponder, !firstResponder.unchecked.isAttached {
            broken.append("3. the first responder \(firstResponder.id) is not in the layout")
        }
        switch (firstResponder, firstResponderLink) {
        case (nil, nil): break
        case (let surface?, let link?):
            if !link.refers(to: surface) { broken.append("3. the first responder's link refers to another surface") }
        default:
            broken.append("3. the first responder is \(firstResponder == nil ? "nil" : "set") but its link is \(firstResponderLink == nil ? "nil" : "set")")
        }
        if chainAsked != 0 || chainLimit != 0 || commandDepth != -1 {
            broken.append("4. a key walk's counters are not at rest: asked \(chainAsked), limit \(chainLimit), command depth \(commandDepth)")
        }
        if filterDepth != 0 { broken.append("4. filters are asking about a key (depth \(filterDepth))") }
        if filteredModifierMasks != nil || announceModifiers != nil {
            broken.append("4. modifier masks a filter set wait for a key that is gone")
        }
        if formerFirstResponders.isInUse || formerFirstResponders.keptCount != 0 {
            broken.append("4. \(formerFirstResponders.keptCount) former first responders kept, \(formerFirstResponders.uses) deliveries under way")
        }
        if formerInterpreterCalls.isInUse || formerInterpreterCalls.keptCount != 0 {
            broken.append("4. \(formerInterpreterCalls.keptCount) former interpreters kept, \(formerInterpreterCalls.uses) calls under way")
        }
        if grab == nil, grabFocus != .keep { broken.append("5. no keyboard grab, but the grab focus rule is \(grabFocus)") }
        if history.count > 32 { broken.append("6. the focus history holds \(history.count) surfaces") }
        return broken
    }
}

/// A key held now, and where its press went: the one owner of "who saw this key's press".
/// Its release goes where the press went and nowhere else (``Router/deliverKey(_:)``).
struct HeldKey {
    /// Where a press went.
    enum Press: Equatable {
        /// Being routed: nobody has it yet (an enter made meanwhile does not list it).
        case routing
        /// A filter, or a key command of the first responder itself, took it: nobody saw it,
        /// and its release is swallowed before filters and grabs.
        case taken
        /// The keyboard grab got it and did not forward it: its release goes to the grab
        /// active then, if any, and never to a responder.
        case grabbed
        /// The first responder's chain saw it (the default rule, or forwarded by a grab): its
        /// release goes to the first responder's chain, once. `depth`: how many responders of
        /// the chain saw it when a key command further up took it (0: every one asked).
        case focus(depth: Int)
        /// The delegate alone saw it (typed while the first responder's surface was leaving
        /// the tree): its release goes to the delegate; no surface is owed one, no enter lists it.
        case delegate
        /// The first responder's chain heard its release (the real one, or a cancelled one
        /// when a grab began or the first responder was removed): nothing more goes there.
        case ended
    }

    var keycode: UInt32
    var press: Press
    /// Its release is being routed: no longer held (not in `Router.pressedKeys`, not listed
    /// by an enter), but its record says where the release may go until it has been routed.
    var isReleased = false
    /// A filter took the press and the key interpreter heard it released then: it hears
    /// nothing more of this key (repeats, release) unless a filter routes the press.
    var hiddenFromInterpreter = false
}
