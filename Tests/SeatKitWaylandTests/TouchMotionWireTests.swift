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
