// Index loops for the per-event path. In a debug build, `for x in array`, `contains`,
// `firstIndex(of:)` and `removeAll(where:)` go through unspecialized Collection witnesses
// whose read coroutines allocate a frame per element; optimized builds specialize them
// away, but delivery promises no allocation per event in every build its tests run in
// (as the core's own ArrayScan does).
extension Array {
    /// Calls `body` with each element, in order.
    @inline(__always)
    func scanEach(_ body: (Element) -> Void) {
        var i = 0
        let n = count
        while i < n {
            body(self[i])
            i += 1
        }
    }

    /// Whether `predicate` holds for some element.
    @inline(__always)
    func scanContains(where predicate: (Element) -> Bool) -> Bool {
        var i = 0
        let n = count
        while i < n {
            if predicate(self[i]) { return true }
            i += 1
        }
        return false
    }
}

extension Array where Element: Equatable {
    @inline(__always)
    func scanIndex(of element: Element) -> Int? {
        var i = 0
        let n = count
        while i < n {
            if self[i] == element { return i }
            i += 1
        }
        return nil
    }

    @inline(__always)
    func scanContains(_ element: Element) -> Bool { scanIndex(of: element) != nil }

    /// Removes every element equal to `element`, keeping the storage.
    @inline(__always)
    mutating func scanRemoveAll(_ element: Element) {
        var i = 0
        while i < count {
            if self[i] == element { remove(at: i) } else { i += 1 }
        }
    }
}
