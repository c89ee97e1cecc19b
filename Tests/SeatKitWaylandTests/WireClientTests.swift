import Testing

/// Requests no Debian client makes on demand: serial checks, extensions, protocol errors.
/// A hand-written wire client maps a window under the kiosk and makes them.
extension EndToEndTests {
    /// Starts a kiosk with devices, maps a wire-client window (the first, so it has keyboard
    /// focus), binds wl_seat and gets its pointer, which the pointer then enters.
    private func mappedWireClient() throws -> (KioskSession, WireClient, WireClient.Window, seat: UInt32, pointer: UInt32, enterSerial: UInt32) {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let window = try wire.mapToplevel(appID: "wire")
        _ = try session.waitForWindow("wire")
        session.send([Script.move(20, 30)])
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        #expect(enter.uint(at: 1) == window.surface)
        _ = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 2 }), "no motion after enter")
        return (session, wire, window, seat, pointer, enter.uint(at: 0))
    }

    @Test func setCursorWithAWrongSerialIsIgnoredAndWithTheEnterSerialHonoured() throws {
        let (session, wire, _, _, pointer, enterSerial) = try mappedWireClient()
        // New ids must be used in the order they are allocated: bind before newID.
        let compositor = try wire.bind("wl_compositor", version: 4)
        let cursor = wire.newID()
        wire.send(compositor, 0, [cursor])  // create_surface
        wire.send(pointer, 0, [enterSerial &+ 1000, cursor, UInt32(3), UInt32(4)])  // set_cursor, wrong serial
        wire.send(pointer, 0, [enterSerial, cursor, UInt32(1), UInt32(2)])  // set_cursor, the enter's serial
        try session.log.require("cursor wl_surface@\(cursor) hotspot 1,2")
        #expect(!session.log.text.contains("hotspot 3,4"), "a wrong serial moved the cursor")
    }

    @Test func setCursorWithASurfaceThatHasAnotherRoleIsAProtocolError() throws {
        let (session, wire, window, _, pointer, enterSerial) = try mappedWireClient()
        wire.send(pointer, 0, [enterSerial, window.surface, UInt32(0), UInt32(0)])  // the toplevel's own surface
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == pointer)
        #expect(error.uint(at: 1) == 0, "wl_pointer.error.role")
        try session.log.require("unmapped wire")
        #expect(session.kioskIsRunning)
    }

    @Test func aLockedPointerStaysWhileTheClientGetsRelativeMotion() throws {
        let (session, wire, window, _, pointer, _) = try mappedWireClient()
        let relativeManager = try wire.bind("zwp_relative_pointer_manager_v1", version: 1)
        let relative = wire.newID()
        wire.send(relativeManager, 1, [relative, pointer])
        let constraints = try wire.bind("zwp_pointer_constraints_v1", version: 1)
        let lock = wire.newID()
        wire.send(constraints, 1, [lock, window.surface, pointer, UInt32(0), UInt32(2)])  // lock_pointer, no region, persistent
        #expect(wire.read(until: { $0.object == lock && $0.opcode == 0 }) != nil, "no locked event")

        session.send([#"{"type": "pointer-motion", "device": 2, "dx": 10, "dy": -5}"#])
        var sawMotion = false
        let motion = try #require(wire.read(until: { message in
            if message.object == pointer && message.opcode == 2 { sawMotion = true }
            return message.object == relative && message.opcode == 0
        }), "no relative motion")
        // relative_motion(utime_hi, utime_lo, dx, dy, dx_unaccel, dy_unaccel), wl_fixed_t = value * 256.
        #expect(Int32(bitPattern: motion.uint(at: 2)) == 10 * 256)
        #expect(Int32(bitPattern: motion.uint(at: 3)) == -5 * 256)
        #expect(!sawMotion, "a locked pointer moved")

        // The relative motion was read after the kiosk handled it, so a wl_pointer.motion for
        // it would have come before: sawMotion proves the pointer stayed.
    }

    @Test func swipeGesturesReachTheClientWithPointerFocus() throws {
        let (session, wire, window, _, pointer, _) = try mappedWireClient()
        let gestures = try wire.bind("zwp_pointer_gestures_v1", version: 3)
        let swipe = wire.newID()
        wire.send(gestures, 0, [swipe, pointer])  // get_swipe_gesture
        // The kiosk reads the script and the client on different fds: make sure it has the
        // gesture object before the gesture starts.
        #expect(wire.sync())
        session.send([#"{"type": "gesture", "device": 2, "kind": "swipe", "phase": "begin", "fingers": 3}"#,
                      #"{"type": "gesture", "device": 2, "kind": "swipe", "phase": "update", "fingers": 3, "dx": 4, "dy": 2}"#,
                      #"{"type": "gesture", "device": 2, "kind": "swipe", "phase": "end", "fingers": 3}"#])
        let begin = try #require(wire.read(until: { $0.object == swipe && $0.opcode == 0 }))
        #expect(begin.uint(at: 2) == window.surface)
        #expect(begin.uint(at: 3) == 3)
        let update = try #require(wire.read(until: { $0.object == swipe && $0.opcode == 1 }))
        #expect(Int32(bitPattern: update.uint(at: 1)) == 4 * 256)
        let end = try #require(wire.read(until: { $0.object == swipe && $0.opcode == 2 }))
        #expect(end.uint(at: 2) == 0, "not cancelled")
    }

    @Test func aShortcutsInhibitorIsActiveWhileItsSurfaceHasKeyboardFocus() throws {
        let (session, wire, window, seat, _, _) = try mappedWireClient()
        let manager = try wire.bind("zwp_keyboard_shortcuts_inhibit_manager_v1", version: 1)
        let inhibitor = wire.newID()
        wire.send(manager, 1, [inhibitor, window.surface, seat])  // inhibit_shortcuts
        #expect(wire.read(until: { $0.object == inhibitor && $0.opcode == 0 }) != nil, "no active event")

        // Another window takes focus (a click on it): the inhibitor goes inactive.
        let wev = try session.launch("wev")
        let other = try session.waitForWindow("wev")
        session.send([Script.move(other.x + 10, other.y + 10)] + Script.click())
        try wev.output.require("wl_keyboard] enter:")
        #expect(wire.read(until: { $0.object == inhibitor && $0.opcode == 1 }) != nil, "no inactive event")

        // Inhibiting twice for one surface is a protocol error.
        wire.send(manager, 1, [wire.newID(), window.surface, seat])
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == manager)
        #expect(error.uint(at: 1) == 0, "already_inhibited")
    }
}

