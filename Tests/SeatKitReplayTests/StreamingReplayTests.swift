import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay

/// Routing a replay as it happens (what the command line does with long recordings) gives the
/// same decisions and the same routed events as routing it whole, and keeps nothing.
@Suite struct StreamingReplayTests {
    static let layout = try! SurfaceLayout.parse("""
        output DSI-1 800x480
        surface canvas 0,0,800x380 in DSI-1
        surface ok-button 600,380,160x60 in DSI-1
        """, source: "kiosk")

    /// Taps, a swipe and a pinch on a touchscreen, and a mouse moving and clicking.
    static func recordings() throws -> [Recording] {
        var touch = TouchScript(layout: layout)
        touch.tap(at: LayoutPoint(x: 680, y: 410))
        touch.swipe(from: LayoutPoint(x: 400, y: 300), to: LayoutPoint(x: 100, y: 60))
        touch.pinch(center: LayoutPoint(x: 400, y: 200), fromDistance: 80, toDistance: 240)
        return [try touch.recording(), try SyntheticRecordings.mouse(), try SyntheticRecordings.touchpadThreeFingerSwipe(steps: [40, -40])]
    }

    @Test func aStreamedReplayMakesTheSameDecisionsAndEventsAsAWholeOne() throws {
        for recording in try Self.recordings() {
            let whole = ReplayHarness(layout: Self.layout)
            let run = try whole.replay(recording)
            let expected = run.routedEvents(surfaces: whole.surfaces)

            let streamed = ReplayHarness(layout: Self.layout)
            var records: [TraceRecord] = []
            var stream = RoutedEventStream(surfaces: streamed.surfaces)
            var events: [RoutedEvent] = []
            let result = try streamed.replay(recording) { chunk, pointer in
                records += chunk
                events += stream.add(records: chunk, pointer: pointer)
            }
            events += stream.finish()
            #expect(result.events.isEmpty, "the events went to the router, not into the result")
            #expect(records.map(\.description) == run.trace.map(\.description), "\(recording.source)")
            #expect(events.count == expected.count && expected.count > 5, "\(recording.source)")
            #expect(ReplayTraceJSON.document(run: run, events: events, recording: nil, recordingDuration: nil)
                    == ReplayTraceJSON.document(run: run, events: expected, recording: nil, recordingDuration: nil), "\(recording.source)")
            #expect(streamed.trace.records.count <= records.count / 4, "the harness keeps no more than the last event's records")
        }
    }

    struct Stop: Error {}

    @Test func aBodyThatThrowsStopsTheRoutingAndItsErrorComesBack() throws {
        let harness = ReplayHarness(layout: Self.layout)
        var calls = 0
        #expect(throws: Stop.self) {
            try harness.replay(try SyntheticRecordings.mouse()) { _, _ in
                calls += 1
                if calls == 3 { throw Stop() }
            }
        }
        #expect(calls == 3)
    }

    @Test func routingStoredEventsAsAStreamGivesTheWholeTrace() throws {
        let recording = try SyntheticRecordings.mouse()
        let events = try LibinputReplay(recording: recording).run().events
        let whole = ReplayHarness(layout: Self.layout).route(events)
        var records: [TraceRecord] = []
        let routed = ReplayHarness(layout: Self.layout).route(events) { chunk, _ in records += chunk }
        #expect(routed == events.count)
        #expect(records.map(\.description) == whole.trace.map(\.description))
    }
}
