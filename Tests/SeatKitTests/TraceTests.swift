import Testing
@testable import SeatKit

@Suite("Trace")
struct TraceTests {
    @Test func theTraceNamesTheHitTestEachResponderAskedAndTheDrop() {
        let h = Harness()
        let trace = TraceLog()
        h.router.trace = trace
        let parent = h.surface("parent", 0, 0, 500, 500)
        h.surface("child", 0, 0, 100, 100, in: parent)
        h.down(3, 10, 10)
        let lines = trace.lines
        #expect(lines.contains("  hit-test (10, 10) -> child"))
        #expect(lines.contains("  t3 bound to child"))
        #expect(lines.contains("  touchesBegan -> child: not handled"))
        #expect(lines.contains("  touchesBegan -> parent: not handled"))
        #expect(lines.contains("  touchesBegan -> output:OUT-1: not handled"))
        #expect(lines.last == "  dropped touchesBegan")
    }

    @Test func switchingTheTraceOffRecordsNothing() {
        let h = Harness()
        let trace = TraceLog()
        h.router.trace = trace
        h.down(0, 10, 10)
        let count = trace.records.count
        #expect(count > 0)
        h.router.trace = nil
        h.up(0)
        #expect(trace.records.count == count)
    }
}
