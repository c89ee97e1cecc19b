import CSeatKitSupport

/// A library-owned copy of a caller's interface table (`seatkit_*_interface`), read only
/// within the caller's `struct_size` (its first member, a `size_t`): a program compiled against
/// an older header, whose table ends earlier, gets NULL for every member added since; one
/// compiled against a newer header has its extra members ignored. Handlers are then read
/// through `pointer`, which lives as long as this object (the object that holds the table).
final class VTableCopy<T> {
    let pointer: UnsafeMutablePointer<T>

    private init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }

    deinit { pointer.deallocate() }

    /// The copy of `impl`, or nil (logged) when its struct_size is too small to be a table:
    /// 0 is a caller who did not set it.
    static func make(_ impl: UnsafePointer<T>, _ typeName: StaticString, _ function: StaticString) -> VTableCopy<T>? {
        let size = UnsafeRawPointer(impl).load(as: Int.self)
        guard size >= MemoryLayout<Int>.size else {
            misuse(function, "\(typeName).struct_size is \(size): set it to sizeof(struct \(typeName)); refused")
            return nil
        }
        let copy = UnsafeMutablePointer<T>.allocate(capacity: 1)
        let raw = UnsafeMutableRawPointer(copy)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
        raw.copyMemory(from: impl, byteCount: min(size, MemoryLayout<T>.size))
        return VTableCopy(copy)
    }
}
