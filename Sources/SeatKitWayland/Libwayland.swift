import CWaylandServer
import Glibc

/// Every call SeatKitWayland makes into libwayland-server, in one place: to trace the wire,
/// set `Libwayland.traceEvents`; to see what the library depends on, read this file.
///
/// Handles are libwayland's own pointers (`wl_display *`, `wl_resource *`, `wl_client *`),
/// seen from Swift as `OpaquePointer`. Everything here runs on the event loop's thread.
package enum Libwayland {
    /// Prints every event posted to a client, for debugging: set it, or put
    /// `SEATKIT_WAYLAND_TRACE=1` in the environment, which a ``WaylandDisplay`` reads when it is
    /// made. A constant first value, not the environment read here: a global with a computed
    /// first value is initialised lazily, and every message sent called `swift_once` to check
    /// (7 instructions a message, ~15 a key frame in the kiosk, issue 25, eleventh round).
    nonisolated(unsafe) static var traceEvents = false

    /// Turns ``traceEvents`` on if the environment asks for it (never off).
    static func readTraceEnvironment() {
        if getenv("SEATKIT_WAYLAND_TRACE") != nil { traceEvents = true }
    }

    // MARK: Display and event loop

    package static func createDisplay() -> OpaquePointer? { wl_display_create() }
    package static func destroyClients(_ display: OpaquePointer) { wl_display_destroy_clients(display) }
    package static func destroyDisplay(_ display: OpaquePointer) { wl_display_destroy(display) }
    package static func addSocket(_ display: OpaquePointer, name: String) -> Bool { wl_display_add_socket(display, name) == 0 }
    package static func addSocketAuto(_ display: OpaquePointer) -> String? {
        guard let name = wl_display_add_socket_auto(display) else { return nil }
        return String(cString: name)
    }
    package static func eventLoop(_ display: OpaquePointer) -> OpaquePointer { wl_display_get_event_loop(display) }
    package static func flushClients(_ display: OpaquePointer) { wl_display_flush_clients(display) }
    package static func run(_ display: OpaquePointer) { wl_display_run(display) }
    package static func terminate(_ display: OpaquePointer) { wl_display_terminate(display) }
    package static func nextSerial(_ display: OpaquePointer) -> UInt32 { wl_display_next_serial(display) }
    package static func currentSerial(_ display: OpaquePointer) -> UInt32 { wl_display_get_serial(display) }
    /// The client's process id, from the socket's credentials.
    package static func pid(of client: OpaquePointer) -> Int32 {
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        return pid
    }
    package static func initShm(_ display: OpaquePointer) -> Bool { wl_display_init_shm(display) == 0 }

    /// Waits up to `timeout` milliseconds (-1: forever) for something to happen and handles it.
    package static func dispatch(_ loop: OpaquePointer, timeout: Int32) { _ = wl_event_loop_dispatch(loop, timeout) }

    package static func addTimer(_ loop: OpaquePointer, _ box: CallbackBox) -> OpaquePointer? {
        wl_event_loop_add_timer(loop, { data in
            Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().action()
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Arms a timer `milliseconds` from now; 0 disarms it. False when the loop could not
    /// (timerfd_settime failed): the timer will not fire.
    @discardableResult
    package static func armTimer(_ source: OpaquePointer, milliseconds: Int32) -> Bool {
        wl_event_source_timer_update(source, milliseconds) >= 0
    }
    package static func removeSource(_ source: OpaquePointer) { _ = wl_event_source_remove(source) }

    /// Calls `box` whenever `fd` is readable (or hung up), without retaining the box per call
    /// (``WatchBox/callUnretained(_:)``, UnsafeFoundations.swift): whoever lets go of the
    /// box must call ``WatchBox/retire()`` first, which keeps it until a call under way
    /// returns. The loop passes back the pointer given here, never nil: unwrapped unchecked.
    static func addReadableFD(_ loop: OpaquePointer, _ fd: Int32, _ box: WatchBox) -> OpaquePointer? {
        wl_event_loop_add_fd(loop, fd, UInt32(WL_EVENT_READABLE | WL_EVENT_HANGUP), watchedFDReadable,
                             Unmanaged.passUnretained(box).toOpaque())
    }

    // MARK: Globals

    /// Advertises a global. `bind` runs with the object behind `owner` when a client binds it.
    package static func createGlobal(_ display: OpaquePointer, _ interface: UnsafePointer<wl_interface>, version: Int32,
                             owner: GlobalOwner) -> OpaquePointer? {
        wl_global_create(display, interface, version, Unmanaged.passUnretained(owner as AnyObject).toOpaque()) { client, data, version, id in
            let owner = Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! GlobalOwner
            owner.bind(client: client!, version: version, id: id)
        }
    }

    package static func destroyGlobal(_ global: OpaquePointer) { wl_global_destroy(global) }

    // MARK: Resources

    /// Creates a resource with request handlers `implementation` (a generated `*_interface`
    /// struct of function pointers) and `object` as its user data. The resource keeps
    /// `object` alive until it is destroyed; then `object.resourceDestroyed()` runs, if it is
    /// a ``ResourceObject``. Returns nil after posting no_memory.
    package static func createResource(_ client: OpaquePointer, _ interface: UnsafePointer<wl_interface>, version: Int32,
                               id: UInt32, implementation: UnsafeRawPointer?, object: AnyObject?) -> OpaquePointer? {
        guard let resource = wl_resource_create(client, interface, version, id) else {
            wl_client_post_no_memory(client)
            return nil
        }
        let data = object.map { Unmanaged.passRetained($0).toOpaque() }
        wl_resource_set_implementation(resource, implementation, data) { resource in
            guard let data = wl_resource_get_user_data(resource) else { return }
            let object = Unmanaged<AnyObject>.fromOpaque(data).takeRetainedValue()
            (object as? ResourceObject)?.resourceDestroyed()
        }
        return resource
    }

    /// Runs `action` once when `resource` is destroyed: a listener, so it works on resources
    /// of any implementation, the compositor's own included.
    package static func onResourceDestroyed(_ resource: OpaquePointer, _ action: @escaping () -> Void) {
        let box = Unmanaged.passRetained(CallbackBox(action)).toOpaque()
        seatkit_resource_on_destroy(resource, { data in
            Unmanaged<CallbackBox>.fromOpaque(data!).takeRetainedValue().action()
        }, box)
    }

    /// True when `resource` is of `interface` and dispatches to `implementation`: only then is
    /// its user data what that implementation's creator put there.
    package static func isInstance(_ resource: OpaquePointer, of interface: UnsafePointer<wl_interface>,
                           implementation: UnsafeRawPointer) -> Bool {
        wl_resource_instance_of(resource, interface, implementation) != 0
    }

    /// The Swift object behind a resource created by ``createResource``. Only for resources of
    /// this module's own implementations: the user data of any other is not a Swift object.
    package static func object<T: AnyObject>(_ resource: OpaquePointer?, as _: T.Type = T.self) -> T? {
        guard let resource, let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? T
    }

    package static func destroyResource(_ resource: OpaquePointer) { wl_resource_destroy(resource) }
    package static func client(of resource: OpaquePointer) -> OpaquePointer { wl_resource_get_client(resource) }
    package static func version(of resource: OpaquePointer) -> Int32 { wl_resource_get_version(resource) }
    package static func id(of resource: OpaquePointer) -> UInt32 { wl_resource_get_id(resource) }

    /// Sends a protocol error: the client is disconnected once it has read it.
    package static func postError(_ resource: OpaquePointer, code: UInt32, _ message: String) {
        seatkit_resource_post_error(resource, code, message)
    }

    package static func destroyClient(_ client: OpaquePointer) { wl_client_destroy(client) }

    /// Runs `action` once when `client` disconnects, after its resources' destructors.
    package static func onClientDestroyed(_ client: OpaquePointer, _ action: @escaping () -> Void) {
        let box = Unmanaged.passRetained(CallbackBox(action)).toOpaque()
        seatkit_client_on_destroy(client, { data in
            Unmanaged<CallbackBox>.fromOpaque(data!).takeRetainedValue().action()
        }, box)
    }

    // MARK: Events

    /// Posts event `opcode` with `arguments` to `resource`. The arguments must match the
    /// event's signature in the protocol XML, in order (libwayland marshals by signature).
    package static func post(_ resource: OpaquePointer, _ opcode: Int32, _ arguments: EventArgument...) {
        if traceEvents {
            print("wayland: -> \(id(of: resource))#\(opcode) \(arguments)")
        }
        var cleanups: [() -> Void] = []
        var wire: [wl_argument] = []
        wire.reserveCapacity(arguments.count)
        for argument in arguments {
            switch argument {
            case .int(let v): wire.append(wl_argument(i: v))
            case .uint(let v): wire.append(wl_argument(u: v))
            case .fixed(let v): wire.append(wl_argument(f: wl_fixed_from_double(v)))
            case .object(let r): wire.append(wl_argument(o: r))
            case .fd(let fd): wire.append(wl_argument(h: fd))
            case .string(let s):
                let copy = strdup(s)
                cleanups.append { free(copy) }
                wire.append(wl_argument(s: UnsafePointer(copy)))
            case .array(let words):
                let array = UnsafeMutablePointer<wl_array>.allocate(capacity: 1)
                let bytes = words.count * 4
                let data = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 4), alignment: 4)
                words.withUnsafeBytes { data.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(data), byteCount: bytes) }
                array.initialize(to: wl_array(size: bytes, alloc: bytes, data: data))
                cleanups.append {
                    data.deallocate()
                    array.deallocate()
                }
                wire.append(wl_argument(a: array))
            }
        }
        wire.withUnsafeMutableBufferPointer { wl_resource_post_event_array(resource, UInt32(opcode), $0.baseAddress) }
        for cleanup in cleanups { cleanup() }
    }

    // MARK: Typed senders (the per-event path)

    // The events sent for every input frame, typed, with their arguments in a tuple on the
    // stack: no array, no boxing, nothing allocated on SeatKit's side (libwayland itself
    // allocates one closure per message). Each checks nothing the generic ``post`` would not.

    /// `wl_fixed_t` from a Double, rounded to nearest as libwayland's `wl_fixed_from_double`.
    @inline(__always)
    package static func fixed(_ v: Double) -> wl_fixed_t { wl_fixed_from_double(v) }

    /// ``fixed(_:)``'s bits, computed here: libwayland's header adds 3·2⁴³ to the double, so
    /// that the value's 24.8 fixed-point form is the sum's low 32 bits, and takes those. The
    /// untraced touch senders use it: the header's inline function was left a call of its own
    /// where the touch motion is sent from the responder's witness (two calls a motion, issue
    /// 25, eighteenth round). `TouchMotionWireTests.theInlineFixedPointConversionGivesLibwaylandsBits`
    /// pins it to ``fixed(_:)``.
    @inline(__always)
    package static func fixedInline(_ v: Double) -> wl_fixed_t {
        wl_fixed_t(truncatingIfNeeded: (v + Double(3 << 43)).bitPattern)
    }

    @inline(__always)
    private static func send(_ resource: OpaquePointer, _ opcode: Int32, _ args: UnsafeMutablePointer<wl_argument>, _ count: Int) {
        if traceEvents { trace(resource, opcode, UnsafeBufferPointer(start: args, count: count)) }
        wl_resource_post_event_array(resource, UInt32(opcode), args)
    }

    private static func trace(_ resource: OpaquePointer, _ opcode: Int32, _ args: UnsafeBufferPointer<wl_argument>) {
        print("wayland: -> \(id(of: resource))#\(opcode) \(args.map { $0.u })")
    }

    @inline(__always)
    private static func send1(_ r: OpaquePointer, _ op: Int32, _ a: wl_argument) {
        var t = a
        withUnprotectedArguments(&t) { send(r, op, $0, 1) }
    }

    @inline(__always)
    private static func send2(_ r: OpaquePointer, _ op: Int32, _ a: wl_argument, _ b: wl_argument) {
        var t = (a, b)
        withUnprotectedArguments(&t) { send(r, op, $0, 2) }
    }

    @inline(__always)
    private static func send3(_ r: OpaquePointer, _ op: Int32, _ a: wl_argument, _ b: wl_argument, _ c: wl_argument) {
        var t = (a, b, c)
        withUnprotectedArguments(&t) { send(r, op, $0, 3) }
    }

    @inline(__always)
    private static func send4(_ r: OpaquePointer, _ op: Int32, _ a: wl_argument, _ b: wl_argument, _ c: wl_argument,
                              _ d: wl_argument) {
        var t = (a, b, c, d)
        withUnprotectedArguments(&t) { send(r, op, $0, 4) }
    }

    @inline(__always)
    private static func send5(_ r: OpaquePointer, _ op: Int32, _ a: wl_argument, _ b: wl_argument, _ c: wl_argument,
                              _ d: wl_argument, _ e: wl_argument) {
        var t = (a, b, c, d, e)
        withUnprotectedArguments(&t) { send(r, op, $0, 5) }
    }

    @inline(__always)
    private static func send6(_ r: OpaquePointer, _ op: Int32, _ a: wl_argument, _ b: wl_argument, _ c: wl_argument,
                              _ d: wl_argument, _ e: wl_argument, _ f: wl_argument) {
        var t = (a, b, c, d, e, f)
        withUnprotectedArguments(&t) { send(r, op, $0, 6) }
    }

    /// wl_pointer.motion(time, surface_x, surface_y), the position already in `wl_fixed_t`.
    package static func pointerMotion(_ pointer: OpaquePointer, time: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        send3(pointer, WL_POINTER_MOTION, wl_argument(u: time), wl_argument(f: x), wl_argument(f: y))
    }

    /// wl_pointer.button(serial, time, button, state).
    package static func pointerButton(_ pointer: OpaquePointer, serial: UInt32, time: UInt32, button: UInt32, state: UInt32) {
        send4(pointer, WL_POINTER_BUTTON, wl_argument(u: serial), wl_argument(u: time), wl_argument(u: button), wl_argument(u: state))
    }

    /// wl_pointer.axis(time, axis, value).
    package static func pointerAxis(_ pointer: OpaquePointer, time: UInt32, axis: UInt32, value: Double) {
        send3(pointer, WL_POINTER_AXIS, wl_argument(u: time), wl_argument(u: axis), wl_argument(f: fixed(value)))
    }

    /// wl_pointer.axis_source(source).
    package static func pointerAxisSource(_ pointer: OpaquePointer, source: UInt32) {
        send1(pointer, WL_POINTER_AXIS_SOURCE, wl_argument(u: source))
    }

    /// wl_pointer.axis_stop(time, axis).
    package static func pointerAxisStop(_ pointer: OpaquePointer, time: UInt32, axis: UInt32) {
        send2(pointer, WL_POINTER_AXIS_STOP, wl_argument(u: time), wl_argument(u: axis))
    }

    /// wl_pointer.axis_discrete(axis, discrete) (versions 5 to 7).
    package static func pointerAxisDiscrete(_ pointer: OpaquePointer, axis: UInt32, discrete: Int32) {
        send2(pointer, WL_POINTER_AXIS_DISCRETE, wl_argument(u: axis), wl_argument(i: discrete))
    }

    /// wl_pointer.axis_value120(axis, value120) (version 8 on).
    package static func pointerAxisValue120(_ pointer: OpaquePointer, axis: UInt32, value120: Int32) {
        send2(pointer, WL_POINTER_AXIS_VALUE120, wl_argument(u: axis), wl_argument(i: value120))
    }

    /// wl_pointer.frame.
    package static func pointerFrame(_ pointer: OpaquePointer) {
        wl_resource_post_event_array(pointer, UInt32(WL_POINTER_FRAME), nil)
        if traceEvents { print("wayland: -> \(id(of: pointer))#\(WL_POINTER_FRAME) []") }
    }

    /// wl_touch.down(serial, time, surface, id, x, y).
    package static func touchDown(_ touch: OpaquePointer, serial: UInt32, time: UInt32, surface: OpaquePointer, id: Int32,
                                  x: Double, y: Double) {
        send6(touch, WL_TOUCH_DOWN, wl_argument(u: serial), wl_argument(u: time), wl_argument(o: surface), wl_argument(i: id),
              wl_argument(f: fixed(x)), wl_argument(f: fixed(y)))
    }

    /// wl_touch.up(serial, time, id).
    package static func touchUp(_ touch: OpaquePointer, serial: UInt32, time: UInt32, id: Int32) {
        send3(touch, WL_TOUCH_UP, wl_argument(u: serial), wl_argument(u: time), wl_argument(i: id))
    }

    /// wl_touch.motion(time, id, x, y).
    package static func touchMotion(_ touch: OpaquePointer, time: UInt32, id: Int32, x: Double, y: Double) {
        send4(touch, WL_TOUCH_MOTION, wl_argument(u: time), wl_argument(i: id), wl_argument(f: fixed(x)), wl_argument(f: fixed(y)))
    }

    /// wl_touch.frame. The trace's line is made out of line: inline, its string building made
    /// the caller's frame send (once per touch frame) set up a stack frame for it.
    package static func touchFrame(_ touch: OpaquePointer) {
        wl_resource_post_event_array(touch, UInt32(WL_TOUCH_FRAME), nil)
        if traceEvents { traceNoArguments(touch, WL_TOUCH_FRAME) }
    }

    /// wl_touch.motion(time, id, x, y), as ``touchMotion(_:time:id:x:y:)`` on the wire, with its
    /// arguments written into `arguments` (``WireArguments``, UnsafeFoundations.swift) instead
    /// of onto the sender's stack, and not traced (the caller checks ``traceEvents`` first):
    /// nothing of the sender's is needed after the post, so a sender that ends with it ends
    /// with a jump into libwayland, without a stack frame or saved registers of its own.
    @inline(__always)
    static func touchMotionUntraced(_ touch: OpaquePointer, time: UInt32, id: Int32, x: Double, y: Double,
                                            into arguments: WireArguments) {
        let base = arguments.base
        base[0] = wl_argument(u: time)
        base[1] = wl_argument(i: id)
        base[2] = wl_argument(f: fixedInline(x))
        base[3] = wl_argument(f: fixedInline(y))
        wl_resource_post_event_array(touch, UInt32(WL_TOUCH_MOTION), base)
    }

    /// wl_touch.down(serial, time, surface, id, x, y), as ``touchDown(_:serial:time:surface:id:x:y:)``
    /// on the wire, its arguments written into `arguments` (``WireArguments``), not traced
    /// (the caller checks ``traceEvents`` first). The serial is asked for (`serial`, called
    /// once) after the other arguments are written, written itself, then handed to
    /// `recorded` just before the post: what the sender keeps across those calls is the
    /// resource and the arguments' address, and the post is its last act. Neither closure
    /// may post anything.
    @inline(__always)
    static func touchDownUntraced(_ touch: OpaquePointer, time: UInt32, surface: OpaquePointer, id: Int32, x: Double, y: Double,
                                  into arguments: WireArguments, serial: () -> UInt32,
                                  recorded: (UInt32) -> Void) {
        let base = arguments.base
        base[1] = wl_argument(u: time)
        base[2] = wl_argument(o: surface)
        base[3] = wl_argument(i: id)
        base[4] = wl_argument(f: fixedInline(x))
        base[5] = wl_argument(f: fixedInline(y))
        let taken = serial()
        base[0] = wl_argument(u: taken)
        recorded(taken)
        wl_resource_post_event_array(touch, UInt32(WL_TOUCH_DOWN), base)
    }

    /// wl_touch.up(serial, time, id), as ``touchUp(_:serial:time:id:)`` on the wire, written
    /// and posted as ``touchDownUntraced(_:time:surface:id:x:y:into:serial:recorded:)``.
    @inline(__always)
    static func touchUpUntraced(_ touch: OpaquePointer, time: UInt32, id: Int32, into arguments: WireArguments,
                                serial: () -> UInt32, recorded: (UInt32) -> Void) {
        let base = arguments.base
        base[1] = wl_argument(u: time)
        base[2] = wl_argument(i: id)
        let taken = serial()
        base[0] = wl_argument(u: taken)
        recorded(taken)
        wl_resource_post_event_array(touch, UInt32(WL_TOUCH_UP), base)
    }

    /// wl_touch.frame, not traced (the caller checks ``traceEvents`` first): the post is the
    /// last thing done, so a sender that ends with it ends with a jump into libwayland.
    @inline(__always)
    static func touchFrameUntraced(_ touch: OpaquePointer) {
        wl_resource_post_event_array(touch, UInt32(WL_TOUCH_FRAME), nil)
    }

    @inline(never)
    private static func traceNoArguments(_ resource: OpaquePointer, _ opcode: Int32) {
        print("wayland: -> \(id(of: resource))#\(opcode) []")
    }

    /// wl_keyboard.key(serial, time, key, state).
    package static func keyboardKey(_ keyboard: OpaquePointer, serial: UInt32, time: UInt32, key: UInt32, state: UInt32) {
        send4(keyboard, WL_KEYBOARD_KEY, wl_argument(u: serial), wl_argument(u: time), wl_argument(u: key), wl_argument(u: state))
    }

    /// wl_keyboard.modifiers(serial, depressed, latched, locked, group).
    package static func keyboardModifiers(_ keyboard: OpaquePointer, serial: UInt32, depressed: UInt32, latched: UInt32,
                                          locked: UInt32, group: UInt32) {
        send5(keyboard, WL_KEYBOARD_MODIFIERS, wl_argument(u: serial), wl_argument(u: depressed), wl_argument(u: latched),
              wl_argument(u: locked), wl_argument(u: group))
    }

    // MARK: Buffers

    /// Width and height of a wl_shm buffer; nil for other kinds of buffer.
    package static func shmBufferSize(_ buffer: OpaquePointer) -> (width: Int32, height: Int32)? {
        guard let shm = wl_shm_buffer_get(buffer) else { return nil }
        return (wl_shm_buffer_get_width(shm), wl_shm_buffer_get_height(shm))
    }

    /// Reads the last byte of a wl_shm buffer inside libwayland's access guard, as a renderer
    /// would: when the client's file is shorter than the pool it declared (truncated after
    /// the fact, or never that large), libwayland catches the SIGBUS and posts
    /// `wl_shm.error.invalid_fd` to that client instead of the compositor dying. Other kinds
    /// of buffer are left alone.
    package static func touchShmBuffer(_ buffer: OpaquePointer) {
        guard let shm = wl_shm_buffer_get(buffer) else { return }
        let size = Int(wl_shm_buffer_get_stride(shm)) * Int(wl_shm_buffer_get_height(shm))
        guard size > 0 else { return }
        wl_shm_buffer_begin_access(shm)
        if let data = wl_shm_buffer_get_data(shm) {
            shmProbe = data.load(fromByteOffset: size - 1, as: UInt8.self)
        }
        wl_shm_buffer_end_access(shm)
    }
    /// Where `touchShmBuffer` puts the byte it reads, so that the read is never optimized away.
    nonisolated(unsafe) private static var shmProbe: UInt8 = 0

    // MARK: Implementation tables

    /// Keeps a request-handler table at a stable address for the life of the process.
    package static func table<T>(_ value: T) -> UnsafeRawPointer {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return UnsafeRawPointer(pointer)
    }
}

