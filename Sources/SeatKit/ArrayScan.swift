// Index loops for the per-event path.
//
// In unoptimized builds, `for x in array`, `contains` and `firstIndex` go through the
// unspecialized Collection witnesses, whose read coroutines allocate a frame per element.
// Optimized builds specialize them away, but the router promises no allocation per event in
// every build its tests run in, so the hot path scans arrays with these instead.
extension Array {
    /// The index of the first element for which `predicate` holds.
    @inline(__always)
    func scanIndex(where predicate: (Element) -> Bool) -> Int? {
        var i = 0
        let n = count
        while i < n {
            if predicate(self[i]) { return i }
            i += 1
        }
        return nil
    }

    /// Calls `body` with each element, in order.
    @inline(__always)
    func scan(_ body: (Element) -> Void) {
        var i = 0
        let n = count
        while i < n {
            body(self[i])
            i += 1
        }
    }
}

extension Array {
    /// Empties the array and keeps its storage, for the small scratch lists of the per-event
    /// path: `removeAll(keepingCapacity: true)` goes through the generic `replaceSubrange`,
    /// about 85 instructions a call (three calls per touch frame); this is one `removeLast()`
    /// an element (a uniqueness check and a count).
    @inline(__always)
    mutating func removeAllKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}

extension Array {
    /// `remove(at:)` for the small lists of the per-event path: the later elements are moved
    /// down one place in the buffer (moved, not copied: no reference counting), then the
    /// last slot, now the removed element, is dropped. `remove(at:)` is a generic call of
    /// about 110 instructions on a list of three (issue 25, fourteenth round).
    @inline(__always)
    mutating func removeKeepingOrder(at index: Int) {
        if index != count - 1 {
            withUnsafeMutableBufferPointer { buffer in
                var k = index
                while k < buffer.count - 1 {
                    buffer.swapAt(k, k + 1)
                    k += 1
                }
            }
        }
        removeLast()
    }
}

extension Array where Element: Equatable {
    @inline(__always)
    func scanIndex(of element: Element) -> Int? { scanIndex { $0 == element } }

    @inline(__always)
    func scanContains(_ element: Element) -> Bool { scanIndex(of: element) != nil }
}

extension Optional {
    /// Stores `value`, releasing the value it replaces only when there is one: the per-event
    /// path's scratch buffers are moved out of their `Optional` place for a walk and put back
    /// after it (``Optional/take()``), so the place is almost always empty again by then. A
    /// plain assignment released the old value unconditionally, `nil` included: a call into
    /// the runtime of about 9 instructions per put-back (the held phases' release groups;
    /// issue 25, nineteenth round). Written as two identical assignments, one
    /// under the test for `nil`: the optimizer then tests the old value before releasing it.
    /// Either way the new value is stored, as a plain assignment would.
    @inline(__always)
    mutating func putBack(_ value: consuming Wrapped) {
        if case .none = self {
            self = .some(value)
        } else {
            self = .some(value)
        }
    }
}
