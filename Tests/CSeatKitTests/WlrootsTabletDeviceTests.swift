import Foundation
import Testing

/// wlroots' own tablet and pad devices reach SeatKit through the bridge (issue 27): a C
/// program (Tests/CSeatKitProgram/wlr-tablet.c) makes a tablet and a pad as wlroots'
/// backends do, gives them to seatkit_wlr_seat_add_input_device and emits their signals.
///
/// Every signal and axis, without a session; the wlroots kiosk over wlroots' own libinput
/// backend (a real tablet and pad under umockdev, GTK as the client) is
/// WlrootsOwnTabletEndToEndTests. Plain libseat 0.7 cannot give wlroots 0.15 a session here
/// (its noop backend never enables the seat; its built-in seatd opens devices in a forked
/// child, whose umockdev-emulated node reaches the kiosk as a bare PTY): that test preloads
/// the benchmark's libseat stand-in.
@Suite struct WlrootsTabletDeviceTests {
    @Test func wlrootsTabletAndPadSignalsBecomeSeatKitPensAndPadEventsWithEveryAxisOnTheirOutput() throws {
        let binary = try CProgramTests.buildProgram("wlr-tablet.c", named: "wlr-tablet", packages: ["seatkit-wlroots"])
        let result = try run(binary, [])
        #expect(result.status == 0, "\(result.output)")
        let expected = try String(contentsOf: CProgramTests.programDirectory.appendingPathComponent("wlr-tablet.expected.txt"), encoding: .utf8)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("[ERROR]") && !$0.contains("[INFO]") }
        #expect(lines.joined(separator: "\n") == expected.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n"),
                "got:\n\(result.output)")
        // What the lines say, in words: the tablet maps to OUT-2 (x from 1000), the pen's
        // distance and tilt given on their own stay with the later events, the pad's ring
        // and strip carry their groups.
        #expect(result.output.contains("device_added Hand Tablet Pen caps 0x10 output OUT-2"))
        #expect(result.output.contains("bridge: tablet 65537 added\nadd tablet: yes"), "offered before any pen")
        #expect(result.output.contains("canvas.pen_down down at 1200.0,300.0 (surface 200.0,300.0) tool 0 serial 5a5a caps 0xf changed 0x1 pressure 0.00 distance 0.30 tilt 10.0,-5.0"))
        #expect(result.output.contains("canvas.pen_moved moved at 1400.0,300.0 (surface 400.0,300.0) tool 0 serial 5a5a caps 0xf changed 0x8 pressure 0.60 distance 0.00 tilt 20.0,-5.0"))
        #expect(result.output.contains("pad_event strip 0 value 0.50 finger 0 group 1 mode 1"))
    }
}
