import SeatKit
#if canImport(Glibc)
import Glibc
#endif

/// The RMLVO names a keymap is compiled from, as in `setxkbmap -rules evdev -model pc105
/// -layout us,ru -option grp:alt_shift_toggle`. Lists are comma-separated, one entry per
/// layout.
public struct KeymapNames: Hashable, Sendable, CustomStringConvertible {
    public var rules: String
    public var model: String
    public var layout: String
    public var variant: String
    public var options: String

    public init(rules: String = "evdev", model: String = "pc105", layout: String = "us",
                variant: String = "", options: String = "") {
        self.rules = rules
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
    }

    public var description: String {
        "rules \(rules), model \(model), layout \(layout)"
            + (variant.isEmpty ? "" : ", variant \(variant)")
            + (options.isEmpty ? "" : ", options \(options)")
    }
}

/// Why a keymap, context or compose table could not be made.
public enum KeymapError: Error, Hashable, CustomStringConvertible {
    /// xkbcommon could not create a context (out of memory).
    case contextUnavailable
    /// An include directory that does not exist or cannot be read.
    case includePathRejected(String)
    /// A keymap file that could not be opened.
    case cannotOpen(path: String, Errno)
    /// The keymap did not compile. `source` says what was compiled (names, "keymap string"
    /// or a path); `messages` are xkbcommon's warnings and errors, in order.
    case compilationFailed(source: String, messages: [String])
    /// No compose table for the locale, or the table did not parse.
    case composeTableUnavailable(locale: String, messages: [String])
    /// The keymap's text exceeds a ``KeymapLimits`` bound and was not given to xkbcommon.
    /// `line` is 1-based; `reason` names the bound.
    case rejected(source: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .contextUnavailable: return "xkbcommon could not create a context"
        case .includePathRejected(let path): return "cannot use include path \(path)"
        case .cannotOpen(let path, let errno): return "cannot open \(path): \(errno)"
        case .compilationFailed(let source, let messages):
            return "keymap (\(source)) does not compile:\n" + messages.joined(separator: "\n")
        case .composeTableUnavailable(let locale, let messages):
            return "no compose table for locale \(locale)" + (messages.isEmpty ? "" : ":\n" + messages.joined(separator: "\n"))
        case .rejected(let source, let line, let reason):
            return "keymap (\(source)) rejected at line \(line): \(reason)"
        }
    }
}

/// A compiled keymap: which keysyms each key produces at each layout and shift level, and
/// how modifiers and LEDs work. Immutable; share it between ``KeyboardState``s.
///
/// Keycodes are evdev keycodes (KEY_A is 30), as in SeatKit's `KeyEvent`; the +8 of XKB keycodes
/// stays inside this module.
public final class Keymap {
    let handle: OpaquePointer
    /// Kept alive for the keymap's life: xkbcommon logs through it.
    public let context: KeymapContext
    /// xkbcommon's warnings while compiling (an unknown keysym in a layout, say).
    public let warnings: [String]

    // Modifier masks, looked up once: the per-key path must not look up names.
    let shiftMask: UInt32, lockMask: UInt32, controlMask: UInt32, altMask: UInt32
    let numLockMask: UInt32, logoMask: UInt32, altGrMask: UInt32
    let capsLockLED: UInt32, numLockLED: UInt32, scrollLockLED: UInt32

    /// Compiles a keymap from rules, model, layout, variant and options, with the XKB data
    /// of `context` (the system's by default). Throws ``KeymapError/compilationFailed(source:messages:)``
    /// with xkbcommon's messages for an unknown layout, variant or option.
    public convenience init(names: KeymapNames, context: KeymapContext? = nil) throws {
        let context = try context ?? KeymapContext()
        let handle = XKB.newKeymap(context.handle, rules: names.rules, model: names.model, layout: names.layout,
                                   variant: names.variant, options: names.options)
        try self.init(handle: handle, context: context, source: names.description)
    }

    /// Compiles a keymap in text form (as `xkbcomp` writes and clients receive it), after
    /// checking it against `limits` (see ``KeymapLimits``: text from a client or from
    /// configuration must not crash or exhaust the compositor). Throws
    /// ``KeymapError/rejected(source:line:reason:)`` for text beyond the limits, and
    /// ``KeymapError/compilationFailed(source:messages:)`` with xkbcommon's messages, which
    /// name the line and the problem, when it does not parse or compile.
    public convenience init(string: String, limits: KeymapLimits = .default, context: KeymapContext? = nil) throws {
        var string = string
        let (handle, context) = try string.withUTF8 {
            try Keymap.compile(UnsafeRawBufferPointer($0), limits: limits, context: context, source: "keymap string")
        }
        try self.init(handle: handle, context: context, source: "keymap string")
    }

