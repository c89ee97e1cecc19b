import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit
import SeatKitLibinput

// seatkit_libinput_*: SeatKit reads the devices itself through libinput.

/// Opens device nodes through the compositor's C callbacks (logind, libseat), or directly.
final class COpener: DeviceOpener {
    let impl: UnsafePointer<seatkit_device_opener_interface>?
    let data: UnsafeMutableRawPointer?
    let direct = DirectDeviceOpener()

    /// The library's copy of the caller's table (see `VTableCopy`).
    let table: VTableCopy<seatkit_device_opener_interface>?

    init(table: VTableCopy<seatkit_device_opener_interface>?, data: UnsafeMutableRawPointer?) {
        self.table = table
        self.impl = table.map { UnsafePointer($0.pointer) }
        self.data = data
    }

    func openDevice(path: String, flags: Int32) -> Int32 {
        guard let open = impl?.pointee.open else { return direct.openDevice(path: path, flags: flags) }
        return path.withCString { open(data, $0, flags) }
    }

    func closeDevice(_ fd: Int32) {
        guard let close = impl?.pointee.close else { return direct.closeDevice(fd) }
        close(data, fd)
    }
}

/// `seatkit_libinput`: a libinput context whose events go into one router.
final class CLibinput: HandleObject {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    let backend: LibinputBackend
    /// The libinput fd on the compositor's loop (seatkit_libinput_add_to_event_loop).
    var source: EventLoopSource?
    var isDestroyed = false

    init(owner: CRouter, backend: LibinputBackend) {
        ownerLink = Unretained(owner)
        self.backend = backend
    }

    func dispatch() {
        APICall.run { dispatchEvents() }
    }

    /// Reads libinput's events into the router; the caller runs it inside an API call. The
    /// router is reached unretained (it ends this object before it goes, and a router
    /// destroyed by a callback meanwhile lives until the API call returns).
    func dispatchEvents() {
        guard !isDestroyed else { return }
        ownerLink.with { owner in
            guard !owner.isDestroyed else { return }
            owner.routerLink.with { backend.dispatch(into: $0) }
        }
    }

    /// The source's wakeup (`data` is this object, unretained). No retain and release per
    /// wakeup: the object outlives its source, which `destroy()` removes before the object can
    /// go (the handle table and the router's list own it until then), and the wakeup is an
    /// API call, so that a context or router destroyed by a callback during it is released
    /// only after the call returns (`withUnretainedUserData` in UnsafeFoundations.swift).
    static let sourceWakeup: CCalls.FDCallback = { _, _, data in
        guard let data else { return 0 }
        APICall.run { withUnretainedUserData(data, as: CLibinput.self) { $0.dispatchEvents() } }
        return 0
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        source?.remove()
        source = nil
        owner.libinputs.removeAll { $0 === self }
        Handles.remove(handle)
    }
}

private func register(_ r: CRouter, _ backend: LibinputBackend, _ function: StaticString) -> OpaquePointer? {
    let c = CLibinput(owner: r, backend: backend)
    guard let handle = Handles.insert(c, kind: .libinput) else {
        misuse(function, "too many live handles")
        return nil
    }
    r.libinputs.append(c)
    return handle
}

/// The opener's table copied, `.some(nil)` for NULL (open(2) and close(2)), nil (logged) for
/// a table with an unusable struct_size.
private func openerTable(_ opener: UnsafePointer<seatkit_device_opener_interface>?,
                         _ function: StaticString) -> VTableCopy<seatkit_device_opener_interface>?? {
    guard let opener else { return .some(nil) }
    guard let copy = VTableCopy.make(opener, "seatkit_device_opener_interface", function) else { return nil }
    return .some(copy)
}

