@_spi(SeatKitInternals) import SeatKit

/// One keyboard of a seat as the router sees it: the `KeyInterpreter` (SeatKit) that turns evdev
/// keycodes into keysyms, text and modifiers with xkbcommon, runs compose sequences for the
/// compositor's own responders, generates key repeats from the router's clock and keeps the
/// keymap file that clients receive.
///
/// ```
/// let keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "de")),
///                         compose: try ComposeTable(locale: "en_US.UTF-8"))
/// keyboard.attach(to: router)          // router.keyInterpreter = keyboard
/// router.inject(InputEvent(time: t, .key(keycode: 16, state: .pressed)))   // "q"
/// ```
///
/// For each key event the router hands it, the keyboard fills in, from the state *before*
/// the key: `keysym`, `baseKeysym` (first layout, level 0), `text` (composed when a
/// sequence completes, "" while composing and for releases) and `modifiers`; and from the
/// state *after* it: `modifierMasks`, the serialized modifiers `wl_keyboard.modifiers`
/// carries. What the key changed (modifiers, layout, LEDs) is in ``lastChanges``, the
/// compose progress in ``composeStatus``: a responder reads it while handling the key as
/// `(context.router.keyInterpreter as? Keyboard)?.composeStatus`.
///
/// Repeats: while a repeating key is held, the keyboard injects `.key(keycode, .repeated)`
/// events into the router at ``keyRepeat``'s times, so they pass the router's filters and
/// the repeats of a key whose press a filter or key command took stay taken. Releasing the
/// key, pressing another repeating key, moving the first responder, or a keyboard grab
/// starting or ending (a lock screen) stops them (the new receiver never saw the press);
/// pressing a modifier does not.
/// Spies and the trace see the repeats like any event. Client responders should drop
/// `.repeated` events: clients repeat on their own, from ``keyRepeat``'s `wire` values.
///
/// One thread, the router's. Once warm, interpreting a key allocates nothing.
public final class Keyboard: KeyInterpreter {
    // The properties a key event reads and writes are the keyboard's unchecked state (the
    // pattern and rules of the core's UnsafeFoundations.swift): each access to a class's
    // stored property otherwise costs a dynamic exclusivity check, about a third of this
    // class's own time per key. One thread uses a keyboard, and no access overlaps another
    // (none is passed inout across a call that reaches back).
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// Backs `keymap`.
        var keymap: Keymap
        /// Backs `state`.
        var state: KeyboardState
        /// `keyRepeat`'s storage, read on every press without the runtime exclusivity check
        /// (the rules: Sources/SeatKit/UnsafeFoundations.swift).
        var _keyRepeat: KeyRepeat
        /// Not owned (the router owns its interpreter) and not `weak`: the router is weakly
        /// referenced elsewhere, so every retain of it takes the runtime's slow path, and a press
        /// reads it. The router clears it through ``detached(from:)`` before it goes away.
        var routerReference: Unretained<Router>?
        /// Backs `lastChanges`.
        var lastChanges: KeyboardStateChanges = []
        /// Backs `composeStatus`.
        var composeStatus: ComposeStatus = .nothing
        /// Keys whose discarded press the compose sequence took (``discardPress(_:)``).
        var composedDiscards: [UInt32] = []
        /// Backs `pressedKeys`.
        var pressedKeys: [UInt32] = []
        var repeatingKey: UInt32?
        var repeatingDevice = DeviceID(0)
        var repeatPressTime = Timestamp.zero
        var repeatIndex = 0
        var repeatSettings = KeyRepeat.standard
        /// The armed timer and its deadline, if any.
        var repeatTimer: TimerToken?
        var repeatTimerDeadline = Timestamp.zero
        /// The first responder when the repeating key went down: its identity only, so pressing a
        /// key costs no reference counting.
        var repeatFocus: SurfaceID?
        /// The router's keyboard grab generation when the repeating key went down: a grab
        /// that starts or ends since (a lock screen) never saw the press, so the repeat stops.
        var repeatGrabGeneration: UInt64 = 0
    }

    @exclusivity(unchecked) var unchecked: HotState

    /// The keymap keys are interpreted with; ``setKeymap(_:)`` replaces it.
    public var keymap: Keymap { unchecked.keymap }

    /// The xkbcommon state behind the events. Read it freely; feed keys through
    /// ``interpret(_:)`` (the router does), so that held keys and repeats stay in step.
    public var state: KeyboardState { unchecked.state }

    /// What the last key event changed: modifiers, layout, LEDs.
    public var lastChanges: KeyboardStateChanges { unchecked.lastChanges }

    /// Where the last key press left its compose sequence: `.composing` after a dead key,
    /// `.composed` on the key that completed it, `.cancelled` on the key that broke it off.
    public var composeStatus: ComposeStatus { unchecked.composeStatus }

    /// The keys held now (evdev keycodes), in press order.
    public var pressedKeys: [UInt32] { unchecked.pressedKeys }

    /// Compose progress for the compositor's own responders; `nil` turns compose off.
    public let compose: ComposeState?
    /// How held keys repeat, for clients (`wl_keyboard.repeat_info`) and for the repeats
    /// this keyboard generates. Changing it takes effect from the next press.
    public var keyRepeat: KeyRepeat {
        get { unchecked._keyRepeat }
        set { unchecked._keyRepeat = newValue }
    }

    /// The router this keyboard interprets keys for and injects repeats into.
    public var router: Router? { unchecked.routerReference?.object }


    /// Called after ``setKeymap(_:)`` installed a different keymap: clients need the new
    /// keymap file and then the modifiers.
    public var keymapDidChange: ((Keyboard) -> Void)?

    // Repeat. The timer is left armed when a key is released or another pressed: a timer
    // that fires early re-arms itself for the repeat actually due, and one that finds no key
    // held does nothing. So typing arms a timer only when none is armed, instead of cancelling
    // and scheduling one on every press.
    /// Made once, so that arming the timer allocates nothing.
    private lazy var repeatTimerAction: () -> Void = { [weak self] in self?.repeatTimerFired() }

    private var cachedKeymapFile: KeymapFile?
    /// The keymap `cachedKeymapFile` was last checked against, to skip comparing texts.
    private var keymapOfCachedFile: Keymap?

    /// A keyboard with nothing held, in the keymap's first layout. `compose` enables compose
    /// sequences from that table.
    public init(keymap: Keymap, compose: ComposeTable? = nil, keyRepeat: KeyRepeat = .standard) {
        unchecked = HotState(keymap: keymap, state: KeyboardState(keymap: keymap), _keyRepeat: keyRepeat)
        self.compose = compose.map { ComposeState(table: $0) }
        unchecked.pressedKeys.reserveCapacity(16)
        unchecked.composedDiscards.reserveCapacity(8)
    }

    deinit {
        if let token = unchecked.repeatTimer { router?.clock.cancel(token) }
    }

    /// Becomes `router`'s key interpreter, and the source of its key repeats.
    public func attach(to router: Router) {
        router.keyInterpreter = self
        unchecked.routerReference = Unretained(router)
    }

    /// The router no longer uses this keyboard: repeats stop, and it is forgotten.
    public func detached(from router: Router) {
        guard unchecked.routerReference?.refers(to: router) == true else { return }
        if let token = unchecked.repeatTimer { router.clock.cancel(token) }
        unchecked.repeatTimer = nil
        unchecked.repeatingKey = nil
        unchecked.routerReference = nil
    }

    // MARK: KeyInterpreter

    public func interpret(_ event: inout KeyEvent) {
        interpret(&event, feedingCompose: true)
    }

    /// A press a filter discarded (slow or bounce keys): the key goes up in the state and
    /// stops repeating. What it fed the compose sequence stays fed: its text (composed, or
    /// empty for a dead key) is in the press waiting in the filter.
    public func discardPress(_ event: KeyEvent) {
        let keycode = event.keycode
        if let i = indexOfComposedDiscard(keycode) { unchecked.composedDiscards.remove(at: i) }
        // The press was interpreted last: the compose status is its.
        if compose != nil, unchecked.composeStatus != .nothing { unchecked.composedDiscards.append(keycode) }
        var release = KeyEvent(time: event.time, device: event.device, keycode: keycode, state: .released)
        interpret(&release, feedingCompose: false)
    }

    /// A discarded press counts after all (slow keys accepted it): the key goes down in the
    /// state again and repeats from now; keysym, text and modifiers are those of now, except
    /// that a key the compose sequence took (a dead key, or the key that completed or broke
    /// off a sequence) keeps the keysym and text it had: feeding it again would compose twice.
    public func restorePress(_ event: inout KeyEvent) {
        var press = KeyEvent(time: event.time, device: event.device, keycode: event.keycode, state: .pressed)
        interpret(&press, feedingCompose: false)
        if let i = indexOfComposedDiscard(event.keycode) {
            unchecked.composedDiscards.remove(at: i)
            press.keysym = event.keysym
            press.text = event.text
        }
        event = press
    }

    private func indexOfComposedDiscard(_ keycode: UInt32) -> Int? {
        for index in unchecked.composedDiscards.indices where unchecked.composedDiscards[index] == keycode { return index }
        return nil
    }

    private func interpret(_ event: inout KeyEvent, feedingCompose: Bool) {
        // `state` and `keymap` change only in `setKeymap`, never while a key is interpreted:
        // borrowing them saves a reference-count round trip around every xkbcommon call.
        Unretained(unchecked.state).with { state in
            let keycode = event.keycode
            if event.state == .released {
                // A release's text is "": its keysym alone is read, and the event's text
                // (already "" from the router) is not stored again. Reading the remembered
                // text too retained it to let it go, and storing "" released the old (~30
                // instructions a release, issue 25, twelfth round).
                event.keysym = state.rememberedKeysym(evdevKeycode: keycode)
                event.baseKeysym = state.keymap.baseKeysym(evdevKeycode: keycode)
                event.modifiers = state.modifiers
                if !event.text.isEmpty { event.text = "" }
                unchecked.lastChanges = state.update(evdevKeycode: keycode, direction: .up)
                let count = unchecked.pressedKeys.count
                if count > 0, unchecked.pressedKeys[count - 1] == keycode {
                    unchecked.pressedKeys.removeLast()   // typing releases the key pressed last
                } else if let index = indexOfPressedKey(keycode) {
                    unchecked.pressedKeys.remove(at: index)
                }
                if unchecked.repeatingKey == keycode { unchecked.repeatingKey = nil }
                event.modifierMasks = state.modifierMasks
                return
            }
            let produced = state.keysymAndText(evdevKeycode: keycode)
            event.keysym = produced.keysym
            event.baseKeysym = state.keymap.baseKeysym(evdevKeycode: keycode)
            event.modifiers = state.modifiers
            switch event.state {
            case .pressed:
                event.text = produced.text
                if feedingCompose, let compose { runCompose(compose, on: &event) }
                unchecked.lastChanges = state.update(evdevKeycode: keycode, direction: .down)
                if indexOfPressedKey(keycode) == nil { unchecked.pressedKeys.append(keycode) }
                if state.keymap.repeats(evdevKeycode: keycode) { startRepeating(keycode, device: event.device, at: event.time) }
            case .released:
                break   // above
            case .repeated:
                event.text = produced.text
                unchecked.lastChanges = []
            }
            event.modifierMasks = state.modifierMasks
        }
    }

    /// Sets the modifiers sticky keys latched and locked (the core's `StickyKeys`): they
    /// become the xkb state's latched modifiers, and locked ones on top of those locked by
    /// keys (Caps Lock, Num Lock), so keysyms, text and ``state``'s masks include them.
    /// Returns the masks after.
    public func setStickyModifiers(latched: KeyModifiers, locked: KeyModifiers) -> ModifierMasks? {
        let keymap = unchecked.keymap
        let latchedMask = keymap.mask(for: latched)
        let lockedMask = keymap.mask(for: locked)
        let current = unchecked.state.modifierMasks
        // Locks set by keys stay; those sticky keys set before are replaced.
        let keyLocked = current.locked & ~stickyLockedMask
        stickyLockedMask = lockedMask & ~keyLocked
        unchecked.lastChanges = unchecked.state.setLatchedAndLocked(latched: latchedMask, locked: keyLocked | stickyLockedMask)
        return unchecked.state.modifierMasks
    }

    /// The locked modifier bits sticky keys added (not those Caps Lock or Num Lock set).
    private var stickyLockedMask: UInt32 = 0

    /// A plain loop: `firstIndex(of:)` and `contains` allocate in unoptimized builds.
    private func indexOfPressedKey(_ keycode: UInt32) -> Int? {
        for index in unchecked.pressedKeys.indices where unchecked.pressedKeys[index] == keycode { return index }
        return nil
    }

    private func runCompose(_ compose: ComposeState, on event: inout KeyEvent) {
        guard compose.feed(event.keysym) else {
            // Ignored (a modifier): the sequence, if any, goes on.
            unchecked.composeStatus = compose.status == .composing ? .composing : .nothing
            return
        }
        unchecked.composeStatus = compose.status
        switch unchecked.composeStatus {
        case .nothing:
            break
        case .composing:
            event.text = ""
        case .composed:
            let composed = compose.keysym
            if composed != 0 { event.keysym = composed }
            event.text = compose.text
            compose.reset()
        case .cancelled:
            event.text = ""
            compose.reset()
        }
    }

    // MARK: Layouts and keymaps

    /// Locks layout `index` of the keymap (0-based; `us,ru` has 0 and 1), keeping held keys
    /// and modifiers. Returns what changed; clients need `wl_keyboard.modifiers` when it is
    /// not empty.
    @discardableResult
    public func switchLayout(to index: UInt32) -> KeyboardStateChanges {
        precondition(index < unchecked.keymap.layoutCount, "layout \(index) does not exist in a keymap of \(unchecked.keymap.layoutCount)")
        unchecked.lastChanges = unchecked.state.lockLayout(index)
        return unchecked.lastChanges
    }

    /// Replaces the keymap (another layout set, new options) while keys may be held: the
    /// held keys are pressed again in a fresh state, so their releases later clear what they
    /// set, and locked modifiers (Caps Lock, Num Lock) stay locked; the layout starts at the
    /// new keymap's first. A compose sequence in progress is abandoned. Calls
    /// ``keymapDidChange`` unless the new keymap's text is the old one's.
    public func setKeymap(_ newKeymap: Keymap) {
        guard newKeymap !== unchecked.keymap else { return }
        let locked = unchecked.state.modifierMasks.locked & 0xff   // the eight real modifiers keep their bits
        let fresh = KeyboardState(keymap: newKeymap)
        for key in unchecked.pressedKeys { fresh.update(evdevKeycode: key, direction: .down) }
        var masks = fresh.modifierMasks
        masks.locked = locked
        masks.group = 0
        fresh.update(masks: masks)
        let unchanged = newKeymap.text == unchecked.keymap.text
        unchecked.keymap = newKeymap
        unchecked.state = fresh
        compose?.reset()
        unchecked.composeStatus = .nothing
        unchecked.lastChanges = KeyboardStateChanges(rawValue: 0x1ff)
        if !unchanged { keymapDidChange?(self) }
    }

    /// The file clients receive with `wl_keyboard.keymap`. Written on first use, and again
    /// only when the keymap's text changed; the same object otherwise. Throws when no file
    /// can be written (see ``KeymapFile/init(text:storage:)``).
    public func keymapFile() throws -> KeymapFile {
        if let file = cachedKeymapFile {
            if keymapOfCachedFile === unchecked.keymap { return file }
            if file.contents == unchecked.keymap.text {
                keymapOfCachedFile = unchecked.keymap
                return file
            }
        }
        let file = try KeymapFile(text: unchecked.keymap.text)
        cachedKeymapFile = file
        keymapOfCachedFile = unchecked.keymap
        return file
    }

    // MARK: Repeat

    private func startRepeating(_ keycode: UInt32, device: DeviceID, at time: Timestamp) {
        guard keyRepeat.rate > 0, let routerReference = unchecked.routerReference else {
            unchecked.repeatingKey = nil
            return
        }
        unchecked.repeatingKey = keycode
        unchecked.repeatingDevice = device
        unchecked.repeatPressTime = time
        unchecked.repeatIndex = 0
        unchecked.repeatSettings = keyRepeat
        let deadline = unchecked.repeatSettings.deadline(ofRepeat: 0, pressedAt: time)
        routerReference.with { router in
            unchecked.repeatFocus = router.firstResponderID
            unchecked.repeatGrabGeneration = router.keyboardGrabGeneration
            armRepeatTimer(router, at: deadline)
        }
    }

    /// Makes sure a timer fires by `deadline`: one already armed for then or earlier stays
    /// (it re-arms itself when it fires early).
    @inline(__always)
    private func armRepeatTimer(_ router: Router, at deadline: Timestamp) {
        if let token = unchecked.repeatTimer {
            if unchecked.repeatTimerDeadline <= deadline { return }
            router.clock.cancel(token)
        }
        unchecked.repeatTimerDeadline = deadline
        unchecked.repeatTimer = router.clock.schedule(at: deadline, repeatTimerAction)
    }

    private func repeatTimerFired() {
        unchecked.repeatTimer = nil
        guard let keycode = unchecked.repeatingKey, let router else { return }
        guard router.firstResponderID == unchecked.repeatFocus, router.keyboardGrabGeneration == unchecked.repeatGrabGeneration else {
            unchecked.repeatingKey = nil
            return
        }
        let time = unchecked.repeatSettings.deadline(ofRepeat: unchecked.repeatIndex, pressedAt: unchecked.repeatPressTime)
        // Armed for a key released since, or for an earlier press: wait for this one's repeat.
        if router.clock.now < time {
            armRepeatTimer(router, at: time)
            return
        }
        unchecked.repeatIndex += 1
        // Armed before injecting: a responder may release nothing, but may change settings.
        armRepeatTimer(router, at: unchecked.repeatSettings.deadline(ofRepeat: unchecked.repeatIndex, pressedAt: unchecked.repeatPressTime))
        router.inject(InputEvent(time: time, device: unchecked.repeatingDevice, .key(keycode: keycode, state: .repeated)))
    }

    /// The key being repeated now, if any (evdev keycode).
    public var repeatingKeycode: UInt32? { unchecked.repeatingKey }
}
