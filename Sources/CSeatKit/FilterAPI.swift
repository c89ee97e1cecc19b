import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// Filters and spies made of C callbacks.

/// `seatkit_filter`.
final class CFilter: HandleObject, InputFilter {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    var impl: UnsafePointer<seatkit_filter_interface>?
    var data: UnsafeMutableRawPointer?
    var isDestroyed = false

    /// The library's copy of the caller's table (see `VTableCopy`).
    let table: VTableCopy<seatkit_filter_interface>

    init(owner: CRouter, table: VTableCopy<seatkit_filter_interface>, data: UnsafeMutableRawPointer?) {
        self.table = table
        let impl = UnsafePointer(table.pointer)
        ownerLink = Unretained(owner)
        self.impl = impl
        self.data = data
    }

    /// The kinds of the callbacks the table sets, read when the filter is added: every kind
    /// with `filter`, keys alone with `filter_key` alone (it is the interpreted keys' call),
    /// none with neither. The table has no member that declares kinds (a later version may
    /// add one after `filter_key`, by `struct_size`), so a C filter with `filter` is asked
    /// about every kind.
    var filteredKinds: InputEventKinds {
        guard let table = impl?.pointee else { return [] }
        if table.filter != nil { return .all }
        return table.filter_key != nil ? .key : []
    }

    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        guard let f = impl?.pointee.filter else { return .pass }
        let data = self.data
        return CValues.withInputEvent(event) { f(data, $0).rawValue == 0 ? .pass : .consume }
    }

    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard let f = impl?.pointee.filter_key else { return .pass }
        return ownerLink.with { owner in CValues.withKeyEvent(event, on: owner) { f(data, $0).rawValue == 0 ? .pass : .consume } }
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        owner.router.removeFilter(self)
        owner.filters.removeAll { $0 === self }
        impl = nil
        data = nil
        Handles.remove(handle)
    }
}

/// `seatkit_spy`.
final class CSpy: HandleObject, InputSpy {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    var observeFunction: seatkit_spy_func_t?
    var data: UnsafeMutableRawPointer?
    var isDestroyed = false
    /// What the router tells it (`InputSpy.observedKinds`, read once when it is added): every
    /// kind from `seatkit_router_add_spy`, the kinds of its mask from
    /// `seatkit_router_add_spy_for_kinds` (`CSpy.kinds(fromCMask:)`).
    let observedKinds: InputEventKinds

    init(owner: CRouter, observe: seatkit_spy_func_t?, kinds: InputEventKinds = .all, data: UnsafeMutableRawPointer?) {
        ownerLink = Unretained(owner)
        self.observeFunction = observe
        self.observedKinds = kinds
        self.data = data
    }

    /// The kinds of a C mask of `SEATKIT_INPUT_KIND(type)` bits: each kind whose
    /// `seatkit_input_event_type` (``InputEventKind/cTypeNumber``) has its bit set, the three
    /// touchpad gestures by their one type. `SEATKIT_INPUT_KINDS_ALL` is ``InputEventKinds/all``
    /// (kinds a later version adds included); bits of no type are ignored.
    static func kinds(fromCMask mask: UInt32) -> InputEventKinds {
        if mask == .max { return .all }
        var kinds: InputEventKinds = []
        for kind in InputEventKind.allCases where mask & (1 << kind.cTypeNumber) != 0 { kinds.insert(InputEventKinds(kind)) }
        return kinds
    }

    func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        guard let f = observeFunction else { return }
        // Read here, not in the closure: a closure that reads `self.data` captures this
        // object, a retain and a release around every spied event.
        let data = self.data
        CValues.withInputEvent(event) { f(data, $0, consumed) }
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        owner.router.removeSpy(self)
        owner.spies.removeAll { $0 === self }
        observeFunction = nil
        data = nil
        Handles.remove(handle)
    }
}

@_cdecl("seatkit_router_add_filter")
public func seatkit_router_add_filter(_ router: OpaquePointer?, _ impl: UnsafePointer<seatkit_filter_interface>?,
                                      _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard let impl else {
        misuse(#function, "NULL filter interface; refused")
        return nil
    }
    guard let table = VTableCopy.make(impl, "seatkit_filter_interface", #function) else { return nil }
    let filter = CFilter(owner: r, table: table, data: data)
    guard let handle = Handles.insert(filter, kind: .filter) else {
        misuse(#function, "too many live handles")
        return nil
    }
    r.filters.append(filter)
    r.router.addFilter(filter)
    return handle
}

@_cdecl("seatkit_filter_destroy")
public func seatkit_filter_destroy(_ handle: OpaquePointer?) {
    guard let f = live(handle, .filter, as: CFilter.self, #function) else { return }
    APICall.run { f.destroy() }
}

@_cdecl("seatkit_router_add_spy")
public func seatkit_router_add_spy(_ router: OpaquePointer?, _ observe: seatkit_spy_func_t?,
                                   _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    addSpy(router, observe, kinds: .all, data, #function)
}

@_cdecl("seatkit_router_add_spy_for_kinds")
public func seatkit_router_add_spy_for_kinds(_ router: OpaquePointer?, _ kinds: UInt32, _ observe: seatkit_spy_func_t?,
                                             _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    addSpy(router, observe, kinds: CSpy.kinds(fromCMask: kinds), data, #function)
}

private func addSpy(_ router: OpaquePointer?, _ observe: seatkit_spy_func_t?, kinds: InputEventKinds,
                    _ data: UnsafeMutableRawPointer?, _ function: StaticString) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, function) else { return nil }
    guard let observe else {
        misuse(function, "NULL observe function; refused")
        return nil
    }
    let spy = CSpy(owner: r, observe: observe, kinds: kinds, data: data)
    guard let handle = Handles.insert(spy, kind: .spy) else {
        misuse(function, "too many live handles")
        return nil
    }
    r.spies.append(spy)
    r.router.addSpy(spy)
    return handle
}

@_cdecl("seatkit_spy_destroy")
public func seatkit_spy_destroy(_ handle: OpaquePointer?) {
    guard let s = live(handle, .spy, as: CSpy.self, #function) else { return }
    APICall.run { s.destroy() }
}
