import Foundation
import Testing

/// The wlroots bridge sends a touch motion itself while the seat's grab is wlroots' default one,
/// and stamps the seat's `last_event` as wlroots' notify call would, but with the motion's own
/// time (the router's, CLOCK_MONOTONIC from libinput) instead of a clock read per motion: a C
/// program (Tests/CSeatKitProgram/wlr-touch-time.c) runs a compositor and its wl_touch client
/// in one process and prints what the client got and what the seat holds after each step.
@Suite struct WlrootsTouchTimeTests {
    /// Also with a second bridge on the router made first (another seat's): it takes the
    /// router's touch-frame callback, and the bridge under test frames its touches from the
    /// touch-frame signal, with the same sends.
    @Test(arguments: [false, true])
    func aTouchMotionStampsTheSeatsLastEventWithItsOwnTimeAndNeverMovesItBack(secondBridge: Bool) throws {
        let binary = try CProgramTests.buildProgram("wlr-touch-time.c", named: "wlr-touch-time", packages: ["seatkit-wlroots", "wayland-client"])
        let result = try run(binary, secondBridge ? ["second-bridge"] : [])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").filter { !$0.contains("[ERROR]") && !$0.contains("[INFO]") }
        #expect(!result.output.contains("touch_frame_callback"), "no refusal logged: \(result.output)")
        #expect(lines == (secondBridge ? ["first bridge has the callback: yes"] : []) + [
            "down: client downs 1 frames 1, last_event not before the down: yes",
            // The motion reached the client, framed, and the stamp is its time to the microsecond.
            "motion: client motions 1 at 150.0,120.0 frames 2, last_event is the motion's time: yes",
            // Later motions in the second of the last stamp (which the bridge keeps, not
            // dividing again) are stamped with their own times too.
            "later motions: client motions 4 at 153.0,123.0, last_event each one's time: yes",
            // A stamp later than the motion's time (wlroots' own, of a later event) is kept.
            "older motion: client motions 5 at 160.0,130.0, last_event kept: yes",
            "up: client ups 1 frames 7",
        ], "got:\n\(result.output)")
    }
}
