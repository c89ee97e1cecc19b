import CSeatKitWLCS
import Foundation
import SeatKit
import SeatKitHeadlessShell
import SeatKitWayland
import SeatKitXKB

/// The compositor wlcs tests, on the server thread only: examples/kiosk's setup (a seat with
/// every extension, the headless shell, one 1920x1080 output at the layout's origin, a US
/// keymap) with a stacking policy instead of the kiosk's fullscreen one: a window maps where
/// wlcs placed it (or at 0,0), on top and focused; a click or touch focuses the window hit.
final class WLCSCompositor: CompositorDelegate, HeadlessShellDelegate, InputFilter {
    private let raw: OpaquePointer
    let display: WaylandDisplay
    let router: Router
    let output: Output
    let keyboard: Keyboard
    let seat: Seat
    let shell: HeadlessShell
    var stopping = false
    /// The server end of each connection, by the client end's fd (what wlcs knows it by).
    private var clients: [Int32: OpaquePointer] = [:]
    private var nextDevice: UInt32 = 1
    /// Issue 26's protocol objects (session lock is the shell's).
    private var protocols: [AnyObject] = []

    init() {
        raw = OpaquePointer(seatkit_wlcs_display_create())
        display = WaylandDisplay(wrapping: raw)
        router = Router(clock: display.clock)
        output = Output(name: "WLCS-1", modeSize: Size(width: 1920, height: 1080))
        router.addOutput(output)
        do {
            keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us")))
        } catch {
            fatalError("seatkit-wlcs: no US keymap: \(error)")
        }
        keyboard.attach(to: router)
        seat = Seat(display: display, router: router, keymap: keyboard,
                    extensions: SeatExtensions.all.union([.virtualKeyboard, .inputMethod, .virtualPointer]))
        keyboard.keymapDidChange = { [unowned seat] _ in seat.keymapDidChange() }
        shell = HeadlessShell(display: display, seat: seat)
        shell.advertise(output)
        // wlcs 1.5's clients attach a buffer before they acknowledge the first configure.
        shell.acceptsBuffersBeforeConfigure = true
        // and gets_configure_event expects a configure before any commit, as Mir sends it.
        shell.configuresToplevelsWhenMade = true
        // Issue 26's protocols, as the kiosk offers them (the descriptor lists them).
        shell.offerSessionLock()
        protocols = [IdleNotifier(seat: seat), CursorShapeManager(seat: seat), DataControl(dataDevice: shell.dataDevice),
                     XDGActivation(seat: seat)]
        router.delegate = self
        // SEATKIT_WLCS_TRACE=1: the router's trace on stderr, to see why a test's input went
        // where it went.
        if ProcessInfo.processInfo.environment["SEATKIT_WLCS_TRACE"] == "1" { router.trace = StderrTrace() }
        seat.capabilities = Self.capabilities
        // wlcs has no fake keyboard; one is plugged in, as on any desktop.
        _ = addDevice(DeviceInfo(name: "wlcs keyboard", capabilities: [.keyboard]))
        router.addFilter(self)
        shell.delegate = self
    }

    /// Destroys the clients while the seat and shell can still hear their resources go, then
    /// the display (the caller drops this object first: nothing may use it afterwards).
    func tearDown() {
        seatkit_wlcs_display_destroy(UnsafeMutableRawPointer(raw))
    }

    // MARK: wlcs requests

