import Synchronization

// The core's two speed tricks, and the rules that make them safe, stated once.
//
// # Unchecked exclusivity
//
// Swift checks at run time that no two accesses to a class's stored property overlap when
// one of them writes (`swift_beginAccess`). On the per-event path that check was most of the
// work: measured with every `@exclusivity(unchecked)` of the core removed (callgrind,
// Benchmarks/callgrind-per-event.sh, 2026-11-24), a touch motion took 15,522 instructions
// instead of 6,702, a pointer motion 10,774 instead of 5,644, a key 1,378 instead of 388. So
// the hot state of a few objects skips it, in one shape only: the object keeps what its
// per-event path reads and writes in a plain struct, `HotState`, stored in one property:
//
//     @exclusivity(unchecked) var unchecked = HotState()
//
// and uses it as `unchecked.field`, so every use says that these rules apply there. No other
// stored property in the package carries the attribute (`UnsafeFoundationsTests` fails if
// one does). Every module that has hot state declares its own such property: the attribute
// holds only for accesses compiled in the declaring module (another module's access to the
// property is checked anyway), so one shared cell type would put the checks back on the
// adapters' hot paths. Measured, a shared cell class (a separate object holding the state)
// also cost an indirection per access: key to text 1,183 -> 1,524 instructions, hit-testing
// 20-34 % more (Benchmarks/callgrind-keys.sh, callgrind-counts.sh, 2026-11-24). The rules:
//
// 1. **Only its module reaches unchecked state.** `unchecked` is never public: what a user
//    may read or set is a computed property over it, so user code, and a subclass of
//    `GestureRecognizer`, reaches the state only through a getter or setter that holds no
//    access beyond its own body.
// 2. **No access spans a call out of the core.** Code reads or writes unchecked state in one
//    short access and never passes it `inout` across a call to a responder, recognizer,
//    filter, spy, delegate or timer: loops copy what they walk (or index it and re-check the
//    count), so a handler that edits the tree, focus or touches from inside any callback
//    cannot overlap an access under way.
// 3. **One thread.** Routers, surfaces, outputs and recognizers are used on the event loop's
//    thread only (the ThreadSanitizer run in CI holds the adapters to it).
//
// The soak (FaultScriptSoakTests: handlers that edit the tree and focus from inside every
// callback, against a reference model) and the AddressSanitizer run of the core's tests
// exercise rule 2.

// # Unretained references

/// The one place the core refers to objects without owning them.
///
/// Every owning reference costs an atomic increment and decrement each time it is copied, and
/// a `weak` or `unowned` one moves the object's count to a side table that makes every later
/// retain of it slower. On the per-event path (asking a responder, walking up the tree,
/// hit-testing a child) that was a large share of the work, so the core keeps a few links
/// unretained. They are all of this type, and each one follows one of these rules,
/// named in the comment where it is declared:
///
/// 1. **Cleared by the owner.** The object owns the holder, directly or through the tree, and
///    clears or replaces the link before it lets the holder go and in its own `deinit`: a
///    surface's link to its parent and output, a recognizer's link to its surface or output.
///    The link is never read after the object is gone because it no longer exists then.
/// 2. **Owned beside it.** The holder also keeps the object strongly in a stored property that
///    changes together with the link: a surface's and an output's responder (``ResponderSlot``), the router's key
///    interpreter and first responder, a child index's members.
/// 3. **Kept alive while in use.** When code that is using the object can replace it (a
///    responder replaced from inside its own handler, a surface's or an output's, an interpreter replaced while it
///    interprets, a first responder changed while it is asked a key), the replaced object
///    waits in a ``KeptAliveWhileInUse`` until the last use under way ends.
/// 4. **Borrowed for one call.** The holder lives only for one call, during which the caller
///    keeps the objects alive, and the compiler keeps it from outliving the call: a
///    ``ResponderContext`` is non-escapable (`~Escapable`), so a responder can read it and
///    pass it down but cannot store it, capture it in an escaping closure or return it.
/// 5. **Held by the array scanned.** `scanBorrowed` hands out the elements of an array value
///    the caller holds for the whole scan, without a retain each: the array keeps them alive.
/// 6. **Kept by a list that only grows while in use.** `unretainedElement(at:)` reads an
///    element of a list whose owner promises that no element leaves it while the reader's loop
///    calls out (the list may grow): the router's touch records while a frame is delivered
///    (TouchRouting's invariant 2: finished records go back to the pool only when no loop over
///    them is under way). The list keeps the element alive across the call out.
/// 7. **Found by a hit-test, valid until the next edit.** A pointer motion's hit-test
///    (`Router.pointerHit(at:device:edit:)`) reads the output from the layout and hands out the
///    surface it found without retaining either: the output only until its root is pinned
///    (nothing is called out in between), the surface only while the router's edit count is
///    the one the hit-test began at and nothing was called out since (a surface of the layout
///    goes only through an edit of its tree, which raises that count). When a `refineHitTest`
///    edited the tree or the layout, the hit-test takes an owning reference to the surface
///    before it lets go of the root's pin and of the tables replaced under the walk.
///
/// Nothing public exposes an `Unretained`: public properties hand out strong references.
/// The adapters use this type too for their own unretained links: the C
/// API's objects to the router that owns them (rule 1), a keyboard to its router (rule 1:
/// the router detaches its interpreter before it goes). For them it is public under the SPI
/// `SeatKitInternals` (`@_spi(SeatKitInternals) import SeatKit`), not `package`: Swift 6.3
/// does not inline a `package` function into another module, and a call per use cost the
/// keyboard's key-to-text path 100 instructions (callgrind-keys.sh). Compositors never see it.
/// Its invariants are tested in `UnretainedTests`, and the AddressSanitizer run of the core's
/// tests (CI) catches any read of a freed object.
@_spi(SeatKitInternals) public struct Unretained<Object: AnyObject> {
    public let reference: Unmanaged<Object>

    @inlinable @inline(__always)
    public init(_ object: Object) { reference = Unmanaged.passUnretained(object) }

    /// Calls `body` with the object, without retaining it for the call.
    @inlinable @inline(__always)
    public func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// An owning reference to the object (one retain): for handing it to code that may keep it.
    @inlinable @inline(__always)
    public var object: Object { reference.takeUnretainedValue() }

    /// True when this link refers to `other`: compares addresses, touches neither object.
    @inlinable @inline(__always)
    public func refers(to other: AnyObject) -> Bool {
        reference.toOpaque() == UnsafeMutableRawPointer(Unmanaged.passUnretained(other).toOpaque())
    }

    /// True when both links refer to the same object.
    @inlinable @inline(__always)
    public func refers(toSameAs other: Unretained<Object>) -> Bool {
        reference.toOpaque() == other.reference.toOpaque()
    }

    /// The object's identity, read without touching it (safe for a link to a freed object:
    /// only the address is read).
    @inlinable @inline(__always)
    public var identity: ObjectIdentifier { unsafeBitCast(reference, to: ObjectIdentifier.self) }
}

/// Objects that were replaced while code using them was still running, kept until the last
/// such use ends (rule 3 of ``Unretained``).
///
/// Uses nest: `enter()` before calling out, `leave()` after. An object replaced while
/// ``isInUse`` goes to `keep(_:)`. When `leave()` says the last use ended with objects kept,
/// the caller takes them with `takeKept()` and drops them after that call returns, so no
/// deinit runs while this value is being mutated:
///
/// ```swift
/// kept.enter()
/// callOut()
/// if kept.leave() { _ = kept.takeKept() }
/// ```
struct KeptAliveWhileInUse<Object: AnyObject> {
    /// Uses under way.
    private(set) var uses = 0
    private var kept: [Object] = []

    var isInUse: Bool { uses > 0 }
    /// How many replaced objects wait (for tests).
    var keptCount: Int { kept.count }

    /// True when `object` is among the kept ones (for tests).
    func keeps(_ object: Object) -> Bool { kept.contains { $0 === object } }

    /// Wrapping arithmetic: a count of calls under way cannot reach `Int.max`, and the
    /// overflow test cost two instructions a link of every walk.
    @inline(__always)
    mutating func enter() { uses &+= 1 }

    /// Ends one use. True when it was the last one and replaced objects wait: take them
    /// with `takeKept()`.
    @inline(__always)
    mutating func leave() -> Bool {
        uses &-= 1
        return uses == 0 && !kept.isEmpty
    }

    /// Keeps `object`, replaced while in use, until the last use ends; does nothing when no
    /// use is under way (the caller's own reference is then the last one).
    mutating func keep(_ object: Object) {
        if uses > 0 { kept.append(object) }
    }

    /// The kept objects, handed over for the caller to release.
    @inline(never)
    mutating func takeKept() -> [Object] {
        let released = kept
        kept = []
        return released
    }
}

// # A responder asked without retaining it

/// The one responder of a surface or an output (issue 25: the two kept the same five fields
/// and the same asking, written out twice). The router asks it without retaining it: the slot
/// owns the responder's holder and keeps beside it the unretained link the walks read (rule 2
/// of ``Unretained``), and a holder replaced while a call to it is under way (a responder that
/// replaces itself from inside its own handler) waits in the slot until the last call ends
/// (rule 3).
///
/// Stored in its owner's hot state (`unchecked.responderSlot`). The owner asks through
/// ``ResponderSlotOwner/withResponderHolder(_:)``, which enters and leaves the slot in short
/// accesses of their own and never holds one across the call. The handler it calls may write the slot meanwhile (rule 2 of the unchecked exclusivity
/// above), so the asking is not a `mutating` method of the slot: the optimizer may assume that
/// nothing else writes the slot during such a call. Tests: `ResponderSlotTests`,
/// `OutputResponderHolderTests`, `UnsafeFoundationsTests`.
struct ResponderSlot {
    /// Owns the responder (rule 2 of ``Unretained``). A new responder gets a new holder, so
    /// what walks learnt about the former one (``NextResponderKind``) starts over.
    private(set) var holder: ResponderHolder
    /// `holder`, unretained: what a walk asks through.
    private(set) var link: Unretained<ResponderHolder>
    /// Holders replaced while a call to them was under way (rule 3 of ``Unretained``).
    private var formers = KeptAliveWhileInUse<ResponderHolder>()

    init(_ responder: any Responder) {
        let holder = ResponderHolder(responder)
        self.holder = holder
        link = Unretained(holder)
    }

    /// The responder (an owning reference).
    var responder: any Responder { link.with { $0.responder } }

