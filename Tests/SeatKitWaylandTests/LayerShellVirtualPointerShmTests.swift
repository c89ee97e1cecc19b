import Foundation
import Testing

// zwlr_layer_shell_v1, zwlr_virtual_pointer_manager_v1 and the headless shell's own wl_shm,
// spoken on the wire against the kiosk (examples/kiosk: the headless shell, side by side).

extension WireClient {
    /// zwlr_layer_shell_v1.get_layer_surface for a new wl_surface on `layer` (0 background,
    /// 1 bottom, 2 top, 3 overlay), with `setUp` sent before the initial commit; returns the
    /// objects and the size of the first configure, which it acknowledges.
    func layerSurface(_ namespace: String, layer: UInt32, compositor: UInt32, layerShell: UInt32,
                      setUp: (_ layerSurface: UInt32) -> Void) throws -> (surface: UInt32, layerSurface: UInt32, size: (UInt32, UInt32)) {
        let surface = newID()
        send(compositor, 0, [surface])  // create_surface
        let layerSurface = newID()
        send(layerShell, 0, [layerSurface, surface, UInt32(0), layer, namespace])  // get_layer_surface(no output)
        setUp(layerSurface)
        send(surface, 6, [])  // commit
        guard let configure = read(until: { $0.object == layerSurface && $0.opcode == 0 }) else { throw SessionError("no layer configure") }
        send(layerSurface, 6, [configure.uint(at: 0)])  // ack_configure
        return (surface, layerSurface, (configure.uint(at: 1), configure.uint(at: 2)))
    }

    /// Attaches a `width`×`height` buffer and commits: the surface maps.
    func show(_ surface: UInt32, width: UInt32, height: UInt32) throws {
        send(surface, 1, [try shmBuffer(width: width, height: height), UInt32(0), UInt32(0)])  // attach
        send(surface, 6, [])  // commit
    }

    /// Every message until `stop` (included), or until the timeout.
    func messages(until stop: (Message) -> Bool, timeout: Duration = KioskSession.timeout) -> [Message] {
        var seen: [Message] = []
        _ = read(until: { seen.append($0); return stop($0) }, timeout: timeout)
        return seen
    }
}

/// Layer-surface anchors (bits of zwlr_layer_surface_v1.anchor).
private let top: UInt32 = 1, bottom: UInt32 = 2, left: UInt32 = 4, right: UInt32 = 8
private func fixed(_ v: Double) -> UInt32 { UInt32(bitPattern: Int32(v * 256)) }

extension EndToEndTests {
    /// A panel anchored to the top with an exclusive zone, and a wallpaper anchored to every
    /// edge: each is configured with its size (the wallpaper with what the panel leaves),
    /// placed where its anchors say, and stacked by layer around the window: the panel
    /// above it, the wallpaper below it, for the pointer as for the eye. A maximized window
    /// is offered the area the panel leaves.
    @Test func layerSurfacesArePlacedByAnchorsAndExclusiveZonesAndStackedAroundWindows() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let window = try wire.mapToplevel(appID: "app", width: 400, height: 300)
        _ = try session.waitForWindow("app")
        let compositor = try wire.bind("wl_compositor", version: 4)
        let shell = try wire.bind("zwlr_layer_shell_v1", version: 4)

        let panel = try wire.layerSurface("panel", layer: 2, compositor: compositor, layerShell: shell) { l in
            wire.send(l, 0, [UInt32(0), UInt32(50)])  // set_size(0, 50)
            wire.send(l, 1, [top | left | right])  // set_anchor
            wire.send(l, 2, [UInt32(50)])  // set_exclusive_zone
        }
        #expect(panel.size == (1920, 50), "stretched between its left and right anchors")
        try wire.show(panel.surface, width: 1920, height: 50)
        try session.log.require("layer surface panel mapped on top at 0,0 size 1920x50")

