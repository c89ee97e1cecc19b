import SeatKit

/// Which parts of a keyboard state an update changed (`enum xkb_state_component`).
/// `wl_keyboard.modifiers` is due whenever ``needsModifiersEvent`` is true.
public struct KeyboardStateChanges: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let depressedModifiers = KeyboardStateChanges(rawValue: 1 << 0)
    public static let latchedModifiers = KeyboardStateChanges(rawValue: 1 << 1)
    public static let lockedModifiers = KeyboardStateChanges(rawValue: 1 << 2)
    public static let effectiveModifiers = KeyboardStateChanges(rawValue: 1 << 3)
    public static let depressedLayout = KeyboardStateChanges(rawValue: 1 << 4)
    public static let latchedLayout = KeyboardStateChanges(rawValue: 1 << 5)
    public static let lockedLayout = KeyboardStateChanges(rawValue: 1 << 6)
    public static let effectiveLayout = KeyboardStateChanges(rawValue: 1 << 7)
    public static let leds = KeyboardStateChanges(rawValue: 1 << 8)

    /// Modifiers or layout changed: clients need a new `wl_keyboard.modifiers`.
    public var needsModifiersEvent: Bool { rawValue & 0xff != 0 }
}

/// The keyboard LEDs xkbcommon lights.
public struct KeyboardLEDs: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let capsLock = KeyboardLEDs(rawValue: 1 << 0)
    public static let numLock = KeyboardLEDs(rawValue: 1 << 1)
    public static let scrollLock = KeyboardLEDs(rawValue: 1 << 2)

    public var description: String {
        [(KeyboardLEDs.capsLock, "Caps"), (.numLock, "Num"), (.scrollLock, "Scroll")]
            .filter { contains($0.0) }.map(\.1).joined(separator: "+")
    }
}

/// Which way a key moved.
public enum KeyDirection: Sendable, Hashable { case down, up }

/// The state of one keyboard under one keymap: held modifiers, latches, locks and the active
/// layout (`xkb_state`). Feed it every press and release, in order; ask it what a key
/// produces now.
///
/// Keycodes are evdev keycodes. Once warm, no call allocates (``text(evdevKeycode:)``
/// returns a small string for the few bytes a key types).
///
/// What a key produces depends only on the keymap, the key, and the effective modifiers and
/// layout: xkbcommon picks the level from the effective modifiers, the group from the
/// effective layout, and applies Caps Lock and Control from the effective modifiers too. So
/// ``keysymAndText(evdevKeycode:)`` remembers each key's keysym and text per effective state,
/// for the last few states seen (``rememberedStates``): typing asks xkbcommon once per key
/// and state, not once per press, and a capital typed with Shift does not make every other
/// key ask again. ``modifiers`` and ``modifierMasks`` are read once per state change.
public final class KeyboardState {
    public let keymap: Keymap
    let handle: OpaquePointer
    private let textBuffer = UTF8Buffer()

    /// What a key produced in one remembered state; valid while `epoch` is that state's.
    private struct Produced {
        var epoch: UInt32
        var keysym: UInt32
        var text: String
    }

    /// How many effective states (modifiers and layout) keep what their keys produce: plain,
    /// Shift, and a couple more (AltGr, Caps Lock, Ctrl) cover typing. A state is entered
    /// when a key or the modifiers are first asked after a change; the state entered longest
    /// ago makes room for a new one.
    public static let rememberedStates = 4
    /// Keycodes above this are looked up every time (evdev keycodes stay below 768).
    static let rememberedKeycodes = 1024

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    private struct HotState {
        /// Bumped by every update that changes modifiers, layout or LEDs: what was read from
        /// xkbcommon at an older generation (the masks, the current slot) is read again.
        var generation: UInt64 = 1
        /// The generation `rememberedMasks`, `rememberedModifiers` and the current slot were
        /// read at (0: never).
        var readGeneration: UInt64 = 0
        var rememberedMasks = ModifierMasks()
        var rememberedModifiers: KeyModifiers = []
        /// The slot of the current effective state, as of `readGeneration`: its first entry.
        var currentEntries: UnsafeMutablePointer<Produced>
        var currentEpoch: UInt32 = 1
    }

    @exclusivity(unchecked) private var unchecked: HotState


    /// `rememberedStates` slots of `producedCount` entries each, one entry per evdev keycode
    /// below `producedCount` (the keymap's keycodes, capped), allocated once: 24 bytes per
    /// keycode and state, about 67 KB for xkeyboard-config's evdev keycodes (up to 700).
    private let produced: UnsafeMutablePointer<Produced>
    private let producedCount: Int
    /// Per slot: the effective state it holds (modifier mask in the high half, layout in the
    /// low half), the epoch its entries must carry to be valid (a slot given to another state
    /// takes a new epoch, which makes all its entries stale at once), and when it was last
    /// entered. Epochs start at 1, so the zeroed entries are stale.
    private let slotStates: UnsafeMutablePointer<UInt64>
    private let slotEpochs: UnsafeMutablePointer<UInt32>
    private let slotLastEntered: UnsafeMutablePointer<UInt64>

