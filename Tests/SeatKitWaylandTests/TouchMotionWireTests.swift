import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// What a real `wl_touch` client reads when its surface moves under a finger that stays
/// down (issue 23, item 8): a `wl_touch.motion` with the finger's new surface-local point,
/// then a frame, as it is sent a pointer motion for the pointer. The Wayland Conformance
/// Suite's `TouchInputSubsurfaces` `subsurface_moves_under_input_device_once` and `_twice`
/// expect this; our wlcs run skips them (they need zxdg_shell_v6).
extension EmbeddingTests {
    @Test func aSurfaceMovedUnderAStillFingerSendsTheClientAMotionToTheNewSurfaceLocalPointAndAFrame() throws {
        let client = try InProcessSeatClient(windows: 1, touch: true)
        defer { client.close() }
        let window = client.nodes[0]
        client.touch(.touchDown(TouchID(3), LayoutPoint(x: 50, y: 40)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["down window0 3 50,40", "frame"])

        // The compositor moves the window 20 right (as a subsurface moved by its parent's
        // commit), then tells the router, as it refreshes pointer focus.
        window.frame.origin = SurfacePoint(x: 20, y: 0)
        client.router.refreshTouchLocations()
        #expect(client.touchEvents() == ["motion 3 30,40", "frame"])

        // Twice, and then the finger's own motion and up are in the new space too.
        window.frame.origin = SurfacePoint(x: 20, y: 25)
        client.router.refreshTouchLocations()
        client.touch(.touchMotion(TouchID(3), LayoutPoint(x: 60, y: 40)))
        client.touch(.touchFrame)
        client.touch(.touchUp(TouchID(3)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["motion 3 30,15", "frame", "motion 3 40,15", "frame", "up 3", "frame"])
    }

    @Test func aSurfaceMovedUnderAStillFingerIsToldAtTheNextTouchFrameWithoutARefresh() throws {
        let client = try InProcessSeatClient.withTwoFingersDown()
        defer { client.close() }
        client.nodes[0].frame.origin = SurfacePoint(x: 10, y: 10)
        // Only the other finger moves: the still one is told its new point in the same frame.
        client.touch(.touchMotion(TouchID(1), LayoutPoint(x: 360, y: 40)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["motion 0 40,30", "motion 1 60,40", "frame"])
    }

    /// The usual motion (one finger, a client with one wl_touch, already owed frames touch
    /// after touch) is posted with its arguments outside the sender's stack
    /// (`WireArguments`, issue 25, seventeenth round): the client reads the same ID and
    /// fractional surface-local point, and one frame a touch frame, its two surfaces' fingers
    /// moving together included.
    @Test func theUsualMotionCarriesItsIDAndFractionalPointAndTwoSurfacesFingersShareOneFrame() throws {
        let client = try InProcessSeatClient.withTwoFingersDown()
        defer { client.close() }
        client.touch(.touchMotion(TouchID(0), LayoutPoint(x: 60.5, y: 40.25)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["motion 0 60.5,40.25", "frame"])
        client.touch(.touchMotion(TouchID(0), LayoutPoint(x: 61.75, y: 41)))
        client.touch(.touchMotion(TouchID(1), LayoutPoint(x: 352.5, y: 39.5)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["motion 0 61.75,41", "motion 1 52.5,39.5", "frame"])
        client.touch(.touchUp(TouchID(0)))
        client.touch(.touchMotion(TouchID(1), LayoutPoint(x: 353, y: 39.5)))
        client.touch(.touchFrame)
        // The router's order within the frame (motions, then ups); one frame for both.
        #expect(client.touchEvents() == ["motion 1 53,39.5", "up 0", "frame"])
    }
}

extension EmbeddingTests {
    /// The usual down and up (one finger, a client with one wl_touch, first in the frame
    /// queue) write their arguments into the queue's `WireArguments` and take the serial last,
    /// from what the responder keeps of the seat (issue 25, eighteenth round): the client reads
    /// the same message as on the general path (the very first down, before the client is in
    /// the queue), with a fresh serial the seat recorded as a down or an up for this client,
    /// the event's time in milliseconds, the surface, the ID and the fractional point.
    @Test func theUsualDownAndUpCarryARecordedSerialTheTimeTheSurfaceTheIDAndTheFractionalPoint() throws {
        let client = try InProcessSeatClient(windows: 2, touch: true)
        defer { client.close() }
        let responder = try #require(client.nodes[1].responder as? ClientSurfaceResponder)
        let window1 = client.wireSurfaces[1]
        func fixed(_ value: Double) -> UInt32 { UInt32(bitPattern: Int32(value * 256)) }
        var serials: [UInt32] = []
        var firstDownTime: UInt32?
        // Three rounds: the first down goes the general way (the client not yet first in the
        // frame queue), the others the usual way.
        for round in 0..<3 {
            let id = Int32(5 + round)
            client.touch(.touchDown(TouchID(id), LayoutPoint(x: 310.5 + Double(round), y: 40.75)))
            client.touch(.touchFrame)
            let down = client.touchMessages()
            try #require(down.count == 2)
            #expect(down[0].opcode == 0 && down[1].opcode == 3, "down, then frame")
            let downWords = down[0].words
            try #require(downWords.count == 6)
            // Each injected event is 1 ms after the one before: four a round.
            let downTime = firstDownTime ?? downWords[1]
            firstDownTime = downTime
            #expect(downWords[1] == downTime + UInt32(4 * round), "the event's time in ms")
            #expect(downWords[2] == window1)
            #expect(Int32(bitPattern: downWords[3]) == id)
            #expect(downWords[4] == fixed(10.5 + Double(round)) && downWords[5] == fixed(40.75))
            #expect(client.seat.serials.latest(.touchDown, for: responder.client) == downWords[0])

            client.touch(.touchUp(TouchID(id)))
            client.touch(.touchFrame)
            let up = client.touchMessages()
            try #require(up.count == 2)
            #expect(up[0].opcode == 1 && up[1].opcode == 3, "up, then frame")
            #expect(up[0].words.count == 3)
            #expect(up[0].words[1] == downWords[1] + 2, "the event's time in ms")
            #expect(Int32(bitPattern: up[0].words[2]) == id)
            #expect(client.seat.serials.latest(.touchUp, for: responder.client) == up[0].words[0])
            serials += [downWords[0], up[0].words[0]]
        }
        #expect(serials == serials.sorted() && Set(serials).count == serials.count, "fresh serials, in order: \(serials)")
    }

    /// The usual send's wl_touch (the record's `usualTouch`) and the frame's (the queue's
    /// `owedTouch`, issue 25, nineteenth round) follow the client's wl_touch resources: a
    /// second one bound mid-touch gets the motions and frames too, one released gets nothing
    /// more, and with none left nothing is sent (not to the released one).
    @Test func aWlTouchBoundOrReleasedMidTouchGetsTheMotionsAndFramesFromThenOnOrNoMore() throws {
        let client = try InProcessSeatClient(windows: 1, touch: true)
        defer { client.close() }
        let first = try #require(client.touch)
        client.touch(.touchDown(TouchID(2), LayoutPoint(x: 50, y: 40)))
        client.touch(.touchFrame)
        client.touch(.touchMotion(TouchID(2), LayoutPoint(x: 51, y: 40)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["down window0 2 50,40", "frame", "motion 2 51,40", "frame"])

        let second = client.wire.getTouch(try client.wire.bind("wl_seat", version: 8))
        #expect(client.wire.sync())
        client.touch(.touchMotion(TouchID(2), LayoutPoint(x: 52, y: 40)))
        client.touch(.touchFrame)
        #expect(client.touchEvents(of: [first, second]) == [["motion 2 52,40", "frame"], ["motion 2 52,40", "frame"]])

        client.wire.send(first, 0, [])  // wl_touch.release
        #expect(client.wire.sync())
        client.touch(.touchMotion(TouchID(2), LayoutPoint(x: 53, y: 40)))
        client.touch(.touchFrame)
        client.touch(.touchMotion(TouchID(2), LayoutPoint(x: 54, y: 40)))
        client.touch(.touchFrame)
        #expect(client.touchEvents(of: [first, second]) == [[], ["motion 2 53,40", "frame", "motion 2 54,40", "frame"]])

        client.wire.send(second, 0, [])  // wl_touch.release
        #expect(client.wire.sync())
        client.touch(.touchMotion(TouchID(2), LayoutPoint(x: 55, y: 40)))
        client.touch(.touchFrame)
        client.touch(.touchUp(TouchID(2)))
        client.touch(.touchFrame)
        #expect(client.touchEvents(of: [first, second]) == [[], []])
    }

    /// `Libwayland.fixedInline(_:)`, the untraced touch senders' conversion, gives
    /// `wl_fixed_from_double`'s bits: whole, fractional, negative, rounding and large values.
    @Test func theInlineFixedPointConversionGivesLibwaylandsBits() {
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 10.25, -10.75, 1 / 3, -1 / 3, 0.001953125, 0.00390625,
                                1919.999, -1919.999, 8_388_607.99, -8_388_608, 123.456789, 1e-9, -1e-9]
        for i in 0..<2_000 { values.append(Double(i) * 0.37 - 370) }
        for value in values {
            #expect(Libwayland.fixedInline(value) == Libwayland.fixed(value), "\(value)")
        }
    }
}

extension EndToEndTests {
    /// wlcs's `subsurface_moves_under_input_device_once` and `_twice`, for touch, against the
    /// kiosk's headless shell: a finger down on subsurface A, which its parent's commits then
    /// move twice; the client reads a motion to the finger's new point in A after each commit,
    /// each closed by a frame.
    @Test func aSubsurfaceMovedUnderAStillFingerByItsParentsCommitSendsAMotionToTheNewPointAndAFrame() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let touch = wire.getTouch(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let subcompositor = try wire.bind("wl_subcompositor", version: 1)
        let window = try wire.mapToplevel(appID: "moves", width: 200, height: 100)
        let frame = try session.waitForWindow("moves")
        let (a, subA) = try wire.mapSubsurface(of: window.surface, at: (100, 0), width: 50, height: 50,
                                               compositor: compositor, subcompositor: subcompositor)
        wire.send(window.surface, 6, [])  // commit W: A shows at 100,0
        #expect(wire.sync())

        /// The wl_touch events up to the next frame: "down A 10,20", "motion 0 5,20", "frame".
        func touchEvents() -> [String] {
            var events: [String] = []
            func fixed(_ word: UInt32) -> String {
                let value = Double(Int32(bitPattern: word)) / 256
                return value == value.rounded() ? String(Int(value)) : String(value)
            }
            _ = wire.read(until: { message in
                guard message.object == touch else { return false }
                switch message.opcode {
                case 0: events.append("down \(message.uint(at: 2) == a ? "A" : "?") \(fixed(message.uint(at: 4))),\(fixed(message.uint(at: 5)))")
                case 1: events.append("up")
                case 2: events.append("motion \(Int32(bitPattern: message.uint(at: 1))) \(fixed(message.uint(at: 2))),\(fixed(message.uint(at: 3)))")
                case 3: events.append("frame")
                default: events.append("cancel")
                }
                return message.opcode == 3
            })
            return events
        }

        session.send(Script.touchDown(frame.x + 110, frame.y + 20))
        #expect(touchEvents() == ["down A 10,20", "frame"])

        wire.send(subA, 1, [UInt32(105), UInt32(0)])  // set_position: applied at W's commit
        wire.send(window.surface, 6, [])
        #expect(touchEvents() == ["motion 0 5,20", "frame"], "once")

        wire.send(subA, 1, [UInt32(90), UInt32(10)])
        wire.send(window.surface, 6, [])
        #expect(touchEvents() == ["motion 0 20,10", "frame"], "twice")

        session.send(Script.touchUp())
        #expect(touchEvents() == ["up", "frame"])
    }
}
