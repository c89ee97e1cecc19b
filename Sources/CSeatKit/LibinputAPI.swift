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

/// libinput's own log lines (a device it skipped or could not open, a kernel bug it works
/// around) in the C API's log (seatkit_log_init), as "libinput: MESSAGE": its errors at
/// SEATKIT_ERROR (so always, at the default verbosity), its info lines at SEATKIT_INFO, its
/// debug lines at SEATKIT_DEBUG. libinput fixes a context's priority when the context is made:
/// it formats nothing below it, so a context made at the default verbosity spends nothing on
/// the per-event debug lines of its touchpad and tablet code. Without this, the C API's
/// contexts dropped every line libinput logs (SeatKitLibinput's sink has no handler unless one
/// is set), and a device libinput refused left no trace in the compositor's log.
enum LibinputLog {
    /// Held while a context is made, so that the priority chosen for it is the one it reads
    /// (contexts may be made on several threads, each with its own router).
    nonisolated(unsafe) private static let mutex = CCalls.makeMutex()
    /// The priority the handler was last set with (nil: not set yet). The handler is written
    /// again only when the verbosity changed, never while another thread's context logs
    /// through it (seatkit_log_init is called before routers start on other threads). Read
    /// and written with `mutex` held.
    nonisolated(unsafe) private static var installedPriority: Int32?

    /// libinput's priority (10 debug, 20 info, 30 error) for a verbosity of seatkit_log_init.
    static func minimumPriority(for verbosity: seatkit_log_importance) -> Int32 {
        if verbosity.rawValue >= SEATKIT_DEBUG.rawValue { return 10 }
        if verbosity.rawValue >= SEATKIT_INFO.rawValue { return 20 }
        return 30
    }

    /// Makes a context with `make`, its log lines going to the C API's log at the verbosity
    /// of now, through ``lineSink``: formatted in C, with no Swift String per line.
    static func making<T>(_ make: () throws(LibinputError) -> T) throws(LibinputError) -> T {
        CCalls.lock(mutex)
        defer { CCalls.unlock(mutex) }
        let wanted = minimumPriority(for: CCalls.logVerbosity())
        if installedPriority != wanted {
            installedPriority = wanted
            LibinputBackend.setLogHandler(minimumPriority: wanted, forward)
        }
        CCalls.setPendingLibinputLineSink(lineSink)
        defer { CCalls.setPendingLibinputLineSink(nil) }
        return try make()
    }

    /// One of libinput's lines of a context made by ``making(_:)``: "libinput: MESSAGE", its
    /// trailing newlines trimmed (the log adds its own), formatted by CLibinput's handler into
    /// a buffer on its stack. No String: a String per line (the prefix joined, the newline
    /// trimmed, the C string made again for the log) was ~2,900 instructions of
    /// `libswiftCore` a line, and libinput logs a touchpad's "kernel bug: Touch jump
    /// detected" five times a day at most, but the touchpad recording has them (issue 25,
    /// fifteenth round).
    static let lineSink: CCalls.LibinputLineSink = { priority, line in
        guard let line else { return }
        CCalls.log(importance(ofPriority: priority), cString: line)
    }

    /// The C API's importance of a line of libinput's priority.
    static func importance(ofPriority priority: Int32) -> seatkit_log_importance {
        if priority >= 30 { return SEATKIT_ERROR }
        if priority >= 20 { return SEATKIT_INFO }
        return SEATKIT_DEBUG
    }

    /// One of libinput's lines through SeatKitLibinput's handler (most end in a newline,
    /// which the log adds itself): the lines of a context made outside ``making(_:)`` while
    /// this handler is the process's. The C API's own contexts log through ``lineSink``.
    static func forward(_ priority: Int32, _ message: String) {
        var line = "libinput: " + message
        while line.utf8.last == UInt8(ascii: "\n") { line.removeLast() }
        if priority >= 30 {
            Log.error(line)
        } else if priority >= 20 {
            Log.info(line)
        } else {
            Log.debug(line)
        }
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
        let opener = COpener(table: table, data: data)
        let backend = try LibinputLog.making { () throws(LibinputError) in try LibinputBackend(seat: name, opener: opener) }
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
        let opener = COpener(table: table, data: data)
        let backend = try LibinputLog.making { () throws(LibinputError) in try LibinputBackend(paths: list, opener: opener) }
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