extension EndToEndTests {
    /// A window unmapped under a finger and the pointer: the client is told (touch up closed
    /// by a frame, pointer and keyboard leave) before its surface goes; then the surface is
    /// destroyed while the finger keeps moving, and nothing more is sent about it, with no
    /// error. Up, not cancel: the window went away, the finger's other touches did not end
    /// (wl_touch.cancel would end them all); Mir sends up too, and wlcs's
    /// TouchTest.sends_touch_up_on_surface_destroy expects it.
    @Test func aWindowUnmappedAndDestroyedUnderAFingerEndsItsTouchAndFocusCleanly() throws {
        let (session, wire, window, seat, pointer, _) = try mappedWireClient()
        let touch = wire.getTouch(seat)
        let keyboard = wire.getKeyboard(seat)
        #expect(wire.read(until: { $0.object == keyboard && $0.opcode == 1 }) != nil, "no keyboard enter")
        session.send(Script.touchDown(50, 40))
        var sawDown = false
        _ = wire.read(until: { message in  // the down and its frame
            if message.object == touch && message.opcode == 0 { sawDown = true }
            return sawDown && message.object == touch && message.opcode == 3
        })
        #expect(sawDown, "no touch down")

        wire.send(window.toplevel, 0, [])  // xdg_toplevel.destroy: unmapped
        var order: [String] = []
        var touchEvents: [UInt16] = []
        _ = wire.read(until: { message in
            if message.object == touch { touchEvents.append(message.opcode) }
            if message.object == touch && message.opcode == 1 { order.append("touch up") }
            if message.object == pointer && message.opcode == 1 { order.append("pointer leave") }
            if message.object == keyboard && message.opcode == 2 { order.append("keyboard leave") }
            return order.count == 3 && touchEvents.last == 3
        })
        #expect(Set(order) == ["touch up", "pointer leave", "keyboard leave"])
        #expect(touchEvents == [1, 3], "wl_touch.up then frame, no cancel: \(touchEvents)")
        try session.log.require("unmapped wire")

        wire.send(window.xdgSurface, 0, [])  // xdg_surface.destroy
        wire.send(window.surface, 0, [])  // wl_surface.destroy
        session.send(Script.touchMove(55, 45) + Script.touchUp() + Script.tap(60, 60, id: 1) + [Script.move(70, 70)] + Script.click())
        #expect(wire.sync(), "the client got a protocol error")
        var late: [WireClient.Message] = []
        let callback = wire.newID()
        wire.send(1, 0, [callback])
        _ = wire.read(until: { message in
            if message.object == touch || message.object == pointer { late.append(message) }
            return message.object == callback
        })
        #expect(late.isEmpty, "events about a destroyed surface: \(late.map { "\($0.object).\($0.opcode)" })")
        #expect(session.kioskIsRunning)
    }
}

