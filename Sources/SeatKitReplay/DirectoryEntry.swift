#if canImport(Glibc)
import Glibc
#endif

/// A `readdir` entry read in place. A `dirent` is variable-length: the kernel writes only the
/// name's bytes and its terminator, so `entry.pointee` (a copy of the whole 280-byte struct)
/// reads memory nobody wrote, which valgrind reports as uninitialised values (93 of them per
/// replay from C, all from temporary-directory cleanup). These read the two fields through
/// the pointer, and the name only up to its terminator.
enum DirectoryEntry {
    static func name(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    static func isDirectory(_ entry: UnsafeMutablePointer<dirent>) -> Bool {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_type)!
        return (UnsafeRawPointer(entry) + offset).load(as: UInt8.self) == UInt8(DT_DIR)
    }
}
