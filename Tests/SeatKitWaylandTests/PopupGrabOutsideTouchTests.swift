import Testing
import Foundation

extension EndToEndTests {
    /// The outside-click filter reads the shell's grabbing popups only while one is shown (a
    /// flag set when a grab begins and ends, issue 25, fifteenth round): a touch down outside
    /// a grabbing popup still dismisses it (xdg_popup.popup_done), and so does one outside a
    /// second popup shown after the first was dismissed (the flag set again).
    @Test func aTouchOutsideAGrabbingPopupDismissesItAgainAfterTheFirstWasDismissed() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        let wmBase = try wire.bind("xdg_wm_base", version: 3)
        let window = try wire.mapToplevel(appID: "menu-owner")
        let frame = try session.waitForWindow("menu-owner")

        /// A 50×50 popup below the window's top left, grabbing with a press's serial.
        func showGrabbingPopup() throws -> UInt32 {
            session.send([Script.move(frame.x + 20, frame.y + 20)] + Script.click())
            let press = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 3 && $0.uint(at: 3) == 1 }), "no button press")
            let popup = try wire.mapGrabbingPopup(of: window, seat: seat, serial: press.uint(at: 0), compositor: compositor, wmBase: wmBase)
            #expect(wire.sync())
            return popup
        }

        let first = try showGrabbingPopup()
        session.send(Script.tap(frame.x + frame.width - 20, frame.y + frame.height - 20))  // outside the popup
        #expect(wire.read(until: { $0.object == first && $0.opcode == 1 }) != nil, "the first popup stayed open after a touch outside")

        let second = try showGrabbingPopup()
        session.send(Script.tap(frame.x + frame.width - 20, frame.y + frame.height - 20))
        #expect(wire.read(until: { $0.object == second && $0.opcode == 1 }) != nil, "the second popup stayed open after a touch outside")
    }
}
