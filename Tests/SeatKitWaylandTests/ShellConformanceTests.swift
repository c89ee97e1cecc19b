import Foundation
import Glibc
import Testing

/// Behaviour of the headless shell that the Wayland Conformance Suites (wlcs, see
/// docs/CONFORMANCE.md) found missing, pinned here with the kiosk and a wire-level client.
extension EndToEndTests {
    /// xdg_toplevel.configure arguments: width, height and the states array.
    static func toplevelConfigure(_ m: WireClient.Message) -> (width: Int32, height: Int32, states: [UInt32]) {
        let count = Int(m.uint(at: 2)) / 4
        return (Int32(bitPattern: m.uint(at: 0)), Int32(bitPattern: m.uint(at: 1)), (0..<count).map { m.uint(at: 3 + $0) })
    }

    static let maximized: UInt32 = 1, fullscreen: UInt32 = 2, activated: UInt32 = 4

    /// The activated state follows keyboard focus (a configure when a window gains or loses
    /// it), and set_maximized / set_fullscreen are answered with a configure carrying the
    /// state and the output's size. Before, every window was activated from its first
    /// configure on and these requests went unanswered (clients waiting for them hang).
    @Test func activatedFollowsKeyboardFocusAndMaximizeAndFullscreenAreAnswered() throws {
        let session = try KioskSession()  // side by side: windows keep their own size
        try session.addDevices()
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        func nextConfigure(of window: WireClient.Window, _ what: String) throws -> (width: Int32, height: Int32, states: [UInt32]) {
            let m = try #require(wire.read(until: { $0.object == window.toplevel && $0.opcode == 0 }), "no configure \(what)")
            // Ack the xdg_surface.configure that follows, as a client does.
            if let surfaceConfigure = wire.read(until: { $0.object == window.xdgSurface && $0.opcode == 0 }) {
                wire.send(window.xdgSurface, 4, [surfaceConfigure.uint(at: 0)])
            }
            return Self.toplevelConfigure(m)
        }

        let a = try wire.mapToplevel(appID: "first")
        let frameA = try session.waitForWindow("first")
        // The first window is focused when it maps: now it is activated.
        let focused = try nextConfigure(of: a, "when the first window got focus")
        #expect(focused.states.contains(Self.activated))

        wire.send(a.toplevel, 9, [])  // set_maximized
        let max = try nextConfigure(of: a, "answering set_maximized")
        #expect(max.states.contains(Self.maximized) && max.states.contains(Self.activated))
        #expect(max.width == 1920 && max.height == 1080, "a maximized window is offered the output's size")
        wire.send(a.toplevel, 10, [])  // unset_maximized
        let unmax = try nextConfigure(of: a, "answering unset_maximized")
        #expect(!unmax.states.contains(Self.maximized))
        wire.send(a.toplevel, 11, [UInt32(0)])  // set_fullscreen(no output)
        let full = try nextConfigure(of: a, "answering set_fullscreen")
        #expect(full.states.contains(Self.fullscreen) && full.width == 1920)
        wire.send(a.toplevel, 12, [])  // unset_fullscreen
        #expect(try !nextConfigure(of: a, "answering unset_fullscreen").states.contains(Self.fullscreen))

        // A second window, clicked: it takes focus, the first one is told it is no longer active.
        _ = try wire.mapToplevel(appID: "second")
        let frameB = try session.waitForWindow("second")
        #expect(frameB.x >= frameA.x + 200)
        session.send([Script.move(frameB.x + 20, frameB.y + 20)] + Script.click())
        try session.log.require("focus second[")
        let inactive = try nextConfigure(of: a, "when the first window lost focus")
        #expect(!inactive.states.contains(Self.activated))
    }

    /// A window that grows under a pointer that does not move gets wl_pointer.enter at the
    /// commit that grew it (and leave when it shrinks away), not at the pointer's next
    /// motion: the shell refreshes pointer focus after a commit changes what is under it.
    @Test func aSurfaceGrowingUnderTheStillPointerIsEnteredAtOnce() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let window = try wire.mapToplevel(appID: "grow", width: 200, height: 100)
        let frame = try session.waitForWindow("grow")
        session.send([Script.move(frame.x + 300, frame.y + 50)])  // beside the window
        #expect(wire.sync())

        // A 400×100 buffer: the window now reaches under the pointer.
        let buffer = try wire.shmBuffer(width: 400, height: 100)
        wire.send(window.surface, 1, [buffer, UInt32(0), UInt32(0)])  // attach
        wire.send(window.surface, 6, [])  // commit
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no enter when the window grew under the pointer")
        #expect(enter.uint(at: 1) == window.surface)
    }
}

extension EndToEndTests {
    /// On a seat with a keyboard, a pointer lock is in force only while its window also has
    /// keyboard focus: a tap that focuses another window (the pointer stays put) unlocks
    /// it, and a tap back locks it again (persistent). Before, the lock stayed on while the
    /// user typed into another window.
    @Test func aPointerLockNeedsKeyboardFocusToo() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let constraints = try wire.bind("zwp_pointer_constraints_v1", version: 1)
        let a = try wire.mapToplevel(appID: "locked")
        let frameA = try session.waitForWindow("locked")
        _ = try wire.mapToplevel(appID: "other")
        let frameB = try session.waitForWindow("other")
        session.send([Script.move(frameA.x + 50, frameA.y + 50)])
        #expect(wire.sync())

        let lock = wire.newID()
        wire.send(constraints, 1, [lock, a.surface, pointer, UInt32(0), UInt32(2)])  // lock_pointer, no region, persistent
        #expect(wire.read(until: { $0.object == lock && $0.opcode == 0 }) != nil, "not locked with pointer and keyboard focus")

        session.send(Script.tap(frameB.x + 50, frameB.y + 50))  // focus moves to the other window
        try session.log.require("focus other[")
        #expect(wire.read(until: { $0.object == lock && $0.opcode == 1 }) != nil, "still locked after losing keyboard focus")

        session.send(Script.tap(frameA.x + 50, frameA.y + 50))
        #expect(wire.read(until: { $0.object == lock && $0.opcode == 0 }) != nil, "not locked again with keyboard focus back")
    }
}

extension EndToEndTests {
    /// A grabbing popup (a menu opened by a click) is dismissed (xdg_popup.popup_done) when
    /// a new toplevel maps: menus close when a window opens. Before, it stayed open and kept
    /// its grab until a press outside it.
    @Test func aNewWindowDismissesAGrabbingPopup() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let wmBase = try wire.bind("xdg_wm_base", version: 3)
        let window = try wire.mapToplevel(appID: "menu-owner")
        let frame = try session.waitForWindow("menu-owner")
        session.send([Script.move(frame.x + 20, frame.y + 20)] + Script.click())
        let press = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 3 && $0.uint(at: 3) == 1 }), "no button press")

        // The popup: 50×50 below the window's top left, grabbing with the press's serial.
        let popup = try wire.mapGrabbingPopup(of: window, seat: seat, serial: press.uint(at: 0), compositor: compositor, wmBase: wmBase)
        try session.log.require("popup of menu-owner[")
        #expect(wire.sync())

        _ = try wire.mapToplevel(appID: "new-window")
        _ = try session.waitForWindow("new-window")
        #expect(wire.read(until: { $0.object == popup && $0.opcode == 1 }) != nil, "the grabbing popup stayed open")
    }
}
