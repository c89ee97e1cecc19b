import SeatKitXKB

/// What the seat sends each wl_keyboard: the keymap file (`wl_keyboard.keymap`) and how
/// held keys repeat (`wl_keyboard.repeat_info`, version 4 and later).
///
/// SeatKitXKB's `Keyboard` is one: the key interpreter the router uses is also
/// what describes the keyboard to clients, so the modifiers clients get with each key
/// (from the interpreter) always match the keymap they were sent.
public protocol KeymapProvider: AnyObject {
    /// The keymap as a read-only, sealed file. The seat sends the same file again only to
    /// new keyboards; a different object is a new keymap. Throwing (no file could be
    /// written) sends clients `no_keymap`.
    func keymapFile() throws -> KeymapFile
    /// The rate and delay clients repeat held keys at.
    var keyRepeat: KeyRepeat { get }
}

extension Keyboard: KeymapProvider {}