    /// Puts `responder` in the slot. Returns the former holder for the caller to drop once
    /// its access to the slot has ended (its responder's deinit may run then, and may read the
    /// owner); while a call to it is under way, the slot keeps it too, until the call ends.
    mutating func replace(_ responder: any Responder) -> ResponderHolder {
        let former = holder
        holder = ResponderHolder(responder)
        link = Unretained(holder)
        formers.keep(former)
        return former
    }

    /// A call to the responder begins: the link to ask it through, valid until ``leave()``
    /// even if the responder is replaced meanwhile.
    @inline(__always)
    mutating func enter() -> Unretained<ResponderHolder> {
        formers.enter()
        return link
    }

    /// The call ends. True when it was the last one under way and replaced holders wait: take
    /// them with ``takeFormers()`` and drop them after that access (a responder's deinit may
    /// read its owner).
    @inline(__always)
    mutating func leave() -> Bool { formers.leave() }

    /// The replaced holders, handed over for the caller to release.
    mutating func takeFormers() -> [ResponderHolder] { formers.takeKept() }

    /// Replaced holders still waiting for a call under way to end (for tests).
    var formerCount: Int { formers.keptCount }
}

/// What has a ``ResponderSlot`` in its hot state: a surface and an output. The asking is
/// written here once for both; each owner gives only ``changeResponderSlot(_:)``.
///
/// Not a `{ get set }` property with `_read` and `_modify` accessors: the optimizer did not
/// inline the conformance's `_modify` coroutine, and every walk called it (touch motion +
/// frame 1,846 -> 2,138 instructions, pointer motion 1,396 -> 1,571, one callgrind run,
/// issue 25, twelfth round). A generic method taking the change as a closure is inlined.
protocol ResponderSlotOwner: AnyObject {
    /// Runs `change` on the slot in the owner's hot state (`unchecked.responderSlot`), in one
    /// short access: `change` must not call out of the core.
    func changeResponderSlot<Result>(_ change: (inout ResponderSlot) -> Result) -> Result
}

extension ResponderSlotOwner {
    /// Calls `body` with the responder's holder (which says what walks learnt about the
    /// responder, ``NextResponderKind``), without retaining the responder: one replaced
    /// meanwhile lives until the call ends. No access to the slot spans `body`.
    @inline(__always)
    func withResponderHolder<Result>(_ body: (ResponderHolder) -> Result) -> Result {
        defer { leaveResponderSlot() }
        return changeResponderSlot { $0.enter() }.with { body($0) }
    }

    /// ``withResponderHolder(_:)`` with the responder itself. Not written as a call of it: a
    /// closure passed through one more closure made a touch frame's walk retain the router
    /// and the event around its first ask (touch motion + frame 1,846 -> 2,003, one callgrind
    /// run, issue 25, twelfth round).
    @inline(__always)
    func withResponder<Result>(_ body: (any Responder) -> Result) -> Result {
        defer { leaveResponderSlot() }
        return changeResponderSlot { $0.enter() }.with { body($0.responder) }
    }

    /// A call to the responder ended: the replaced responders it kept alive go, after the
    /// access to the slot.
    @inline(__always)
    func leaveResponderSlot() {
        if changeResponderSlot({ $0.leave() }) { _ = changeResponderSlot { $0.takeFormers() } }
    }

    /// Puts `responder` in the slot; the former one goes once no call to it is under way
    /// (after the access to the slot, never inside it).
    func replaceResponder(with responder: any Responder) {
        withExtendedLifetime(changeResponderSlot { $0.replace(responder) }) {}
    }

    /// Replaced responders still waiting for a call under way to end (for tests).
    var formerResponderCountForTesting: Int { changeResponderSlot { $0.formerCount } }
}

extension Surface: ResponderSlotOwner {
    @inline(__always)
    func changeResponderSlot<Result>(_ change: (inout ResponderSlot) -> Result) -> Result { change(&unchecked.responderSlot) }
}

extension Output: ResponderSlotOwner {
    @inline(__always)
    func changeResponderSlot<Result>(_ change: (inout ResponderSlot) -> Result) -> Result { change(&unchecked.responderSlot) }
}

// # A router referred to without a side table

/// A reference to a router that does not keep it alive, for the core's own objects that
/// outlive a call (the accessibility filters, whose timers route events later), in place of
/// `weak var router: Router?`.
///
/// Why: a weak reference gives the object it refers to a side table, and from then on every
/// retain and release of that object takes the runtime's slow path (`incrementSlow`,
/// `doDecrementSlow`, about 50 more instructions each). The router is retained and
/// released on every event's path, so one filter's weak store made every touch frame cost
/// about 400 instructions more (issue 28, goal 5).
///
/// Safe by construction: the router owns its handle (`Router.handle`), attaches itself at
/// the end of its init and detaches in the first line of its deinit, so ``router`` is the
/// router while it lives and nil from its deinit on (a weak load reads nil from the start
/// of the deinit too). Holders keep the handle strongly; the handle never keeps the
/// router. Used on the router's thread only, like the router.
final class RouterHandle {
    unowned(unsafe) private(set) var router: Router?

    @inline(__always) func attach(_ router: Router) { self.router = router }
    @inline(__always) func detach() { router = nil }
}

// # Filters asked without reference counting

/// One filter as the router asks it: a holder the router owns (rule 2 of ``Unretained``:
/// ``FilterList`` keeps it strongly beside its unretained link), so that a call reads the
/// filter from a `let` of an object it does not retain.
///
/// Asking a filter through `any InputFilter` read from an array retained and released the
/// filter around every call (the array's storage too), and the accessibility filters have a
/// side table (their timer actions hold them weakly), so each of those took the runtime's
/// slow path: about 110 instructions per filter per event, most of a filter's cost when it is
/// off (docs/BENCHMARKS.md, issue 28).
///
/// The core's own filters (the eight accessibility filters) are called directly, by their
/// class (``AskedFilter/ask(_:router:)``), without reference counting; a filter of the
/// user's through `any InputFilter`.
final class FilterCall {
    let filter: any InputFilter
    /// The filter's switch, for the core's own filters (``SwitchedFilter``): while it is
    /// off the filter is passed over, not called.
    let filterSwitch: FilterSwitch?
    /// Which of the core's filters `filter` is (``BuiltinFilter/user`` for any other).
    let builtin: BuiltinFilter
    /// `filter` as an object, unretained (rule 2 of ``Unretained``: `filter`, beside it, owns
    /// it and never changes): what a direct call reads, cast to the class `builtin` names.
    let object: Unmanaged<AnyObject>
    /// `filter.discardsTakenKeyPresses`, read once, for the core's own filters (a constant
    /// of each class); a user's filter is asked each time.
    private let builtinDiscardsTakenKeyPresses: Bool
    /// The filter's ``InputFilter/filteredKinds``, read when the holder is made and when the
    /// router is told they changed (``FilterList/kindsChanged(_:)``); never per event.
    private(set) var kinds: InputEventKinds = .all
    /// The classes `kinds` touches (``FilterInterests/touched(by:)``): the only ones the
    /// filter is listed under.
    private(set) var declaredClasses: FilterInterests = .allClasses

    init(_ filter: any InputFilter) {
        self.filter = filter
        filterSwitch = (filter as? any SwitchedFilter)?.filterSwitch
        builtin = BuiltinFilter(filter)
        object = Unmanaged.passUnretained(filter as AnyObject)
        builtinDiscardsTakenKeyPresses = builtin != .user && filter.discardsTakenKeyPresses
        declare(filter.filteredKinds)
    }

    /// Takes `kinds` as the filter's declaration (the router rebuilds its lists after).
    func declare(_ kinds: InputEventKinds) {
        self.kinds = kinds
        declaredClasses = FilterInterests.touched(by: kinds)
    }

    /// The kinds of class `kind` the filter does not declare, though it is listed under the
    /// class (it declares some other kind of it): the router skips it for an event of these.
    /// Empty for a declaration that covers the class, as every filter's by default.
    @inline(__always) func skippedKinds(of kind: FilterInterests) -> UInt32 {
        kinds == .all ? 0 : kind.kinds.rawValue & ~kinds.rawValue
    }

    /// Whether the filter discards the key presses it takes (``InputFilter/discardsTakenKeyPresses``):
    /// for the core's own filters without a call through the protocol.
    @inline(__always) var discardsTakenKeyPresses: Bool {
        builtin == .user ? userFilterDiscardsTakenKeyPresses() : builtinDiscardsTakenKeyPresses
    }

    /// Out of line: with the protocol call inlined beside the core's filters' answer, the
    /// caller retained and released the filter list's four arrays around both (measured:
    /// four retains and four releases, about 150 instructions, per press slow keys takes).
    @inline(never)
    private func userFilterDiscardsTakenKeyPresses() -> Bool { filter.discardsTakenKeyPresses }

    /// Whether the router calls the filter about an event of class `kind` now: its declared
    /// kinds touch the class, and, for a switched one, its switch is on for the class. (An
    /// event of a kind of the class the filter does not declare is still skipped:
    /// ``AskedFilter/skippedKinds``.)
    @inline(__always) func isAsked(about kind: FilterInterests) -> Bool {
        guard declaredClasses.contains(kind) else { return false }
        guard let filterSwitch else { return true }
        return filterSwitch.unchecked.isAsked && filterSwitch.unchecked.interests.contains(kind)
    }
}

/// Which of the core's own filters a ``FilterCall`` holds: the class its direct call casts to.
/// All are final classes, so the cast is exact.
enum BuiltinFilter: UInt8 {
    case user
    case stickyKeys, slowKeys, bounceKeys
    case mouseKeys, dwellClick, simulatedSecondaryClick, locatePointer
    case touchAccommodations

    init(_ filter: any InputFilter) {
        switch filter {
        case is StickyKeys: self = .stickyKeys
        case is SlowKeys: self = .slowKeys
        case is BounceKeys: self = .bounceKeys
        case is MouseKeys: self = .mouseKeys
        case is DwellClick: self = .dwellClick
        case is SimulatedSecondaryClick: self = .simulatedSecondaryClick
        case is LocatePointer: self = .locatePointer
        case is TouchAccommodations: self = .touchAccommodations
        default: self = .user
        }
    }
}