/// One argument of an event, in the wire format's terms.
package enum EventArgument: CustomStringConvertible {
    case int(Int32)
    case uint(UInt32)
    /// A wl_fixed_t (24.8 fixed point) made from a Double.
    case fixed(Double)
    case object(OpaquePointer?)
    case string(String)
    /// A wl_array of 32-bit words (wl_keyboard.enter's keys).
    case array([UInt32])
    case fd(Int32)

    package var description: String {
        switch self {
        case .int(let v): return "\(v)"
        case .uint(let v): return "\(v)"
        case .fixed(let v): return "\(v)"
        case .object(let r): return r.map { "obj\(Libwayland.id(of: $0))" } ?? "nil"
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "\(a)"
        case .fd(let fd): return "fd\(fd)"
        }
    }
}

/// A closure that libwayland calls back through a `void *`.
package final class CallbackBox {
    let action: () -> Void
    package init(_ action: @escaping () -> Void) {
        self.action = action
    }
}

/// ``Libwayland/addReadableFD(_:_:_:)``'s callback: a function inlined into its C entry, not
/// a closure literal. The closure's body was specialized without its unused arguments and
/// reached from its C entry by a jump, a function of 5 instructions more per wake-up (issue
/// 25, nineteenth round). A function at file scope: a C function pointer is formed from a
/// global function or a closure literal only.
@inline(__always)
private func watchedFDReadable(_ fd: Int32, _ mask: UInt32, _ data: UnsafeMutableRawPointer?) -> Int32 {
    WatchBox.callUnretained(data.unsafelyUnwrapped)
    return 0
}

