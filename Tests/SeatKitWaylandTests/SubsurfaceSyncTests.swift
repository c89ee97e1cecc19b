import Testing

extension EndToEndTests {
    /// wl_subsurface's synchronized mode, as input sees it: a synchronized subsurface's
    /// commit (the default) waits for its parent's state to be applied; a desynchronized one
    /// under a synchronized parent waits too; set_desync applies what was cached at once.
    /// A client with a 200×100 window W, a subsurface A at 100,0 (50×50) and A's subsurface
    /// B at A's 0,0 (20×20); each change is a new buffer size, seen by where the pointer enters.
    @Test func aSynchronizedSubsurfaceCommitWaitsForItsParent() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let subcompositor = try wire.bind("wl_subcompositor", version: 1)
        let window = try wire.mapToplevel(appID: "sync", width: 200, height: 100)
        let frame = try session.waitForWindow("sync")
        let w = window.surface

        let (a, subA) = try wire.mapSubsurface(of: w, at: (100, 0), width: 50, height: 50,
                                               compositor: compositor, subcompositor: subcompositor)
        let (b, subB) = try wire.mapSubsurface(of: a, width: 20, height: 20, compositor: compositor, subcompositor: subcompositor)
        wire.send(a, 6, [])  // commit A
        wire.send(w, 6, [])  // commit W: A and B show
        #expect(wire.sync())

        /// Moves the pointer out of the window and back in at x, y (window-local): the
        /// surface it entered.
        func enter(_ x: Double, _ y: Double) -> UInt32? {
            session.send([Script.move(frame.x + 300, frame.y + 50), Script.move(frame.x + x, frame.y + y)])
            return wire.read(until: { $0.object == pointer && $0.opcode == 0 })?.uint(at: 1)
        }
        /// The next enter, after something changed under the still pointer.
        func nextEnter() -> UInt32? { wire.read(until: { $0.object == pointer && $0.opcode == 0 })?.uint(at: 1) }

        #expect(enter(110, 10) == b, "B shows at A's top left")
        #expect(enter(140, 40) == a)

        // A grows to 100×100: cached until W commits.
        wire.send(a, 1, [try wire.shmBuffer(width: 100, height: 100), UInt32(0), UInt32(0)])
        wire.send(a, 6, [])
        #expect(wire.sync())
        #expect(enter(170, 70) == w, "A grew before its parent committed")
        wire.send(w, 6, [])
        #expect(nextEnter() == a, "W's commit did not apply A's cached state")

        // B is desynchronized, but under synchronized A: its growth to 60×60 waits too, and
        // W's commit applies it (A did not commit: the cache is applied all the way down).
        wire.send(subB, 5, [])  // set_desync
        wire.send(b, 1, [try wire.shmBuffer(width: 60, height: 60), UInt32(0), UInt32(0)])
        wire.send(b, 6, [])
        #expect(wire.sync())
        #expect(enter(140, 30) == a, "B grew while its parent is synchronized")
        wire.send(w, 6, [])
        #expect(nextEnter() == b, "W's commit did not apply B's cached state")

        // B shrinks back to 20×20 (cached: A is still synchronized); A's set_desync makes B
        // effectively desynchronized, and its cached commit applies at once.
        wire.send(b, 1, [try wire.shmBuffer(width: 20, height: 20), UInt32(0), UInt32(0)])
        wire.send(b, 6, [])
        #expect(wire.sync())
        wire.send(subA, 5, [])  // set_desync(A)
        #expect(nextEnter() == a, "set_desync did not apply the cached state")

        // Now fully desynchronized: B's commit applies at once.
        wire.send(b, 1, [try wire.shmBuffer(width: 60, height: 60), UInt32(0), UInt32(0)])
        wire.send(b, 6, [])
        #expect(nextEnter() == b)
    }

    /// Subsurface positions and place_above / place_below are the parent's state: applied
    /// by the parent's commit, not before. Two 50×50 siblings S1 and S2 at the window's 0,0
    /// (S2 on top); S1 placed above S2 takes the pointer only once the window commits.
    @Test func siblingRestackingAndPositionsApplyWithTheParentsCommit() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let subcompositor = try wire.bind("wl_subcompositor", version: 1)
        let window = try wire.mapToplevel(appID: "siblings", width: 200, height: 100)
        let frame = try session.waitForWindow("siblings")
        var siblings: [(surface: UInt32, subsurface: UInt32)] = []
        for _ in 0..<2 {
            siblings.append(try wire.mapSubsurface(of: window.surface, width: 50, height: 50,
                                                   compositor: compositor, subcompositor: subcompositor))
        }
        wire.send(window.surface, 6, [])
        #expect(wire.sync())
        func enter(_ x: Double, _ y: Double) -> UInt32? {
            session.send([Script.move(frame.x + 300, frame.y + 50), Script.move(frame.x + x, frame.y + y)])
            return wire.read(until: { $0.object == pointer && $0.opcode == 0 })?.uint(at: 1)
        }
        #expect(enter(10, 10) == siblings[1].surface, "the newer sibling is on top")

        wire.send(siblings[0].subsurface, 2, [siblings[1].surface])  // S1 place_above S2
        #expect(wire.sync())
        #expect(enter(10, 10) == siblings[1].surface, "place_above applied before the parent committed")
        wire.send(window.surface, 6, [])
        #expect(wire.read(until: { $0.object == pointer && $0.opcode == 0 })?.uint(at: 1) == siblings[0].surface)

        wire.send(siblings[0].subsurface, 3, [siblings[1].surface])  // S1 place_below S2
        wire.send(siblings[1].subsurface, 1, [UInt32(100), UInt32(0)])  // S2 set_position 100,0
        #expect(wire.sync())
        #expect(enter(10, 10) == siblings[0].surface, "applied before the parent committed")
        #expect(enter(110, 10) == window.surface, "S2 moved before the parent committed")
        wire.send(window.surface, 6, [])
        #expect(wire.read(until: { $0.object == pointer && $0.opcode == 0 })?.uint(at: 1) == siblings[1].surface, "S2 moved under the pointer")
        #expect(enter(10, 10) == siblings[0].surface, "S1 alone at 0,0")

        // A sibling from another parent is a protocol error (bad_surface).
        let stranger = wire.newID()
        wire.send(compositor, 0, [stranger])
        wire.send(siblings[0].subsurface, 2, [stranger])
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == siblings[0].subsurface)
    }
}