/// The classes of events a switched filter acts on: the router asks it about no other (it
/// passes them without a look, so a call would only cost).
struct FilterInterests: OptionSet {
    let rawValue: UInt16
    /// Raw key presses and repeats (``InputFilter/filter(_:router:)`` of a key event that is
    /// not a release).
    static let keys = FilterInterests(rawValue: 1 << 0)
    static let pointerMotion = FilterInterests(rawValue: 1 << 1)
    static let pointerButtons = FilterInterests(rawValue: 1 << 2)
    static let pointerAxis = FilterInterests(rawValue: 1 << 3)
    /// Touch motion, up and cancel (a touch's down is ``touchDowns``).
    static let touches = FilterInterests(rawValue: 1 << 4)
    static let other = FilterInterests(rawValue: 1 << 5)
    /// Keys as interpreted (``InputFilter/filterKey(_:router:)``: presses and repeats).
    static let interpretedKeys = FilterInterests(rawValue: 1 << 6)
    /// Raw key releases: a class of their own, so that a filter that acts on presses only
    /// as interpreted and on releases only raw (sticky keys, locate pointer) is asked once
    /// per key, not twice.
    static let keyReleases = FilterInterests(rawValue: 1 << 7)
    /// ``keys``, ``interpretedKeys`` or ``keyReleases`` (a constant: an array literal
    /// allocates in a debug build).
    static let anyKeys = FilterInterests(rawValue: 1 << 0 | 1 << 6 | 1 << 7)
    /// ``keys`` or ``interpretedKeys``: what a press or repeat is asked as.
    static let keysAndInterpretedKeys = FilterInterests(rawValue: 1 << 0 | 1 << 6)
    /// Touch downs: a class of their own, so that a filter that acts on the rest of a touch
    /// only while it holds one (touch accommodations) is asked about no other touch event
    /// meanwhile.
    static let touchDowns = FilterInterests(rawValue: 1 << 8)

    /// The class of `event`: a switch on its case (and a key's state) alone.
    @inline(__always)
    static func of(_ event: InputEvent) -> FilterInterests {
        switch event.kind {
        case .key(_, let state): return state == .released ? .keyReleases : .keys
        case .pointerMotion, .pointerMotionAbsolute: return .pointerMotion
        case .pointerButton: return .pointerButtons
        case .pointerAxis: return .pointerAxis
        case .touchDown: return .touchDowns
        case .touchMotion, .touchUp, .touchCancel, .touchFrame: return .touches
        default: return .other
        }
    }
}

/// Whether the router asks a filter of the core's own at all (the accessibility filters),
/// and about which classes of events. A filter that is off is not even looked at: the router
/// keeps, per class of event, the list of the filters it asks (``FilterRoster``), rebuilt when
/// a switch changes (issue 28: a filter that is off costs nothing). Its hot state follows
/// the rules above: the filter sets it in short accesses (its `isEnabled` setter, or a
/// change of what it still owes), the router reads it between calls.
final class FilterSwitch {
    struct HotState {
        /// False: the filter answers `.pass` to every event and changes nothing when asked,
        /// so the router need not ask it.
        var isAsked: Bool
        /// The events the filter acts on now; it answers `.pass` to all others and changes
        /// nothing.
        var interests: FilterInterests
    }
    @exclusivity(unchecked) var unchecked: HotState
    /// The asked lists of the routers this filter is added to: told when ``isAsked`` or
    /// ``interests`` changes. Only touched when the switch changes or the filter is added or
    /// removed.
    private var rosters: [FilterRoster] = []

    init(isAsked: Bool, interests: FilterInterests) {
        unchecked = HotState(isAsked: isAsked, interests: interests)
    }

    /// The events the filter acts on now. A filter may narrow them while it has nothing
    /// under way (simulated secondary click looks at motion only during a hold, touch
    /// accommodations at the rest of a touch only while it holds a finger): setting them
    /// tells the routers as ``isAsked`` does.
    var interests: FilterInterests {
        @inline(__always) get { unchecked.interests }
        set {
            guard newValue != unchecked.interests else { return }
            unchecked.interests = newValue
            tellRosters()
        }
    }

    /// Whether the router asks the filter. Setting it tells the routers the filter is added
    /// to, which rebuild their asked lists before the next event (or, mid-event, ask the rest
    /// of that event's filters one by one).
    var isAsked: Bool {
        @inline(__always) get { unchecked.isAsked }
        set {
            guard newValue != unchecked.isAsked else { return }
            unchecked.isAsked = newValue
            tellRosters()
        }
    }

    private func tellRosters() {
        var i = 0
        while i < rosters.count {
            rosters[i].switchChanged()
            i += 1
        }
    }

    func watch(by roster: FilterRoster) {
        if !rosters.contains(where: { $0 === roster }) { rosters.append(roster) }
    }

    func unwatch(by roster: FilterRoster) {
        rosters.removeAll { $0 === roster }
    }
}

/// A filter of the core's with a ``FilterSwitch``: while the switch is off, and for events
/// outside its interests, the filter must answer `.pass` and change nothing, so that passing
/// it over is the same as asking it.
protocol SwitchedFilter: InputFilter {
    var filterSwitch: FilterSwitch { get }
}

/// One filter the router asks about a class of events: its holder's unretained link (rule 2
/// of ``Unretained``: ``FilterList`` owns the holder) and its index among all the filters
/// (what the trace and ``Router/routeTakenPress(_:after:)`` name it by).
struct AskedFilter {
    let link: Unmanaged<FilterCall>
    /// The filter itself, unretained (rule 2: its holder owns it), for a direct call.
    let object: Unmanaged<AnyObject>
    let index: Int
    /// Which of the core's filters it is (``BuiltinFilter/user``: one of the user's).
    let builtin: BuiltinFilter
    /// ``InputEventKinds`` bits of the kinds of the class it is listed under that the filter
    /// does not declare (``FilterCall/skippedKinds(of:)``): 0, the usual case, asks it about
    /// every event of the class without a look at the kind; else the loop tests the event's
    /// kind first. A filter with skipped kinds is never a class's lone filter (the lone paths
    /// do not test).
    let skippedKinds: UInt32

    @inline(__always) init(_ call: FilterCall, index: Int, kind: FilterInterests) {
        link = Unmanaged.passUnretained(call)
        object = call.object
        self.index = index
        builtin = call.builtin
        skippedKinds = call.skippedKinds(of: kind)
    }

    /// Whether the filter is asked about `event` of its class: false only for a kind of the
    /// class it does not declare (the event's bit worked out only then).
    @inline(__always) func declares(_ event: InputEvent) -> Bool {
        skippedKinds == 0 || skippedKinds & InputEventKinds.bit(of: event) == 0
    }

    /// Asks the filter about a raw event: the core's own filters by a direct call to their
    /// class (no witness table, no thunk), the user's through `any InputFilter`. Neither is
    /// retained for the call.
    @inline(__always) func ask(_ event: InputEvent, router: Router) -> FilterDecision {
        switch builtin {
        case .touchAccommodations:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: TouchAccommodations.self).filter(event, router: router, at: index) }
        case .bounceKeys:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: BounceKeys.self).filter(event, router: router) }
        case .stickyKeys:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: StickyKeys.self).filter(event, router: router) }
        case .simulatedSecondaryClick:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: SimulatedSecondaryClick.self).filter(event, router: router) }
        case .dwellClick:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: DwellClick.self).filter(event, router: router) }
        case .locatePointer:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: LocatePointer.self).filter(event, router: router) }
        case .slowKeys, .mouseKeys, .user:
            return link._withUnsafeGuaranteedRef { $0.filter.filter(event, router: router) }
        }
    }

    /// ``ask(_:router:)`` for a pointer motion (relative or absolute) on its own path
    /// (``Router/askPointerMotionFilters(_:lone:)``): dwell click, the core's filter that acts on
    /// every motion, with its motion's body inline (no call, no frame of its own, and no test
    /// of its switch).
    @inline(__always) func askPointerMotion(_ event: InputEvent, router: Router) -> FilterDecision {
        if builtin == .dwellClick {
            // Its switch is on: a lone field is set only while every switch is as the roster
            // was built, and is read just before this call.
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: DwellClick.self).filterMotionWhileOn(event, router: router) }
        }
        return ask(event, router: router)
    }

    /// ``ask(_:router:)`` for a raw key on `routeKey`'s path (the class's lone filter,
    /// ``Router/askRawKeyFilters(_:kind:lone:)``), given as its parts: bounce keys,
    /// the core's one filter of raw presses, with its body inline (no call, no frame of its
    /// own), and sticky keys (raw releases while a modifier is held) from the parts too, so
    /// that neither makes an ``InputEvent`` (made and destroyed through its outlined value
    /// witnesses: ~45 instructions a key, which the key with no filter does not pay). The
    /// others get the event, made here, inline: made in a function of its own out of line,
    /// a kiosk's lone filter of its own (examples/kiosk) cost 75 more a key frame, and the
    /// built-in key filters 2 to 4 more a key (issue 25, thirteenth round).
    @inline(__always) func askRawKey(_ raw: RawKey, router: Router) -> FilterDecision {
        switch builtin {
        case .bounceKeys:
            return object._withUnsafeGuaranteedRef {
                // Its switch is on: a lone field is set only while every switch is as the roster
                // was built, and is read just before this call.
                unsafeDowncast($0, to: BounceKeys.self).filterRawKeyWhileOn(keycode: raw.keycode, state: raw.state, router: router)
            }
        case .stickyKeys:
            return object._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: StickyKeys.self).filterRawKey(keycode: raw.keycode, state: raw.state, router: router)
            }
        default:
            return ask(raw.event, router: router)
        }
    }

    /// Asks the filter about an interpreted key, as ``ask(_:router:)``.
    @inline(__always) func askKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        switch builtin {
        case .stickyKeys:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: StickyKeys.self).filterKey(event, router: router) }
        case .slowKeys:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: SlowKeys.self).filterKey(event, router: router) }
        case .mouseKeys:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: MouseKeys.self).filterKey(event, router: router) }
        case .locatePointer:
            return object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: LocatePointer.self).filterKey(event, router: router) }
        case .touchAccommodations, .bounceKeys, .simulatedSecondaryClick, .dwellClick, .user:
            return link._withUnsafeGuaranteedRef { $0.filter.filterKey(event, router: router) }
        }
    }
}