/// A watched fd's closure (``Libwayland/addReadableFD(_:_:_:)``), called without a retain
/// (``WatchBox/callUnretained(_:)``, UnsafeFoundations.swift), with the display's wake-ups
/// begun and ended around each call. A class of its own, not a ``CallbackBox`` with an
/// optional wake-up: the wake-up is always there, so no test for it per wake-up (issue 25,
/// seventeenth round).
final class WatchBox {
    let action: () -> Void
    /// The display's wake-ups, begun and ended around each call.
    let wakeUp: WakeUpTime
    init(_ action: @escaping () -> Void, wakeUp: WakeUpTime) {
        self.action = action
        self.wakeUp = wakeUp
    }

    /// Calls under way, and whether the box keeps itself (one retain of its own) until they
    /// return.
    struct HotState {
        var depth = 0
        var keptUntilReturn = false
    }
    @exclusivity(unchecked) var unchecked = HotState()

    /// Its owner lets go of the box (its source removed, or replaced): if the box is being
    /// called, it keeps itself, and so the closure running and what that captured, until the
    /// call returns (``callUnretained(_:)`` lets go then), as the core's `KeptAliveWhileInUse`.
    /// A box that is not being called goes with its owner's reference.
    func retire() {
        guard unchecked.depth > 0, !unchecked.keptUntilReturn else { return }
        unchecked.keptUntilReturn = true
        _ = Unmanaged.passUnretained(self).retain()
    }

    /// Runs the action, counting the call; true when the box was retired during it and the
    /// call was the outermost: the caller then releases the box's own retain.
    /// The counts wrap instead of trapping (they nest as deep as the loop's callbacks, never
    /// near `Int.max`): no overflow test per wake-up.
    @inline(__always)
    func runCounted() -> Bool {
        unchecked.depth &+= 1
        wakeUp.begin()
        action()
        wakeUp.end()
        unchecked.depth &-= 1
        guard unchecked.depth == 0, unchecked.keptUntilReturn else { return false }
        unchecked.keptUntilReturn = false
        return true
    }
}

/// The owner of a global: told when a client binds it.
package protocol GlobalOwner: AnyObject {
    func bind(client: OpaquePointer, version: UInt32, id: UInt32)
}

/// The Swift object behind a resource; told when the resource is destroyed (by the client,
/// by the compositor, or because the client disconnected).
package protocol ResourceObject: AnyObject {
    func resourceDestroyed()
}
