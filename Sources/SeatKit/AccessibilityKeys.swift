/// Keyboard accessibility as input filters: sticky keys, slow keys, bounce keys. Each is an
/// ``InputFilter``: add it with ``Router/addFilter(_:)`` and it sees keys before grabs and
/// routing, timed on the router's ``Router/clock`` (so replays and tests give the same
/// result at any machine speed). Off (`isEnabled` false), the router passes over each
/// without calling it. Turning one off releases what it holds; turning one on while keys
/// are held does not touch those keys (their releases pass as usual).

/// Sticky keys: a modifier (Shift, Ctrl, Alt, AltGr, Logo) tapped alone latches, applying to
/// the next key that is not a modifier; tapped twice it locks, until tapped a third time.
/// For people who type with one finger or a head pointer and cannot hold two keys at once.
///
/// Clients see the latched and locked modifiers: the key interpreter keeps them
/// (``KeyInterpreter/setStickyModifiers(latched:locked:)``; SeatKitXKB's `Keyboard` does), so
/// keysyms, text and `wl_keyboard.modifiers` (as latched and locked masks) agree. A change
/// made while a key is filtered goes out with that key: the tap's release carries the latch,
/// the next key's press carries its end (clients apply it after that key). A change outside
/// a key (``isEnabled`` turned off, ``clear()``) goes to ``onModifiersChange``: a Wayland
/// compositor sends it to the focused client there (SeatKitWayland's `Seat.sendModifiers`).
///
/// A modifier held while another key is pressed (a chord: Shift+A typed as usual) does not
/// latch. Keys are never taken: every press and release passes. A modifier is recognised by
/// its keysym (Shift_L, Control_R, ISO_Level3_Shift…), or by its evdev code when no
/// interpreter fills keysyms in.
public final class StickyKeys: InputFilter {
    /// Whether taps latch. Turning it off unlatches and unlocks every modifier at once
    /// (clients are told through ``onModifiersChange``); turning it on while a modifier is
    /// held does not latch that modifier.
    public var isEnabled: Bool {
        get { enabled }
        set {
            guard newValue != enabled else { return }
            enabled = newValue
            if !newValue { clear() }
        }
    }
    /// Whether a second tap locks a latched modifier (GNOME and KDE: yes). When false, a
    /// second tap unlatches it.
    public var locksOnSecondTap: Bool {
        get { unchecked.locksOnSecondTap }
        set { unchecked.locksOnSecondTap = newValue }
    }
    /// The modifiers latched now: they apply to the next key that is not a modifier.
    public var latched: KeyModifiers { unchecked.latched }
    /// The modifiers locked now: they apply until tapped again.
    public var locked: KeyModifiers { unchecked.locked }
    /// Told the interpreter's new modifier masks when they change outside a key's routing
    /// (turned off, ``clear()``, or a key a later filter took): send them to the focused
    /// client as `wl_keyboard.modifiers`.
    public var onModifiersChange: ((ModifierMasks) -> Void)?
    /// Told the latched and locked modifiers after each change: for an on-screen cue.
    public var onStateChange: ((_ latched: KeyModifiers, _ locked: KeyModifiers) -> Void)?

    /// Backs `isEnabled`: whether the router asks this filter at all (off, it passes every
    /// event without being called: UnsafeFoundations.swift, `FilterSwitch`).
    let filterSwitch: FilterSwitch
    private var enabled: Bool {
        @inline(__always) get { filterSwitch.unchecked.isAsked }
        set { filterSwitch.isAsked = newValue }
    }
    /// What each key reads and writes, exempt from run-time exclusivity checks (the rules
    /// are in UnsafeFoundations.swift; no access spans a call out).
    struct HotState {
        var locksOnSecondTap = true
        var latched: KeyModifiers = []
        var locked: KeyModifiers = []
        /// Modifier keys held now, with whether another key was pressed meanwhile (a chord).
        var heldModifiers: [(keycode: UInt32, modifier: KeyModifiers, chorded: Bool)] = []
    }
    @exclusivity(unchecked) var unchecked = HotState()
    /// The router it was last asked by, without a weak reference (``RouterHandle``).
    private var routerHandle: RouterHandle?
    private var router: Router? {
        get { routerHandle?.router }
        set { if routerHandle !== newValue?.handle { routerHandle = newValue?.handle } }
    }