/// The filters the router asks, per class of event: only those that are on and act on it
/// (every filter of the user's, the switched ones whose switch is on and whose interests hold
/// the class), in order. The router reads ``HotState/askedClasses`` to skip the filters
/// altogether for a class none is asked about, so filters that are off cost one load and
/// one test per event, whatever their number.
///
/// Rebuilt by ``FilterList`` when a filter is added or removed, and when a switch says it
/// changed (``switchChanged()``, which marks the lists stale and every class asked until
/// then). Never rebuilt while filters are asked: an asking that finds the lists stale asks
/// its remaining filters one by one from the full list, checking each switch, as before.
final class FilterRoster {
    struct HotState {
        /// Bit `1 << c` set: some filter is asked about class `c` (``FilterInterests``' bits).
        /// All set while stale.
        var askedClasses: UInt16 = 0
        /// A switch changed since the lists were built.
        var isStale = false
        /// Bit `1 << c` set: exactly one filter is asked about class `c` (`asked[starts[c]]`),
        /// which the router asks without the loop (``Router/askLoneFilter(_:kind:)``). None set
        /// while stale, so that a stale roster always takes the checked path.
        var loneClasses: UInt16 = 0
        /// The lone filter of each class of the key path (raw presses and repeats, raw
        /// releases, interpreted keys), as a plain field: `asked[starts[c]]` when `c` is in
        /// ``loneClasses``, else nil (so nil too while stale). `routeKey` asks it inline,
        /// without an index into two arrays and their bounds checks.
        var loneKey: AskedFilter?
        var loneKeyRelease: AskedFilter?
        var loneInterpretedKey: AskedFilter?
        /// The lone filter of pointer motion, as the key classes' (dwell click alone, most
        /// often): the pointer's motion asks it inline (``Router/askPointerMotionFilters(_:lone:)``).
        var lonePointerMotion: AskedFilter?
        /// The asked filters, grouped by class: class `c`'s are `asked[starts[c] ..< starts[c + 1]]`.
        var asked: [AskedFilter] = []
        var starts = [Int](repeating: 0, count: FilterInterests.classCount + 1)
    }
    @exclusivity(unchecked) var unchecked = HotState()

    /// A switch of one of the filters changed.
    func switchChanged() {
        unchecked.isStale = true
        unchecked.askedClasses = 0xFFFF
        unchecked.loneClasses = 0
        unchecked.loneKey = nil
        unchecked.loneKeyRelease = nil
        unchecked.loneInterpretedKey = nil
        unchecked.lonePointerMotion = nil
    }

    /// Rebuilds the lists from `calls`, in order, without allocating once warm.
    func rebuild(from calls: [FilterCall]) {
        unchecked.isStale = false
        unchecked.asked.removeAll(keepingCapacity: true)
        var classes: UInt16 = 0
        var lone: UInt16 = 0
        var c = 0
        while c < FilterInterests.classCount {
            let kind = FilterInterests(rawValue: 1 << UInt16(c))
            unchecked.starts[c] = unchecked.asked.count
            var i = 0
            while i < calls.count {
                if calls[i].isAsked(about: kind) {
                    unchecked.asked.append(AskedFilter(calls[i], index: i, kind: kind))
                    classes |= kind.rawValue
                }
                i += 1
            }
            // A lone filter is asked without a test of the event's kind: only one that
            // declares every kind of the class.
            if unchecked.asked.count - unchecked.starts[c] == 1, unchecked.asked[unchecked.starts[c]].skippedKinds == 0 {
                lone |= kind.rawValue
            }
            c += 1
        }
        unchecked.starts[FilterInterests.classCount] = unchecked.asked.count
        unchecked.askedClasses = classes
        unchecked.loneClasses = lone
        unchecked.loneKey = loneEntry(.keys)
        unchecked.loneKeyRelease = loneEntry(.keyReleases)
        unchecked.loneInterpretedKey = loneEntry(.interpretedKeys)
        unchecked.lonePointerMotion = loneEntry(.pointerMotion)
    }

    /// The lone filter of class `kind`, if it has one.
    private func loneEntry(_ kind: FilterInterests) -> AskedFilter? {
        unchecked.loneClasses & kind.rawValue != 0 ? unchecked.asked[unchecked.starts[kind.classIndex]] : nil
    }
}

/// The router's filters: the public list, and the same filters as the router asks them,
/// through ``FilterCall`` holders it owns and unretained links to them, per class of event
/// in ``FilterRoster``.
///
/// **Edits while the filters are asked wait.** A filter (or anything it calls) may add or
/// remove filters while it is asked. ``filters`` changes at once, but the asked list stays
/// as it was until the outermost asking ends: the event under way is asked of the filters
/// there were when its asking began (as a copy of the list would be), and the holders a
/// removal lets go are released only then, after the last call through their links returned.
/// So no link is read after its holder is gone, and no index moves under a loop.
struct FilterList {
    /// The filters, in the order they are asked, edits included.
    private(set) var filters: [any InputFilter] = []
    /// The holders of the asked list, owned (rule 2), in order.
    private var calls: [FilterCall] = []
    /// `calls`, unretained: what a loop reads.
    private var links: [Unmanaged<FilterCall>] = []
    /// The asked filters per class, owned here for the router's life and never replaced;
    /// the switches of the filters in `calls` hold it too, to mark it stale.
    private let roster = FilterRoster()
    /// `roster`, unretained (rule 2: owned beside it, in `roster`): what the router reads.
    let rosterLink: Unmanaged<FilterRoster>
    /// Askings under way (more than one when a filter's call injects an event).
    private(set) var askings = 0
    /// `filters` was edited during an asking: the asked list is rebuilt when it ends.
    private var edited = false

    init() { rosterLink = Unmanaged.passUnretained(roster) }

    /// No filter is added (the asked list is empty).
    @inline(__always) var isEmpty: Bool { links.isEmpty }
    /// How many filters are asked.
    @inline(__always) var count: Int { links.count }

    /// Whether some filter is asked about events of class `kind` (or the lists are stale):
    /// false, the router skips the filters for that event without a call.
    @inline(__always) func asks(_ kind: FilterInterests) -> Bool {
        rosterLink._withUnsafeGuaranteedRef { $0.unchecked.askedClasses & kind.rawValue != 0 }
    }

    /// Whether exactly one filter is asked about events of class `kind` (a single class), and
    /// the lists are not stale: the router asks it without the loop.
    @inline(__always) func asksOne(_ kind: FilterInterests) -> Bool {
        rosterLink._withUnsafeGuaranteedRef { $0.unchecked.loneClasses & kind.rawValue != 0 }
    }

    /// The lone filter asked about raw key releases (`released`) or raw presses and repeats,
    /// if the class has exactly one and the lists are not stale.
    @inline(__always) func loneRawKeyFilter(released: Bool) -> AskedFilter? {
        rosterLink._withUnsafeGuaranteedRef { released ? $0.unchecked.loneKeyRelease : $0.unchecked.loneKey }
    }

    /// The lone filter asked about interpreted keys, if there is exactly one and the lists
    /// are not stale.
    @inline(__always) var loneInterpretedKeyFilter: AskedFilter? {
        rosterLink._withUnsafeGuaranteedRef { $0.unchecked.loneInterpretedKey }
    }

    /// The lone filter asked about pointer motion, if there is exactly one and the lists are
    /// not stale.
    @inline(__always) var lonePointerMotionFilter: AskedFilter? {
        rosterLink._withUnsafeGuaranteedRef { $0.unchecked.lonePointerMotion }
    }

    /// Whether some filter after the asked filter at `index` is asked about events of class
    /// `kind` (or the lists are stale): for an event that filter routes past itself
    /// (``Router/injectTouch(_:afterFilter:)``). The class's asked filters are in order, so
    /// its last one tells.
    @inline(__always)
    func asks(_ kind: FilterInterests, after index: Int) -> Bool {
        rosterLink._withUnsafeGuaranteedRef {
            if $0.unchecked.isStale { return true }
            let c = kind.classIndex
            let end = $0.unchecked.starts[c + 1]
            return end > $0.unchecked.starts[c] && $0.unchecked.asked[end - 1].index > index
        }
    }

    /// A filter's address, as ``askedPlace(of:_:)`` compares it with the asked entries: not a
    /// reference (it keeps nothing alive and is never called through).
    static func address(of filter: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(filter).toOpaque()
    }

    /// Where `filter` (an object's address) is among the filters asked about events of class
    /// `kind`: its index among all the filters, and whether filters before it and after it
    /// are asked about the class too; `nil` when it is not asked about the class or the
    /// lists are stale.
    @inline(__always)
    func askedPlace(of filter: UnsafeMutableRawPointer, _ kind: FilterInterests) -> (index: Int, afterOthers: Bool, beforeOthers: Bool)? {
        rosterLink._withUnsafeGuaranteedRef {
            if $0.unchecked.isStale { return nil }
            let c = kind.classIndex
            let start = $0.unchecked.starts[c]
            var i = start
            let end = $0.unchecked.starts[c + 1]
            while i < end {
                let entry = $0.unchecked.asked[i]
                if entry.object.toOpaque() == filter { return (entry.index, i != start, i &+ 1 != end) }
                i &+= 1
            }
            return nil
        }
    }

    mutating func append(_ filter: any InputFilter) {
        filters.append(filter)
        if askings > 0 { edited = true; return }
        let call = FilterCall(filter)
        calls.append(call)
        links.append(Unmanaged.passUnretained(call))
        call.filterSwitch?.watch(by: roster)
        roster.rebuild(from: calls)
    }

    /// Removes every occurrence of `filter`. Returns the holders let go, for the caller to
    /// drop once its access to the list has ended (a filter's deinit may call the router).
    mutating func remove(_ filter: any InputFilter) -> [FilterCall] {
        filters.removeAll { $0 === filter }
        if askings > 0 { edited = true; return [] }
        let removed = calls.filter { $0.filter === filter }
        calls.removeAll { $0.filter === filter }
        links = calls.map { Unmanaged.passUnretained($0) }
        for call in removed { call.filterSwitch?.unwatch(by: roster) }
        roster.rebuild(from: calls)
        return removed
    }

    /// `filter`'s ``InputFilter/filteredKinds`` changed: read again now, the lists rebuilt.
    /// During an asking, read when it ends (with the edits: ``applyEdits()`` makes every
    /// holder anew), so the event under way is asked as the filters were when it came.
    mutating func kindsChanged(_ filter: any InputFilter) {
        guard filters.contains(where: { $0 === filter }) else { return }
        if askings > 0 { edited = true; return }
        let kinds = filter.filteredKinds
        var i = 0
        while i < calls.count {
            if calls[i].filter === filter { calls[i].declare(kinds) }
            i += 1
        }
        roster.rebuild(from: calls)
    }

