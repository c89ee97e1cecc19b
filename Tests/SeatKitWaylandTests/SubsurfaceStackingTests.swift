import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// wl_subsurface.place_below(parent): the subsurface is below its parent's own content
    /// for input, not only for drawing. A client with a window and a subsurface covering it
    /// exactly: with the subsurface below, the pointer enters the window; placed above again,
    /// the subsurface takes the pointer.
    @Test func aSubsurfacePlacedBelowItsParentIsBelowItForInput() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let subcompositor = try wire.bind("wl_subcompositor", version: 1)
        let window = try wire.mapToplevel(appID: "stack", width: 200, height: 100)
        let frame = try session.waitForWindow("stack")

        // A 200×100 subsurface at 0,0: it covers the window exactly.
        let buffer = try wire.shmBuffer(width: 200, height: 100)
        let child = wire.newID()
        wire.send(compositor, 0, [child])  // create_surface
        let subsurface = wire.newID()
        wire.send(subcompositor, 1, [subsurface, child, window.surface])  // get_subsurface
        wire.send(subsurface, 1, [UInt32(0), UInt32(0)])  // set_position 0,0
        wire.send(subsurface, 3, [window.surface])  // place_below(parent)
        wire.send(child, 1, [buffer, UInt32(0), UInt32(0)])  // attach
        wire.send(child, 6, [])  // commit
        wire.send(window.surface, 6, [])  // commit the parent: the position applies
        #expect(wire.sync())

        // From outside the window (the 200×100 buffer sets its size) into it: one enter.
        // (sync() reads past anything before, such as an enter at map time.)
        session.send([Script.move(frame.x + 300, frame.y + 50), Script.move(frame.x + 50, frame.y + 50)])
        let first = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        #expect(first.uint(at: 1) == window.surface, "the subsurface below its parent took the pointer")

        wire.send(subsurface, 2, [window.surface])  // place_above(parent)
        wire.send(window.surface, 6, [])
        #expect(wire.sync())
        session.send([Script.move(frame.x + 300, frame.y + 50), Script.move(frame.x + 60, frame.y + 50)])
        let second = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no second wl_pointer.enter")
        #expect(second.uint(at: 1) == child)
    }
}