    /// Compiles a keymap from its text's bytes, which may end with NULs (the file of
    /// `wl_keyboard.keymap` or `zwp_virtual_keyboard_v1.keymap` ends with one, some padded
    /// with more), after checking them
    /// against `limits`. Throws as ``init(string:limits:context:)``.
    public convenience init(bytes: UnsafeRawBufferPointer, limits: KeymapLimits = .default,
                            context: KeymapContext? = nil, source: String = "keymap string") throws {
        let (handle, context) = try Keymap.compile(bytes, limits: limits, context: context, source: source)
        try self.init(handle: handle, context: context, source: source)
    }

    /// Validates, then compiles: the keymap (nil when it does not compile) and its context.
    private static func compile(_ bytes: UnsafeRawBufferPointer, limits: KeymapLimits, context: KeymapContext?,
                                source: String) throws -> (OpaquePointer?, KeymapContext) {
        try KeymapValidator.validate(bytes, limits: limits, source: source)
        let context = try context ?? KeymapContext()
        var length = bytes.count
        while length > 0, bytes[length - 1] == 0 { length -= 1 }
        return (XKB.newKeymap(context.handle, buffer: UnsafeRawBufferPointer(rebasing: bytes[..<length])), context)
    }

    /// Compiles a keymap file in text form after checking it against `limits`. Throws
    /// ``KeymapError/cannotOpen(path:_:)`` when it cannot be read,
    /// ``KeymapError/rejected(source:line:reason:)`` when it is larger than the limit or
    /// exceeds another, ``KeymapError/compilationFailed(source:messages:)`` when it does not
    /// compile. The file is read with at most `limits.maximumBytes` + 1 bytes in memory.
    public convenience init(contentsOfFile path: String, limits: KeymapLimits = .default, context: KeymapContext? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw KeymapError.cannotOpen(path: path, Errno(errno)) }
        defer { close(fd) }
        let bytes: [UInt8]
        switch Keymap.read(fd, offset: nil, atMost: limits.maximumBytes == .max ? .max : limits.maximumBytes + 1) {
        case .failure(let error): throw KeymapError.cannotOpen(path: path, error)
        case .success(let read): bytes = read
        }
        if bytes.count > limits.maximumBytes {
            throw KeymapError.rejected(source: path, line: 1,
                                       reason: "the file is larger than the limit of \(limits.maximumBytes) bytes")
        }
        let (handle, compiledContext) = try bytes.withUnsafeBytes {
            try Keymap.compile($0, limits: limits, context: context, source: path)
        }
        try self.init(handle: handle, context: compiledContext, source: path)
    }

    /// Compiles the keymap a client sent as a file descriptor and a size, as
    /// `zwp_virtual_keyboard_v1.keymap` does, after checking it against `limits`. A size
    /// beyond the limit is refused before anything is read; the file is read with `pread`,
    /// not mapped, so a client that shrinks it meanwhile gets an error, not the compositor a
    /// SIGBUS. The descriptor is not closed. Throws ``KeymapError/rejected(source:line:reason:)``
    /// for a size beyond the limit, a file shorter than `size` or text beyond the limits,
    /// ``KeymapError/cannotOpen(path:_:)`` when it cannot be read, and
    /// ``KeymapError/compilationFailed(source:messages:)`` as ``init(string:limits:context:)``.
    public convenience init(fileDescriptor fd: Int32, size: Int, limits: KeymapLimits = .default,
                            context: KeymapContext? = nil, source: String = "keymap file") throws {
        guard size >= 0, size - 1 <= limits.maximumBytes else {
            throw KeymapError.rejected(source: source, line: 1,
                                       reason: "a size of \(size) bytes, more than the limit of \(limits.maximumBytes)")
        }
        let bytes: [UInt8]
        switch Keymap.read(fd, offset: 0, atMost: size) {
        case .failure(let error): throw KeymapError.cannotOpen(path: source, error)
        case .success(let read): bytes = read
        }
        guard bytes.count == size else {
            throw KeymapError.rejected(source: source, line: 1, reason: "the file holds \(bytes.count) of the \(size) bytes announced")
        }
        let (handle, compiledContext) = try bytes.withUnsafeBytes {
            try Keymap.compile($0, limits: limits, context: context, source: source)
        }
        try self.init(handle: handle, context: compiledContext, source: source)
    }

    /// Up to `limit` bytes from `fd`: from `offset` with `pread` when given, else from the
    /// current position.
    private static func read(_ fd: Int32, offset: Int?, atMost limit: Int) -> Result<[UInt8], Errno> {
        // Grown as it fills, so that a generous limit costs nothing for a small file.
        var bytes = [UInt8](repeating: 0, count: min(limit, 1 << 16))
        var filled = 0
        while filled < limit {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(limit - filled, bytes.count))) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                offset.map { pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t($0 + filled)) }
                    ?? Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Errno(errno))
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return .success(bytes)
    }

    private init(handle: OpaquePointer?, context: KeymapContext, source: String) throws {
        let messages = context.log.drain()
        guard let handle else {
            throw KeymapError.compilationFailed(source: source, messages: messages)
        }
        self.handle = handle
        self.context = context
        self.warnings = messages
        func mask(_ name: String) -> UInt32 {
            let index = XKB.modifierIndex(handle, name)
            return index < 32 ? 1 << index : 0
        }
        shiftMask = mask("Shift")
        lockMask = mask("Lock")
        controlMask = mask("Control")
        altMask = mask("Mod1")
        numLockMask = mask("Mod2")
        logoMask = mask("Mod4")
        // ISO_Level3_Shift (AltGr) is bound to Mod5 by xkeyboard-config's evdev rules.
        altGrMask = mask("Mod5")
        capsLockLED = XKB.ledIndex(handle, "Caps Lock")
        numLockLED = XKB.ledIndex(handle, "Num Lock")
        scrollLockLED = XKB.ledIndex(handle, "Scroll Lock")
        keyFacts = Self.keyFacts(handle)
    }

    /// The facts of every evdev keycode up to the keymap's highest (capped at
    /// ``KeyboardState/rememberedKeycodes``).
    private static func keyFacts(_ handle: OpaquePointer) -> [KeyFacts] {
        let count = Keymap.tableSize(handle)
        var keys = [KeyFacts](repeating: KeyFacts(baseKeysym: 0, repeats: false), count: count)
        for keycode in 0..<UInt32(count) {
            keys[Int(keycode)] = KeyFacts(baseKeysym: XKB.keysym(handle, keycode &+ XKB.evdevOffset, layout: 0, level: 0),
                                          repeats: XKB.keyRepeats(handle, keycode &+ XKB.evdevOffset))
        }
        return keys
    }

    /// How many evdev keycodes per-key tables hold: up to the keymap's highest keycode,
    /// at most ``KeyboardState/rememberedKeycodes``.
    static func tableSize(_ handle: OpaquePointer) -> Int {
        let highest = XKB.keycodeRange(handle).upperBound
        let evdev = highest > XKB.evdevOffset ? highest - XKB.evdevOffset : 0
        return Int(min(evdev, UInt32(KeyboardState.rememberedKeycodes - 1))) + 1
    }

    /// What the keymap says of each key that does not depend on the state, looked up once:
    /// a key event needs both.
    private struct KeyFacts {
        var baseKeysym: UInt32
        var repeats: Bool
    }
    /// Indexed by evdev keycode.
    private let keyFacts: [KeyFacts]

    deinit { XKB.unref(keymap: handle) }

    /// The keymap in xkbcommon's text format v1: what clients receive through
    /// `wl_keyboard.keymap`. Computed once.
    public private(set) lazy var text: String = {
        guard let text = XKB.text(of: handle) else { preconditionFailure("xkbcommon cannot serialize a keymap it compiled") }
        return text
    }()

    /// The number of layouts (groups): 2 for `us,ru`.
    public var layoutCount: UInt32 { XKB.layoutCount(handle) }

    /// The layouts' descriptive names ("English (US)", "Russian"), in group order.
    public var layoutNames: [String] {
        (0..<layoutCount).map { XKB.layoutName(handle, $0) ?? "" }
    }

    /// Whether holding the key (evdev keycode) repeats it. Modifiers do not.
    public func repeats(evdevKeycode keycode: UInt32) -> Bool {
        if Int(keycode) < keyFacts.count { return keyFacts[Int(keycode)].repeats }
        return XKB.keyRepeats(handle, keycode &+ XKB.evdevOffset)
    }

    /// The keysym of the key (evdev keycode) in the first layout with no modifiers: what
    /// layout-independent key commands compare. Same as `keysym(evdevKeycode:)` with the
    /// default layout and level, from a table.
    @inline(__always)
    public func baseKeysym(evdevKeycode keycode: UInt32) -> UInt32 {
        if Int(keycode) < keyFacts.count { return keyFacts[Int(keycode)].baseKeysym }
        return keysym(evdevKeycode: keycode)
    }

    /// The first keysym of the key (evdev keycode) at `layout` (0-based group) and shift
    /// `level` (0 is unshifted, 1 Shift, 2 AltGr, 3 Shift+AltGr in most layouts), or 0
    /// (NoSymbol) when there is none.
    public func keysym(evdevKeycode keycode: UInt32, layout: UInt32 = 0, level: UInt32 = 0) -> UInt32 {
        XKB.keysym(handle, keycode &+ XKB.evdevOffset, layout: layout, level: level)
    }

    /// The evdev keycodes the keymap's keycode range covers: empty when every keycode it
    /// defines lies below 8 (XKB keycodes 0 to 7 have no evdev keycode).
    public var evdevKeycodes: Range<UInt32> {
        let range = XKB.keycodeRange(handle)
        guard range.upperBound >= XKB.evdevOffset else { return 0..<0 }
        return (max(range.lowerBound, XKB.evdevOffset) - XKB.evdevOffset)..<(range.upperBound - XKB.evdevOffset + 1)
    }

    /// The keymap's modifier mask for SeatKit's modifiers (the inverse of
    /// ``modifiers(fromMask:)``).
    public func mask(for modifiers: KeyModifiers) -> UInt32 {
        var mask: UInt32 = 0
        if modifiers.contains(.shift) { mask |= shiftMask }
        if modifiers.contains(.capsLock) { mask |= lockMask }
        if modifiers.contains(.control) { mask |= controlMask }
        if modifiers.contains(.alt) { mask |= altMask }
        if modifiers.contains(.numLock) { mask |= numLockMask }
        if modifiers.contains(.logo) { mask |= logoMask }
        if modifiers.contains(.altGr) { mask |= altGrMask }
        return mask
    }

    /// SeatKit's modifiers from a serialized xkb modifier mask. Allocation-free (bit
    /// arithmetic: `OptionSet.insert` allocates in unoptimized builds).
    @inline(__always)
    public func modifiers(fromMask mask: UInt32) -> KeyModifiers {
        var raw: UInt32 = 0
        if mask & shiftMask != 0 { raw |= KeyModifiers.shift.rawValue }
        if mask & lockMask != 0 { raw |= KeyModifiers.capsLock.rawValue }
        if mask & controlMask != 0 { raw |= KeyModifiers.control.rawValue }
        if mask & altMask != 0 { raw |= KeyModifiers.alt.rawValue }
        if mask & numLockMask != 0 { raw |= KeyModifiers.numLock.rawValue }
        if mask & logoMask != 0 { raw |= KeyModifiers.logo.rawValue }
        if mask & altGrMask != 0 { raw |= KeyModifiers.altGr.rawValue }
        return KeyModifiers(rawValue: raw)
    }
}

/// Keysym names and values, as `<xkbcommon/xkbcommon-keysyms.h>` and Compose files spell
/// them.
public enum Keysym {
    /// The keysym named `name` ("a", "Z", "Return", "dead_acute", "Cyrillic_shorti");
    /// traps on an unknown name, which is a programmer error.
    public static func named(_ name: String) -> UInt32 {
        let value = XKB.keysym(named: name)
        precondition(value != XKB.noSymbol, "unknown keysym name \(name)")
        return value
    }

    /// The keysym named `name`, or `nil` for a name xkbcommon does not know: for names
    /// that come from configuration.
    public static func lookup(_ name: String) -> UInt32? {
        let value = XKB.keysym(named: name)
        return value == XKB.noSymbol ? nil : value
    }

    /// The keysym's name ("a", "dead_acute"), or a hex form for keysyms without one.
    public static func name(of keysym: UInt32) -> String {
        XKB.name(ofKeysym: keysym) ?? "0x" + String(keysym, radix: 16)
    }
}