    func createClientSocket() -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return -1 }
        guard let client = seatkit_wlcs_client_create(UnsafeMutableRawPointer(raw), fds[0]) else {
            close(fds[0])
            close(fds[1])
            return -1
        }
        clients[fds[1]] = OpaquePointer(client)
        return fds[1]
    }

    /// Places the window's top left at a layout point (= output point: the output is at the
    /// origin). The window need not be mapped yet: it maps where it was placed.
    func position(clientFD: Int32, surfaceID: UInt32, x: Double, y: Double) {
        guard let client = clients[clientFD],
              let resource = seatkit_wlcs_client_object(UnsafeMutableRawPointer(client), surfaceID),
              let surface = shell.surface(forResource: OpaquePointer(resource)) else {
            seatkit_wlcs_log("position_window_absolute for an unknown surface \(surfaceID)")
            return
        }
        // wlcs places the window, that is its window geometry, not its shadow.
        let geometry = shell.toplevels.first { $0.surface === surface }?.windowGeometry?.origin ?? .zero
        surface.frame.origin = SurfacePoint(x: x - geometry.x, y: y - geometry.y)
        if !isPlaced(surface) { placed.append(Weak(surface)) }
        if surface.parent != nil { rebasePointer() }
    }

    /// Windows wlcs placed: they map (and map again after an unmap) where they were placed.
    private var placed: [Weak] = []
    private func isPlaced(_ surface: Surface) -> Bool {
        placed.removeAll { $0.surface == nil }
        return placed.contains { $0.surface === surface }
    }
    /// The fake pointers, newest last.
    var pointers: [DeviceID] = []

    /// After a window moved or mapped: focus follows, and a window that moved under a
    /// pointer that did not move hears a motion with the new surface-local position
    /// (``Router/refreshPointerFocus(time:)`` does both); so does one that moved under a
    /// finger still down (``Router/refreshTouchLocations(time:)``).
    private func rebasePointer() {
        router.refreshPointerFocus()
        router.refreshTouchLocations()
        display.flushClients()
    }

    func addDevice(_ info: DeviceInfo) -> DeviceID {
        let device = DeviceID(nextDevice)
        nextDevice += 1
        inject(device, .deviceAdded(info))
        return device
    }

    func inject(_ device: DeviceID, _ kind: InputEvent.Kind) {
        seat.router.inject(InputEvent(time: router.clock.now, device: device, kind))
        display.flushClients()
    }

    // MARK: Windows

    func shell(_ shell: HeadlessShell, mapped toplevel: Toplevel) {
        let surface = toplevel.surface
        if !isPlaced(surface) {
            // Centred, as Mir places new windows: not under a pointer that has not moved
            // yet (wlcs's tests place windows and expect enter only when they move there).
            let size = surface.frame.size
            surface.frame.origin = SurfacePoint(x: ((output.root.frame.size.width - size.width) / 2).rounded(.down),
                                                y: ((output.root.frame.size.height - size.height) / 2).rounded(.down))
        }
        output.root.addChild(surface)
        _ = router.becomeFirstResponder(surface)
        rebasePointer()
    }

    func shell(_ shell: HeadlessShell, unmapped toplevel: Toplevel) {}

    /// The seat offers a pointer, a keyboard and touch from the start, whatever devices exist:
    /// wlcs's clients bind their devices once, when they bind wl_seat, and create fake
    /// devices only afterwards (Smithay's anvil and Mir offer all three the same way).
    static let capabilities: DeviceCapabilities = [.pointer, .keyboard, .touch]

    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {
        seat.capabilities = Self.capabilities
        // The keyboard plugged in at the start stays; nothing unplugs it, so a fake pointer
        // or touchscreen coming and going adds no second one.
        if !capabilities.contains(.keyboard) { _ = addDevice(DeviceInfo(name: "wlcs keyboard", capabilities: [.keyboard])) }
    }

    /// How many keyboards the router knows (one: the one plugged in at the start).
    var keyboardDeviceCount: Int { router.devices.values.filter { $0.capabilities.contains(.keyboard) }.count }

    func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        if formerParent !== output.root, let window = window(containing: formerParent) { return window }
        return shell.toplevels.last { $0.surface !== removed && !$0.surface.isDescendant(of: removed) && $0.surface.parent != nil }?.surface
    }

    // MARK: Click and tap to focus

    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        switch event.kind {
        case .pointerButton(_, .pressed): focusWindow(at: router.pointerLocation)
        case .touchDown(_, let point): focusWindow(at: point)
        default: break
        }
        return .pass
    }

    private func focusWindow(at point: LayoutPoint) {
        guard let hit = router.surface(at: point), let window = window(containing: hit) else { return }
        if let current = router.firstResponder, current === window || current.isDescendant(of: window) { return }
        _ = router.becomeFirstResponder(window)
    }

    private func window(containing surface: Surface) -> Surface? {
        var node: Surface? = surface
        while let current = node, current.parent !== output.root { node = current.parent }
        return node
    }
}

/// Router trace records, one a line on stderr.
final class StderrTrace: TraceSink {
    func record(_ record: TraceRecord) { seatkit_wlcs_log("trace: \(record)") }
}

/// A surface held weakly.
struct Weak {
    weak var surface: Surface?
    init(_ surface: Surface) { self.surface = surface }
}