    /// A filter, on unless `isEnabled` is false; add it with ``Router/addFilter(_:)``.
    public init(isEnabled: Bool = true) {
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: .interpretedKeys)
        unchecked.heldModifiers.reserveCapacity(8)
    }

    /// The events it acts on: presses (as interpreted), and raw releases while a modifier
    /// is held (a release is a tap only then; it passes every other release without a look).
    private func heldModifiersChanged() {
        filterSwitch.interests = unchecked.heldModifiers.isEmpty ? .interpretedKeys : FilterInterests.interpretedKeys.union(.keyReleases)
    }

    /// Unlatches and unlocks every modifier (clients are told through ``onModifiersChange``).
    public func clear() {
        unchecked.heldModifiers.removeAll(keepingCapacity: true)
        heldModifiersChanged()
        guard !unchecked.latched.isEmpty || !unchecked.locked.isEmpty else { return }
        unchecked.latched = []
        unchecked.locked = []
        apply()
    }

    /// Releases: a modifier tapped alone latches, locks or unlocks. Everything passes.
    public func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        guard case .key(let keycode, let state) = event.kind else { return .pass }
        return filterRawKey(keycode: keycode, state: state, router: router)
    }

    /// ``filter(_:router:)`` for a raw key given as its parts: what the router calls when it
    /// asks sticky keys about a raw key (UnsafeFoundations.swift, `AskedFilter.askRawKey`),
    /// with no ``InputEvent`` made for it.
    func filterRawKey(keycode: UInt32, state: KeyState, router: Router) -> FilterDecision {
        guard enabled, state == .released, !unchecked.heldModifiers.isEmpty else { return .pass }
        guard let index = unchecked.heldModifiers.scanIndex(where: { $0.keycode == keycode }) else { return .pass }
        let held = unchecked.heldModifiers.remove(at: index)
        heldModifiersChanged()
        guard !held.chorded else { return .pass }
        self.router = router
        let modifier = held.modifier
        if unchecked.locked.contains(modifier) {
            unchecked.locked.remove(modifier)
        } else if unchecked.latched.contains(modifier) {
            unchecked.latched.remove(modifier)
            if unchecked.locksOnSecondTap { unchecked.locked.insert(modifier) }
        } else {
            unchecked.latched.insert(modifier)
        }
        apply()
        return .pass
    }

    /// Presses: a modifier is noted as held; another key chords the held modifiers and
    /// ends the latch (after this key, which the latched modifiers apply to).
    public func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard enabled, event.state == .pressed else { return .pass }
        if let modifier = Self.modifier(keysym: event.keysym, keycode: event.keycode) {
            if unchecked.heldModifiers.scanIndex(where: { $0.keycode == event.keycode }) == nil {
                unchecked.heldModifiers.append((event.keycode, modifier, false))
                heldModifiersChanged()
            }
            return .pass
        }
        var i = 0
        while i < unchecked.heldModifiers.count {
            unchecked.heldModifiers[i].chorded = true
            i += 1
        }
        if !unchecked.latched.isEmpty {
            // The router is stored only here and where a tap latches (a store of its handle, not weak): a key
            // that changes nothing costs no more than the checks above.
            self.router = router
            unchecked.latched = []
            apply()
        }
        return .pass
    }

    private func apply() {
        let latched = unchecked.latched, locked = unchecked.locked
        onStateChange?(latched, locked)
        router?.setStickyModifiers(latched: latched, locked: locked, announce: onModifiersChange)
    }

    /// The modifier a key sets: by keysym, else (no interpreter) by evdev code.
    static func modifier(keysym: UInt32, keycode: UInt32) -> KeyModifiers? {
        switch keysym {
        case 0xffe1, 0xffe2: return .shift                 // Shift_L, Shift_R
        case 0xffe3, 0xffe4: return .control               // Control_L, Control_R
        case 0xffe9, 0xffea, 0xffe7, 0xffe8: return .alt   // Alt_L, Alt_R, Meta_L, Meta_R
        case 0xffeb, 0xffec: return .logo                  // Super_L, Super_R
        case 0xfe03: return .altGr                         // ISO_Level3_Shift
        case 0: break
        default: return nil
        }
        switch keycode {
        case 42, 54: return .shift       // KEY_LEFTSHIFT, KEY_RIGHTSHIFT
        case 29, 97: return .control     // KEY_LEFTCTRL, KEY_RIGHTCTRL
        case 56: return .alt             // KEY_LEFTALT
        case 100: return .altGr          // KEY_RIGHTALT
        case 125, 126: return .logo      // KEY_LEFTMETA, KEY_RIGHTMETA
        default: return nil
        }
    }
}