    /// Times xkbcommon was asked what a key produces (a remembered answer does not count):
    /// for the package's tests that check what is remembered.
    package private(set) var keyLookups = 0

    /// A fresh state: nothing held, nothing locked, first layout.
    public init(keymap: Keymap) {
        guard let handle = XKB.newState(keymap.handle) else {
            preconditionFailure("xkbcommon could not allocate a keyboard state")
        }
        self.keymap = keymap
        self.handle = handle
        producedCount = Keymap.tableSize(keymap.handle)
        let slots = Self.rememberedStates
        produced = .allocate(capacity: producedCount * slots)
        produced.initialize(repeating: Produced(epoch: 0, keysym: 0, text: ""), count: producedCount * slots)
        slotStates = .allocate(capacity: slots)
        slotStates.initialize(repeating: .max, count: slots)   // no real state: layouts stay small
        slotEpochs = .allocate(capacity: slots)
        slotEpochs.initialize(repeating: 1, count: slots)
        slotLastEntered = .allocate(capacity: slots)
        slotLastEntered.initialize(repeating: 0, count: slots)
        unchecked = HotState(currentEntries: produced)
    }

    deinit {
        produced.deinitialize(count: producedCount * Self.rememberedStates)
        produced.deallocate()
        slotStates.deallocate()
        slotEpochs.deallocate()
        slotLastEntered.deallocate()
        XKB.unref(state: handle)
    }

    @inline(__always)
    private func noteChanges(_ raw: UInt32) -> KeyboardStateChanges {
        if raw != 0 { unchecked.generation &+= 1 }
        return KeyboardStateChanges(rawValue: raw)
    }

    /// Applies a press or release of the key (evdev keycode). Returns what changed:
    /// modifiers, layout, LEDs. Repeats must not be fed.
    @discardableResult
    public func update(evdevKeycode keycode: UInt32, direction: KeyDirection) -> KeyboardStateChanges {
        noteChanges(XKB.updateKey(handle, keycode &+ XKB.evdevOffset, down: direction == .down))
    }

    /// The key's keysym and text now: ``keysym(evdevKeycode:)`` and ``text(evdevKeycode:)``
    /// in one, remembered for the current effective modifiers and layout.
    @inline(__always)
    public func keysymAndText(evdevKeycode keycode: UInt32) -> (keysym: UInt32, text: String) {
        let index = Int(keycode)
        guard index < producedCount else { return (keysym(evdevKeycode: keycode), text(evdevKeycode: keycode)) }
        refreshIfStale()
        let entry = unchecked.currentEntries + index
        if entry.pointee.epoch != unchecked.currentEpoch { lookUp(keycode, into: entry) }
        return (entry.pointee.keysym, entry.pointee.text)
    }

    /// The key's keysym now, as ``keysymAndText(evdevKeycode:)`` remembers it, without its
    /// text: what a release needs (its text is ""), so the text is not retained to be let go.
    @inline(__always)
    public func rememberedKeysym(evdevKeycode keycode: UInt32) -> UInt32 {
        let index = Int(keycode)
        guard index < producedCount else { return keysym(evdevKeycode: keycode) }
        refreshIfStale()
        let entry = unchecked.currentEntries + index
        if entry.pointee.epoch != unchecked.currentEpoch { lookUp(keycode, into: entry) }
        return entry.pointee.keysym
    }

    @inline(never)
    private func lookUp(_ keycode: UInt32, into entry: UnsafeMutablePointer<Produced>) {
        keyLookups += 1
        entry.pointee = Produced(epoch: unchecked.currentEpoch, keysym: keysym(evdevKeycode: keycode), text: text(evdevKeycode: keycode))
    }

    /// Replaces the modifier and layout state with serialized masks (from
    /// `wl_keyboard.modifiers`, or to carry state over): `group` becomes the locked layout.
    /// Held keys stay held: their release still clears what they set.
    @discardableResult
    public func update(masks: ModifierMasks) -> KeyboardStateChanges {
        noteChanges(XKB.updateMask(handle, depressed: masks.depressed, latched: masks.latched,
                                   locked: masks.locked, depressedLayout: 0, latchedLayout: 0,
                                   lockedLayout: masks.group))
    }

    /// Replaces the latched modifiers with `latched` and the locked ones with `locked`,
    /// keeping held modifiers and every layout component: sticky keys (keymap masks).
    @discardableResult
    public func setLatchedAndLocked(latched: UInt32, locked: UInt32) -> KeyboardStateChanges {
        noteChanges(XKB.updateMask(
            handle, depressed: XKB.depressedModifiers(handle), latched: latched, locked: locked,
            depressedLayout: XKB.depressedLayout(handle), latchedLayout: XKB.latchedLayout(handle),
            lockedLayout: XKB.lockedLayout(handle)))
    }

