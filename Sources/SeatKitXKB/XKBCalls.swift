import CXKBCommon
#if canImport(Glibc)
import Glibc
#endif

/// Every call into libxkbcommon, in one place: to trace them, count them or fake them, change
/// this file only. Handles cross it as `OpaquePointer`s (`struct xkb_context *` and friends);
/// keycodes here are XKB keycodes (evdev + 8); the callers convert.
///
/// Nothing here allocates on the Swift side once warm, except where a function says it
/// returns a `String` built from a long C string (keymap text, names, log messages).
enum XKB {
    /// XKB keycodes are evdev keycodes plus 8 (X11's historical offset).
    static let evdevOffset: UInt32 = 8
    /// `XKB_MOD_INVALID`, `XKB_LED_INVALID`, `XKB_LAYOUT_INVALID`.
    static let invalidIndex: UInt32 = 0xffff_ffff
    /// `XKB_KEY_NoSymbol`.
    static let noSymbol: UInt32 = 0

    // MARK: Context

    /// A new context with no include paths yet (see ``appendIncludePath(_:_:)`` and
    /// ``appendDefaultIncludePaths(_:)``) and no environment-supplied default names, so that compiling names does not depend on
    /// `XKB_DEFAULT_LAYOUT` and friends. Log messages of warning level and above go to
    /// `log`, which the context's user data points to (unretained; the caller keeps it alive
    /// as long as the context).
    static func newContext(log: XKBLog) -> OpaquePointer? {
        let flags = XKB_CONTEXT_NO_ENVIRONMENT_NAMES.rawValue | XKB_CONTEXT_NO_DEFAULT_INCLUDES.rawValue
        guard let context = xkb_context_new(xkb_context_flags(rawValue: flags)) else { return nil }
        xkb_context_set_user_data(context, Unmanaged.passUnretained(log).toOpaque())
        seatkit_xkb_context_set_log_sink(context, xkbLogSink)
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_WARNING)
        return context
    }

    static func unref(context: OpaquePointer) { xkb_context_unref(context) }

    /// False when the directory does not exist or cannot be read.
    static func appendIncludePath(_ context: OpaquePointer, _ path: String) -> Bool {
        xkb_context_include_path_append(context, path) == 1
    }

    /// Appends the system's paths (`$XKB_CONFIG_ROOT` or `/usr/share/X11/xkb`, the user's
    /// `~/.config/xkb`, `~/.xkb`). False when none of them exists.
    static func appendDefaultIncludePaths(_ context: OpaquePointer) -> Bool {
        xkb_context_include_path_append_default(context) == 1
    }

    // MARK: Keymap

    static func newKeymap(_ context: OpaquePointer, rules: String, model: String, layout: String,
                          variant: String, options: String) -> OpaquePointer? {
        rules.withCString { r in
            model.withCString { m in
                layout.withCString { l in
                    variant.withCString { v in
                        options.withCString { o in
                            var names = xkb_rule_names(rules: r, model: m, layout: l, variant: v, options: o)
                            return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                        }
                    }
                }
            }
        }
    }

    /// Text without a NUL; xkbcommon copies none of it.
    static func newKeymap(_ context: OpaquePointer, buffer: UnsafeRawBufferPointer) -> OpaquePointer? {
        guard let start = buffer.baseAddress, buffer.count > 0 else {
            return "".withCString { xkb_keymap_new_from_buffer(context, $0, 0, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) }
        }
        return xkb_keymap_new_from_buffer(context, start.assumingMemoryBound(to: CChar.self), buffer.count,
                                          XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
    }

    static func unref(keymap: OpaquePointer) { xkb_keymap_unref(keymap) }

    /// The keymap in text form v1, as clients receive it. Allocates.
    static func text(of keymap: OpaquePointer) -> String? {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    static func layoutCount(_ keymap: OpaquePointer) -> UInt32 { xkb_keymap_num_layouts(keymap) }

    static func layoutName(_ keymap: OpaquePointer, _ index: UInt32) -> String? {
        xkb_keymap_layout_get_name(keymap, index).map { String(cString: $0) }
    }

    /// The index of a modifier by name ("Shift", "Lock", "Control", "Mod1"...), or
    /// ``invalidIndex``.
    static func modifierIndex(_ keymap: OpaquePointer, _ name: String) -> UInt32 {
        xkb_keymap_mod_get_index(keymap, name)
    }

    static func ledIndex(_ keymap: OpaquePointer, _ name: String) -> UInt32 {
        xkb_keymap_led_get_index(keymap, name)
    }

    static func keyRepeats(_ keymap: OpaquePointer, _ key: UInt32) -> Bool {
        xkb_keymap_key_repeats(keymap, key) != 0
    }

    /// The first keysym at a layout and shift level of a key, or ``noSymbol``.
    static func keysym(_ keymap: OpaquePointer, _ key: UInt32, layout: UInt32, level: UInt32) -> UInt32 {
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(keymap, key, layout, level, &syms)
        guard count > 0, let syms else { return noSymbol }
        return syms[0]
    }

    static func keycodeRange(_ keymap: OpaquePointer) -> ClosedRange<UInt32> {
        xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap)
    }

    // MARK: State

    static func newState(_ keymap: OpaquePointer) -> OpaquePointer? { xkb_state_new(keymap) }
    static func unref(state: OpaquePointer) { xkb_state_unref(state) }

    /// Applies a press (`down`) or release; returns the changed `xkb_state_component` bits.
    static func updateKey(_ state: OpaquePointer, _ key: UInt32, down: Bool) -> UInt32 {
        xkb_state_update_key(state, key, down ? XKB_KEY_DOWN : XKB_KEY_UP).rawValue
    }

    static func updateMask(_ state: OpaquePointer, depressed: UInt32, latched: UInt32, locked: UInt32,
                           depressedLayout: UInt32, latchedLayout: UInt32, lockedLayout: UInt32) -> UInt32 {
        xkb_state_update_mask(state, depressed, latched, locked, depressedLayout, latchedLayout, lockedLayout).rawValue
    }

    /// The key's keysym with the current modifiers and layout, Caps Lock applied; ``noSymbol``
    /// when the key produces none or several.
    static func keysym(_ state: OpaquePointer, _ key: UInt32) -> UInt32 {
        xkb_state_key_get_one_sym(state, key)
    }

    /// All the key's keysyms at its current level, without Caps Lock's capitalization. The
    /// buffer belongs to the keymap: copy it before the keymap goes away.
    static func keysyms(_ state: OpaquePointer, _ key: UInt32) -> UnsafeBufferPointer<UInt32> {
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_state_key_get_syms(state, key, &syms)
        guard count > 0, let syms else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: syms, count: Int(count))
    }

    /// Writes the key's UTF-8 text (NUL-terminated, truncated to fit) into `buffer`; returns
    /// its length without the NUL, which may exceed `capacity - 1` when truncated.
    static func utf8(_ state: OpaquePointer, _ key: UInt32, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        Int(xkb_state_key_get_utf8(state, key, buffer, capacity))
    }

    static func depressedModifiers(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED)
    }
    static func latchedModifiers(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED)
    }
    static func lockedModifiers(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED)
    }
    static func effectiveModifiers(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_mods(state, XKB_STATE_MODS_EFFECTIVE)
    }
    static func depressedLayout(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_DEPRESSED)
    }
    static func latchedLayout(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_LATCHED)
    }
    static func lockedLayout(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_LOCKED)
    }
    static func effectiveLayout(_ state: OpaquePointer) -> UInt32 {
        xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE)
    }

    static func isLEDActive(_ state: OpaquePointer, _ index: UInt32) -> Bool {
        xkb_state_led_index_is_active(state, index) == 1
    }

    // MARK: Keysyms

    /// The keysym with this name ("a", "Return", "dead_acute"), case-sensitive; ``noSymbol``
    /// when unknown.
    static func keysym(named name: String) -> UInt32 {
        xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
    }

    /// The keysym's name, or `nil` for an invalid keysym. Allocates.
    static func name(ofKeysym keysym: UInt32) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let length = xkb_keysym_get_name(keysym, buffer.baseAddress, 64)
            guard length >= 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }

    // MARK: Compose

    static func newComposeTable(_ context: OpaquePointer, locale: String) -> OpaquePointer? {
        xkb_compose_table_new_from_locale(context, locale, XKB_COMPOSE_COMPILE_NO_FLAGS)
    }

    static func newComposeTable(_ context: OpaquePointer, string: String, locale: String) -> OpaquePointer? {
        var bytes = Array(string.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xkb_compose_table_new_from_buffer(context, chars.baseAddress, chars.count, locale,
                                                  XKB_COMPOSE_FORMAT_TEXT_V1, XKB_COMPOSE_COMPILE_NO_FLAGS)
            }
        }
    }

    static func newComposeTable(_ context: OpaquePointer, path: String, locale: String) -> Result<OpaquePointer?, Errno> {
        reading(path) {
            xkb_compose_table_new_from_file(context, $0, locale, XKB_COMPOSE_FORMAT_TEXT_V1, XKB_COMPOSE_COMPILE_NO_FLAGS)
        }
    }

    static func unref(composeTable: OpaquePointer) { xkb_compose_table_unref(composeTable) }

    static func newComposeState(_ table: OpaquePointer) -> OpaquePointer? {
        xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS)
    }

    static func unref(composeState: OpaquePointer) { xkb_compose_state_unref(composeState) }

    /// Feeds a keysym; true when the state accepted it (false: ignored, as modifiers are).
    static func composeFeed(_ state: OpaquePointer, _ keysym: UInt32) -> Bool {
        xkb_compose_state_feed(state, keysym) == XKB_COMPOSE_FEED_ACCEPTED
    }

    static func composeReset(_ state: OpaquePointer) { xkb_compose_state_reset(state) }

    /// 0 nothing, 1 composing, 2 composed, 3 cancelled (`enum xkb_compose_status`).
    static func composeStatus(_ state: OpaquePointer) -> UInt32 {
        xkb_compose_state_get_status(state).rawValue
    }

    static func composeUTF8(_ state: OpaquePointer, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        Int(xkb_compose_state_get_utf8(state, buffer, capacity))
    }

    static func composeKeysym(_ state: OpaquePointer) -> UInt32 {
        xkb_compose_state_get_one_sym(state)
    }

    // MARK: Files

    /// `body`'s result with `path` open for reading, closed after; the `errno` of `fopen`
    /// when it cannot be opened.
    private static func reading<T>(_ path: String, _ body: (UnsafeMutablePointer<FILE>) -> T) -> Result<T, Errno> {
        guard let file = fopen(path, "r") else { return .failure(Errno(errno)) }
        defer { fclose(file) }
        return .success(body(file))
    }
}

/// Collects the log messages of one xkb_context between ``XKBLog/drain()`` calls.
final class XKBLog {
    /// More than this between two drains is noise; the first ones say what went wrong.
    static let limit = 200
    private(set) var messages: [String] = []
    func append(_ message: String) {
        if messages.count < XKBLog.limit { messages.append(message) }
    }
    /// The messages so far; clears them.
    func drain() -> [String] {
        defer { messages.removeAll() }
        return messages
    }
}

private let xkbLogSink: seatkit_xkb_log_sink = { userData, _, message in
    guard let userData, let message else { return }
    Unmanaged<XKBLog>.fromOpaque(userData).takeUnretainedValue().append(String(cString: message))
}
