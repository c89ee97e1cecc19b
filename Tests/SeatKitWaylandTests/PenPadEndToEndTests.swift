import Foundation
import Testing

extension Script {
    /// Announces a pad (4 buttons, a ring, a strip, one group of 2 modes) as device 5.
    static let pad = #"{"type": "device-added", "device": 5, "name": "SeatKit Test Pad", "capabilities": ["tablet-pad"], "pad": {"buttons": 4, "rings": 1, "strips": 1, "modes": 2}}"#

    /// A pad event for the kiosk's scripted input (device 5).
    static func padEvent(_ event: String, _ fields: String) -> String {
        #"{"type": "pad", "device": 5, "event": "\#(event)", \#(fields)}"#
    }
}

extension EndToEndTests {
    /// A GTK4 client with a tablet seat gets the pad (zwp_tablet_pad_v2) when the pen comes
    /// over its window: announced when it appeared, the pad enters the surface the pen
    /// visited (quoting the pen's tablet) and stays after the pen left; its buttons, ring,
    /// strip and a mode switch arrive as GTK's libwayland decoded them (WAYLAND_DEBUG). GTK
    /// 4.8 itself showed none of them to a GtkPadController or a legacy controller from
    /// Python, so what GTK does with them is not checked.
    @Test func gtkGetsThePadOnTheSurfaceThePenVisitedWithButtonsRingStripAndModes() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        session.send([Script.penTablet, Script.pad])
        let path = session.runtimeDirectory + "/gtk-pad.py"
        try GTKStylusApp.script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("/usr/bin/python3", [path], debug: true,
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        try app.output.require({ $0.contains("\nready") || $0.hasPrefix("ready") }, "the GTK app never became ready")
        let window = try session.waitForWindow("seatkit-pen")
        // Before any pen came over it, the pad was announced but is on no surface.
        func padEntered(_ text: String) -> Bool {
            text.split(separator: "\n").contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".enter(") }
        }
        try app.output.require({ $0.contains(".pad_added(") }, "the pad was not announced")
        #expect(!padEntered(app.output.text))
        session.send([Script.pen("proximity-in", window.x + 100, window.y + 100), Script.pen("proximity-out", window.x + 100, window.y + 100)])
        try app.output.require(padEntered, "the pad never entered the GTK window")
        session.send([
            Script.padEvent("button", #""button": 2, "state": "pressed""#), Script.padEvent("button", #""button": 2, "state": "released""#),
            Script.padEvent("ring", #""ring": 0, "value": 90"#), Script.padEvent("ring", #""ring": 0, "value": -1"#),
            Script.padEvent("strip", #""strip": 0, "value": 0.5"#),
            Script.padEvent("button", #""button": 1, "state": "pressed", "mode": 1"#),
            Script.padEvent("button", #""button": 1, "state": "released", "mode": 1"#),
        ])
        try app.output.require({ $0.split(separator: "\n").contains { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".button(") && $0.hasSuffix(", 1, 0)") } },
                               "the last pad button never arrived")
        let text = app.output.text
        let wire = text.split(separator: "\n").filter { $0.contains("zwp_tablet_pad") }
        // The pad was described: one group of 4 buttons with a ring and a strip, 2 modes.
        #expect(wire.contains { $0.contains(".modes(2)") }, "\(wire)")
        #expect(wire.contains { $0.contains(".buttons(4)") }, "\(wire)")
        #expect(wire.contains { $0.contains("zwp_tablet_pad_ring_v2@") && $0.contains(".angle(90") }, "\(wire)")
        #expect(wire.contains { $0.contains("zwp_tablet_pad_ring_v2@") && $0.contains(".stop()") }, "\(wire)")
        #expect(wire.contains { $0.contains("zwp_tablet_pad_strip_v2@") && $0.contains(".position(32768)") }, "\(wire)")
        #expect(wire.contains { $0.contains("zwp_tablet_pad_group_v2@") && $0.contains(".mode_switch(") && $0.hasSuffix(", 1)") }, "\(wire)")
        // In the order sent: the mode switch before the button that reported the new mode.
        // The enter is followed by the group's current mode (as tablet-v2 asks).
        let order = wire.map { line in ["button(", "angle(", "position(", "mode_switch("].first { line.contains($0) } ?? "" }.filter { !$0.isEmpty }
        #expect(order == ["mode_switch(", "button(", "button(", "angle(", "position(", "mode_switch(", "button(", "button("], "\(wire)")
        let enter = try #require(wire.firstIndex { $0.contains("zwp_tablet_pad_v2@") && $0.contains(".enter(") })
        #expect(wire[enter + 1].contains(".mode_switch(") && wire[enter + 1].hasSuffix(", 0)"), "\(wire)")
        #expect(session.kioskIsRunning)
    }

    /// A client describes the pad's button, ring and strip (set_feedback) quoting the serial
    /// of its group's last mode_switch: the compositor is told (the kiosk logs
    /// Seat.padFeedbackChanged). A description quoting an older serial (one from before a
    /// mode switch) is ignored, as tablet-v2 says.
    @Test func padFeedbackQuotingTheLastModeSwitchReachesTheCompositorAndAStaleOneDoesNot() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        session.send([Script.penTablet, Script.pad])
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let seat = try wire.bind("wl_seat", version: 5)
        // The tablet seat before the window: a pen that comes in as soon as it is mapped finds
        // a client with a tablet seat (the pads note what arrives while mapping waits).
        let pads = try WirePads(wire, seat: seat)
        _ = try wire.mapToplevel(appID: "seatkit-pad-feedback")
        let window = try session.waitForWindow("seatkit-pad-feedback")
        session.send([Script.pen("proximity-in", window.x + 10, window.y + 10), Script.pen("proximity-out", window.x + 10, window.y + 10)])
        try #require(pads.wait(wire) { !pads.enters.isEmpty && pads.lastModeSerial != nil },
                         "the pad never entered the window: \(session.log.text.suffix(2000))")
        let first = try #require(pads.lastModeSerial)
        #expect(pads.enters.first?.serial == first, "the mode_switch after an enter quotes the enter's serial")
        #expect(pads.rings.count == 1 && pads.strips.count == 1)
        pads.setButtonFeedback(wire, button: 2, "Undo", serial: first)
        pads.setRingFeedback(wire, "Zoom", serial: first)
        pads.setStripFeedback(wire, "Brush size", serial: first)
        #expect(wire.sync())
        try session.log.require({ $0.contains("pad 5 button(2) feedback \"Undo\"") }, "the button's description was not told")
        try session.log.require({ $0.contains("pad 5 ring(0) feedback \"Zoom\"") }, "the ring's description was not told")
        try session.log.require({ $0.contains("pad 5 strip(0) feedback \"Brush size\"") }, "the strip's description was not told")
        // The mode changes: descriptions must quote the new mode_switch's serial.
        session.send([Script.padEvent("button", #""button": 1, "state": "pressed", "mode": 1"#)])
        try #require(pads.wait(wire) { pads.modeSwitches.count >= 2 }, "no mode switch")
        let second = try #require(pads.lastModeSerial)
        #expect(second != first)
        pads.setButtonFeedback(wire, button: 2, "Stale redo", serial: first)
        pads.setButtonFeedback(wire, button: 3, "Redo", serial: second)
        #expect(wire.sync())
        try session.log.require({ $0.contains("pad 5 button(3) feedback \"Redo\"") }, "the new mode's description was not told")
        #expect(!session.log.text.contains("Stale redo"), "a description quoting an old serial was kept")
        #expect(session.kioskIsRunning)
    }

    /// Unplugging a tablet tells tablet-v2 clients: the tablet, its tool and its pad are
    /// removed; plugged back, the pen is announced anew and works.
    @Test func unpluggingATabletRemovesItsTabletToolAndPadForTabletV2Clients() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        session.send([Script.penTablet, Script.pad])
        let path = session.runtimeDirectory + "/gtk-pen.py"
        try GTKStylusApp.script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("/usr/bin/python3", [path], debug: true,
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        try app.output.require({ $0.contains("\nready") || $0.hasPrefix("ready") }, "the GTK app never became ready")
        let window = try session.waitForWindow("seatkit-pen")
        session.send(Script.penStroke(window.x + 100, window.y + 100))
        try app.output.require({ $0.contains("\nup ") }, "the stylus gesture saw no up")
        session.send([#"{"type": "device-removed", "device": 4}"#, #"{"type": "device-removed", "device": 5}"#])
        func removed(_ interface: String) -> (String) -> Bool {
            { $0.split(separator: "\n").contains { $0.contains("\(interface)@") && $0.contains(".removed()") } }
        }
        try app.output.require(removed("zwp_tablet_v2"), "the tablet was not removed")
        try app.output.require(removed("zwp_tablet_tool_v2"), "the tool was not removed")
        try app.output.require(removed("zwp_tablet_pad_v2"), "the pad was not removed")
        // Plugged back: a new tablet and tool, and the stylus works again.
        let mark = app.output.mark
        session.send([Script.penTablet])
        session.send(Script.penStroke(window.x + 200, window.y + 150))
        let again = app.output.wait { $0[mark...].contains("\nup 2") || $0[mark...].contains("up 2") }
        let after = String(app.output.text[mark...])
        #expect(again, "\(after.suffix(3000))")
        #expect(after.contains(".tool_added(") && after.contains(".tablet_added("), "\(after.suffix(3000))")
        #expect(session.kioskIsRunning)
    }

    /// GTK4 sets the tool's cursor (zwp_tablet_tool_v2.set_cursor) when the pen comes in: the
    /// seat tells the compositor (Seat.penCursorChanged, the kiosk logs it), and that the
    /// cursor no longer applies once the pen left.
    @Test func aToolCursorAClientSetsIsToldToTheCompositorUntilThePenLeaves() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        session.send([Script.penTablet])
        let path = session.runtimeDirectory + "/gtk-pen.py"
        try GTKStylusApp.script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("/usr/bin/python3", [path], debug: true,
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        try app.output.require({ $0.contains("\nready") || $0.hasPrefix("ready") }, "the GTK app never became ready")
        let window = try session.waitForWindow("seatkit-pen")
        session.send([Script.pen("proximity-in", window.x + 100, window.y + 100), Script.pen("axis", window.x + 110, window.y + 100)])
        try session.log.require({ $0.contains("pen cursor wl_surface@") }, "no pen cursor was set: \(app.output.text.suffix(2000))")
        session.send([Script.pen("proximity-out", window.x + 110, window.y + 100)])
        try session.log.require({ $0.contains("pen cursor hidden") }, "the pen cursor outlived the pen")
    }
}

extension EndToEndTests {
    /// The kiosk's --tablet-region and --tablet-rotate: a tablet's point (0.25, 0.5), turned a
    /// half turn, is (0.75, 0.5) of the region 960,0 960x540 of the 1920x1080 screen, where
    /// GTK's stylus sees the pen touch; the pen's rightward stroke goes left on the screen.
    @Test func theKiosksTabletRegionAndRotationPlaceThePenWhereGTKSeesIt() throws {
        let session = try KioskSession(windowOptions: ["--tablet-region", "960,0,960,540", "--tablet-rotate", "180"])
        try session.addDevices()
        session.send([Script.penTablet])
        try session.log.require({ $0.contains("tablet SeatKit Test Pen mapped") }, "the tablet was not mapped")
        let path = session.runtimeDirectory + "/gtk-pen.py"
        try GTKStylusApp.script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try session.launch("/usr/bin/python3", [path],
                                     environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        try app.output.require({ $0.contains("\nready") || $0.hasPrefix("ready") }, "the GTK app never became ready")
        let window = try session.waitForWindow("seatkit-pen")
        func pen(_ event: String, _ nx: Double, pressure: Double = 0) -> String {
            #"{"type": "pen", "device": 4, "event": "\#(event)", "tool": "pen", "nx": \#(nx), "ny": 0.5, "pressure": \#(pressure)}"#
        }
        session.send([pen("proximity-in", 0.25), pen("down", 0.25, pressure: 0.5), pen("axis", 0.3, pressure: 0.6),
                      pen("up", 0.3), pen("proximity-out", 0.3)])
        try app.output.require({ $0.contains("\nup ") }, "the stylus gesture saw no up")
        let down = try #require(app.output.text.split(separator: "\n").first { $0.hasPrefix("down ") })
        #expect(down.hasPrefix("down \(Int(1680 - window.x)) \(Int(270 - window.y)) "), "\(down) (window at \(window.x),\(window.y))")
        let up = try #require(app.output.text.split(separator: "\n").first { $0.hasPrefix("up ") })
        // (0.3 → 0.7 of 960: 672) left of the down's 720.
        #expect(up.hasPrefix("up \(Int(960 + 672 - window.x)) "), "\(up)")
    }
}