    /// Locks layout `index` (0-based; wraps around the keymap's layouts as xkbcommon does),
    /// keeping every modifier: what a layout switcher does.
    @discardableResult
    public func lockLayout(_ index: UInt32) -> KeyboardStateChanges {
        noteChanges(XKB.updateMask(
            handle, depressed: XKB.depressedModifiers(handle), latched: XKB.latchedModifiers(handle),
            locked: XKB.lockedModifiers(handle), depressedLayout: XKB.depressedLayout(handle),
            latchedLayout: XKB.latchedLayout(handle), lockedLayout: index))
    }

    /// The key's keysym now (modifiers, layout and Caps Lock applied), or 0 (NoSymbol).
    @inline(__always)
    public func keysym(evdevKeycode keycode: UInt32) -> UInt32 {
        XKB.keysym(handle, keycode &+ XKB.evdevOffset)
    }

    /// Every keysym the key produces now, usually one (a few layouts put several on a key;
    /// ``keysym(evdevKeycode:)`` then gives 0). Unlike that call, it does not capitalize
    /// for Caps Lock on keys whose type ignores Lock; letters' types map Lock to their
    /// second level anyway. Allocates the array.
    public func keysyms(evdevKeycode keycode: UInt32) -> [UInt32] {
        Array(XKB.keysyms(handle, keycode &+ XKB.evdevOffset))
    }

    /// The UTF-8 text the key types now: "" for modifiers and function keys; control
    /// characters for Ctrl+letter, Return ("\r"), Escape and BackSpace, as xkbcommon gives.
    public func text(evdevKeycode keycode: UInt32) -> String {
        textBuffer.read { XKB.utf8(handle, keycode &+ XKB.evdevOffset, into: $0, capacity: $1) }
    }

    /// The serialized state `wl_keyboard.modifiers` carries: depressed, latched and locked
    /// modifier masks and the effective layout. Read from xkbcommon once per state change.
    public var modifierMasks: ModifierMasks {
        @inline(__always) get {
            refreshIfStale()
            return unchecked.rememberedMasks
        }
    }

    /// The modifiers in effect (depressed, latched or locked).
    public var modifiers: KeyModifiers {
        @inline(__always) get {
            refreshIfStale()
            return unchecked.rememberedModifiers
        }
    }

    @inline(__always)
    private func refreshIfStale() {
        if unchecked.readGeneration != unchecked.generation { readState() }
    }

    /// Reads the masks and modifiers after a change, and enters the slot of the new effective
    /// state: the one that already holds it, or else the least recently entered, emptied.
    @inline(never)
    private func readState() {
        let effective = XKB.effectiveModifiers(handle)
        let layout = XKB.effectiveLayout(handle)
        unchecked.rememberedMasks = ModifierMasks(depressed: XKB.depressedModifiers(handle), latched: XKB.latchedModifiers(handle),
                                        locked: XKB.lockedModifiers(handle), group: layout)
        unchecked.rememberedModifiers = keymap.modifiers(fromMask: effective)
        unchecked.readGeneration = unchecked.generation

        let key = UInt64(effective) << 32 | UInt64(layout)
        var slot = 0
        var oldest = 0
        while slot < Self.rememberedStates, slotStates[slot] != key {
            if slotLastEntered[slot] < slotLastEntered[oldest] { oldest = slot }
            slot += 1
        }
        if slot == Self.rememberedStates {
            slot = oldest
            slotStates[slot] = key
            slotEpochs[slot] &+= 1
            if slotEpochs[slot] == 0 {
                // After 2³² evictions the epochs come round again: forget the slot's entries
                // outright, since 0 means never filled.
                let entries = produced + slot * producedCount
                for index in 0..<producedCount { entries[index].epoch = 0 }
                slotEpochs[slot] = 1
            }
        }
        slotLastEntered[slot] = unchecked.generation
        unchecked.currentEntries = produced + slot * producedCount
        unchecked.currentEpoch = slotEpochs[slot]
    }

    /// The effective layout (0-based group index).
    public var layout: UInt32 { XKB.effectiveLayout(handle) }

    /// The LEDs lit now.
    public var leds: KeyboardLEDs {
        var result: KeyboardLEDs = []
        if keymap.capsLockLED != XKB.invalidIndex, XKB.isLEDActive(handle, keymap.capsLockLED) { result.insert(.capsLock) }
        if keymap.numLockLED != XKB.invalidIndex, XKB.isLEDActive(handle, keymap.numLockLED) { result.insert(.numLock) }
        if keymap.scrollLockLED != XKB.invalidIndex, XKB.isLEDActive(handle, keymap.scrollLockLED) { result.insert(.scrollLock) }
        return result
    }
}
