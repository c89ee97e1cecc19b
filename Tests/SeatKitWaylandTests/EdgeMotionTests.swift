import Foundation
import Testing

/// What wev reads at the output's edge: a position inside its surface after `wl_fixed_t`
/// rounding, and no wl_pointer.motion for a move that does not move that position (as
/// wlroots does).
@Suite(.serialized) struct EdgeMotionTests {
    @Test func pushingAgainstTheRightEdgeSendsOnePositionInsideAndThenNothingUntilThePointMoves() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let wev = try session.launch("wev")
        let window = try session.waitForWindow("wev")
        session.send([Script.move(100, 100)])
        try wev.output.require("x, y: 100.000000, 100.000000")
        // That motion's frame too, before marking: else it may be counted below.
        try wev.output.require({ text in
            guard let at = text.range(of: "x, y: 100.000000, 100.000000") else { return false }
            return WevLog(text[at.upperBound...]).events("wl_pointer", "frame").count >= 1
        }, "no frame after the first motion")
        let start = wev.output.mark

        func push(_ dx: Double, _ dy: Double) -> String { #"{"type": "pointer-motion", "device": 2, "dx": \#(dx), "dy": \#(dy)}"# }
        // Far past the right edge, then five more pushes that go nowhere, then one step down.
        session.send([push(100_000, 0)] + Array(repeating: push(50, 0), count: 5) + [push(0, 1)] + Script.click())
        try wev.output.require({ WevLog($0[start...]).events("wl_pointer", "button").count == 2 }, "wev did not get the click")
        let motions = WevLog(wev.output.text[start...]).events("wl_pointer", "motion")
        let edge = String(format: "%.6f", window.width - 1.0 / 256)
        #expect(motions.count == 2, "\(motions)")
        #expect(motions.first?.hasSuffix("x, y: \(edge), 100.000000") == true, "\(motions)")
        #expect(motions.last?.hasSuffix("x, y: \(edge), 101.000000") == true, "\(motions)")
        // Every frame closes something: no frame is sent for the pushes that moved nothing.
        // (Waited for: the release's frame may be printed after the release itself.)
        try wev.output.require({ WevLog($0[start...]).events("wl_pointer", "frame").count >= 4 }, "fewer than four frames")
        #expect(WevLog(wev.output.text[start...]).events("wl_pointer", "frame").count == 4)
    }
}
