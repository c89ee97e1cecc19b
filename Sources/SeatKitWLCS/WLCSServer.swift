import CSeatKitWLCS
import Dispatch
import Foundation
import SeatKit
import SeatKitHeadlessShell
import SeatKitWayland
import SeatKitXKB

// SeatKit's wlcs integration: the server wlcs drives (Sources/CSeatKitWLCS/wlcs.c forwards
// its entry points to the @_cdecl functions at the end of this file).
//
// wlcs calls from its test thread; SeatKit is single-threaded. Everything SeatKit (display,
// router, seat, shell) is created, used and destroyed on the server's own thread, and every
// wlcs call becomes a job on that thread's event loop (an eventfd wakes it) that the calling
// thread waits for. A fake device's event is injected through `Seat.inject` (the router's
// `inject` plus the touch frame at a device frame), the path a libinput backend takes.

/// The server wlcs creates, starts and stops; safe to call from any thread.
final class WLCSServer: @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [() -> Void] = []
    private var wakeFD: Int32 = -1
    private var serverThread: pthread_t?
    private let exited = DispatchSemaphore(value: 0)
    /// Touched only on the server thread.
    private var compositor: WLCSCompositor?

    func start() {
        wakeFD = seatkit_wlcs_wake_fd()
        precondition(wakeFD >= 0, "seatkit-wlcs: eventfd failed")
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            serverThread = pthread_self()
            let compositor = WLCSCompositor()
            self.compositor = compositor
            compositor.display.watch(fileDescriptor: wakeFD) { [unowned self] in self.runJobs() }
            ready.signal()
            while !compositor.stopping { compositor.display.dispatch(timeout: -1) }
            compositor.display.stopWatching(fileDescriptor: wakeFD)
            self.compositor = nil
            compositor.tearDown()
            exited.signal()
        }
        thread.name = "seatkit-wlcs server"
        thread.start()
        ready.wait()
    }

    /// Blocks until the server's loop has ended and everything it held is destroyed.
    func stop() {
        guard wakeFD >= 0 else { return }
        perform { $0.stopping = true }
        exited.wait()
        close(wakeFD)
        wakeFD = -1
        serverThread = nil
    }

    /// Runs `work` on the server thread and returns its result.
    func perform<T>(_ work: @escaping (WLCSCompositor) -> T) -> T {
        if let serverThread, pthread_equal(serverThread, pthread_self()) != 0, let compositor {
            return work(compositor)
        }
        var result: T?
        let done = DispatchSemaphore(value: 0)
        lock.lock()
        jobs.append { [unowned self] in
            result = work(self.compositor!)
            done.signal()
        }
        lock.unlock()
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
        done.wait()
        return result!
    }

    private func runJobs() {
        var count: UInt64 = 0
        _ = read(wakeFD, &count, 8)
        lock.lock()
        let pending = jobs
        jobs.removeAll()
        lock.unlock()
        for job in pending { job() }
    }
}

/// A fake pointer: its moves and buttons become the seat's input events.
final class WLCSPointer: @unchecked Sendable {
    let server: WLCSServer
    let device: DeviceID

    init(server: WLCSServer) {
        self.server = server
        device = server.perform { c in
            let device = c.addDevice(DeviceInfo(name: "wlcs pointer", capabilities: [.pointer]))
            c.pointers.append(device)
            return device
        }
    }

    func move(x: Double, y: Double, relative: Bool) {
        let device = device
        server.perform { c in
            if relative {
                let delta = Vector(dx: x, dy: y)
                c.inject(device, .pointerMotion(delta: delta, unaccelerated: delta))
            } else {
                c.inject(device, .pointerMotionAbsolute(LayoutPoint(x: x, y: y)))
            }
        }
    }

    func button(_ code: UInt32, pressed: Bool) {
        let device = device
        server.perform { $0.inject(device, .pointerButton(button: code, state: pressed ? .pressed : .released)) }
    }

    func destroy() {
        let device = device
        server.perform { c in
            c.pointers.removeAll { $0 == device }
            c.inject(device, .deviceRemoved)
        }
    }
}

/// A fake touchscreen with one finger: down, move and up, each closing a device frame.
final class WLCSTouch: @unchecked Sendable {
    let server: WLCSServer
    let device: DeviceID
    private var touch = TouchID(0)
    private var nextTouch: Int32 = 0
    private var isDown = false

    init(server: WLCSServer) {
        self.server = server
        device = server.perform { $0.addDevice(DeviceInfo(name: "wlcs touchscreen", capabilities: [.touch])) }
    }

