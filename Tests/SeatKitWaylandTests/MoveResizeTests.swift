import Testing

/// Interactive move and resize (xdg_toplevel.move / .resize): a pointer grab in the headless
/// shell. The pointer leaves the window while the grab lasts, the window follows the
/// pointer, and the pointer enters again at the last button's release.
extension EndToEndTests {
    /// A wire client's 200×100 window, its wl_pointer entered at window-local 20,30 and a
    /// button pressed there: the press's serial.
    private func pressedOnWindow(_ appID: String, at local: (Double, Double))
        throws -> (KioskSession, WireClient, WireClient.Window, frame: (x: Double, y: Double), pointer: UInt32, seat: UInt32, press: UInt32) {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let window = try wire.mapToplevel(appID: appID, width: 200, height: 100)
        let frame = try session.waitForWindow(appID)
        session.send([Script.move(frame.x + local.0, frame.y + local.1),
                      #"{"type": "button", "device": 2, "button": 272, "state": "pressed"}"#])
        let press = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 3 }), "no button")
        return (session, wire, window, (frame.x, frame.y), pointer, seat, press.uint(at: 0))
    }

    private static let release = #"{"type": "button", "device": 2, "button": 272, "state": "released"}"#

    @Test func anInteractiveMoveTakesThePointerAndTheWindowFollowsIt() throws {
        let (session, wire, window, frame, pointer, seat, press) = try pressedOnWindow("mover", at: (20, 30))
        wire.send(window.toplevel, 5, [seat, press])  // xdg_toplevel.move
        let leave = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 1 }), "the pointer did not leave")
        #expect(leave.uint(at: 1) == window.surface)

        // The window follows the pointer; the client sees nothing of it.
        var seen: [UInt16] = []
        session.send([Script.move(frame.x + 50, frame.y + 40), Script.move(frame.x + 70, frame.y + 60), Self.release])
        let enter = try #require(wire.read(until: { message in
            if message.object == pointer && message.opcode != 5 { seen.append(message.opcode) }  // frames aside
            return message.object == pointer && message.opcode == 0
        }), "no enter at the release")
        #expect(seen == [0], "pointer events during the move: \(seen)")
        // Moved by 50,30: the pointer is at the same window-local point as at the press.
        #expect(enter.uint(at: 1) == window.surface)
        #expect(Int32(bitPattern: enter.uint(at: 2)) == 20 * 256 && Int32(bitPattern: enter.uint(at: 3)) == 30 * 256)
        // Where the window was, at its old 5,5, is now outside it (the enter above was at
        // the window's new 20,30 = old 70,60).
        session.send([Script.move(frame.x + 5, frame.y + 5)])
        #expect(wire.read(until: { $0.object == pointer && $0.opcode == 1 }) != nil, "the window did not move")

        // A serial that is not a held button's (the press ended): no grab.
        session.send([Script.move(frame.x + 80, frame.y + 60)])
        _ = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }))
        wire.send(window.toplevel, 5, [seat, press])
        session.send([Script.move(frame.x + 90, frame.y + 70)])
        let next = try #require(wire.read(until: { $0.object == pointer && ($0.opcode == 1 || $0.opcode == 2) }))
        #expect(next.opcode == 2, "a move without a held button took the pointer")
    }

    @Test func anInteractiveResizeFromTheTopLeftConfiguresTheSizeAndKeepsTheBottomRight() throws {
        let (session, wire, window, frame, pointer, seat, press) = try pressedOnWindow("resizer", at: (5, 5))
        wire.send(window.toplevel, 6, [seat, press, UInt32(5)])  // xdg_toplevel.resize, top_left
        _ = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 1 }), "the pointer did not leave")

        // xdg_toplevel.configure(width, height, states): states is an array of uint32.
        func configure() -> (Int32, Int32, [UInt32])? {
            guard let message = wire.read(until: { $0.object == window.toplevel && $0.opcode == 0 }) else { return nil }
            let count = Int(message.uint(at: 2)) / 4
            return (Int32(bitPattern: message.uint(at: 0)), Int32(bitPattern: message.uint(at: 1)),
                    (0..<count).map { message.uint(at: 3 + $0) })
        }
        let resizing = UInt32(3)  // XDG_TOPLEVEL_STATE_RESIZING
        session.send([Script.move(frame.x + 35, frame.y + 25)])  // by 30,20
        let during = try #require(configure(), "no configure during the resize")
        #expect(during.0 == 170 && during.1 == 80)
        #expect(during.2.contains(resizing))

        session.send([Self.release])
        let after = try #require(configure(), "no configure after the resize")
        #expect(after.0 == 170 && after.1 == 80)
        #expect(!after.2.contains(resizing))
        // The top left corner followed the pointer (the client kept its 200×100 buffer):
        // the pointer enters at window-local 5,5 again.
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no enter at the release")
        #expect(Int32(bitPattern: enter.uint(at: 2)) == 5 * 256 && Int32(bitPattern: enter.uint(at: 3)) == 5 * 256)

        // An edge value xdg-shell does not define is a protocol error.
        wire.send(window.toplevel, 6, [seat, press, UInt32(3)])
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == window.toplevel)
    }

    /// A window that unmaps during its resize ends the grab without a configure; its next
    /// initial commit is configured without the resizing state.
    @Test func aWindowUnmappedDuringItsResizeEndsTheGrabQuietly() throws {
        let (session, wire, window, frame, pointer, seat, press) = try pressedOnWindow("unmapper", at: (5, 5))
        wire.send(window.toplevel, 6, [seat, press, UInt32(10)])  // xdg_toplevel.resize, bottom_right
        _ = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 1 }), "the pointer did not leave")
        session.send([Script.move(frame.x + 25, frame.y + 25)])
        _ = try #require(wire.read(until: { $0.object == window.toplevel && $0.opcode == 0 }), "no configure during the resize")

        wire.send(window.surface, 1, [UInt32(0), UInt32(0), UInt32(0)])  // attach(null)
        wire.send(window.surface, 6, [])  // commit: unmapped
        try session.log.require("unmapped unmapper")
        var configures = 0
        let callback = wire.newID()
        wire.send(1, 0, [callback])  // wl_display.sync
        _ = wire.read(until: { message in
            if message.object == window.toplevel && message.opcode == 0 { configures += 1 }
            return message.object == callback
        })
        #expect(configures == 0, "a configure went to the unmapped window")

        wire.send(window.surface, 6, [])  // a new initial commit
        let configure = try #require(wire.read(until: { $0.object == window.toplevel && $0.opcode == 0 }), "no initial configure")
        let states = (0..<Int(configure.uint(at: 2)) / 4).map { configure.uint(at: 3 + $0) }
        #expect(!states.contains(3), "still resizing")
        // The grab is over: the release reaches nobody, and the pointer is free.
        session.send([Self.release])
        #expect(wire.sync(), "the client got a protocol error")
    }
}
