#if canImport(Glibc)
import Glibc
#endif

/// An `errno` value from a failed system call: why a keymap or compose file could not be
/// opened, or a keymap file for clients not written.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public var description: String { String(cString: strerror(rawValue)) + " (errno \(rawValue))" }
}
