import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// Real libinput under umockdev: every shared recording goes through it.
@Suite struct LibinputReplayTests {
    @Test func mouseRecordingGivesLibinputsPointerMotion() throws {
        let recording = try RecordingParser.parse(contentsOf: SharedRecordings.path("mouse-dell-ms116-move.yml"))
        let result = try LibinputReplay(recording: recording).run()
        let motions = result.events.filter { if case .pointerMotion = $0.kind { true } else { false } }
        #expect(result.framesWritten == 314)
        #expect(result.events.first.map { if case .deviceAdded(let d) = $0.kind { d.name } else { "" } } == "PixArt Dell MS116 USB Optical Mouse")
        #expect(motions.count > 250)
    }
}
