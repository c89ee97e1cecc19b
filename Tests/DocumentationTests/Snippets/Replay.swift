// The code of ReplayingRecordingsInTests.md. Every ```swift block of that guide stands here
// verbatim (GuideCodeTests checks it), inside the tests that run it; its first example is the
// README's, run word for word by SeatKitReplayTests' TestAuthorsPathTests.
import Foundation
import SeatKit
import SeatKitReplay
import Testing

@Suite struct ReplayGuideTests {
    @Test func aRecordingBesideTheTestIsFoundWhateverTheWorkingDirectory() throws {
        let recording = try RecordingParser.parse(contentsOf: "Fixtures/two-taps.yml", relativeTo: #filePath)
        let layout = try SurfaceLayout.parse(contentsOf: "Fixtures/kiosk.layout", relativeTo: #filePath)
        let harness = ReplayHarness(layout: layout)
        let run = try harness.replay(recording)
        #expect(run.handled(.touchesEnded).map(\.surface) == ["ok-button", "ok-button"])
        let events = run.routedEvents(surfaces: harness.surfaces)
        let down = try #require(events.first { $0.kind == "touch-down" })
        #expect(down.surface == "ok-button")              // hit-test result, in the layout's names
        #expect(down.takenBy == "ok-button")              // who answered .handled
    }

    @Test func theJSONTraceIsTheSameEveryRun() throws {
        let layout = try SurfaceLayout.parse("""
            output DSI-1 800x480
            surface canvas 0,0,800x380 in DSI-1
            surface ok-button 600,380,160x60 in DSI-1
            """, source: "kiosk")
        var touch = TouchScript(layout: layout)
        touch.pinch(center: LayoutPoint(x: 400, y: 200), fromDistance: 80, toDistance: 240)
        touch.wait(500_000)                                // µs of the recording's clock
        touch.tap(at: LayoutPoint(x: 680, y: 410))
        func trace() throws -> String {
            let harness = ReplayHarness(layout: layout)
            let run = try harness.replay(touch.recording())
            let events = run.routedEvents(surfaces: harness.surfaces)
            return ReplayTraceJSON.document(run: run, events: events, recording: "pinch-then-tap", recordingDuration: nil)
        }
        let first = try trace()
        #expect(first.contains(ReplayTraceJSON.schema))
        #expect(try trace() == first)                      // virtual time: byte-identical
    }
}
