import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// wl_seat.get_pointer on a seat that never had a pointer is a protocol error
    /// (missing_capability); the client gets wl_display.error and the kiosk serves on.
    @Test func askingForADeviceTheSeatNeverHadIsAProtocolErrorAndTheKioskServesOn() throws {
        let session = try KioskSession()
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        #expect(wire.globals["wl_seat"]?.version == 8)
        let seat = try wire.bind("wl_seat", version: 8)
        wire.send(seat, 0, [wire.newID()])  // wl_seat.get_pointer
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == seat)
        #expect(error.uint(at: 1) == 0, "wl_seat.error.missing_capability")

        // The compositor is unharmed: a real client maps and gets input.
        try session.expectServesAClientStill()
    }
}

extension EndToEndTests {
    /// get_xdg_surface on a wl_surface that has a buffer, committed or only attached, is
    /// xdg_wm_base.error.invalid_surface_state (4), posted on xdg_wm_base (found by wlcs:
    /// the shell posted xdg_surface's already_constructed code on xdg_wm_base and missed an
    /// attached, uncommitted buffer).
    @Test func anXDGSurfaceForASurfaceWithABufferIsInvalidSurfaceState() throws {
        for commit in [false, true] {
            let session = try KioskSession()
            let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
            try wire.roundTripRegistry()
            let compositor = try wire.bind("wl_compositor", version: 4)
            let wmBase = try wire.bind("xdg_wm_base", version: 3)
            let buffer = try wire.shmBuffer(width: 10, height: 4)
            let surface = wire.newID()
            wire.send(compositor, 0, [surface])  // create_surface
            wire.send(surface, 1, [buffer, UInt32(0), UInt32(0)])  // attach
            if commit { wire.send(surface, 6, []) }
            wire.send(wmBase, 2, [wire.newID(), surface])  // get_xdg_surface
            let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error (commit: \(commit))")
            #expect(error.uint(at: 0) == wmBase)
            #expect(error.uint(at: 1) == 4, "xdg_wm_base.error.invalid_surface_state (commit: \(commit))")
        }
    }
}

extension EndToEndTests {
    /// A client that cuts its pool's file short after making a buffer, then attaches it, gets
    /// wl_shm.error.invalid_fd on that buffer (the shell's wl_shm checks, at each attach, that
    /// the file still holds the buffer, where a renderer would die of SIGBUS reading it); the
    /// kiosk serves on. Found by wlcs
    /// (BadBufferTest.test_truncated_shm_file).
    @Test func aBufferWhoseFileTheClientCutShortIsAProtocolErrorNotACrash() throws {
        let session = try KioskSession()
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let compositor = try wire.bind("wl_compositor", version: 4)
        let surface = wire.newID()
        wire.send(compositor, 0, [surface])  // create_surface
        let buffer = try wire.shmBuffer(width: 64, height: 64, shrinkingFileTo: 0)
        wire.send(surface, 1, [buffer, UInt32(0), UInt32(0)])  // attach
        wire.send(surface, 6, [])  // commit
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == buffer)
        #expect(error.uint(at: 1) == 2, "wl_shm.error.invalid_fd")

        // The compositor is unharmed: another client maps and gets input.
        try session.expectServesAClientStill()
    }
}

extension KioskSession {
    /// After a misbehaving client was cut off: the kiosk is still running, and a real client
    /// (wev) maps and gets a key.
    func expectServesAClientStill(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try addDevices(sourceLocation: sourceLocation)
        let wev = try launch("wev")
        _ = try waitForWindow("wev")
        send(Script.type([30]))
        try wev.output.require("sym: a")
        #expect(kioskIsRunning, sourceLocation: sourceLocation)
    }
}