    func down(x: Double, y: Double) {
        touch = TouchID(nextTouch)
        nextTouch += 1
        isDown = true
        let (device, touch) = (device, touch)
        server.perform { c in
            c.inject(device, .touchDown(touch, LayoutPoint(x: x, y: y)))
            c.inject(device, .touchFrame)
        }
    }

    func move(x: Double, y: Double) {
        guard isDown else { return }
        let (device, touch) = (device, touch)
        server.perform { c in
            c.inject(device, .touchMotion(touch, LayoutPoint(x: x, y: y)))
            c.inject(device, .touchFrame)
        }
    }

    func up() {
        guard isDown else { return }
        isDown = false
        let (device, touch) = (device, touch)
        server.perform { c in
            c.inject(device, .touchUp(touch))
            c.inject(device, .touchFrame)
        }
    }

    func destroy() {
        up()
        let device = device
        server.perform { $0.inject(device, .deviceRemoved) }
    }
}

// MARK: - Entry points for wlcs.c

private func object<T: AnyObject>(_ pointer: UnsafeMutableRawPointer?, as: T.Type) -> T {
    Unmanaged<T>.fromOpaque(pointer!).takeUnretainedValue()
}

@_cdecl("seatkit_wlcs_server_create")
func seatkitWLCSServerCreate() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(WLCSServer()).toOpaque()
}

@_cdecl("seatkit_wlcs_server_destroy")
func seatkitWLCSServerDestroy(_ server: UnsafeMutableRawPointer?) {
    let s = Unmanaged<WLCSServer>.fromOpaque(server!)
    s.takeUnretainedValue().stop()
    s.release()
}

@_cdecl("seatkit_wlcs_server_start")
func seatkitWLCSServerStart(_ server: UnsafeMutableRawPointer?) { object(server, as: WLCSServer.self).start() }

@_cdecl("seatkit_wlcs_server_stop")
func seatkitWLCSServerStop(_ server: UnsafeMutableRawPointer?) { object(server, as: WLCSServer.self).stop() }

@_cdecl("seatkit_wlcs_server_create_client_socket")
func seatkitWLCSServerCreateClientSocket(_ server: UnsafeMutableRawPointer?) -> Int32 {
    object(server, as: WLCSServer.self).perform { $0.createClientSocket() }
}

@_cdecl("seatkit_wlcs_server_position")
func seatkitWLCSServerPosition(_ server: UnsafeMutableRawPointer?, _ clientFD: Int32, _ surfaceID: UInt32, _ x: Int32, _ y: Int32) {
    object(server, as: WLCSServer.self).perform { $0.position(clientFD: clientFD, surfaceID: surfaceID, x: Double(x), y: Double(y)) }
}

@_cdecl("seatkit_wlcs_pointer_create")
func seatkitWLCSPointerCreate(_ server: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(WLCSPointer(server: object(server, as: WLCSServer.self))).toOpaque()
}

@_cdecl("seatkit_wlcs_pointer_move")
func seatkitWLCSPointerMove(_ pointer: UnsafeMutableRawPointer?, _ x: Double, _ y: Double, _ relative: Int32) {
    object(pointer, as: WLCSPointer.self).move(x: x, y: y, relative: relative != 0)
}

@_cdecl("seatkit_wlcs_pointer_button")
func seatkitWLCSPointerButton(_ pointer: UnsafeMutableRawPointer?, _ button: Int32, _ pressed: Int32) {
    object(pointer, as: WLCSPointer.self).button(UInt32(bitPattern: button), pressed: pressed != 0)
}

@_cdecl("seatkit_wlcs_pointer_destroy")
func seatkitWLCSPointerDestroy(_ pointer: UnsafeMutableRawPointer?) {
    let p = Unmanaged<WLCSPointer>.fromOpaque(pointer!)
    p.takeUnretainedValue().destroy()
    p.release()
}

@_cdecl("seatkit_wlcs_touch_create")
func seatkitWLCSTouchCreate(_ server: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(WLCSTouch(server: object(server, as: WLCSServer.self))).toOpaque()
}

@_cdecl("seatkit_wlcs_touch_event")
func seatkitWLCSTouchEvent(_ touch: UnsafeMutableRawPointer?, _ kind: Int32, _ x: Double, _ y: Double) {
    let t = object(touch, as: WLCSTouch.self)
    switch kind {
    case 0: t.down(x: x, y: y)
    case 1: t.move(x: x, y: y)
    default: t.up()
    }
}

@_cdecl("seatkit_wlcs_touch_destroy")
func seatkitWLCSTouchDestroy(_ touch: UnsafeMutableRawPointer?) {
    let t = Unmanaged<WLCSTouch>.fromOpaque(touch!)
    t.takeUnretainedValue().destroy()
    t.release()
}