        let wallpaper = try wire.layerSurface("wallpaper", layer: 0, compositor: compositor, layerShell: shell) { l in
            wire.send(l, 1, [top | bottom | left | right])  // set_anchor, size 0x0: fill
        }
        #expect(wallpaper.size == (1920, 1030), "what the panel's exclusive zone leaves")
        try wire.show(wallpaper.surface, width: 1920, height: 1030)
        try session.log.require("layer surface wallpaper mapped on background at 0,50 size 1920x1030")

        func entered(at x: Double, _ y: Double) -> UInt32? {
            session.send([Script.move(x, y)])
            return wire.read(until: { $0.object == pointer && $0.opcode == 0 })?.uint(at: 1)
        }
        #expect(entered(at: 100, 200) == window.surface, "the window is above the wallpaper")
        #expect(entered(at: 100, 20) == panel.surface, "the panel is above the window")
        #expect(entered(at: 1000, 600) == wallpaper.surface)

        wire.send(window.toplevel, 9, [])  // set_maximized
        let configure = try #require(wire.read(until: { $0.object == window.toplevel && $0.opcode == 0 }))
        #expect(Self.toplevelConfigure(configure).width == 1920 && Self.toplevelConfigure(configure).height == 1030)

        // A null buffer unmaps the panel: the usable area grows back, the window hears it.
        wire.send(panel.surface, 1, [UInt32(0), UInt32(0), UInt32(0)])
        wire.send(panel.surface, 6, [])
        let grown = try #require(wire.read(until: { $0.object == window.toplevel && $0.opcode == 0 }))
        #expect(Self.toplevelConfigure(grown).height == 1080)
    }

    /// Keyboard interactivity through the router's first responder: an on-screen keyboard
    /// (`none`) takes touches but never focus; `exclusive` takes focus and keeps it against
    /// clicks on the window; back to `none` it gives focus back; `on_demand` takes it when
    /// tapped and gives it up to a click on the window.
    @Test func layerKeyboardInteractivityFollowsTheFirstResponderRules() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let keyboard = wire.getKeyboard(seat)
        let touch = wire.getTouch(seat)
        let pointer = wire.getPointer(seat)
        let window = try wire.mapToplevel(appID: "app", width: 400, height: 300)
        _ = try session.waitForWindow("app")
        #expect(wire.read(until: { $0.object == keyboard && $0.opcode == 1 })?.uint(at: 1) == window.surface)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let shell = try wire.bind("zwlr_layer_shell_v1", version: 4)
        let osk = try wire.layerSurface("osk", layer: 2, compositor: compositor, layerShell: shell) { l in
            wire.send(l, 0, [UInt32(0), UInt32(200)])
            wire.send(l, 1, [bottom | left | right])
        }
        try wire.show(osk.surface, width: 1920, height: 200)
        try session.log.require("layer surface osk mapped on top at 0,880 size 1920x200")

        func focusEvents(until stop: (WireClient.Message) -> Bool) -> [(enter: Bool, surface: UInt32)] {
            wire.messages(until: stop).filter { $0.object == keyboard && ($0.opcode == 1 || $0.opcode == 2) }
                .map { ($0.opcode == 1, $0.uint(at: 1)) }
        }
        // A tap on the keyboard reaches it; focus stays with the window.
        session.send(Script.tap(100, 1000))
        var events = focusEvents { $0.object == touch && $0.opcode == 1 }  // wl_touch.up
        #expect(events.isEmpty, "\(events)")

        // Exclusive: it takes focus, and a click on the window does not take it back.
        wire.send(osk.layerSurface, 4, [UInt32(1)])  // set_keyboard_interactivity(exclusive)
        wire.send(osk.surface, 6, [])
        events = focusEvents { $0.object == keyboard && $0.opcode == 1 }
        #expect(events.map(\.enter) == [false, true] && events.last?.surface == osk.surface, "\(events)")
        session.send([Script.move(100, 100)] + Script.click())
        events = focusEvents { $0.object == pointer && $0.opcode == 3 && $0.uint(at: 3) == 0 }  // the click's release
        #expect(events.isEmpty, "an exclusive layer keeps focus: \(events)")

        // None again: focus goes back to the window.
        wire.send(osk.layerSurface, 4, [UInt32(0)])
        wire.send(osk.surface, 6, [])
        events = focusEvents { $0.object == keyboard && $0.opcode == 1 }
        #expect(events.map(\.enter) == [false, true] && events.last?.surface == window.surface, "\(events)")

        // On demand: a tap gives it focus, a click on the window takes it back.
        wire.send(osk.layerSurface, 4, [UInt32(2)])
        wire.send(osk.surface, 6, [])
        session.send(Script.tap(100, 1000))
        events = focusEvents { $0.object == keyboard && $0.opcode == 1 }
        #expect(events.last?.enter == true && events.last?.surface == osk.surface, "\(events)")
        session.send([Script.move(100, 100)] + Script.click())
        events = focusEvents { $0.object == keyboard && $0.opcode == 1 }
        #expect(events.last?.enter == true && events.last?.surface == window.surface, "\(events)")
    }

    /// A layer surface committed without a size on an axis it is not stretched along is the
    /// client's error (invalid_size); the kiosk goes on.
    @Test func aLayerSurfaceWithoutASizeIsAProtocolError() throws {
        let (session, wire, _) = try KioskSession.withSeatClient()
        let compositor = try wire.bind("wl_compositor", version: 4)
        let shell = try wire.bind("zwlr_layer_shell_v1", version: 4)
        let surface = wire.newID()
        wire.send(compositor, 0, [surface])
        let layerSurface = wire.newID()
        wire.send(shell, 0, [layerSurface, surface, UInt32(0), UInt32(2), "bad"])
        wire.send(layerSurface, 1, [left | right])  // stretched horizontally, no height
        wire.send(surface, 6, [])
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no protocol error")
        #expect(error.uint(at: 0) == layerSurface && error.uint(at: 1) == 1)  // invalid_size
        #expect(session.kioskIsRunning)
    }

    /// A virtual pointer is a router device: nothing moves before the client's frame; its
    /// absolute motion, buttons and scrolls then reach the window under it, and the kiosk's
    /// click-to-focus filter sees its click like a mouse's.
    @Test func aVirtualPointersFramesGoThroughTheRouterLikeAMouse() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let keyboard = wire.getKeyboard(seat)
        let first = try wire.mapToplevel(appID: "first", width: 400, height: 300)
        _ = try session.waitForWindow("first")
        #expect(wire.read(until: { $0.object == keyboard && $0.opcode == 1 })?.uint(at: 1) == first.surface)
        let second = try wire.mapToplevel(appID: "second", width: 400, height: 300)
        _ = try session.waitForWindow("second")  // side by side: at 400,0

        let manager = try wire.bind("zwlr_virtual_pointer_manager_v1", version: 2)
        let virtual = wire.newID()
        wire.send(manager, 0, [seat, virtual])  // create_virtual_pointer
        try session.log.require("capabilities keyboard,pointer,touch")
        wire.send(virtual, 1, [UInt32(0), UInt32(600), UInt32(150), UInt32(1920), UInt32(1080)])  // motion_absolute
        #expect(wire.sync())
        #expect(wire.messages(until: { _ in false }, timeout: .milliseconds(200)).filter { $0.object == pointer }.isEmpty,
                "no event before the frame")
        wire.send(virtual, 4, [])  // frame
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no enter")
        #expect(enter.uint(at: 1) == second.surface && enter.uint(at: 2) == fixed(200) && enter.uint(at: 3) == fixed(150))

        wire.send(virtual, 2, [UInt32(0), UInt32(272), UInt32(1)])  // button left pressed
        wire.send(virtual, 4, [])
        let seen = wire.messages(until: { $0.object == pointer && $0.opcode == 3 })
        let button = try #require(seen.last.flatMap { $0.object == pointer && $0.opcode == 3 ? $0 : nil }, "no button")
        #expect(button.uint(at: 2) == 272 && button.uint(at: 3) == 1)
        // The kiosk's click-to-focus filter saw it before the window did: the second window
        // has keyboard focus.
        #expect(seen.last { $0.object == keyboard && $0.opcode == 1 }?.uint(at: 1) == second.surface)
        wire.send(virtual, 2, [UInt32(0), UInt32(272), UInt32(0)])
        wire.send(virtual, 4, [])

        // A wheel detent: source, discrete step and value in one scroll.
        wire.send(virtual, 5, [UInt32(0)])  // axis_source(wheel)
        wire.send(virtual, 7, [UInt32(0), UInt32(0), fixed(15), UInt32(1)])  // axis_discrete(vertical, 15, 1)
        wire.send(virtual, 4, [])
        let axis = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 4 }), "no axis")
        #expect(axis.uint(at: 1) == 0 && axis.uint(at: 2) == fixed(15))

        // Relative motion: 300 px left, into the first window.
        wire.send(virtual, 0, [UInt32(0), fixed(-300), fixed(0)])  // motion
        wire.send(virtual, 4, [])
        let moved = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no enter after the motion")
        #expect(moved.uint(at: 1) == first.surface && moved.uint(at: 2) == fixed(300))
    }

    /// A virtual pointer's press can start an interactive move (a router pointer grab): the
    /// grab takes its motions, the window follows them, and its release ends the grab with
    /// the pointer at the same window-local point as at the press.
    @Test func aVirtualPointersPressStartsAnInteractiveMoveItsMotionsDrive() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let window = try wire.mapToplevel(appID: "mover", width: 400, height: 300)
        _ = try session.waitForWindow("mover")  // side by side: at 0,0
        let manager = try wire.bind("zwlr_virtual_pointer_manager_v1", version: 2)
        let virtual = wire.newID()
        wire.send(manager, 0, [seat, virtual])
        wire.send(virtual, 1, [UInt32(0), UInt32(20), UInt32(30), UInt32(1920), UInt32(1080)])  // to 20,30
        wire.send(virtual, 2, [UInt32(0), UInt32(272), UInt32(1)])  // press
        wire.send(virtual, 4, [])
        let press = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 3 }), "no press")
        wire.send(window.toplevel, 5, [seat, press.uint(at: 0)])  // xdg_toplevel.move
        _ = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 1 }), "the grab did not take the pointer")
        wire.send(virtual, 0, [UInt32(0), fixed(50), fixed(30)])  // motion
        wire.send(virtual, 4, [])
        wire.send(virtual, 2, [UInt32(0), UInt32(272), UInt32(0)])  // release
        wire.send(virtual, 4, [])
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no enter at the release")
        #expect(enter.uint(at: 1) == window.surface && enter.uint(at: 2) == fixed(20) && enter.uint(at: 3) == fixed(30),
                "the window moved with the virtual pointer")
    }

    /// The shell's wl_shm refuses a buffer whose stride is shorter than its width's pixels
    /// (libwayland's own wl_shm lets a quarter of the rows through).
    @Test func aBufferStrideTooShortForItsPixelsIsAProtocolError() throws {
        let (session, wire, _) = try KioskSession.withSeatClient()
        let shm = try wire.bind("wl_shm", version: 1)
        let path = NSTemporaryDirectory() + "/seatkit-stride-\(getpid())"
        let file = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(file) }
        unlink(path)
        #expect(ftruncate(file, 200 * 200) == 0)
        let pool = wire.newID()
        wire.send(shm, 0, [pool, UInt32(200 * 200)], passing: file)  // create_pool
        // A good buffer first: 100x100 at 4 bytes a pixel fits the 40000 bytes.
        wire.send(pool, 0, [wire.newID(), UInt32(0), UInt32(100), UInt32(100), UInt32(400), UInt32(1)])
        #expect(wire.sync())
        wire.send(pool, 0, [wire.newID(), UInt32(0), UInt32(200), UInt32(200), UInt32(200), UInt32(1)])  // stride 200 for 200 px
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no protocol error")
        #expect(error.uint(at: 0) == pool && error.uint(at: 1) == 1)  // wl_shm.error.invalid_stride
        #expect(session.kioskIsRunning)
    }
}
