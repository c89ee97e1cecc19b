import Foundation
import Testing

/// The wlroots bridge sends a touch motion itself while the seat's grab is wlroots' default one,
/// and stamps the seat's `last_event` as wlroots' notify call would, but with the motion's own
/// time (the router's, CLOCK_MONOTONIC from libinput) instead of a clock read per motion: a C
/// program (Tests/CSeatKitProgram/wlr-touch-time.c) runs a compositor and its wl_touch client
/// in one process and prints what the client got and what the seat holds after each step.
@Suite struct WlrootsTouchTimeTests {
    @Test func aTouchMotionStampsTheSeatsLastEventWithItsOwnTimeAndNeverMovesItBack() throws {
        let prefix = try CProgramTests.installedPrefix()
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", "seatkit-wlroots", "wayland-client"],
                            environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        try #require(flags.status == 0, "\(flags.output)")
        let binary = prefix + "/wlr-touch-time"
        let words = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        let cc = try run("/usr/bin/cc", ["-std=c11", "-Wall", "-Wextra", "-Werror", "-o", binary,
                                         CProgramTests.programDirectory.appendingPathComponent("wlr-touch-time.c").path] + words)
        try #require(cc.status == 0, "cc failed:\n\(cc.output)")
        let result = try run(binary, [])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").filter { !$0.contains("[ERROR]") && !$0.contains("[INFO]") }
        #expect(lines == [
            "down: client downs 1 frames 1, last_event not before the down: yes",
            // The motion reached the client, framed, and the stamp is its time to the microsecond.
            "motion: client motions 1 at 150.0,120.0 frames 2, last_event is the motion's time: yes",
            // A stamp later than the motion's time (wlroots' own, of a later event) is kept.
            "older motion: client motions 2 at 160.0,130.0, last_event kept: yes",
            "up: client ups 1 frames 4",
        ], "got:\n\(result.output)")
    }
}
