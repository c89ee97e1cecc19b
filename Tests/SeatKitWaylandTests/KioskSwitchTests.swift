import Foundation
import Testing

/// The kiosk's three-finger switch follows the fingers: progress while they move, a commit
/// past the threshold, an undo short of it; the app's fingers are cancelled.
extension EndToEndTests {
    static func threeFingers(_ phase: String, x: Double) -> [String] {
        (0..<3).map { #"{"type": "touch-\#(phase)", "device": 3, "id": \#(10 + $0), "x": \#(x), "y": \#(300 + Double($0) * 200)}"# }
            + [#"{"type": "touch-frame", "device": 3}"#]
    }

    static let liftThreeFingers = (0..<3).map { #"{"type": "touch-up", "device": 3, "id": \#(10 + $0)}"# }
        + [#"{"type": "touch-frame", "device": 3}"#]

    @Test func theThreeFingerSwitchFollowsTheFingersCommitsPastItsThresholdAndUndoesShortOfIt() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let first = try session.launch("wev", debug: true)
        _ = try session.waitForWindow("wev")
        let second = try session.launch("wev", debug: true)
        _ = try session.waitForWindow("wev", nth: 2)
        try session.log.require("focus wev[\(second.pid)]")

        // 30 mm at 96 dpi is 113 units: a stroke of 60 units is half way, then back; undone.
        var start = session.log.mark
        session.send(Self.threeFingers("down", x: 1500))
        for x in [1480.0, 1440, 1470] { session.send(Self.threeFingers("motion", x: x)) }
        session.send(Self.liftThreeFingers)
        try session.log.require("switch undone", after: start)
        let undone = String(session.log.text[start...])
        #expect(undone.contains("switch left 0.1") && undone.contains("switch left 0.5") && undone.contains("switch left 0.2"), "\(undone)")
        #expect(!undone.contains("switched to"))
        // The app saw the fingers go down, then lost them to the switch.
        try second.output.require("wl_touch] cancel")

        // Past the threshold: the window at the back comes to the top with the focus.
        start = session.log.mark
        session.send(Self.threeFingers("down", x: 1500))
        for x in [1470.0, 1420, 1370] { session.send(Self.threeFingers("motion", x: x)) }
        session.send(Self.liftThreeFingers)
        try session.log.require("switched to wev[\(first.pid)]", after: start)
        try session.log.require("focus wev[\(first.pid)]", after: start)
        let committed = String(session.log.text[start...])
        #expect(committed.contains("switch left 1.0"), "\(committed)")
    }
}
