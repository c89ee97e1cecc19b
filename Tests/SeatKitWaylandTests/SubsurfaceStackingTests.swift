import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// wl_subsurface.place_below(parent): the subsurface is below its parent's own content
    /// for input, not only for drawing. A client with a window and a subsurface covering it
    /// exactly: with the subsurface below, the pointer enters the window; placed above again,
    /// the subsurface takes the pointer.
    @Test func aSubsurfacePlacedBelowItsParentIsBelowItForInput() throws {
        let session = try KioskSession()
        try session.addDevices()
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let seat = try wire.bind("wl_seat", version: 8)
        let pointer = wire.newID()
        wire.send(seat, 0, [pointer])  // get_pointer
        let compositor = try wire.bind("wl_compositor", version: 4)
        let shm = try wire.bind("wl_shm", version: 1)
        let subcompositor = try wire.bind("wl_subcompositor", version: 1)
        let window = try wire.mapToplevel(appID: "stack", width: 200, height: 100)
        let frame = try session.waitForWindow("stack")

        // A 200×100 subsurface at 0,0: it covers the window exactly.
        let size: UInt32 = 200 * 100 * 4
        let path = NSTemporaryDirectory() + "/seatkit-sub-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        #expect(file >= 0 && ftruncate(file, off_t(size)) == 0)
        unlink(path)
        let pool = wire.newID()
        wire.send(shm, 0, [pool, size], passing: file)  // create_pool
        close(file)
        let buffer = wire.newID()
        wire.send(pool, 0, [buffer, UInt32(0), UInt32(200), UInt32(100), UInt32(800), UInt32(1)])  // create_buffer
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