    /// Stops the switches telling this list (the router goes).
    func detach() {
        for call in calls { call.filterSwitch?.unwatch(by: roster) }
    }

    /// The position of `filter` in the asked list.
    func index(of filter: any InputFilter) -> Int? { calls.scanIndex { $0.filter === filter } }

    /// The asked filter at `index` (retained: for the rare paths).
    func filter(at index: Int) -> (any InputFilter)? { index < calls.count ? calls[index].filter : nil }

    @inline(__always) func link(at index: Int) -> Unmanaged<FilterCall> { links[index] }

    /// Starts an asking: the number of filters it asks.
    @inline(__always) mutating func beginAsking() -> Int {
        askings &+= 1
        return links.count
    }

    /// Starts an asking that does not need the count (the lone filter's).
    @inline(__always) mutating func enterAsking() {
        askings &+= 1
    }

    /// Ends an asking. True when it was the outermost and filters were edited or switched
    /// meanwhile: the caller then calls ``applyEdits()``.
    @inline(__always) mutating func endAsking() -> Bool {
        askings &-= 1
        return askings == 0 && (edited || rosterLink._withUnsafeGuaranteedRef { $0.unchecked.isStale })
    }

    /// Rebuilds the per-class lists after a switch changed (outside any asking).
    @inline(never)
    func rebuildRoster() {
        roster.rebuild(from: calls)
    }

    /// Rebuilds the asked list from ``filters``; returns the former holders, for the caller
    /// to drop once its access to the list has ended.
    @inline(never)
    mutating func applyEdits() -> [FilterCall] {
        guard edited else {
            roster.rebuild(from: calls)
            return []
        }
        edited = false
        let former = calls
        for call in former { call.filterSwitch?.unwatch(by: roster) }
        calls = filters.map(FilterCall.init)
        links = calls.map { Unmanaged.passUnretained($0) }
        for call in calls { call.filterSwitch?.watch(by: roster) }
        roster.rebuild(from: calls)
        return former
    }
}

extension FilterInterests {
    /// How many classes there are (bits of ``rawValue``).
    static let classCount = 9
    /// Every class.
    static let allClasses = FilterInterests(rawValue: (1 << 9) - 1)
    /// The class's bit number, for a single class.
    @inline(__always) var classIndex: Int { rawValue.trailingZeroBitCount }

    /// The kinds of events asked as this class (a single class): ``InputEventKinds/key`` for
    /// the three key classes (raw presses and repeats, raw releases, interpreted keys: `.key`
    /// is the kind of all three), relative and absolute motion for ``pointerMotion``, touch
    /// motion, up and cancel for ``touches`` (frames are never asked), and for ``other`` the
    /// touchpad gestures, switches, tablet and unknown events (device announcements are
    /// never asked).
    var kinds: InputEventKinds {
        switch self {
        case .keys, .keyReleases, .interpretedKeys: return .key
        case .pointerMotion: return Self.pointerMotionKinds
        case .pointerButtons: return .pointerButton
        case .pointerAxis: return .pointerAxis
        case .touchDowns: return .touchDown
        case .touches: return Self.touchKinds
        case .other: return Self.otherKinds
        default: return InputEventKinds(rawValue: 0)
        }
    }
    // Constants, not array literals: a literal allocates in a debug build, and the lists are
    // rebuilt whenever a switch changes (sticky keys latching, per key).
    private static let pointerMotionKinds = InputEventKinds.pointerMotion.union(.pointerMotionAbsolute)
    private static let touchKinds = InputEventKinds.touchMotion.union(.touchUp).union(.touchCancel)
    private static let otherKinds = InputEventKinds.touchpadGestures.union(.switchToggled).union(.tablet).union(.unknown)

    /// The classes a filter that declares `kinds` (``InputFilter/filteredKinds``) is listed
    /// under: each class one of whose kinds it declares.
    static func touched(by kinds: InputEventKinds) -> FilterInterests {
        var classes: FilterInterests = []
        var c = 0
        while c < classCount {
            let kind = FilterInterests(rawValue: 1 << UInt16(c))
            if !kinds.intersection(kind.kinds).isEmpty { classes.insert(kind) }
            c += 1
        }
        return classes
    }
}

extension Router {
    /// Asks the filters about `event`, of class `kind` (``FilterInterests/of(_:)``), in order,
    /// until one consumes it; returns its index among all the filters. Only the filters asked
    /// about the class are looked at (``FilterRoster``: one that is off, or that does not act
    /// on such events, is not even read), and none is reference counted: each is called
    /// through its holder's unretained link. Out of line and not generic, so the callers'
    /// code is the same whatever the filters are; no closure is handed on (a closure passed
    /// to a function that is not inlined copied the event into its context at every asking).
    ///
    /// A class with one filter asked about it (a compositor with one accessibility filter
    /// on, most often) takes ``askLoneFilter(_:kind:)``, which skips the loop.
    @inline(__always)
    func askFilters(_ event: InputEvent, kind: FilterInterests) -> Int? {
        unchecked.filterList.asksOne(kind) ? askLoneFilter(event, kind: kind) : askFiltersInOrder(event, kind: kind)
    }

    /// ``askFilters(_:kind:)`` for a class with one asked filter (``FilterRoster/HotState/loneClasses``,
    /// never set while the lists are stale): the same asking without the loop, the stale check
    /// before it or the range of the class. A switch changed by the filter's call makes the
    /// filters after it asked one by one, as in the loop (one turned on is asked at its turn).
    @inline(never)
    func askLoneFilter(_ event: InputEvent, kind: FilterInterests) -> Int? { askLone(event, kind: kind) }

