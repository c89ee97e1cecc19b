import Foundation
import Glibc
import Testing

/// A Wayland client that writes the wire protocol by hand, for the misbehaviour no
/// well-behaved client shows (asking for a device the seat never had), and for protocols no
/// client in Debian 12 speaks (cursor-shape-v1). It speaks to the real libwayland-server of
/// a compositor through its real socket.
///
/// One file for two test targets: SeatKitWaylandTests (the Swift kiosk) has it here, and
/// CSeatKitTests (the wlroots kiosk) through a symbolic link to it, so it needs nothing of
/// either target.
final class WireClient {
    /// How long a read waits by default (as long as the kiosk sessions' waits).
    static let timeout: Duration = .seconds(20)

    private let fd: Int32
    private var incoming = [UInt8]()
    private var nextID: UInt32 = 2
    /// Called with every message read, before the caller's `stop` sees it: for a helper that
    /// must not miss what arrives while another read waits for something else (WirePads).
    var observer: ((Message) -> Void)?
    /// Called while waiting for messages, for a compositor running in the test's own thread
    /// (its loop dispatched here); waits then poll in 5 ms steps.
    var pump: (() -> Void)?
    /// Globals advertised by the registry: interface name → (global name, version).
    private(set) var globals: [String: (name: UInt32, version: UInt32)] = [:]
    /// Every global of the registry in the order announced (several of one interface, as
    /// wl_outputs, included): interface name, global name.
    private(set) var announced: [(interface: String, name: UInt32)] = []

    struct Message {
        var object: UInt32
        var opcode: UInt16
        var body: [UInt8]