/// Slow keys: a key counts only once it has been held for ``delay``; a shorter press is
/// ignored, press and release. For people whose hands tremor or who brush keys by accident.
///
/// The press is taken when it comes and routed when the delay has passed on the router's
/// clock, with the time of that moment: the filters added after this one are asked then
/// (sticky keys latch an accepted modifier), then the keyboard grab if one is active, else
/// the first responder; its repeats and release follow it. A press released before the
/// delay is dropped whole (``onKey`` hears it rejected when its delay ends: the router
/// swallows the release of a taken press before any filter). The key interpreter (the
/// keyboard's state) counts a press only once it is accepted, and reads its keysym and text
/// with the modifiers of that moment: a key held for less than the delay, Shift included,
/// changes nothing, while it waits or after.
/// Turning it off drops the presses still waiting (their releases are swallowed with them);
/// turning it on while a key is held leaves that key alone.
public final class SlowKeys: InputFilter {
    /// What happened to a key, for an audible or visual cue.
    public enum Outcome: Sendable, Hashable {
        /// Pressed: waiting for the delay.
        case pressed
        /// Held long enough: routed.
        case accepted
        /// Released (or the filter turned off) before the delay: dropped.
        case rejected
    }
    /// Whether presses wait. Turning it off drops the presses still waiting.
    public var isEnabled: Bool {
        get { enabled }
        set {
            guard newValue != enabled else { return }
            enabled = newValue
            if !newValue { dropWaiting() }
        }
    }
    /// How long a key must be held to count.
    public var delay: TimeSpan {
        get { unchecked.delay }
        set { unchecked.delay = newValue }
    }
    /// Told each key's evdev code and outcome.
    public var onKey: ((_ keycode: UInt32, _ outcome: Outcome) -> Void)? {
        get { unchecked.onKey }
        set { unchecked.onKey = newValue }
    }

    /// Backs `isEnabled`: whether the router asks this filter at all (off, it passes every
    /// event without being called: UnsafeFoundations.swift, `FilterSwitch`).
    let filterSwitch: FilterSwitch
    private var enabled: Bool {
        @inline(__always) get { filterSwitch.unchecked.isAsked }
        set { filterSwitch.isAsked = newValue }
    }
    /// What each key reads and writes, exempt from run-time exclusivity checks (the rules
    /// are in UnsafeFoundations.swift; no access spans a call out).
    struct HotState {
        var delay: TimeSpan
        var onKey: ((_ keycode: UInt32, _ outcome: Outcome) -> Void)?
        /// The presses waiting for their delay, oldest first. (A struct, not a tuple: an
        /// array of tuples holding a `KeyEvent` was removed from and appended to through the
        /// runtime's generic value witnesses, about 100 instructions a press.)
        var waiting: [WaitingPress] = []
        /// One timer for all of them, set for `timerDeadline`, the earliest deadline when it
        /// was set: when it fires, the due presses are accepted and it is set again for the
        /// next (a press of a key still waiting replaces it without a cancel and schedule).
        var timer: TimerToken?
        var timerDeadline = Timestamp.zero
    }
    @exclusivity(unchecked) var unchecked: HotState
    /// A press waiting for its delay.
    struct WaitingPress {
        var event: KeyEvent
        var deadline: Timestamp
    }
    /// The router it was last asked by, without a weak reference (``RouterHandle``).
    private var routerHandle: RouterHandle?
    private var router: Router? {
        get { routerHandle?.router }
        set { if routerHandle !== newValue?.handle { routerHandle = newValue?.handle } }
    }
    /// Made once, so that a press allocates no closure.
    private lazy var timerAction: () -> Void = { [weak self] in self?.acceptDue() }

