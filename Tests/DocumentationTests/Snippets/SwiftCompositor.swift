// The code of EmbeddingInASwiftCompositor.md. Every ```swift block of that guide stands here
// verbatim (GuideCodeTests checks it); this file compiles with the package, and the tests in
// DocumentationTests run what needs no devices.
import SeatKit
import SeatKitHeadlessShell
import SeatKitLibinput
import SeatKitWayland
import SeatKitXKB

/// A compositor that has its own `wl_display`, event loop and shell: SeatKit adds a seat.
final class MyCompositor: CompositorDelegate {
    let display: WaylandDisplay
    let router: Router
    let output: Output
    let keyboard: Keyboard
    let seat: Seat
    let dataDevice: DataDevice

    init(wlDisplay: OpaquePointer, shell: any WaylandSurfaceRoles) throws {
        display = WaylandDisplay(wrapping: wlDisplay)      // struct wl_display *; you keep owning it
        router = Router(clock: display.clock)              // timers on your wl_event_loop
        output = Output(name: "DSI-1", modeSize: Size(width: 1280, height: 800))
        router.addOutput(output)

        keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us")))
        keyboard.attach(to: router)                        // keysyms, text and modifiers for keys
        seat = Seat(display: display, router: router, keymap: keyboard)
        seat.surfaceRoles = shell                          // kept by the seat: roles, regions, outputs
        dataDevice = DataDevice(seat: seat)                // clipboard: GTK4 makes no seat without one
        keyboard.keymapDidChange = { [unowned seat] _ in seat.keymapDidChange() }
        router.delegate = self                             // the last responder of every chain
    }

    // CompositorDelegate: clients learn what the devices can do.
    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {
        seat.capabilities = capabilities
    }

    /// A client's toplevel was mapped: it gets a surface in the tree and keyboard focus.
    func map(wlSurface: OpaquePointer, appID: String) -> Surface {
        let responder = ClientSurfaceResponder(seat: seat, surfaceResource: wlSurface)
        let window = Surface(name: appID, frame: SurfaceRect(x: 0, y: 0, width: 1280, height: 800),
                             responder: responder)
        output.root.addChild(window)                       // on top of its siblings
        router.becomeFirstResponder(window)
        return window
    }

    /// The client destroyed its wl_surface.
    func unmap(_ window: Surface) {
        (window.responder as? ClientSurfaceResponder)?.surfaceDestroyed()
        window.removeFromParent()                          // its touches are cancelled, focus moves on
    }

    /// A popup of a mapped surface, placed by the shell's positioner code.
    func mapPopup(wlSurface: OpaquePointer, of parent: Surface, at origin: SurfacePoint, size: Size) -> Surface {
        let popup = Surface(name: "popup", frame: SurfaceRect(origin: origin, size: size),
                            responder: ClientSurfaceResponder(seat: seat, surfaceResource: wlSurface))
        parent.addChild(popup)                             // in the parent's space, above it
        return popup
    }

    /// xdg_popup.grab or xdg_toplevel.move: only for a press the client was really sent.
    func mayGrab(wlClient: OpaquePointer, serial: UInt32) -> Bool {
        seat.serials.contains(serial, for: ClientID(wlClient), kinds: [.button, .touchDown, .key])
    }

    /// The cursor the focused client chose, drawn by the compositor.
    func showClientCursors() {
        seat.cursorChanged = { [unowned self] cursor in
            // A wl_surface (struct wl_resource *) drawn with its hotspot at the pointer, or nil.
            self.drawCursor(cursor?.surfaceResource, hotspotX: cursor?.hotspotX ?? 0, hotspotY: cursor?.hotspotY ?? 0)
        }
    }

    var drawnCursor: (surface: OpaquePointer?, hotspotX: Int32, hotspotY: Int32)?
    func drawCursor(_ surface: OpaquePointer?, hotspotX: Int32, hotspotY: Int32) {
        drawnCursor = (surface, hotspotX, hotspotY)
    }

    /// Input from the compositor's own backend, in layout space.
    func touchDown(at point: LayoutPoint, finger: Int32, device: DeviceID) {
        seat.router.inject(InputEvent(time: router.clock.now, device: device, .touchDown(TouchID(finger), point)))
        seat.router.inject(InputEvent(time: router.clock.now, device: device, .touchFrame))
    }
}

/// The compositor's shell as the guide imagines it: the state its wl_compositor keeps.
final class MyShell {
    var cursorSurfaces: Set<OpaquePointer> = []
    var surfacesWithRoles: Set<OpaquePointer> = []
    var regions: [OpaquePointer: [SurfaceRect]] = [:]
    var outputs: [ObjectIdentifier: [OpaquePointer]] = [:]

    func giveCursorRole(to surface: OpaquePointer) -> Bool {
        guard !surfacesWithRoles.contains(surface) || cursorSurfaces.contains(surface) else { return false }
        surfacesWithRoles.insert(surface)
        cursorSurfaces.insert(surface)
        return true
    }

    func wlOutputs(showing output: Output) -> [OpaquePointer] { outputs[ObjectIdentifier(output)] ?? [] }
}

/// The seat's questions, answered from the shell's state.
final class MyShellRoles: WaylandSurfaceRoles {
    unowned let shell: MyShell                         // never the seat: the seat keeps this object
    init(shell: MyShell) { self.shell = shell }

    func assignCursorRole(to surface: OpaquePointer) -> Bool {
        shell.giveCursorRole(to: surface)              // false if it has another role: a protocol error
    }
    func rectangles(of region: OpaquePointer) -> [SurfaceRect]? {
        shell.regions[region]                          // surface-local; nil for a region not yours
    }
    func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] {
        shell.wlOutputs(showing: output).filter { ClientID(owning: $0) == ClientID(client) }
    }
}

/// A seat that also offers the virtual keyboard and the input method.
func seatWithEveryExtension(display: WaylandDisplay, router: Router, keyboard: Keyboard) -> Seat {
    let seat = Seat(display: display, router: router, keymap: keyboard,
                    extensions: SeatExtensions.all.union([.virtualKeyboard, .inputMethod, .virtualPointer]))
    return seat
}

/// libinput read on the display's event loop, its events translated into layout space.
func readDevices(of compositor: MyCompositor) throws {
    let backend = try LibinputBackend(seat: "seat0", opener: DirectDeviceOpener())
    let seat = compositor.seat, router = compositor.router
    compositor.display.watch(fileDescriptor: backend.fileDescriptor) {
        for event in backend.dispatchEvents() {
            seat.router.inject(backend.translator.translate(event, router: router))
        }
    }
}

/// A compositor that lets SeatKit open the display and be the shell (a headless kiosk).
func headlessCompositor() throws -> (WaylandDisplay, Router, Seat, HeadlessShell) {
    let display = try WaylandDisplay()                     // listens on the first free wayland-N
    let router = Router(clock: display.clock)
    let output = Output(name: "HEADLESS-1", modeSize: Size(width: 1280, height: 800))
    router.addOutput(output)
    let keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us")))
    keyboard.attach(to: router)
    let seat = Seat(display: display, router: router, keymap: keyboard)
    let shell = HeadlessShell(display: display, seat: seat)  // wl_compositor, xdg_wm_base, wl_shm, …
    shell.advertise(output)
    print("listening on \(display.socketName)")
    return (display, router, seat, shell)                  // then display.run()
}
