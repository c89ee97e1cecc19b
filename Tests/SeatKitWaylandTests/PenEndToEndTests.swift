import Foundation
import Testing

extension Script {
    /// A pen event for the kiosk's scripted input (device 4, a tablet tool).
    static func pen(_ event: String, _ x: Double, _ y: Double, pressure: Double = 0, tiltX: Double = 0, tiltY: Double = 0,
                    tool: String = "pen", extra: String = "") -> String {
        #"{"type": "pen", "device": 4, "event": "\#(event)", "tool": "\#(tool)", "x": \#(x), "y": \#(y), "pressure": \#(pressure), "tilt_x": \#(tiltX), "tilt_y": \#(tiltY)\#(extra)}"#
    }

    /// Announces a pen tablet as device 4.
    static let penTablet = #"{"type": "device-added", "device": 4, "name": "SeatKit Test Pen", "capabilities": ["tablet-tool"]}"#

    /// A pen comes in at (x, y), draws a short stroke to the right with rising pressure and
    /// some tilt, lifts and leaves.
    static func penStroke(_ x: Double, _ y: Double) -> [String] {
        [pen("proximity-in", x, y), pen("down", x, y, pressure: 0.5, tiltX: 20),
         pen("axis", x + 10, y, pressure: 0.75, tiltX: 30, tiltY: -10), pen("axis", x + 20, y, pressure: 0.9, tiltX: 30, tiltY: -10),
         pen("up", x + 20, y), pen("proximity-out", x + 20, y)]
    }
}

extension EndToEndTests {
    /// GTK4 binds zwp_tablet_manager_v2: its GtkGestureStylus gets the pen (a pen tool, not
    /// the pointer) with the pressure and tilt of each event.
    @Test func gtkStylusGestureGetsThePenWithPressureAndTiltThroughTabletV2() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        session.send([Script.penTablet])
        let path = session.runtimeDirectory + "/gtk-pen.py"
        try GTKStylusApp.script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("/usr/bin/python3", [path], debug: true,
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        try app.output.require({ $0.contains("\nready") || $0.hasPrefix("ready") }, "the GTK app never became ready")
        let window = try session.waitForWindow("seatkit-pen")
        let x = window.x + 100, y = window.y + 100
        session.send(Script.penStroke(x, y))
        try app.output.require({ $0.contains("\nup ") }, "the stylus gesture saw no up")
        let text = app.output.text
        #expect(text.contains("zwp_tablet_tool_v2@") && text.contains(".proximity_in("), "the pen came through tablet-v2")
        let down = try #require(text.split(separator: "\n").first { $0.hasPrefix("down ") })
        #expect(down.contains("tool=pen"), "\(down)")
        #expect(down.contains("pressure=0.50") && down.contains("tilt=0.22,0.00"), "\(down)")
        let motions = text.split(separator: "\n").filter { $0.hasPrefix("motion ") }
        // GTK gives tilt in -1...1 (degrees / 90); it may merge motions, but the last is the stroke's last.
        #expect(motions.last?.contains("pressure=0.90") == true && motions.last?.contains("tilt=0.33,-0.11") == true, "\(motions)")
        // The pen was not the pointer for a client with a tablet seat.
        #expect(!text.contains("wl_pointer@") || !text.contains(".button("), "a pointer button reached the GTK app")
    }

    /// wev binds no tablet manager: the pen is its pointer, as in sway and labwc: enter,
    /// motion, the tip as BTN_LEFT, leave when the pen goes. The mouse pointer rests over
    /// another wev, which hears nothing of the pen.
    @Test func aClientWithoutTabletSupportGetsThePenAsItsPointer() throws {
        let session = try KioskSession()
        try session.addDevices()
        session.send([Script.penTablet])
        let other = try session.launch("wev")
        let a = try session.waitForWindow("wev")
        let wev = try session.launch("wev")
        let b = try session.waitForWindow("wev", nth: 2)
        session.send([Script.move(a.x + 10, a.y + 10)])
        try other.output.require("wl_pointer] enter")
        let start = wev.output.mark, otherStart = other.output.mark
        session.send(Script.penStroke(b.x + 50, b.y + 60))
        let seen = wev.output.wait { WevLog($0[start...]).events("wl_pointer", "leave").count >= 1 }
        #expect(seen, "wev saw no leave: \(wev.output.text[start...].suffix(3000))")
        let log = WevLog(wev.output.text[start...])
        let enters = log.events("wl_pointer", "enter")
        let buttons = log.events("wl_pointer", "button")
        #expect(enters.count == 1 && enters.first?.contains("50.0") == true, "\(log.events)")
        #expect(buttons.count == 2, "\(log.events)")
        #expect(buttons.first?.contains("272") == true && buttons.first?.contains("pressed") == true, "\(buttons)")
        #expect(buttons.last?.contains("released") == true, "\(buttons)")
        #expect(log.events("wl_pointer", "motion").count >= 2, "\(log.events)")
        #expect(WevLog(other.output.text[otherStart...]).inputEvents.isEmpty, "the wev under the mouse heard the pen")
    }

    /// With a pen tablet and no mouse, the seat still has a pointer (as sway's), so a client
    /// without tablet support binds a wl_pointer and gets the pen there.
    @Test func aPenTabletAloneGivesTheSeatAPointerForClientsWithoutTabletSupport() throws {
        let session = try KioskSession(windowOptions: [])
        session.send([#"{"type": "device-added", "device": 1, "name": "keyboard", "capabilities": ["keyboard"]}"#, Script.penTablet])
        try session.log.require({ $0.contains("capabilities keyboard,tablet-tool") }, "the seat did not get the pen")
        let wev = try session.launch("wev")
        let window = try session.waitForWindow("wev")
        let hasPointer = wev.output.wait { $0.contains("capabilities: pointer keyboard") }
        #expect(hasPointer, "\(wev.output.text.prefix(1500)) \(session.log.text.suffix(1500))")
        let start = wev.output.mark
        session.send(Script.penStroke(window.x + 50, window.y + 60))
        // The (still) pointer may already have entered wev's fullscreen window: then the pen
        // moves that pointer and no enter or leave of its own is sent.
        let twoButtons = wev.output.wait { WevLog($0[start...]).events("wl_pointer", "button").count >= 2 }
        let log = WevLog(wev.output.text[start...])
        #expect(twoButtons, "\(log.events)")
        let buttons = log.events("wl_pointer", "button")
        #expect(buttons.first?.contains("272") == true && buttons.first?.contains("pressed") == true, "\(buttons)")
        #expect(log.events("wl_pointer", "motion").contains { $0.contains("70.0") }, "the pen's motion: \(log.events)")
    }
}