    /// A filter; add it with ``Router/addFilter(_:)``. Default delay: 300 ms (GNOME's and
    /// KDE's).
    public init(delay: TimeSpan = .milliseconds(300), isEnabled: Bool = true) {
        unchecked = HotState(delay: delay)
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: .interpretedKeys)
        unchecked.waiting.reserveCapacity(8)
    }

    /// True: a press waiting for its delay, or rejected, is not in the keyboard's state.
    public var discardsTakenKeyPresses: Bool { true }

    /// A press is taken and waits for the delay.
    public func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard enabled, event.state == .pressed else { return .pass }
        // A press of a key still waiting: the waiting one was released (its release went
        // unseen, swallowed by the router) and is dropped now.
        let deadline: Timestamp
        if let stale = unchecked.waiting.scanIndex(where: { $0.event.keycode == event.keycode }) {
            if stale == unchecked.waiting.count &- 1, unchecked.onKey == nil {
                // The last one, and no one to tell: this press takes its place (the same
                // list as removing it and appending this one, without moving either).
                deadline = router.clock.now + unchecked.delay
                unchecked.waiting[stale] = WaitingPress(event: event, deadline: deadline)
            } else {
                unchecked.waiting.remove(at: stale)
                unchecked.onKey?(event.keycode, .rejected)
                deadline = router.clock.now + unchecked.delay
                unchecked.waiting.append(WaitingPress(event: event, deadline: deadline))
            }
        } else {
            deadline = router.clock.now + unchecked.delay
            unchecked.waiting.append(WaitingPress(event: event, deadline: deadline))
        }
        if unchecked.timer == nil || deadline < unchecked.timerDeadline {
            // The timer set stays when it fires no later than this press's deadline.
            // The router is stored only here (a store of its handle, not weak): the timer's action routes
            // through it.
            self.router = router
            if let timer = unchecked.timer { router.clock.cancel(timer) }
            unchecked.timerDeadline = deadline
            unchecked.timer = router.clock.schedule(at: deadline, timerAction)
        }
        unchecked.onKey?(event.keycode, .pressed)
        return .consume
    }

    /// Routes the waiting presses whose delay has passed, oldest first, and sets the timer
    /// again for the next.
    private func acceptDue() {
        unchecked.timer = nil
        guard let router else { return }
        while true {
            let now = router.clock.now
            guard let index = unchecked.waiting.scanIndex(where: { $0.deadline <= now }) else { break }
            var event = unchecked.waiting.remove(at: index).event
            // Released meanwhile (the router swallowed the release of the taken press).
            guard router.heldKeyIndex(event.keycode) != nil else {
                unchecked.onKey?(event.keycode, .rejected)
                continue
            }
            event.time = router.clock.now
            unchecked.onKey?(event.keycode, .accepted)
            router.routeTakenPress(event, after: self)
        }
        if unchecked.timer == nil, let next = unchecked.waiting.map(\.deadline).min() {
            unchecked.timerDeadline = next
            unchecked.timer = router.clock.schedule(at: next, timerAction)
        }
    }

    private func dropWaiting() {
        let dropped = unchecked.waiting
        unchecked.waiting.removeAll(keepingCapacity: true)
        if let timer = unchecked.timer { router?.clock.cancel(timer) }
        unchecked.timer = nil
        for key in dropped {
            unchecked.onKey?(key.event.keycode, .rejected)
        }
    }
}