@_cdecl("seatkit_libinput_create_udev")
public func seatkit_libinput_create_udev(_ router: OpaquePointer?, _ seat: UnsafePointer<CChar>?,
                                         _ opener: UnsafePointer<seatkit_device_opener_interface>?,
                                         _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    let name = string(seat, or: "seat0")
    do {
        guard let table = openerTable(opener, #function) else { return nil }
        let backend = try LibinputBackend(seat: name, opener: COpener(table: table, data: data))
        return register(r, backend, #function)
    } catch {
        misuse(#function, "libinput on \(name): \(error)")
        return nil
    }
}

@_cdecl("seatkit_libinput_create_path")
public func seatkit_libinput_create_path(_ router: OpaquePointer?, _ paths: UnsafePointer<UnsafePointer<CChar>?>?,
                                         _ count: UInt,
                                         _ opener: UnsafePointer<seatkit_device_opener_interface>?,
                                         _ data: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    if count > 0 && paths == nil {
        misuse(#function, "NULL paths with count \(count); refused")
        return nil
    }
    var list: [String] = []
    guard count <= 1 << 16 else {
        misuse(#function, "\(count) paths; refused")
        return nil
    }
    for i in 0..<Int(count) {
        guard let path = paths![i] else {
            misuse(#function, "path \(i) is NULL; refused")
            return nil
        }
        list.append(String(cString: path))
    }
    do {
        guard let table = openerTable(opener, #function) else { return nil }
        let backend = try LibinputBackend(paths: list, opener: COpener(table: table, data: data))
        return register(r, backend, #function)
    } catch {
        misuse(#function, "libinput on \(list): \(error)")
        return nil
    }
}

@_cdecl("seatkit_libinput_add_device")
public func seatkit_libinput_add_device(_ handle: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Bool {
    guard let l = live(handle, .libinput, as: CLibinput.self, #function) else { return false }
    guard let path else {
        misuse(#function, "NULL path")
        return false
    }
    do {
        try l.backend.addDevice(path: String(cString: path))
        return true
    } catch {
        misuse(#function, "\(String(cString: path)): \(error)")
        return false
    }
}

@_cdecl("seatkit_libinput_get_fd")
public func seatkit_libinput_get_fd(_ handle: OpaquePointer?) -> Int32 {
    live(handle, .libinput, as: CLibinput.self, #function)?.backend.fileDescriptor ?? -1
}

@_cdecl("seatkit_libinput_dispatch")
public func seatkit_libinput_dispatch(_ handle: OpaquePointer?) {
    live(handle, .libinput, as: CLibinput.self, #function)?.dispatch()
}

@_cdecl("seatkit_libinput_add_to_event_loop")
public func seatkit_libinput_add_to_event_loop(_ handle: OpaquePointer?, _ loop: OpaquePointer?) -> Bool {
    guard let l = live(handle, .libinput, as: CLibinput.self, #function) else { return false }
    guard let loop else {
        misuse(#function, "NULL event loop")
        return false
    }
    guard l.source == nil else {
        misuse(#function, "already on an event loop; refused")
        return false
    }
    l.source = EventLoopSource(loop: loop, add: { loop in
        CCalls.addReadableFD(loop, l.backend.fileDescriptor, CLibinput.sourceWakeup, Unmanaged.passUnretained(l).toOpaque())
    })
    return l.source != nil
}

@_cdecl("seatkit_libinput_suspend")
public func seatkit_libinput_suspend(_ handle: OpaquePointer?) {
    live(handle, .libinput, as: CLibinput.self, #function)?.backend.suspend()
}

@_cdecl("seatkit_libinput_resume")
public func seatkit_libinput_resume(_ handle: OpaquePointer?) -> Bool {
    live(handle, .libinput, as: CLibinput.self, #function)?.backend.resume() ?? false
}

@_cdecl("seatkit_libinput_destroy")
public func seatkit_libinput_destroy(_ handle: OpaquePointer?) {
    guard let l = live(handle, .libinput, as: CLibinput.self, #function) else { return }
    APICall.run { l.destroy() }
}