    /// The body of ``askLoneFilter(_:kind:)``, for a caller that is out of line itself
    /// (``runAskedFilters(_:kind:)``): there it saves a call and a frame per asking.
    @inline(__always)
    func askLone(_ event: InputEvent, kind: FilterInterests) -> Int? {
        let roster = unchecked.filterList.rosterLink
        let entry = roster._withUnsafeGuaranteedRef { $0.unchecked.asked[$0.unchecked.starts[kind.classIndex]] }
        unchecked.filterList.enterAsking()
        var consumedBy: Int?
        if entry.ask(event, router: self) == .consume {
            consumedBy = entry.index
        } else if roster._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) {
            consumedBy = askOneByOne(event, kind: kind, from: entry.index + 1)
        }
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// ``askFilters(_:kind:)`` for a class with several asked filters, or stale lists.
    @inline(never)
    func askFiltersInOrder(_ event: InputEvent, kind: FilterInterests) -> Int? {
        let roster = unchecked.filterList.rosterLink
        if roster._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) { return askFiltersWhenStale(event, kind: kind) }
        _ = unchecked.filterList.beginAsking()
        let c = kind.classIndex
        var i = roster._withUnsafeGuaranteedRef { $0.unchecked.starts[c] }
        let end = roster._withUnsafeGuaranteedRef { $0.unchecked.starts[c + 1] }
        var consumedBy: Int?
        while i < end {
            let entry = roster._withUnsafeGuaranteedRef { $0.unchecked.asked[i] }
            if !entry.declares(event) {
                i &+= 1
                continue
            }
            if entry.ask(event, router: self) == .consume {
                consumedBy = entry.index
                break
            }
            if roster._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) {
                // A switch changed during the call: the rest, one by one.
                consumedBy = askOneByOne(event, kind: kind, from: entry.index + 1)
                break
            }
            i &+= 1
        }
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// ``askFilters(_:kind:)`` when a switch changed since the lists were built: outside any
    /// asking the lists are rebuilt first; inside another they stay as they are (a loop may be
    /// reading them) and this asking goes one by one. Out of line: rare.
    @inline(never)
    private func askFiltersWhenStale(_ event: InputEvent, kind: FilterInterests) -> Int? {
        if unchecked.filterList.askings > 0 { return askFilters(event, from: 0) }
        unchecked.filterList.rebuildRoster()
        return askFilters(event, kind: kind)
    }

    /// ``askFilters(_:kind:)`` for the interpreted key (``InputFilter/filterKey(_:router:)``).
    @inline(__always)
    func askFilters(key event: KeyEvent) -> Int? {
        unchecked.filterList.asksOne(.interpretedKeys) ? askLoneFilter(key: event) : askFiltersInOrder(key: event)
    }

    /// ``askLoneFilter(_:kind:)`` for the interpreted key.
    @inline(never)
    func askLoneFilter(key event: KeyEvent) -> Int? {
        let roster = unchecked.filterList.rosterLink
        let entry = roster._withUnsafeGuaranteedRef { $0.unchecked.asked[$0.unchecked.starts[FilterInterests.interpretedKeys.classIndex]] }
        unchecked.filterList.enterAsking()
        var consumedBy: Int?
        if entry.askKey(event, router: self) == .consume {
            consumedBy = entry.index
        } else if roster._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) {
            consumedBy = askOneByOne(key: event, from: entry.index + 1)
        }
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// The filters asked about a raw key of class `kind` (``FilterInterests/keys`` or
    /// ``FilterInterests/keyReleases``), for `routeKey`'s filtered path, given the class's lone
    /// filter (``FilterList/loneRawKeyFilter(released:)``, a plain field). That one is asked
    /// inline, as ``askLoneFilter(_:kind:)`` asks it: no call to an asking, no index into the
    /// lists, and no test of the asked classes first (a lone filter is asked). Without one,
    /// the loop if the class is asked at all.
    @inline(__always)
    func askRawKeyFilters(_ raw: RawKey, kind: FilterInterests, lone: AskedFilter?) -> Int? {
        guard let entry = lone else {
            return unchecked.filterList.asks(kind) ? askFiltersInOrder(raw, kind: kind) : nil
        }
        unchecked.filterList.enterAsking()
        var consumedBy: Int?
        if entry.askRawKey(raw, router: self) == .consume {
            consumedBy = entry.index
        } else if unchecked.filterList.rosterLink._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) {
            consumedBy = askOneByOne(raw, kind: kind, from: entry.index + 1)
        }
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// The filters asked about a pointer motion (relative or absolute), for
    /// ``Router/runAskedPointerMotionFilters(_:)``, given the class's lone filter
    /// (``FilterList/lonePointerMotionFilter``, a plain field), asked inline as
    /// ``askRawKeyFilters(_:kind:lone:)`` asks a key's. Without one, the loop.
    @inline(__always)
    func askPointerMotionFilters(_ event: InputEvent, lone: AskedFilter?) -> Int? {
        guard let entry = lone else { return askFiltersInOrder(event, kind: .pointerMotion) }
        unchecked.filterList.enterAsking()
        var consumedBy: Int?
        if entry.askPointerMotion(event, router: self) == .consume {
            consumedBy = entry.index
        } else if unchecked.filterList.rosterLink._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) {
            consumedBy = askOneByOne(event, kind: .pointerMotion, from: entry.index + 1)
        }
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// The filters asked about an interpreted key, for `routeKey`'s filtered path, the lone
    /// one inline (as ``askRawKeyFilters(_:kind:lone:)``).
    @inline(__always)
    func askInterpretedKeyFilters(_ event: KeyEvent) -> Int? {
        guard let entry = unchecked.filterList.loneInterpretedKeyFilter else {
            return unchecked.filterList.asks(.interpretedKeys) ? askFiltersInOrder(key: event) : nil
        }
        unchecked.filterList.enterAsking()
        var consumedBy: Int?
        if entry.askKey(event, router: self) == .consume {
            consumedBy = entry.index
        } else if unchecked.filterList.rosterLink._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) {
            consumedBy = askOneByOne(key: event, from: entry.index + 1)
        }
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// ``askFilters(key:)`` for several asked filters, or stale lists.
    @inline(never)
    func askFiltersInOrder(key event: KeyEvent) -> Int? {
        let roster = unchecked.filterList.rosterLink
        if roster._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) { return askFiltersWhenStale(key: event) }
        _ = unchecked.filterList.beginAsking()
        let c = FilterInterests.interpretedKeys.classIndex
        var i = roster._withUnsafeGuaranteedRef { $0.unchecked.starts[c] }
        let end = roster._withUnsafeGuaranteedRef { $0.unchecked.starts[c + 1] }
        var consumedBy: Int?
        while i < end {
            let entry = roster._withUnsafeGuaranteedRef { $0.unchecked.asked[i] }
            if entry.askKey(event, router: self) == .consume {
                consumedBy = entry.index
                break
            }
            if roster._withUnsafeGuaranteedRef({ $0.unchecked.isStale }) {
                consumedBy = askOneByOne(key: event, from: entry.index + 1)
                break
            }
            i &+= 1
        }
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// ``askFiltersWhenStale(_:kind:)`` for the interpreted key.
    @inline(never)
    private func askFiltersWhenStale(key event: KeyEvent) -> Int? {
        if unchecked.filterList.askings > 0 { return askFilters(key: event, from: 0) }
        unchecked.filterList.rebuildRoster()
        return askFilters(key: event)
    }

    /// Asks the filters from index `start` on about `event` (a press a filter took and routes
    /// now: ``routeTakenPress(_:after:)``), one by one, checking each switch. Rare.
    @inline(never)
    func askFilters(_ event: InputEvent, from start: Int) -> Int? {
        _ = unchecked.filterList.beginAsking()
        let consumedBy = askOneByOne(event, kind: FilterInterests.of(event), from: start)
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// Asks the filters before index `end` about `event`, one by one, checking each switch:
    /// those in front of a filter whose finger the router follows for it
    /// (``followFinger(_:asTouch:device:byFilter:)``). Rare.
    @inline(never)
    func askFilters(_ event: InputEvent, before end: Int) -> Int? {
        _ = unchecked.filterList.beginAsking()
        let consumedBy = askOneByOne(event, kind: FilterInterests.of(event), from: 0, before: end)
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// ``askFilters(_:from:)`` for the interpreted key.
    @inline(never)
    func askFilters(key event: KeyEvent, from start: Int) -> Int? {
        _ = unchecked.filterList.beginAsking()
        let consumedBy = askOneByOne(key: event, from: start)
        if unchecked.filterList.endAsking() { finishFilterEdits() }
        return consumedBy
    }

    /// ``askFiltersInOrder(_:kind:)`` for a raw key given as its parts (``askRawKeyFilters(_:kind:lone:)``
    /// with several filters or stale lists): the event is made here, off the lone filter's path.
    @inline(never)
    func askFiltersInOrder(_ raw: RawKey, kind: FilterInterests) -> Int? {
        askFiltersInOrder(raw.event, kind: kind)
    }

    /// ``askOneByOne(_:kind:from:before:)`` for a raw key given as its parts.
    @inline(never)
    private func askOneByOne(_ raw: RawKey, kind: FilterInterests, from start: Int) -> Int? {
        askOneByOne(raw.event, kind: kind, from: start)
    }

    /// Inside an asking: the filters from `start` on, one by one, each asked only if its
    /// switch says so now (the lists are stale).
    @inline(never)
    private func askOneByOne(_ event: InputEvent, kind: FilterInterests, from start: Int, before end: Int = .max) -> Int? {
        let count = min(unchecked.filterList.count, end)
        var i = start
        while i < count {
            let link = unchecked.filterList.link(at: i)
            if link._withUnsafeGuaranteedRef({ $0.isAsked(about: kind) }) {
                let entry = link._withUnsafeGuaranteedRef { AskedFilter($0, index: i, kind: kind) }
                if entry.declares(event), entry.ask(event, router: self) == .consume { return i }
            }
            i += 1
        }
        return nil
    }

    /// ``askOneByOne(_:kind:from:)`` for the interpreted key.
    @inline(never)
    private func askOneByOne(key event: KeyEvent, from start: Int) -> Int? {
        let count = unchecked.filterList.count
        var i = start
        while i < count {
            let link = unchecked.filterList.link(at: i)
            if link._withUnsafeGuaranteedRef({ $0.isAsked(about: .interpretedKeys) }),
               link._withUnsafeGuaranteedRef({ AskedFilter($0, index: i, kind: .interpretedKeys) }).askKey(event, router: self) == .consume {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Whether the asked filter at `index` (one that just took a press) discards the presses
    /// it takes; false when there is none there (the filters changed). The link is read
    /// alone, then the holder asked through it without a retain: read through a method of
    /// the list, the list's arrays were retained around the call.
    func filterDiscardsTakenKeyPresses(at index: Int) -> Bool {
        guard index < unchecked.filterList.count else { return false }
        let link = unchecked.filterList.link(at: index)
        return link._withUnsafeGuaranteedRef { $0.discardsTakenKeyPresses }
    }

    /// Applies the edits made while filters were asked (and rebuilds stale lists); the former
    /// holders are released after the access to the list ends.
    @inline(never)
    private func finishFilterEdits() {
        let former = unchecked.filterList.applyEdits()
        _ = former
    }
}

// # Borrowed array elements

extension Array where Element: AnyObject {
    /// Calls `body` with each element, in order, without retaining it for the call.
    ///
    /// Safe by construction (rule 5, **held by the array scanned**): `self` is a value the
    /// caller holds for the whole call, so its buffer, and every object in it, stays alive
    /// whatever `body` does (if `body` changes the array it came from, it changes a copy, and
    /// `self`'s buffer is still this one). `body` must not keep the reference past its call
    /// without copying it (an ordinary assignment does copy). Measured on the touch path
    /// (the group of touches a walk asks about, issue 25): each element read with `self[i]`
    /// cost a retain and a release per touch and link asked.
    @inline(__always)
    func scanBorrowed(_ body: (Element) -> Void) {
        scanBorrowedWithIndex { element, _ in body(element) }
    }

    /// The element at `index`, not retained (rule 6, **kept by a list that only grows while in
    /// use**): only where the owner of the array keeps every element in it until the caller's
    /// use ends. Measured on the touch path (issue 25, fourth round): the router's record loops
    /// read with `self[i]` cost a retain and a release per record and pass.
    @inline(__always)
    func unretainedElement(at index: Int) -> Unretained<Element> {
        withUnsafeBufferPointer { Unretained($0[index]) }
    }

    /// ``scanBorrowed(_:)`` with each element's index.
    @inline(__always)
    func scanBorrowedWithIndex(_ body: (Element, Int) -> Void) {
        withUnsafeBufferPointer { buffer in
            var i = 0
            let n = buffer.count
            while i < n {
                Unmanaged.passUnretained(buffer[i])._withUnsafeGuaranteedRef { body($0, i) }
                i += 1
            }
        }
    }
}

// # Touch-frame sinks told without reference counting

/// One touch-frame sink as the router tells it (`Router.addTouchFrameSink(_:)`): a holder the
/// router owns (rule 2 of ``Unretained``: `TouchRouting.frameSinks` keeps it strongly beside
/// its unretained link in `frameSinkLinks`; sinks are never removed), so that the end of a
/// frame reads the sink from a `let` of an object it does not retain. Reading
/// `any TouchFrameObserver` out of an array retained and released the sink around every
/// frame's end (issue 24: ~40 instructions per touch frame in the wlroots kiosk).
final class TouchFrameSinkCall {
    let sink: any TouchFrameObserver
    init(_ sink: any TouchFrameObserver) { self.sink = sink }
}

/// The router's touch-frame sinks: the holders, owned, and their unretained links. Sinks are
/// only ever added (one added while the sinks are told is told from that frame's end on, as
/// the loop reads the count each time round).
struct TouchFrameSinks {
    /// The holders, owned (rule 2), in the order added.
    private var calls: [TouchFrameSinkCall] = []
    /// `calls`, unretained: what a loop reads.
    private var links: [Unmanaged<TouchFrameSinkCall>] = []

    @inline(__always) var isEmpty: Bool { links.isEmpty }
    @inline(__always) var count: Int { links.count }

    mutating func append(_ sink: any TouchFrameObserver) {
        let call = TouchFrameSinkCall(sink)
        calls.append(call)
        links.append(Unmanaged.passUnretained(call))
    }

    @inline(__always) func link(at index: Int) -> Unmanaged<TouchFrameSinkCall> { links[index] }
}

extension Router {
    /// Tells each touch-frame sink that a frame's delivery ended, through its holder's
    /// unretained link (the sinks' list owns the holders and never lets one go). Inlined
    /// into the frame's end (``touchFrameDidFinish()``); with no sink, one test.
    @inline(__always)
    func tellTouchFrameSinks() {
        var i = 0
        while i < unchecked.touches.frameSinks.count {
            let link = unchecked.touches.frameSinks.link(at: i)
            link._withUnsafeGuaranteedRef { $0.sink.routerDidFinishTouchFrame(self) }
            i &+= 1
        }
    }
}

// # Spies told without reference counting

/// One spy as the router tells it: a holder the router owns (rule 2 of ``Unretained``:
/// ``SpyList`` keeps it strongly beside its unretained link), so that a call reads the spy
/// from a `let` of an object it does not retain.
///
/// Telling the spies from a copy of `[any InputSpy]` retained and released the copied
/// array and each spy around every call: two retains and two releases per observed event,
/// and the wlroots kiosk observes two per touch frame (the touch event and the frame;
/// docs/BENCHMARKS.md, issue 24).
final class SpyCall {
    let spy: any InputSpy
    /// The spy's ``InputSpy/observedKinds`` as read when it was added: a bit per
    /// ``InputEventKind``.
    let kinds: UInt32
    init(_ spy: any InputSpy, kinds: UInt32) {
        self.spy = spy
        self.kinds = kinds
    }
}

/// The router's spies, as ``FilterList`` keeps its filters: the public list (edits
/// included) and the told list of holders, with their unretained links. An edit made while
/// the spies are being told (from inside a spy's call, or a handler it reaches by
/// injecting) changes the public list at once and the told list when the outermost telling
/// ends: a spy removed meanwhile is still told the events under way, and kept alive until
/// they are told; one added is told from the next event on.
///
/// Each spy is told only the kinds of events it observes (``InputSpy/observedKinds``, read
/// once, when it is added), and the list keeps the union of the told spies' kinds
/// (``wantedKinds``): an event no spy wants costs one test of a bit, and one some want is
/// told to those only, in order (issue 25, tenth round: most spies want a few kinds, and a
/// call to one that returns at once was 30–40 instructions an event).
struct SpyList {
    /// The holders of every spy, in the order they are told, edits included (immutable: the
    /// told list shares them once the edits are applied).
    private var pending: [SpyCall] = []
    /// The holders of the told list, owned (rule 2), in order.
    private var calls: [SpyCall] = []
    /// `calls`, unretained: what a loop reads.
    private var links: [Unmanaged<SpyCall>] = []
    /// The union of the told spies' kinds: zero when no spy is told.
    private(set) var wantedKinds: UInt32 = 0
    /// Tellings under way (more than one when a spy's call injects an event).
    private var tellings = 0
    /// `pending` was edited during a telling: the told list is rebuilt when it ends.
    private var edited = false
    /// The told spy that observes keys when it is the only one (a compositor's idle spy),
    /// unretained as `links`: a key is told to it without walking the others
    /// (``Router/tellKeySpies(_:consumed:)``). Nil when none or several observe keys.
    private(set) var loneKeySpy: Unmanaged<SpyCall>?

    /// The spies, in the order they are told, edits included.
    var spies: [any InputSpy] { pending.map(\.spy) }

    /// No spy is told about any event.
    @inline(__always) var isEmpty: Bool { wantedKinds == 0 }

    /// Whether some told spy wants events of `kinds`.
    @inline(__always) func wants(_ kinds: InputEventKinds) -> Bool { wantedKinds & kinds.rawValue != 0 }

    mutating func append(_ spy: any InputSpy, kinds: InputEventKinds) {
        let call = SpyCall(spy, kinds: kinds.rawValue)
        pending.append(call)
        if tellings > 0 { edited = true; return }
        calls.append(call)
        toldListChanged()
    }

    /// Removes every occurrence of `spy`. Returns the holders let go, for the caller to drop
    /// once its access to the list has ended (a spy's deinit may call the router).
    mutating func remove(_ spy: any InputSpy) -> [SpyCall] {
        pending.removeAll { $0.spy === spy }
        if tellings > 0 { edited = true; return [] }
        let removed = calls.filter { $0.spy === spy }
        calls.removeAll { $0.spy === spy }
        toldListChanged()
        return removed
    }

    /// What is derived from `calls`: the unretained links and the union of the kinds.
    private mutating func toldListChanged() {
        links = calls.map { Unmanaged.passUnretained($0) }
        wantedKinds = calls.reduce(0) { $0 | $1.kinds }
        let keySpies = calls.filter { $0.kinds & InputEventKinds.key.rawValue != 0 }
        loneKeySpy = keySpies.count == 1 ? Unmanaged.passUnretained(keySpies[0]) : nil
    }

    /// Starts a telling: the number of spies it tells.
    @inline(__always) mutating func beginTelling() -> Int {
        tellings &+= 1
        return links.count
    }

    /// The told spy at `index`, unretained: valid while a telling is under way (the told
    /// list does not change then).
    @inline(__always) func link(at index: Int) -> Unmanaged<SpyCall> { links[index] }

    /// Ends a telling. True when it was the outermost and the spies were edited meanwhile:
    /// the caller then calls ``applyEdits()``.
    @inline(__always) mutating func endTelling() -> Bool {
        tellings &-= 1
        return tellings == 0 && edited
    }

    /// Makes the told list the pending one; returns the former holders, for the caller to
    /// drop once its access to the list has ended (those of removed spies go with them).
    @inline(never)
    mutating func applyEdits() -> [SpyCall] {
        edited = false
        let former = calls
        calls = pending
        toldListChanged()
        return former
    }
}

extension Router {
    /// Tells each spy of the told list that observes `event`'s kind about it, in order,
    /// through its holder's unretained link (the list keeps the holders while a telling is
    /// under way). Nothing when no spy observes the kind: no telling begins. Out of line: the
    /// callers' code stays small whatever the spies are; the event is passed by reference,
    /// not captured by a closure that outlives the call.
    @inline(never)
    func tellSpies(_ event: InputEvent, consumed: Bool) {
        tellSpies(event, consumed: consumed, bit: InputEventKinds.bit(of: event))
    }

    /// ``tellSpies(_:consumed:)`` of a key: told straight to the lone spy that observes keys
    /// (``SpyList/loneKeySpy``), as a telling, without walking the spies that do not (a
    /// kiosk's idle spy among spies of pointer and touch: the walk and the kind's bit from the
    /// event were ~35 instructions a key, issue 25, twelfth round). `event` is a key. Inlined
    /// into the key's path (its call was ~15 instructions a key frame); several spies of keys
    /// are told by ``tellSpies(_:consumed:)``, out of line.
    @inline(__always)
    func tellKeySpies(_ event: InputEvent, consumed: Bool) {
        guard let lone = unchecked.spyList.loneKeySpy else {
            return tellSpies(event, consumed: consumed)
        }
        _ = unchecked.spyList.beginTelling()
        lone._withUnsafeGuaranteedRef { $0.spy.observe(event, consumed: consumed, router: self) }
        if unchecked.spyList.endTelling() {
            let former = unchecked.spyList.applyEdits()
            _ = former
        }
    }

    @inline(__always)
    private func tellSpies(_ event: InputEvent, consumed: Bool, bit: UInt32) {
        if unchecked.spyList.wantedKinds & bit == 0 { return }
        let count = unchecked.spyList.beginTelling()
        var i = 0
        while i < count {
            let link = unchecked.spyList.link(at: i)
            link._withUnsafeGuaranteedRef {
                if $0.kinds & bit != 0 { $0.spy.observe(event, consumed: consumed, router: self) }
            }
            i &+= 1
        }
        if unchecked.spyList.endTelling() {
            let former = unchecked.spyList.applyEdits()
            _ = former
        }
    }
}

// # Walking up the tree without owning each surface

/// A walk up a surface's chain (``Router/walkChain(after:holder:target:kind:formerOutput:stopIf:_:)``)
/// asks each ancestor without retaining it: it *pins* the surface (a count in its hot state)
/// for the time its responder is asked, instead of owning it (a retain and release, about 40
/// instructions a link, issue 25).
///
/// Why that is safe: a walk steps to a parent only from an attached surface, so the surface
/// it pins is in an output's tree, owned by its parent's `children` (or, for a root, by its
/// output). A handler it calls may remove it and drop it. Every place where the tree lets a
/// surface go checks its pins first and, if a walk is on it, the surface keeps itself alive
/// (one retain of its own, ``WalkPins``) until its last pin goes:
/// - `Surface.unlink(_:)`, every removal or move out of a parent;
/// - `Surface.deinit`, for each child (a removed ancestor dropped by its owner frees its
///   subtree this way, level by level: the pinned one is kept when its parent goes);
/// - `Output.deinit`, for the root.
/// While attached, a surface has no other way to be freed. The walk reads the surface's next
/// link before it unpins it, and does not touch it after: the unpin may release it.
/// Tests: `UnretainedWalkTests`.
/// The pins of an object a walk asks without owning it (a surface, an output), and whether
/// it keeps itself alive for them. Its owner retains itself when ``keepIfPinned()`` says so
/// and releases itself when ``unpin()`` says so: the counting is here once, the retain and
/// release are the owner's (they need its type).
struct WalkPins {
    /// Walks asking the object's responder now.
    private(set) var count: UInt32 = 0
    /// The object owns one retain of itself, taken when it was let go while pinned.
    private(set) var isKept = false

    @inline(__always) mutating func pin() { count &+= 1 }

    /// The object is being let go: true when a walk has it pinned and it is not kept yet (the
    /// caller then retains it).
    @inline(__always) mutating func keepIfPinned() -> Bool {
        guard count > 0 && !isKept else { return false }
        isKept = true
        return true
    }

    /// One pin less: true when that was the last and the object was kept (the caller then
    /// releases it).
    @inline(__always) mutating func unpin() -> Bool {
        count &-= 1
        guard count == 0 && isKept else { return false }
        isKept = false
        return true
    }
}

extension Surface {
    /// A walk is about to ask this surface's responder without owning the surface.
    @inline(__always)
    func pinForWalk() { unchecked.walkPins.pin() }

    /// The tree is about to let this surface go: if a walk has it pinned, it keeps itself
    /// alive until the walk unpins it.
    @inline(__always)
    func keepIfPinned() {
        if unchecked.walkPins.keepIfPinned() { _ = Unmanaged.passRetained(self) }
    }

    /// The walk is done with `link` (it has read the next link): one pin less, and the
    /// surface's own retain goes with its last pin. `link` must not be used after this.
    @inline(__always)
    static func unpinAfterWalk(_ link: Unretained<Surface>) {
        if link.with({ $0.unchecked.walkPins.unpin() }) { link.reference.release() }
    }

    /// Pins on this surface (for tests).
    var walkPinCountForTesting: UInt32 { unchecked.walkPins.count }
    /// Whether the surface keeps itself alive for a walk (for tests).
    var isKeptForWalkForTesting: Bool { unchecked.walkPins.isKept }
}

// # Asking an output without owning it

/// A pointer motion's walk (``Router/walkChain(onOutput:target:kind:formerOutput:steps:stopIf:reportingDrop:delegateStep:_:)``)
/// goes from an attached root to its output without retaining the output: it *pins* it while
/// its responder is asked, as a walk pins each surface (a retain and a release, about 50
/// instructions per pointer motion, issue 25, eleventh round).
///
/// Why that is safe: the walk reaches the output from an attached root, so the output is in
/// a router's layout, whose list owns it. The only way it leaves that list is
/// `Router.removeOutput(_:)`, which checks its pins first: if a walk is on it, the output keeps
/// itself alive (one retain of its own, ``WalkPins``) until its last pin
/// goes. While in the layout, an output has no other way to be freed. The walk reads the
/// output's next link before it unpins it, and does not touch it after: the unpin may
/// release it. Tests: `OutputPinTests`.
extension Output {
    /// A walk is about to ask this output's responder without owning the output.
    @inline(__always)
    func pinForWalk() { unchecked.walkPins.pin() }

    /// The layout is about to let this output go: if a walk has it pinned, it keeps itself
    /// alive until the walk unpins it.
    @inline(__always)
    func keepIfPinned() {
        if unchecked.walkPins.keepIfPinned() { _ = Unmanaged.passRetained(self) }
    }

    /// The walk is done with `link`: one pin less, and the output's own retain goes with its
    /// last pin. `link` must not be used after this.
    @inline(__always)
    static func unpinAfterWalk(_ link: Unretained<Output>) {
        if link.with({ $0.unchecked.walkPins.unpin() }) { link.reference.release() }
    }

    /// Pins on this output (for tests).
    var walkPinCountForTesting: UInt32 { unchecked.walkPins.count }
    /// Whether the output keeps itself alive for a walk (for tests).
    var isKeptForWalkForTesting: Bool { unchecked.walkPins.isKept }
}

// # Knowing a responder keeps the default next link

/// How a walk learns, once per responder, that it keeps the protocol's default
/// ``Responder/nextResponder(after:)`` (parent surface, output, delegate), so that every
/// later walk follows the parent itself instead of calling it (a call through the witness
/// table and a ``ChainLink`` that owns the parent: about 60 instructions a link, issue 25).
///
/// Swift cannot ask which implementation a conformance uses, so the default implementation
/// says so when it runs: it stores its responder's identity here. A walk that calls a
/// responder it does not know yet clears the slot first and reads it after: the default ran
/// for that very responder if the slot holds its identity (a custom implementation cannot
/// run the protocol extension's method for its own object; one that calls another
/// responder's leaves that one's identity). Which implementation answers is fixed by the
/// responder's class, so the answer holds for the responder's life; it is kept in its
/// surface's ``ResponderHolder`` (a responder replaced gets a new holder, asked again).
///
/// The slot is shared by every thread (routers on different threads run at once in tests):
/// an atomic, relaxed, so a store from another thread can only leave another responder's
/// identity (that thread's responder is alive, so it cannot share the address), which reads
/// as "not the default": the walk then calls the responder as before, never the reverse.
enum NextResponderProbe {
    private static let lastDefault = Atomic<UInt>(0)

    /// The default implementation ran for `responder`.
    @inline(__always)
    static func noteDefault(_ responder: AnyObject) {
        lastDefault.store(UInt(bitPattern: ObjectIdentifier(responder)), ordering: .relaxed)
    }

    /// Calls `responder.nextResponder(after: link)` and learns whether it is the default.
    @inline(__always)
    static func classify(_ responder: any Responder, after link: __owned ChainLink?) -> (ChainLink?, NextResponderKind) {
        lastDefault.store(0, ordering: .relaxed)
        let next = responder.nextResponder(after: link)
        let isDefault = lastDefault.load(ordering: .relaxed) == UInt(bitPattern: ObjectIdentifier(responder))
        return (next, isDefault ? .followsDefault : .own)
    }
}

// # Knowing a responder keeps the default hit-test refinement

/// How a hit-test learns, once per responder, that it keeps the protocol's default
/// ``Responder/refineHitTest(at:in:)`` (accept every point of the bounds and input region),
/// so that every later hit-test that lands on its surface accepts without calling it (the
/// holder's in-use count and a call through the witness table: about 35 instructions per
/// pointer motion, issue 25, eleventh round). The same reasoning as ``NextResponderProbe``:
/// the default says so when it runs, by storing its responder's identity in a slot a hit-test
/// clears before it calls a responder it does not know yet and reads after; which
/// implementation answers is fixed by the responder's class, so the answer holds for the
/// responder's life and is kept in its surface's ``ResponderHolder``. Skipping the default is
/// unobservable: it returns true and does nothing else. A store from another thread can only
/// leave another responder's identity, which reads as "its own": the hit-test then calls it
/// as before, never the reverse.
enum RefineHitTestProbe {
    private static let lastDefault = Atomic<UInt>(0)

    /// The default implementation ran for `responder`.
    @inline(__always)
    static func noteDefault(_ responder: AnyObject) {
        lastDefault.store(UInt(bitPattern: ObjectIdentifier(responder)), ordering: .relaxed)
    }

    /// Calls `responder.refineHitTest(at: point, in: surface)` and learns whether it is the
    /// default.
    @inline(__always)
    static func classify(_ responder: any Responder, at point: SurfacePoint, in surface: Surface) -> (Bool, NextResponderKind) {
        lastDefault.store(0, ordering: .relaxed)
        let accepts = responder.refineHitTest(at: point, in: surface)
        let isDefault = lastDefault.load(ordering: .relaxed) == UInt(bitPattern: ObjectIdentifier(responder))
        return (accepts, isDefault ? .followsDefault : .own)
    }
}

// # A recognizer referred to without a side table

/// A reference to a gesture recognizer that does not keep it alive, for its own timer actions
/// (``GestureRecognizer/schedule(at:)``'s one action and ``GestureRecognizer/schedule(at:_:)``'s
/// closures, which the router's clock holds until they fire or are cancelled), in place of
/// `[weak self]`. The same reasoning as ``RouterHandle``.
///
/// Why: a weak reference gives the object it refers to a side table, and from then on every
/// retain and release of that object takes the runtime's slow path (`incrementSlow`,
/// `doDecrementSlow`, about 50 more instructions each). The `[weak self]` of the first timer
/// a time-based recognizer armed (a long press at its first touch down) did that for the
/// recognizer's whole life, and the router retains and releases the recognizers of a touch's
/// arena at its down, at their transitions and at their reset (the wlroots kiosk's per-surface
/// long press and its switcher; issue 25, goal 5).
///
/// Safe by construction: the recognizer makes its handle the first time it arms a timer,
/// attached to itself, and detaches it in its `deinit` (the base class's, which runs after every
/// subclass's, so no subclass code can run on a detached recognizer), so ``recognizer`` is the
/// recognizer while it lives and nil from its deinit on. A timer that fires after the
/// recognizer went away reads nil and does nothing, as the weak reference did. (A weak
/// reference reads nil from the first deinit on, the handle only from the base class's: a
/// subclass's `deinit` that ran the clock itself, advancing a virtual clock say, would fire
/// its own timers on a recognizer half torn down. No built-in recognizer's does.) The timer
/// actions keep the handle strongly; the handle never keeps the recognizer (no cycle: the
/// recognizer keeps its deadline action, which keeps the handle). Used on the event loop's
/// thread only, like the recognizer.
final class RecognizerHandle {
    unowned(unsafe) private(set) var recognizer: GestureRecognizer?

    init(_ recognizer: GestureRecognizer) { self.recognizer = recognizer }

    @inline(__always) func detach() { recognizer = nil }
}

// # Finding a surface in a touch's seen list by its bits

extension ChainLink {
    /// Whether this link's stored bits are `id`'s: then it is `.surface` of the object `id`
    /// identifies, as `identity == id` says, without looking at which case it is (issue 25,
    /// fifteenth round: three instructions less per link of a moving touch's walk, where each
    /// link asked is looked up in the touch's seen list).
    ///
    /// Why it is sound: a `ChainLink` is one word (its case in the pointer's spare bits,
    /// `ChainLinkBitsTests` checks the size and that a surface's link is its pointer), and
    /// `id` is a live object's address (the walk holds or pins the surface it asks). Equal
    /// bits mean a payload at that address: the surface itself (an output is another object,
    /// at another address; `.delegate` carries no pointer). For the moving touch's lookup
    /// (`TouchSequence.seenIndex(of:)`) unequal bits say nothing: it then compares identities
    /// as before, so a layout that stored the case elsewhere would only be slower, never
    /// wrong. A touch's down (`TouchSequence.noteSeen(surface:output:)`, issue 25, nineteenth
    /// round) also takes unequal bits to mean another link, which holds because a surface's
    /// link is its pointer and nothing else (`ChainLinkBitsTests` pins both down; debug builds
    /// compare its answer with the identities').
    @inline(__always)
    func hasBits(of id: ObjectIdentifier) -> Bool {
        unsafeBitCast(self, to: UInt.self) == UInt(bitPattern: id)
    }
}

// # A reference stored where the old value is known to be nil

/// Stores `value` (its ownership moved in: no retain) at `storage`, which holds `nil`, without
/// the release of the old value an assignment makes: a `swift_release` call that finds
/// nothing to release.
///
/// For a touch's record at its down (``Router``'s `routeTouchDown`): a record from the pool or
/// a new one keeps no surface, output or arena (TouchRouting's invariant 1), so the three
/// assignments released three `nil`s a down (issue 25, sixteenth round). `storage` is a stored
/// property's address (`&record.unchecked.surface`: a stored field of a final class's stored
/// struct, so the inout-to-pointer conversion hands out the field itself, not a copy).
///
/// Why it is sound: writing over `nil` leaks nothing (no object was referenced there), and
/// the stored reference is `value`'s own, moved in. Only for storage that holds `nil`: over an
/// object, that object would leak. Debug builds check it. Tests: `UnsafeFoundationsTests`
/// (`storingOverNilKeepsTheValueAndLeaksNothing`).
@inline(__always)
func storeOverNil<Object: AnyObject>(_ storage: UnsafeMutablePointer<Object?>, _ value: consuming Object?) {
    #if DEBUG
    precondition(storage.pointee == nil, "storeOverNil over a stored reference")
    #endif
    storage.initialize(to: value)
}
