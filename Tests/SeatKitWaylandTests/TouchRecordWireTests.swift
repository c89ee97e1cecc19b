import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// What a real `wl_touch` client reads when its touches end by the client responder's own
/// doing (issue 25, goal 1: one record per touch). The client responder and the seat keep no
/// list of touch points: which touches a surface's responder follows is the router's record
/// of each touch, and a responder that ends touches itself (`wl_touch.cancel`, which ends
/// every touch point of the client; `wl_touch.up` for a destroyed surface) stops following
/// them there, as wlroots destroys the `wlr_touch_point`s of the client it cancels.
extension EmbeddingTests.InProcessSeatClient {
    /// The set-up of the touch wire tests: a client with two windows side by side and a
    /// wl_touch, finger 0 down on window0 at 50,40 and finger 1 on window1 at 350,40 in one
    /// frame, its down events read (and checked: each at 50,40 in its own window's space).
    static func withTwoFingersDown(sourceLocation: SourceLocation = #_sourceLocation) throws -> Self {
        let client = try Self(windows: 2, touch: true)
        client.touch(.touchDown(TouchID(0), LayoutPoint(x: 50, y: 40)))
        client.touch(.touchDown(TouchID(1), LayoutPoint(x: 350, y: 40)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["down window0 0 50,40", "down window1 1 50,40", "frame"],
                sourceLocation: sourceLocation)
        return client
    }
}

extension EmbeddingTests {
    @Test func aCancelEndsEveryTouchOfTheClientOnceAndItsOtherFingerSendsNothingAfter() throws {
        let client = try InProcessSeatClient.withTwoFingersDown()
        defer { client.close() }

        // The device cancels finger 0: wl_touch.cancel ends both of the client's points.
        client.touch(.touchCancel(TouchID(0)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["cancel"])
        // Finger 1 is still routed, but no longer the client's: nothing of it is sent.
        client.touch(.touchMotion(TouchID(1), LayoutPoint(x: 360, y: 40)))
        client.touch(.touchFrame)
        client.touch(.touchUp(TouchID(1)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == [])
        // The next finger is whole.
        client.touch(.touchDown(TouchID(2), LayoutPoint(x: 320, y: 30)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["down window1 2 20,30", "frame"])
    }

    @Test func touchesOfTwoSurfacesOfOneClientCancelledTogetherSendOneCancel() throws {
        let client = try InProcessSeatClient.withTwoFingersDown()
        defer { client.close() }
        // One batch, two surfaces, one client: the first surface's cancel ends both points, and
        // the second surface is no longer following its touch when the batch reaches it.
        client.router.cancelTouches(reason: "test") { _ in true }
        #expect(client.touchEvents() == ["cancel"])
    }

    @Test func aDestroyedSurfacesTouchEndsWithOneUpAndItsLaterPhasesSendNothing() throws {
        let client = try InProcessSeatClient.withTwoFingersDown()
        defer { client.close() }

        // The wl_surface goes (the compositor tells the responder, then removes the node):
        // finger 0 ends with up and a frame, once; the removal's cancel does not reach it again.
        let responder = try #require(client.nodes[0].responder as? ClientSurfaceResponder)
        responder.surfaceDestroyed()
        client.nodes[0].removeFromParent()
        #expect(client.touchEvents() == ["up 0", "frame"])
        // Finger 0's later phases go nowhere; finger 1 goes on.
        client.touch(.touchMotion(TouchID(0), LayoutPoint(x: 60, y: 40)))
        client.touch(.touchMotion(TouchID(1), LayoutPoint(x: 360, y: 40)))
        client.touch(.touchFrame)
        client.touch(.touchUp(TouchID(0)))
        client.touch(.touchUp(TouchID(1)))
        client.touch(.touchFrame)
        #expect(client.touchEvents() == ["motion 1 60,40", "frame", "up 1", "frame"])
    }
}
