import Foundation
import Testing

/// The Swift kiosk with the library's kiosk policies on (--start-blanked, --long-press-click),
/// checked in what wev printed: the tap that wakes the screen reaches no window, a long press
/// reaches wev as a cancelled touch and then BTN_RIGHT at the finger, and the cursor's
/// visibility follows touch and mouse.
@Suite struct KioskPolicyEndToEndTests {
    @Test func theWakingTapIsSwallowedAndALongPressIsARightClickAtTheFinger() throws {
        let session = try KioskSession(windowOptions: ["--start-blanked", "--long-press-click"])
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        let start = wev.output.mark
        session.send(Script.tap(400, 300, id: 0))
        try session.log.require("screen woke")
        session.send(Script.tap(400, 300, id: 1))
        try wev.output.require("wl_touch] up:", after: start)
        // A long press: the finger stays down until the kiosk clicked (a real 500 ms pass).
        session.send(Script.touchDown(600, 450, id: 2))
        try session.log.require("secondary click at 600,450")
        session.send(Script.touchUp(id: 2))
        try wev.output.require({ $0[start...].contains("state: 0 (released)") }, "wev got no button release")
        let log = WevLog(wev.output.text[start...])
        #expect(log.events("wl_touch", "down").count == 2, "the waking tap reached no window: \(log.events("wl_touch"))")
        #expect(log.events("wl_touch", "cancel").count == 1)
        let buttons = log.events("wl_pointer", "button")
        #expect(buttons.count == 2, "\(buttons)")
        #expect(buttons.allSatisfy { $0.contains("button: 273") })
        #expect(log.events("wl_pointer", "motion").contains { $0.hasSuffix("x, y: 600.000000, 450.000000") }
            || log.events("wl_pointer", "enter").contains { $0.hasSuffix("x, y: 600.000000, 450.000000") })
        // The cursor hid on touch; mouse motion brings it back.
        try session.log.require("cursor invisible: touch")
        session.send([Script.move(10, 10)])
        try session.log.require("cursor visible: mouse")
    }
}