        func uint(at word: Int) -> UInt32 {
            body.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: word * 4, as: UInt32.self) }
        }

        /// The string argument starting at `word`.
        func string(at word: Int) -> String {
            let length = Int(uint(at: word))
            let start = (word + 1) * 4
            return String(decoding: body[start..<(start + max(0, length - 1))], as: UTF8.self)
        }
    }

    init(runtimeDirectory: String, socket: String) throws {
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((runtimeDirectory + "/" + socket).utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, c) in path.enumerated() where i < raw.count { raw[i] = UInt8(bitPattern: c) }
        }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else { throw WireError("cannot connect to \(socket)") }
    }

    deinit { close(fd) }

    func newID() -> UInt32 {
        defer { nextID += 1 }
        return nextID
    }

    /// Sends request `opcode` to `object`; arguments are 32-bit words or strings.
    func send(_ object: UInt32, _ opcode: UInt16, _ arguments: [Any]) {
        var body = [UInt8]()
        func word(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { body.append(contentsOf: $0) } }
        for argument in arguments {
            if let v = argument as? UInt32 {
                word(v)
            } else if let s = argument as? String {
                let bytes = Array(s.utf8) + [0]
                word(UInt32(bytes.count))
                body.append(contentsOf: bytes)
                while body.count % 4 != 0 { body.append(0) }
            }
        }
        var message = [UInt8]()
        withUnsafeBytes(of: object.littleEndian) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: (UInt32(body.count + 8) << 16 | UInt32(opcode)).littleEndian) { message.append(contentsOf: $0) }
        message += body
        // MSG_NOSIGNAL: a compositor that hung up on a misbehaving client must fail the write,
        // not kill the test process with SIGPIPE.
        _ = message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends a request whose last argument is a file descriptor (SCM_RIGHTS ancillary data).
    func send(_ object: UInt32, _ opcode: UInt16, _ arguments: [Any], passing fd: Int32) {
        var body = [UInt8]()
        for case let v as UInt32 in arguments { withUnsafeBytes(of: v.littleEndian) { body.append(contentsOf: $0) } }
        var message = [UInt8]()
        withUnsafeBytes(of: object.littleEndian) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: (UInt32(body.count + 8) << 16 | UInt32(opcode)).littleEndian) { message.append(contentsOf: $0) }
        message += body
        // struct cmsghdr { size_t len; int level; int type; } followed by the fd: CMSG_LEN(4) = 20.
        var control = [UInt8](repeating: 0, count: 24)
        control.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: 20, toByteOffset: 0, as: Int.self)
            raw.storeBytes(of: SOL_SOCKET, toByteOffset: 8, as: Int32.self)
            raw.storeBytes(of: Int32(SCM_RIGHTS), toByteOffset: 12, as: Int32.self)
            raw.storeBytes(of: fd, toByteOffset: 16, as: Int32.self)
        }
        message.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { control in
                var iov = iovec(iov_base: data.baseAddress, iov_len: data.count)
                withUnsafeMutablePointer(to: &iov) { iovPointer in
                    var header = msghdr(msg_name: nil, msg_namelen: 0, msg_iov: iovPointer, msg_iovlen: 1,
                                        msg_control: control.baseAddress, msg_controllen: control.count, msg_flags: 0)
                    _ = sendmsg(self.fd, &header, Int32(MSG_NOSIGNAL))
                }
            }
        }
    }

    /// The objects of a mapped window.
    struct Window {
        var surface: UInt32
        var xdgSurface: UInt32
        var toplevel: UInt32
    }

    /// Maps a `width`×`height` xdg_toplevel with app id `appID`, as a minimal client does:
    /// initial commit, ack of the configure, a shm buffer, commit.
    func mapToplevel(appID: String, width: UInt32 = 200, height: UInt32 = 100) throws -> Window {
        let compositor = try bind("wl_compositor", version: 4)
        let wmBase = try bind("xdg_wm_base", version: 1)
        let buffer = try shmBuffer(width: width, height: height)
        let surface = newID()
        send(compositor, 0, [surface])  // create_surface
        let xdgSurface = newID()
        send(wmBase, 2, [xdgSurface, surface])  // get_xdg_surface
        let toplevel = newID()
        send(xdgSurface, 1, [toplevel])  // get_toplevel
        send(toplevel, 3, [appID])  // set_app_id
        send(surface, 6, [])  // commit
        guard let configure = read(until: { $0.object == xdgSurface && $0.opcode == 0 }) else { throw WireError("no configure") }
        send(xdgSurface, 4, [configure.uint(at: 0)])  // ack_configure
        send(surface, 1, [buffer, UInt32(0), UInt32(0)])  // attach
        send(surface, 6, [])  // commit
        return Window(surface: surface, xdgSurface: xdgSurface, toplevel: toplevel)
    }

    /// A new wl_surface made a subsurface of `parent` (`wl_subcompositor.get_subsurface`),
    /// placed at `position` in the parent's space when one is given, with a
    /// `width`×`height` buffer attached and committed. What it shows applies when the parent
    /// commits, which is left to the caller (a test may place it first).
    func mapSubsurface(of parent: UInt32, at position: (x: UInt32, y: UInt32)? = nil, width: UInt32, height: UInt32,
                       compositor: UInt32, subcompositor: UInt32) throws -> (surface: UInt32, subsurface: UInt32) {
        let surface = newID()
        send(compositor, 0, [surface])  // create_surface
        let subsurface = newID()
        send(subcompositor, 1, [subsurface, surface, parent])  // get_subsurface
        if let position { send(subsurface, 1, [position.x, position.y]) }  // set_position
        send(surface, 1, [try shmBuffer(width: width, height: height), UInt32(0), UInt32(0)])  // attach
        send(surface, 6, [])  // commit
        return (surface, subsurface)
    }

    /// A 50×50 xdg_popup of `parent`, anchored to the 10×10 box at its top left, that grabs
    /// `seat` with `serial` (a button press's) and shows: the initial commit, the ack of its
    /// configure, a shm buffer and the commit that maps it. Returns the xdg_popup's id; the
    /// caller syncs or waits for the compositor's answer.
    func mapGrabbingPopup(of parent: Window, seat: UInt32, serial: UInt32,
                          compositor: UInt32, wmBase: UInt32) throws -> UInt32 {
        let positioner = newID()
        send(wmBase, 1, [positioner])  // create_positioner
        send(positioner, 1, [UInt32(50), UInt32(50)])  // set_size
        send(positioner, 2, [UInt32(0), UInt32(0), UInt32(10), UInt32(10)])  // set_anchor_rect
        let surface = newID()
        send(compositor, 0, [surface])  // create_surface
        let xdgSurface = newID()
        send(wmBase, 2, [xdgSurface, surface])  // get_xdg_surface
        let popup = newID()
        send(xdgSurface, 2, [popup, parent.xdgSurface, positioner])  // get_popup
        send(popup, 1, [seat, serial])  // grab
        send(surface, 6, [])  // initial commit
        guard let configure = read(until: { $0.object == xdgSurface && $0.opcode == 0 }) else { throw WireError("no popup configure") }
        send(xdgSurface, 4, [configure.uint(at: 0)])  // ack_configure
        send(surface, 1, [try shmBuffer(width: 50, height: 50), UInt32(0), UInt32(0)])  // attach
        send(surface, 6, [])  // commit: the popup shows, grabbing
        return popup
    }

    /// A `width`×`height` xrgb8888 wl_buffer in a pool of its own (wl_shm bound on first
    /// use): returns the buffer's id.
    /// With `shrinkingFileTo`, the pool's file is cut to that many bytes once the buffer is
    /// made: a client that lies about its memory.
    func shmBuffer(width: UInt32, height: UInt32, shrinkingFileTo shrunk: Int? = nil) throws -> UInt32 {
        if shm == nil { shm = try bind("wl_shm", version: 1) }
        let size = width * height * 4
        let path = NSTemporaryDirectory() + "/seatkit-wire-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0, ftruncate(file, off_t(size)) == 0 else { throw WireError("no shm file") }
        unlink(path)
        defer { close(file) }
        let pool = newID()
        send(shm!, 0, [pool, size], passing: file)  // wl_shm.create_pool(id, fd, size)
        let buffer = newID()
        send(pool, 0, [buffer, UInt32(0), width, height, width * 4, UInt32(1)])  // create_buffer, xrgb8888
        if let shrunk, ftruncate(file, off_t(shrunk)) != 0 { throw WireError("ftruncate failed") }
        return buffer
    }
    private var shm: UInt32?

    /// Reads messages until `stop` says so or the deadline passes; nil on timeout or hang-up.
    func read(until stop: (Message) -> Bool, timeout: Duration = WireClient.timeout) -> Message? {
        let deadline = ContinuousClock.now + timeout
        while true {
            while incoming.count >= 8 {
                let size = Int(incoming.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) } >> 16)
                guard incoming.count >= size, size >= 8 else { break }
                let header = incoming.withUnsafeBytes { ($0.loadUnaligned(as: UInt32.self), $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) }
                let message = Message(object: header.0, opcode: UInt16(header.1 & 0xffff), body: Array(incoming[8..<size]))
                incoming.removeFirst(size)
                if message.object == 2 && message.opcode == 0 {  // wl_registry.global
                    globals[message.string(at: 1)] = (message.uint(at: 0), message.uint(at: 2 + (Int(message.uint(at: 1)) + 3) / 4))
                    announced.append((message.string(at: 1), message.uint(at: 0)))
                }
                observer?(message)
                if stop(message) { return message }
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            pump?()
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = pump == nil ? Int32(clamping: left.components.seconds * 1000 + 1) : 5
            guard poll(&pfd, 1, wait) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = Glibc.read(fd, &buffer, buffer.count)
            guard n > 0 else { return nil }
            incoming += buffer[0..<n]
        }
    }

    /// get_registry and a sync: returns once every global has been announced.
    func roundTripRegistry() throws {
        send(1, 1, [UInt32(newID())])  // wl_display.get_registry -> 2
        let callback = newID()
        send(1, 0, [callback])  // wl_display.sync
        guard read(until: { $0.object == callback }) != nil else { throw WireError("no registry") }
    }

    /// wl_display.sync: true when its callback came back, i.e. the compositor handled every
    /// earlier request without a protocol error.
    func sync() -> Bool {
        let callback = newID()
        send(1, 0, [callback])
        var failed = false
        let last = read(until: { message in
            if message.object == 1 && message.opcode == 0 { failed = true }
            return message.object == callback || failed
        })
        return last != nil && !failed
    }

    /// wl_registry.bind of the global named `name`: returns the new object's id.
    func bind(name: UInt32, _ interface: String, version: UInt32) -> UInt32 {
        let id = newID()
        send(2, 0, [name, interface, version, id])
        return id
    }

    /// wl_registry.bind: returns the new object's id.
    func bind(_ interface: String, version: UInt32) throws -> UInt32 {
        guard let global = globals[interface] else { throw WireError("no global \(interface)") }
        let id = newID()
        send(2, 0, [global.name, interface, min(version, global.version), id])
        return id
    }
}

/// The wire client's failures ("no configure", "no global wl_shm").
struct WireError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
