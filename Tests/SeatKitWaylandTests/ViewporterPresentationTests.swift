import Foundation
import Testing

// wp_viewporter, wp_fractional_scale_manager_v1 and wp_presentation, spoken on the wire
// against the kiosk (examples/kiosk: the headless shell, side by side).

private func fixed(_ v: Double) -> UInt32 { UInt32(bitPattern: Int32(v * 256)) }
private func int(_ v: Int32) -> UInt32 { UInt32(bitPattern: v) }

extension WireClient {
    /// wp_viewporter.get_viewport for `surface`: the wp_viewport's ID.
    func viewport(of surface: UInt32, viewporter: UInt32) -> UInt32 {
        let viewport = newID()
        send(viewporter, 1, [viewport, surface])  // get_viewport
        return viewport
    }

    /// The wl_display.error that ends this client: (object, code).
    func protocolError() throws -> (object: UInt32, code: UInt32) {
        let error = try #require(read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        return (error.uint(at: 0), error.uint(at: 1))
    }
}

extension EndToEndTests {
    /// A 200×100 buffer shown through a viewport whose destination is 400×300: the surface is
    /// 400×300 in SeatKit's tree, so the pointer at (350, 250) from the window's corner, outside
    /// the buffer's own size, enters the window at that surface-local point; unsetting the
    /// destination gives the buffer's size back and the pointer leaves.
    @Test func aViewportDestinationIsTheSurfaceSizeForHitTestingAndLocalPoints() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let viewporter = try wire.bind("wp_viewporter", version: 1)
        let window = try wire.mapToplevel(appID: "scaled", width: 200, height: 100)
        let placed = try session.waitForWindow("scaled")
        let viewport = wire.viewport(of: window.surface, viewporter: viewporter)
        wire.send(viewport, 2, [UInt32(400), UInt32(300)])  // set_destination
        wire.send(window.surface, 6, [])  // commit
        #expect(wire.sync())

