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
/// What a key produces depends only on the keymap and on the modifier and layout state, and
/// xkbcommon reports every change of those from each update. So ``keysymAndText(evdevKeycode:)``
/// remembers each key's keysym and text, and ``modifiers`` and ``modifierMasks`` their values,
/// until the next update that changes anything: typing letters under one set of modifiers
/// asks xkbcommon once per key, not once per press.
public final class KeyboardState {
    public let keymap: Keymap
    let handle: OpaquePointer
    private let textBuffer = UTF8Buffer()

    /// What a key produced, as of state `generation`.
    private struct Produced {
        var generation: UInt64
        var keysym: UInt32
        var text: String
    }
    /// Bumped by every update that changes modifiers, layout or LEDs; entries of older
    /// generations are stale. Starts at 1, so the zeroed entries are stale.
    @exclusivity(unchecked) private var generation: UInt64 = 1
    /// One entry per evdev keycode below `producedCount` (the keymap's keycodes, capped).
    private let produced: UnsafeMutablePointer<Produced>
    private let producedCount: Int
    /// Keycodes above this are looked up every time (evdev keycodes stay below 768).
    static let rememberedKeycodes = 1024

    /// A fresh state: nothing held, nothing locked, first layout.
    public init(keymap: Keymap) {
        guard let handle = XKB.newState(keymap.handle) else {
            preconditionFailure("xkbcommon could not allocate a keyboard state")
        }
        self.keymap = keymap
        self.handle = handle
        producedCount = Keymap.tableSize(keymap.handle)
        produced = .allocate(capacity: producedCount)
        produced.initialize(repeating: Produced(generation: 0, keysym: 0, text: ""), count: producedCount)
    }

    deinit {
        produced.deinitialize(count: producedCount)
        produced.deallocate()
        XKB.unref(state: handle)
    }

    @inline(__always)
    private func noteChanges(_ raw: UInt32) -> KeyboardStateChanges {
        if raw != 0 { generation &+= 1 }
        return KeyboardStateChanges(rawValue: raw)
    }

    /// Applies a press or release of the key (evdev keycode). Returns what changed:
    /// modifiers, layout, LEDs. Repeats must not be fed.
    @discardableResult
    public func update(evdevKeycode keycode: UInt32, direction: KeyDirection) -> KeyboardStateChanges {
        noteChanges(XKB.updateKey(handle, keycode &+ XKB.evdevOffset, down: direction == .down))
    }

    /// The key's keysym and text now: ``keysym(evdevKeycode:)`` and ``text(evdevKeycode:)``
    /// in one, remembered until the modifiers or layout change.
    @inline(__always)
    public func keysymAndText(evdevKeycode keycode: UInt32) -> (keysym: UInt32, text: String) {
        let index = Int(keycode)
        guard index < producedCount else { return (keysym(evdevKeycode: keycode), text(evdevKeycode: keycode)) }
        let entry = produced + index
        if entry.pointee.generation != generation {
            entry.pointee = Produced(generation: generation, keysym: keysym(evdevKeycode: keycode),
                                     text: text(evdevKeycode: keycode))
        }
        return (entry.pointee.keysym, entry.pointee.text)
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
    /// modifier masks and the effective layout.
    /// Read from xkbcommon once per state generation, like what keys produce.
    public var modifierMasks: ModifierMasks {
        @inline(__always) get {
            refreshModifiersIfStale()
            return rememberedMasks
        }
    }

    /// The modifiers in effect (depressed, latched or locked).
    public var modifiers: KeyModifiers {
        @inline(__always) get {
            refreshModifiersIfStale()
            return rememberedModifiers
        }
    }

    @exclusivity(unchecked) private var rememberedMasks = ModifierMasks()
    @exclusivity(unchecked) private var rememberedModifiers: KeyModifiers = []
    /// The generation `rememberedMasks` and `rememberedModifiers` were read at (0: never).
    @exclusivity(unchecked) private var modifiersGeneration: UInt64 = 0

    @inline(__always)
    private func refreshModifiersIfStale() {
        if modifiersGeneration != generation { readModifiers() }
    }

    @inline(never)
    private func readModifiers() {
        rememberedMasks = ModifierMasks(depressed: XKB.depressedModifiers(handle), latched: XKB.latchedModifiers(handle),
                                        locked: XKB.lockedModifiers(handle), group: XKB.effectiveLayout(handle))
        rememberedModifiers = keymap.modifiers(fromMask: XKB.effectiveModifiers(handle))
        modifiersGeneration = generation
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