/// Bounce keys: a press of the key just released, within ``delay`` of its release, is
/// ignored, press and release. For people whose fingers bounce on the keys (tremor).
///
/// Timed on the router's clock. Only presses are taken; a taken press's release and
/// repeats are swallowed by the router. It holds no key, so turning it on or off at any
/// time strands nothing (off, it forgets the last release).
public final class BounceKeys: InputFilter {
    /// Whether bounces are ignored.
    public var isEnabled: Bool {
        get { enabled }
        set {
            enabled = newValue
            if !newValue { unchecked.lastRelease = nil }
        }
    }
    /// How soon after its release a key's press counts as a bounce.
    public var delay: TimeSpan {
        get { unchecked.delay }
        set { unchecked.delay = newValue }
    }
    /// Told the evdev code of each press ignored as a bounce: for an audible cue.
    public var onBounce: ((_ keycode: UInt32) -> Void)?

    /// Backs `isEnabled`: whether the router asks this filter at all (off, it passes every
    /// event without being called: UnsafeFoundations.swift, `FilterSwitch`).
    let filterSwitch: FilterSwitch
    private var enabled: Bool {
        @inline(__always) get { filterSwitch.unchecked.isAsked }
        set { filterSwitch.isAsked = newValue }
    }
    /// What each key reads and writes, exempt from run-time exclusivity checks (the rules
    /// are in UnsafeFoundations.swift; no access spans a call out).
    struct HotState {
        var delay: TimeSpan
        var lastRelease: (keycode: UInt32, time: Timestamp)?
    }
    @exclusivity(unchecked) var unchecked: HotState

    /// A filter; add it with ``Router/addFilter(_:)``. Default delay: 300 ms (GNOME's and
    /// KDE's).
    public init(delay: TimeSpan = .milliseconds(300), isEnabled: Bool = true) {
        unchecked = HotState(delay: delay)
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: [.keys, .keyReleases])
    }

    /// True: a bounce is not in the keyboard's state.
    public var discardsTakenKeyPresses: Bool { true }

    /// Takes a press of the key last released, within the delay; notes releases.
    public func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        guard case .key(let keycode, let state) = event.kind else { return .pass }
        return filterRawKey(keycode: keycode, state: state, router: router)
    }

    /// ``filter(_:router:)`` for a raw key given as its parts: its body, inlined where the
    /// router asks bounce keys about a raw key (UnsafeFoundations.swift,
    /// `AskedFilter.askRawKey`), which then makes no ``InputEvent`` for it (made and
    /// destroyed through its value witnesses, ~45 instructions a key, issue 28).
    @inline(__always)
    func filterRawKey(keycode: UInt32, state: KeyState, router: Router) -> FilterDecision {
        guard enabled else { return .pass }
        return filterRawKeyWhileOn(keycode: keycode, state: state, router: router)
    }

    /// ``filterRawKey(keycode:state:router:)`` without the test of its switch: for the lone
    /// filter of a raw key class, whose field the roster sets only while every switch is as it
    /// was built and which is read just before the call (as dwell click's
    /// `filterMotionWhileOn`).
    @inline(__always)
    func filterRawKeyWhileOn(keycode: UInt32, state: KeyState, router: Router) -> FilterDecision {
        switch state {
        case .released:
            unchecked.lastRelease = (keycode, router.clock.now)
        case .pressed:
            if let last = unchecked.lastRelease, last.keycode == keycode, router.clock.now - last.time < unchecked.delay {
                onBounce?(keycode)
                return .consume
            }
        case .repeated:
            break
        }
        return .pass
    }
}

// Off, the router passes over them without a call (UnsafeFoundations.swift).
extension StickyKeys: SwitchedFilter {}
extension SlowKeys: SwitchedFilter {}
extension BounceKeys: SwitchedFilter {}