        // Away from the window (the pointer may have entered it where it started), then in.
        session.send([Script.move(1900, 1000), Script.move(placed.x + 350, placed.y + 250)])
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 && $0.uint(at: 2) == fixed(350) }),
                                 "the pointer never entered the 400x300 surface at (350, 250)")
        #expect(enter.uint(at: 1) == window.surface)
        #expect(enter.uint(at: 2) == fixed(350) && enter.uint(at: 3) == fixed(250), "surface-local point of the 400x300 surface")

        wire.send(viewport, 2, [int(-1), int(-1)])  // unset: back to 200x100
        wire.send(window.surface, 6, [])
        #expect(wire.read(until: { $0.object == pointer && $0.opcode == 1 }) != nil, "the pointer leaves the shrunk surface")

        // A source rectangle alone (whole numbers) is the size too: 50x40 of the buffer.
        wire.send(viewport, 1, [fixed(10), fixed(10), fixed(50), fixed(40)])  // set_source
        wire.send(window.surface, 6, [])
        #expect(wire.sync())
        // x 60 is outside the 50-wide surface, x 40 inside: the first enter is at 40.
        session.send([Script.move(placed.x + 60, placed.y + 20), Script.move(placed.x + 40, placed.y + 20)])
        #expect(wire.read(until: { $0.object == pointer && $0.opcode == 0 })?.uint(at: 2) == fixed(40))
    }

    /// wp_viewport's protocol errors: bad_value for a non-positive size or negative
    /// position, bad_size for a fractional source size without a destination, out_of_buffer
    /// for a source outside the buffer (both when the state is applied), viewport_exists for
    /// a second viewport, no_surface once the wl_surface is gone. Each ends its client; the
    /// kiosk goes on serving the next.
    @Test func viewportRequestsBreakingTheProtocolAreErrors() throws {
        let session = try KioskSession()
        func client() throws -> (WireClient, window: WireClient.Window, viewporter: UInt32) {
            let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
            try wire.roundTripRegistry()
            let viewporter = try wire.bind("wp_viewporter", version: 1)
            return (wire, try wire.mapToplevel(appID: "v", width: 100, height: 100), viewporter)
        }
        let badValue: UInt32 = 0, badSize: UInt32 = 1, outOfBuffer: UInt32 = 2, noSurface: UInt32 = 3

        var (wire, window, viewporter) = try client()
        var viewport = wire.viewport(of: window.surface, viewporter: viewporter)
        wire.send(viewport, 2, [UInt32(0), UInt32(10)])
        #expect(try wire.protocolError() == (viewport, badValue))

        (wire, window, viewporter) = try client()
        viewport = wire.viewport(of: window.surface, viewporter: viewporter)
        wire.send(viewport, 1, [fixed(-1), fixed(0), fixed(10), fixed(10)])
        #expect(try wire.protocolError() == (viewport, badValue))

        (wire, window, viewporter) = try client()
        viewport = wire.viewport(of: window.surface, viewporter: viewporter)
        wire.send(viewport, 1, [fixed(0), fixed(0), fixed(10.5), fixed(10)])
        #expect(wire.sync(), "a fractional source size is fine until the state is applied")
        wire.send(window.surface, 6, [])
        #expect(try wire.protocolError() == (viewport, badSize))

        (wire, window, viewporter) = try client()
        viewport = wire.viewport(of: window.surface, viewporter: viewporter)
        wire.send(viewport, 1, [fixed(60), fixed(0), fixed(50), fixed(10)])
        wire.send(viewport, 2, [UInt32(20), UInt32(20)])
        wire.send(window.surface, 6, [])
        #expect(try wire.protocolError() == (viewport, outOfBuffer))

        (wire, window, viewporter) = try client()
        _ = wire.viewport(of: window.surface, viewporter: viewporter)
        _ = wire.viewport(of: window.surface, viewporter: viewporter)
        #expect(try wire.protocolError() == (viewporter, 0))  // viewport_exists

        (wire, window, viewporter) = try client()
        viewport = wire.viewport(of: window.surface, viewporter: viewporter)
        wire.send(window.toplevel, 0, [])  // xdg_toplevel.destroy
        wire.send(window.xdgSurface, 0, [])  // xdg_surface.destroy
        wire.send(window.surface, 0, [])  // wl_surface.destroy
        wire.send(viewport, 2, [UInt32(20), UInt32(20)])
        #expect(try wire.protocolError() == (viewport, noSurface))

        // The kiosk still serves a well-behaved client.
        (wire, window, viewporter) = try client()
        #expect(wire.sync())
    }

    /// wp_fractional_scale_v1.preferred_scale is the output's scale in 120ths: 240 on a
    /// kiosk run with --scale 2, sent as soon as the object is made; a second object for the
    /// same surface is fractional_scale_exists.
    @Test func theFractionalScaleIsTheOutputsScale() throws {
        let session = try KioskSession(windowOptions: ["--side-by-side", "--scale", "2"])
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let manager = try wire.bind("wp_fractional_scale_manager_v1", version: 1)
        let window = try wire.mapToplevel(appID: "hidpi", width: 200, height: 100)
        let scale = wire.newID()
        wire.send(manager, 1, [scale, window.surface])  // get_fractional_scale
        #expect(wire.read(until: { $0.object == scale && $0.opcode == 0 })?.uint(at: 0) == 240)
        wire.send(manager, 1, [wire.newID(), window.surface])
        #expect(try wire.protocolError() == (manager, 0))
    }

    /// wp_presentation: clock_id is CLOCK_MONOTONIC; a content update replaced by the next
    /// commit before the frame tick is discarded; the one shown is presented at the frame
    /// tick, on the output the surface is on (sync_output), stamped with the router's clock:
    /// the same instant the frame callback of that commit is answered with.
    @Test func presentationFeedbackIsPresentedOrDiscardedOnTheRoutersClock() throws {
        let (session, wire, _) = try KioskSession.withSeatClient()
        defer { withExtendedLifetime(session) {} }
        let output = try wire.bind("wl_output", version: 4)
        let presentationName = try #require(wire.globals["wp_presentation"]).name
        let presentation = wire.bind(name: presentationName, "wp_presentation", version: 1)
        let clock = try #require(wire.read(until: { $0.object == presentation && $0.opcode == 0 }))
        #expect(clock.uint(at: 0) == 1, "CLOCK_MONOTONIC")

        let window = try wire.mapToplevel(appID: "video", width: 200, height: 100)
        #expect(wire.read(until: { $0.object == window.surface && $0.opcode == 0 }) != nil, "wl_surface.enter")
        let replaced = wire.newID()
        wire.send(presentation, 1, [window.surface, replaced])  // feedback
        wire.send(window.surface, 6, [])
        let shown = wire.newID()
        wire.send(presentation, 1, [window.surface, shown])
        let frame = wire.newID()
        wire.send(window.surface, 3, [frame])  // frame
        wire.send(window.surface, 6, [])

        let seen = wire.messages(until: { $0.object == shown && $0.opcode != 0 })
        #expect(seen.contains { $0.object == replaced && $0.opcode == 2 }, "the replaced update is discarded")
        #expect(seen.contains { $0.object == shown && $0.opcode == 0 && $0.uint(at: 0) == output }, "sync_output")
        let presented = try #require(seen.last)
        #expect(presented.opcode == 1, "presented, not discarded")
        let done = try #require(seen.first { $0.object == frame && $0.opcode == 0 }, "the frame callback comes first")
        let seconds = UInt64(presented.uint(at: 0)) << 32 | UInt64(presented.uint(at: 1))
        let ms = seconds * 1000 + UInt64(presented.uint(at: 2)) / 1_000_000
        #expect(UInt32(truncatingIfNeeded: ms) == done.uint(at: 0), "the tick's instant on the router's clock")
        #expect(presented.uint(at: 2) < 1_000_000_000)
    }
}

