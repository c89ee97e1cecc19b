import Glibc

/// The keyboard description clients get: SeatKitXKB conforms to this; so can anything that
/// can put a keymap in a file.
public protocol KeymapProvider: AnyObject {
    /// The keymap as `wl_keyboard.keymap` sends it, or `nil` for "no keymap" (clients then
    /// interpret raw keycodes themselves).
    var keymapFile: KeymapFile? { get }
    /// Key repeat rate and delay for `wl_keyboard.repeat_info` (version 4 and later).
    var repeatInfo: RepeatInfo { get }
}

/// A keymap file for clients: a sealed, read-only file descriptor and its size.
/// The seat sends `fd` (libwayland duplicates it) and never closes it.
public struct KeymapFile: Sendable, Hashable {
    public var fd: Int32
    /// Size in bytes, including the text's terminating NUL.
    public var size: UInt32
    public var format: KeymapFormat

    public init(fd: Int32, size: UInt32, format: KeymapFormat = .xkbV1) {
        self.fd = fd
        self.size = size
        self.format = format
    }
}

/// `wl_keyboard.keymap_format`.
public enum KeymapFormat: UInt32, Sendable {
    /// The corresponding protocol value is WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.
    case noKeymap = 0
    /// The corresponding protocol value is WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.
    case xkbV1 = 1
}

/// Key repeat as clients should do it: `rate` keys per second (0: no repeat) after `delay`
/// milliseconds.
public struct RepeatInfo: Sendable, Hashable {
    public var rate: Int32
    public var delay: Int32
    public init(rate: Int32 = 25, delay: Int32 = 600) {
        self.rate = rate
        self.delay = delay
    }
}

/// A keymap text in a sealed memfd: what every client maps (MAP_PRIVATE, as wl_keyboard
/// version 7 requires), which nobody can change once sealed.
///
/// TEMPORARY, until SeatKitXKB is merged: SeatKitXKB compiles keymaps and provides its own
/// sealed file; the kiosk uses this to serve a keymap text it was given.
public final class SealedKeymap: KeymapProvider {
    public let keymapFile: KeymapFile?
    public var repeatInfo: RepeatInfo

    /// Writes `text` (an xkb_v1 keymap) and a NUL into a new memfd and seals it.
    public init(text: String, repeatInfo: RepeatInfo = RepeatInfo()) throws {
        var bytes = Array(text.utf8)
        bytes.append(0)
        let fd = Libwayland.createSealedFile(name: "seatkit-keymap", bytes)
        guard fd >= 0 else { throw WaylandError.keymapFile(errno) }
        self.keymapFile = KeymapFile(fd: fd, size: UInt32(bytes.count))
        self.repeatInfo = repeatInfo
    }

    deinit {
        if let fd = keymapFile?.fd { close(fd) }
    }
}