extension EndToEndTests {
    /// A wheel click reaches a wl_pointer bound at version 8 as axis_source, axis_value120
    /// and axis, closed by a frame (axis_discrete is for versions 5 to 7 only).
    @Test func aWheelClickAtVersion8SendsValue120AndNoDiscrete() throws {
        let (session, wire, _, _, pointer, _) = try mappedWireClient()
        session.send([Script.scroll(vertical: 15, v120: 120)])
        var seen: [UInt16: WireClient.Message] = [:]
        _ = try #require(wire.read(until: { message in
            if message.object == pointer { seen[message.opcode] = message }
            return message.object == pointer && message.opcode == 5 && seen[4] != nil  // the frame after axis
        }), "no axis frame")
        #expect(seen[6]?.uint(at: 0) == 0, "axis_source wheel")
        #expect(seen[9].map { ($0.uint(at: 0), Int32(bitPattern: $0.uint(at: 1))) } ?? (9, 9) == (0, 120), "axis_value120")
        #expect(seen[8] == nil, "no axis_discrete at version 8")
        #expect(seen[4].map { Int32(bitPattern: $0.uint(at: 2)) } == Int32(15 * 256), "axis value")
    }
}

extension EndToEndTests {
    @Test func pinchAndHoldGesturesCarryScaleRotationAndCancellation() throws {
        let (session, wire, window, _, pointer, _) = try mappedWireClient()
        let gestures = try wire.bind("zwp_pointer_gestures_v1", version: 3)
        let pinch = wire.newID()
        wire.send(gestures, 1, [pinch, pointer])  // get_pinch_gesture
        let hold = wire.newID()
        wire.send(gestures, 3, [hold, pointer])  // get_hold_gesture (version 3)
        #expect(wire.sync())
        session.send([#"{"type": "gesture", "device": 2, "kind": "pinch", "phase": "begin", "fingers": 2}"#,
                      #"{"type": "gesture", "device": 2, "kind": "pinch", "phase": "update", "fingers": 2, "scale": 1.5, "rotation": 10}"#,
                      #"{"type": "gesture", "device": 2, "kind": "pinch", "phase": "end", "fingers": 2}"#,
                      #"{"type": "gesture", "device": 2, "kind": "hold", "phase": "begin", "fingers": 3}"#,
                      #"{"type": "gesture", "device": 2, "kind": "hold", "phase": "cancel", "fingers": 3}"#])
        let begin = try #require(wire.read(until: { $0.object == pinch && $0.opcode == 0 }))
        #expect(begin.uint(at: 2) == window.surface && begin.uint(at: 3) == 2)
        // update(time, dx, dy, scale, rotation)
        let update = try #require(wire.read(until: { $0.object == pinch && $0.opcode == 1 }))
        #expect(Int32(bitPattern: update.uint(at: 3)) == Int32(384), "scale 1.5")
        #expect(Int32(bitPattern: update.uint(at: 4)) == Int32(2560), "rotation 10")
        #expect(wire.read(until: { $0.object == pinch && $0.opcode == 2 })?.uint(at: 2) == 0)
        let holdBegin = try #require(wire.read(until: { $0.object == hold && $0.opcode == 0 }))
        #expect(holdBegin.uint(at: 3) == 3)
        #expect(wire.read(until: { $0.object == hold && $0.opcode == 1 })?.uint(at: 2) == 1, "hold end, cancelled")
    }
}

extension EndToEndTests {
    /// A one-shot lock ends for good when the pointer leaves; a persistent one comes back
    /// when the pointer returns to the surface.
    @Test(arguments: [(lifetime: UInt32(1), relocks: false), (lifetime: UInt32(2), relocks: true)])
    func aLockEndsWithTheFocusAndOnlyAPersistentOneReturns(lifetime: UInt32, relocks: Bool) throws {
        let (session, wire, window, _, pointer, _) = try mappedWireClient()
        let constraints = try wire.bind("zwp_pointer_constraints_v1", version: 1)
        let lock = wire.newID()
        wire.send(constraints, 1, [lock, window.surface, pointer, UInt32(0), lifetime])
        #expect(wire.read(until: { $0.object == lock && $0.opcode == 0 }) != nil, "no locked event")

        // Absolute motion is not locked: the pointer leaves the 200x100 window, and returns.
        session.send([Script.move(500, 500)])
        #expect(wire.read(until: { $0.object == lock && $0.opcode == 1 }) != nil, "no unlocked event")
        session.send([Script.move(30, 30)])
        var relocked = false
        _ = try #require(wire.read(until: { message in
            if message.object == lock && message.opcode == 0 { relocked = true }
            return message.object == pointer && message.opcode == 0
        }), "the pointer did not come back")
        // A (re)lock is sent in the same dispatch as the enter, so before a later sync's reply.
        let callback = wire.newID()
        wire.send(1, 0, [callback])
        _ = wire.read(until: { message in
            if message.object == lock && message.opcode == 0 { relocked = true }
            return message.object == callback
        })
        #expect(relocked == relocks)
    }
}