extension EndToEndTests {
    /// weston-presentation-shm (Debian's weston) asks for feedback on every frame and prints,
    /// per frame, the time from its commit to the presentation the kiosk reported ("c2p"),
    /// read on its own CLOCK_MONOTONIC: the times are plausible (one frame tick, 16 ms, and
    /// under 200 ms) only because the kiosk stamps them on that clock, as clock_id says.
    @Test func westonPresentationShmSeesItsFramesPresentedOnItsMonotonicClock() throws {
        let session = try KioskSession()
        let client = try session.launch("weston-presentation-shm", ["-f"])
        func frames(_ text: String) -> [Int] {
            text.split(separator: "\n").compactMap { line in
                guard let range = line.range(of: "c2p ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber || $0 == "-" })
            }
        }
        try client.output.require({ frames($0).count >= 10 }, "weston-presentation-shm saw no presented frames")
        let c2p = frames(client.output.text)
        #expect(c2p.allSatisfy { (0...200).contains($0) }, "commit to presentation, ms: \(c2p)")
    }
}

extension EndToEndTests {
    /// weston-scaler (Debian's weston) shows a 421×337 window through wp_viewport in each of
    /// its modes; its --help gives the window size each must have: 220×308 with source and
    /// destination (-b) or destination only (-d), 55×77 with source only (-s, the source
    /// rectangle's size), 421×337 without a viewport (-n). The kiosk logs the size of the
    /// window's surface in SeatKit's tree, which is what input is hit-tested against.
    @Test func westonScalerWindowsHaveTheSizesItsViewportsSay() throws {
        let session = try KioskSession()
        let name = "org.freedesktop.weston.scaler-test-box"
        for (nth, (mode, width, height)) in [("-b", 220.0, 308.0), ("-d", 220, 308), ("-s", 55, 77), ("-n", 421, 337)].enumerated() {
            _ = try session.launch("weston-scaler", [mode])
            let window = try session.waitForWindow(name, nth: nth + 1)
            #expect(window.width == width && window.height == height, "weston-scaler \(mode): \(window)")
        }
    }
}
