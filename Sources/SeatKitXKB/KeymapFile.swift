import CXKBCommon
#if canImport(Glibc)
import Glibc
#endif

/// A keymap's text in a read-only file, as `wl_keyboard.keymap` sends it: a file descriptor
/// and a size (the text plus its terminating NUL). Clients map it privately.
///
/// Written once: a sealed memfd where the kernel has them (no one can write, grow or shrink
/// it, so every client can be given the same descriptor), otherwise an unlinked temporary
/// file of which only a read-only descriptor is kept. The descriptor is closed when the
/// object goes away; libwayland duplicates it for each client it sends it to.
public final class KeymapFile {
    public enum Storage: Sendable, Hashable {
        /// `memfd_create` with write, grow, shrink and seal seals.
        case sealedMemfd
        /// A file created in `$XDG_RUNTIME_DIR` (else `/tmp`), unlinked, opened read-only.
        case unlinkedTemporaryFile
    }

    /// Read-only, close-on-exec.
    public let fileDescriptor: Int32
    /// Bytes: the text and its NUL, as `wl_keyboard.keymap`'s size argument wants.
    public let size: Int
    public let storage: Storage
    /// The text written, to tell whether a new keymap needs a new file.
    let contents: String

    /// Writes `text` to a new file. `storage` `.sealedMemfd` falls back to a temporary file
    /// when memfds cannot be sealed; `.unlinkedTemporaryFile` goes there directly. Throws the
    /// system's error when no file can be written (a full or missing runtime directory).
    public init(text: String, storage: Storage = .sealedMemfd) throws {
        var bytes = Array(text.utf8)
        bytes.append(0)
        contents = text
        size = bytes.count
        if storage == .sealedMemfd, let fd = KeymapFile.sealedMemfd(bytes) {
            fileDescriptor = fd
            self.storage = .sealedMemfd
        } else {
            fileDescriptor = try KeymapFile.unlinkedTemporaryFile(bytes)
            self.storage = .unlinkedTemporaryFile
        }
    }

    deinit { close(fileDescriptor) }

    /// True when the file cannot be written, grown or shrunk by anyone, seals included.
    public var isSealed: Bool { seatkit_is_sealed_read_only(fileDescriptor) == 1 }

    private static func sealedMemfd(_ bytes: [UInt8]) -> Int32? {
        let fd = seatkit_memfd_create_sealable("seatkit-keymap")
        guard fd >= 0 else { return nil }
        guard writeAll(fd, bytes), seatkit_seal_read_only(fd) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func unlinkedTemporaryFile(_ bytes: [UInt8]) throws -> Int32 {
        var directory = "/tmp"
        if let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 { directory = String(cString: runtime) }
        var template = Array("\(directory)/seatkit-keymap-XXXXXX".utf8CString)
        let writable = mkstemp(&template)
        guard writable >= 0 else { throw Errno(errno) }
        defer { close(writable) }
        let readOnly = open(template, O_RDONLY | O_CLOEXEC)
        let openError = errno
        unlink(template)
        guard readOnly >= 0 else { throw Errno(openError) }
        guard writeAll(writable, bytes) else {
            let writeError = errno
            close(readOnly)
            throw Errno(writeError)
        }
        return readOnly
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