extension EndToEndTests {
    /// A subsurface destroyed under one finger while another finger is on its parent: the
    /// first finger ends with wl_touch.up and a frame, and the second goes on (motion, up).
    /// wl_touch.cancel would have ended both for the client.
    @Test func aSurfaceLeavingUnderOneFingerEndsOnlyThatFingerWithUp() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let touch = wire.getTouch(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let subcompositor = try wire.bind("wl_subcompositor", version: 1)
        let window = try wire.mapToplevel(appID: "fingers", width: 200, height: 100)
        let frame = try session.waitForWindow("fingers")
        // A 50×50 subsurface at 100,0.
        let (child, subsurface) = try wire.mapSubsurface(of: window.surface, at: (100, 0), width: 50, height: 50,
                                                         compositor: compositor, subcompositor: subcompositor)
        wire.send(window.surface, 6, [])  // commit the parent: the subsurface shows
        #expect(wire.sync())

        session.send(Script.touchDown(frame.x + 110, frame.y + 10, id: 0) + Script.touchDown(frame.x + 20, frame.y + 60, id: 1))
        var downs: [UInt32] = []
        _ = wire.read(until: { message in
            if message.object == touch && message.opcode == 0 { downs.append(message.uint(at: 2)) }  // down(serial, time, surface, ...)
            return downs.count == 2 && message.object == touch && message.opcode == 3  // and its frame
        })
        #expect(downs == [child, window.surface])

        wire.send(subsurface, 0, [])  // wl_subsurface.destroy: the child leaves the tree
        var events: [String] = []
        _ = wire.read(until: { message in
            guard message.object == touch else { return false }
            switch message.opcode {
            case 1: events.append("up \(Int32(bitPattern: message.uint(at: 2)))")  // up(serial, time, id)
            case 3: events.append("frame")
            case 4: events.append("cancel")
            default: events.append("event \(message.opcode)")
            }
            return events.last == "frame" || events.last == "cancel"
        })
        #expect(events == ["up 0", "frame"])

        // Finger 1 goes on; finger 0's later events are not sent.
        session.send(Script.touchMove(frame.x + 115, frame.y + 15, id: 0) + Script.touchMove(frame.x + 30, frame.y + 70, id: 1)
            + Script.touchUp(id: 0) + Script.touchUp(id: 1))
        events.removeAll()
        _ = wire.read(until: { message in
            guard message.object == touch else { return false }
            switch message.opcode {
            case 1: events.append("up \(Int32(bitPattern: message.uint(at: 2)))")
            case 2: events.append("motion \(Int32(bitPattern: message.uint(at: 1)))")  // motion(time, id, x, y)
            case 3: events.append("frame")
            case 4: events.append("cancel")
            default: events.append("event \(message.opcode)")
            }
            return events.contains("up 1") && events.last == "frame"
        })
        #expect(events == ["motion 1", "frame", "up 1", "frame"])

        // A wl_surface destroyed under a finger (its wl_subsurface left inert) ends that
        // finger with up too: the client can reuse the id.
        let (other, _) = try wire.mapSubsurface(of: window.surface, at: (0, 50), width: 50, height: 50,
                                                compositor: compositor, subcompositor: subcompositor)
        wire.send(window.surface, 6, [])  // commit the parent
        #expect(wire.sync())
        session.send(Script.touchDown(frame.x + 10, frame.y + 60, id: 2))
        let down = try #require(wire.read(until: { $0.object == touch && $0.opcode == 0 }), "no down on the second subsurface")
        #expect(down.uint(at: 2) == other)
        _ = wire.read(until: { $0.object == touch && $0.opcode == 3 })
        wire.send(other, 0, [])  // wl_surface.destroy
        events.removeAll()
        _ = wire.read(until: { message in
            guard message.object == touch else { return false }
            switch message.opcode {
            case 1: events.append("up \(Int32(bitPattern: message.uint(at: 2)))")
            case 3: events.append("frame")
            default: events.append("event \(message.opcode)")
            }
            return events.last == "frame"
        })
        #expect(events == ["up 2", "frame"])
        #expect(wire.sync(), "the client got a protocol error")
    }
}
