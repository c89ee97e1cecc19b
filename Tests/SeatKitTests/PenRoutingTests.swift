import AllocationCounter
import Testing
@testable import SeatKit

/// A responder that logs its pen calls as "name.method" and keeps the last pen event.
final class PenRecorder: Responder {
    let name: String
    let log: CallLog
    var handles: Set<String>
    var events: [PenEvent] = []
    var buttons: [PenButtonEvent] = []

    init(_ name: String, log: CallLog, handles: Set<String> = []) {
        self.name = name
        self.log = log
        self.handles = handles
    }

    private func answer(_ method: String, _ event: PenEvent) -> ResponderResult {
        log.add("\(name).\(method)")
        events.append(event)
        return handles.contains(method) ? .handled : .notHandled
    }

    func penEntered(_ event: PenEvent, context: ResponderContext) { _ = answer("penEnter", event) }
    func penLeft(_ event: PenEvent, context: ResponderContext) { _ = answer("penLeave", event) }
    func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult { answer("penMove", event) }
    func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult { answer("penDown", event) }
    func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult { answer(event.isCancelled ? "penCancel" : "penUp", event) }
    func penButton(_ event: PenButtonEvent, context: ResponderContext) -> ResponderResult {
        log.add("\(name).penButton")
        buttons.append(event)
        return handles.contains("penButton") ? .handled : .notHandled
    }
}

/// A router with one 1000×1000 output and pen-recording surfaces.
final class PenHarness {
    let clock = VirtualClock()
    let router: Router
    let output = Output(name: "OUT-1", modeSize: Size(width: 1000, height: 1000))
    let log = CallLog()
    var time: Int64 = 0
    static let pen = PenTool(kind: .pen, serial: 0x1234, hardwareID: 0x802, capabilities: [.position, .pressure, .tilt, .distance])
    static let eraser = PenTool(kind: .eraser, serial: 0x1234, hardwareID: 0x80a, capabilities: [.position, .pressure, .tilt])

    init() {
        router = Router(clock: clock)
        router.addOutput(output)
    }

    @discardableResult
    func surface(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, in parent: Surface? = nil,
                 handles: Set<String> = ["penMove", "penDown", "penUp", "penButton"]) -> Surface {
        let s = Surface(name: name, frame: SurfaceRect(x: x, y: y, width: w, height: h), responder: PenRecorder(name, log: log, handles: handles))
        (parent ?? output.root).addChild(s)
        return s
    }

    func send(_ kind: TabletEvent.Kind, _ x: Double, _ y: Double, value: Double = 0, code: UInt32 = 0, tool: PenTool = PenHarness.pen,
              pressure: Double = 0, tiltX: Double = 0, tiltY: Double = 0, changed: PenAxisSet = [.position]) {
        time += 1
        clock.advance(to: .milliseconds(time))
        router.inject(InputEvent(time: .milliseconds(time), device: DeviceID(7), .tablet(TabletEvent(
            kind: kind, position: LayoutPoint(x: x, y: y), code: code, value: value, tool: tool,
            axes: PenAxes(pressure: pressure, tiltX: tiltX, tiltY: tiltY), changedAxes: changed))))
    }

    func proximityIn(_ x: Double, _ y: Double, tool: PenTool = PenHarness.pen) { send(.toolProximity, x, y, value: 1, tool: tool) }
    func proximityOut(_ x: Double, _ y: Double, tool: PenTool = PenHarness.pen) { send(.toolProximity, x, y, value: 0, tool: tool) }
    func hover(_ x: Double, _ y: Double) { send(.toolAxis, x, y) }
    func down(_ x: Double, _ y: Double, pressure: Double = 0.2, tool: PenTool = PenHarness.pen) {
        send(.toolTip, x, y, value: 1, tool: tool, pressure: pressure, changed: [.position, .pressure])
    }
    func move(_ x: Double, _ y: Double, pressure: Double, tiltX: Double = 0, tool: PenTool = PenHarness.pen) {
        send(.toolAxis, x, y, tool: tool, pressure: pressure, tiltX: tiltX, changed: [.position, .pressure, .tilt])
    }
    func up(_ x: Double, _ y: Double, tool: PenTool = PenHarness.pen) { send(.toolTip, x, y, value: 0, tool: tool) }
}

extension Surface {
    var pen: PenRecorder { responder as! PenRecorder }
}

@Suite("Pen routing")
struct PenRoutingTests {
    @Test func hoveringGivesEnterAndLeaveLikeThePointer() {
        let h = PenHarness()
        let a = h.surface("a", 0, 0, 100, 100)
        let b = h.surface("b", 200, 0, 100, 100)
        h.proximityIn(50, 50)
        #expect(h.log.entries == ["a.penEnter"])
        #expect(a.pen.events.last?.surfaceLocation == SurfacePoint(x: 50, y: 50))
        #expect(a.pen.events.last?.phase == .proximityIn)
        h.hover(60, 50)
        #expect(h.log.entries.last == "a.penMove")
        #expect(a.pen.events.last?.phase == .hover && a.pen.events.last?.isInContact == false)
        h.log.clear()
        h.hover(250, 40)
        #expect(h.log.entries == ["a.penLeave", "b.penEnter", "b.penMove"])
        #expect(b.pen.events.last?.surfaceLocation == SurfacePoint(x: 50, y: 40))
        h.log.clear()
        h.proximityOut(250, 40)
        #expect(h.log.entries == ["b.penLeave"])
        #expect(h.router.pensInProximity.isEmpty)
    }

    @Test func contactBindsTheStrokeToTheSurfaceItTouchedUntilTheTipLifts() {
        let h = PenHarness()
        let a = h.surface("a", 0, 0, 100, 100)
        let b = h.surface("b", 200, 0, 100, 100)
        h.proximityIn(50, 50)
        h.down(50, 50)
        h.log.clear()
        h.move(150, 50, pressure: 0.5)
        h.move(250, 50, pressure: 0.6)     // over b, but the stroke is a's
        #expect(h.log.entries == ["a.penMove", "a.penMove"])
        #expect(a.pen.events.last?.surfaceLocation == SurfacePoint(x: 250, y: 50), "a's space, outside it")
        #expect(a.pen.events.last?.isInContact == true)
        #expect(b.pen.events.isEmpty)
        h.log.clear()
        h.up(250, 50)
        // The stroke ends at a; then focus follows the pen to b.
        #expect(h.log.entries == ["a.penUp", "a.penLeave", "b.penEnter"])
    }

    @Test func pressureTiltAndTheToolArriveWithEveryEvent() {
        let h = PenHarness()
        let a = h.surface("a", 0, 0, 500, 500)
        h.proximityIn(10, 10, tool: PenHarness.eraser)
        h.down(10, 10, pressure: 0.1, tool: PenHarness.eraser)
        for i in 1...5 { h.move(10 + Double(i), 10, pressure: 0.1 * Double(i + 1), tiltX: Double(i), tool: PenHarness.eraser) }
        h.up(15, 10, tool: PenHarness.eraser)
        let strokes = a.pen.events.filter(\.isInContact)
        #expect(strokes.count == 6)
        #expect(strokes.map(\.axes.pressure) == [0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001])
        #expect(strokes.last?.axes.tiltX == 5)
        #expect(strokes.allSatisfy { $0.tool.isEraser && $0.tool.serial == 0x1234 })
        #expect(strokes.last?.changedAxes == [.position, .pressure, .tilt])
        // The pen end of the same stylus is another tool: a new enter, not the eraser's.
        h.proximityOut(15, 10, tool: PenHarness.eraser)
        h.proximityIn(15, 10)
        #expect(a.pen.events.last?.tool.kind == .pen && a.pen.events.last?.phase == .proximityIn)
    }

    @Test func unhandledPenEventsWalkUpTheChainByDefault() {
        let h = PenHarness()
        let parent = h.surface("parent", 0, 0, 500, 500)
        h.surface("child", 0, 0, 100, 100, in: parent, handles: [])
        h.proximityIn(10, 10)
        h.log.clear()
        h.down(10, 10)
        h.send(.toolButton, 10, 10, value: 1, code: 0x14b)
        h.up(10, 10)
        #expect(h.log.entries == ["child.penDown", "parent.penDown", "child.penButton", "parent.penButton", "child.penUp", "parent.penUp"])
        #expect(parent.pen.buttons.last?.button == 0x14b && parent.pen.buttons.last?.state == .pressed)
        #expect(parent.pen.events.last?.surfaceLocation == SurfacePoint(x: 10, y: 10))
    }

    @Test func aFilterThatTakesTheProximityInTakesTheToolUntilItLeaves() {
        final class TakeProximity: InputFilter {
            var seen = 0
            func filter(_ event: InputEvent, router: Router) -> FilterDecision {
                seen += 1
                if case .tablet(let t) = event.kind, t.kind == .toolProximity, t.value == 1 { return .consume }
                return .pass
            }
        }
        let h = PenHarness()
        h.surface("a", 0, 0, 500, 500)
        let filter = TakeProximity()
        h.router.addFilter(filter)
        h.proximityIn(10, 10)
        h.down(10, 10)
        h.move(20, 10, pressure: 0.4)
        h.up(20, 10)
        h.proximityOut(20, 10)
        #expect(h.log.entries.isEmpty)
        #expect(filter.seen == 1, "the rest followed the taken proximity-in without asking filters")
        h.router.removeFilter(filter)
        h.proximityIn(10, 10)
        #expect(h.log.entries == ["a.penEnter"])
    }

    @Test func aFilterCannotTakeTheUpOfADeliveredDown() {
        final class TakeTips: InputFilter {
            func filter(_ event: InputEvent, router: Router) -> FilterDecision {
                if case .tablet(let t) = event.kind, t.kind == .toolTip, t.value == 0 { return .consume }
                return .pass
            }
        }
        let h = PenHarness()
        let a = h.surface("a", 0, 0, 500, 500)
        h.proximityIn(10, 10)
        h.down(10, 10)
        h.router.addFilter(TakeTips())
        h.up(10, 10)
        #expect(a.pen.events.last?.phase == .up)
    }

    @Test func aPenGrabTakesPenInputAndItsDefaultsForward() {
        final class Grab: PenGrab {
            var phases: [PenEvent.Phase] = []
            var swallow = true
            var cancelled = false
            func penEvent(_ event: PenEvent, router: Router) {
                phases.append(event.phase)
                if !swallow { router.routePen(event) }
            }
            func cancel(router: Router) { cancelled = true }
        }
        let h = PenHarness()
        let a = h.surface("a", 0, 0, 500, 500)
        h.proximityIn(10, 10)
        h.down(10, 10)
        let grab = Grab()
        h.log.clear()
        h.router.startPenGrab(grab)
        // The stroke's surface hears it end.
        #expect(h.log.entries == ["a.penCancel", "a.penLeave"])
        h.log.clear()
        h.move(20, 10, pressure: 0.3)
        h.up(20, 10)
        #expect(grab.phases == [.moved, .up])
        #expect(h.log.entries.isEmpty)
        grab.swallow = false
        h.hover(30, 10)
        #expect(h.log.entries == ["a.penEnter", "a.penMove"])
        h.router.endPenGrab()
        #expect(grab.cancelled)
        #expect(a.pen.events.last?.surfaceLocation == SurfacePoint(x: 30, y: 10))
    }

    @Test func removingTheStrokesSurfaceTellsItACancelledUpAndLeaveAndSwallowsTheRest() {
        let h = PenHarness()
        let a = h.surface("a", 0, 0, 100, 100)
        let b = h.surface("b", 0, 0, 100, 100)
        h.proximityIn(10, 10)
        h.down(10, 10)
        h.log.clear()
        b.removeFromParent()
        #expect(h.log.entries == ["b.penCancel", "b.penLeave"])
        h.log.clear()
        h.move(20, 10, pressure: 0.5)
        h.up(20, 10)
        // The rest of the stroke goes nowhere; after the up the pen finds a.
        #expect(h.log.entries == ["a.penEnter"])
        #expect(a.pen.events.last?.phase == .up)
    }

    @Test func tabletUnpluggedMidStrokeEndsTheStroke() {
        let h = PenHarness()
        let a = h.surface("a", 0, 0, 100, 100)
        h.proximityIn(10, 10)
        h.down(10, 10)
        h.log.clear()
        h.router.inject(InputEvent(time: .milliseconds(100), device: DeviceID(7), .deviceRemoved))
        #expect(h.log.entries == ["a.penCancel", "a.penLeave"])
        #expect(h.router.pensInProximity.isEmpty)
        _ = a
    }

    @Test func theTraceRecordsThePenAndItsAxes() {
        let h = PenHarness()
        h.surface("a", 0, 0, 100, 100)
        let trace = TraceLog()
        h.router.trace = trace
        h.proximityIn(10, 10)
        h.down(10, 10, pressure: 0.25)
        let text = trace.lines.joined(separator: "\n")
        #expect(text.contains("tablet toolProximity pen at (10, 10) in pressure=0"), "\(text)")
        #expect(text.contains("tablet toolTip pen at (10, 10) down pressure=0.25"), "\(text)")
        #expect(text.contains("penEntered -> a"), "\(text)")
        #expect(text.contains("penDown -> a: handled"), "\(text)")
    }

    @Test func padEventsAndUnknownEventsGoToTheDelegate() {
        final class Delegate: CompositorDelegate {
            var events: [InputEvent.Kind] = []
            func router(_ router: Router, deviceEvent event: InputEvent) { events.append(event.kind) }
        }
        let h = PenHarness()
        let delegate = Delegate()
        h.router.delegate = delegate
        let ring = TabletEvent(kind: .padRing, code: 0, value: 90, padMode: PadMode(group: 0, mode: 2), fromFinger: true)
        h.router.inject(InputEvent(time: .milliseconds(1), device: DeviceID(8), .tablet(ring)))
        h.router.inject(InputEvent(time: .milliseconds(2), device: DeviceID(8), .unknown(code: 999)))
        #expect(delegate.events == [.tablet(ring), .unknown(code: 999)])
    }
}

/// Counts pen calls without allocating.
final class QuietPen: Responder {
    var calls = 0
    let handles: Bool
    init(handles: Bool) { self.handles = handles }
    func penEntered(_ event: PenEvent, context: ResponderContext) { calls += 1 }
    func penLeft(_ event: PenEvent, context: ResponderContext) { calls += 1 }
    func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult { calls += 1; return handles ? .handled : .notHandled }
    func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult { calls += 1; return handles ? .handled : .notHandled }
    func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult { calls += 1; return handles ? .handled : .notHandled }
}

@Suite("Pen allocations")
struct PenAllocationTests {
    /// Hover and stroke motion of a pen up a five-deep chain allocate nothing once warm.
    @Test func penMotionThroughTheChainAllocatesNothingOnceWarm() {
        let h = PenHarness()
        var parent = h.output.root
        var chain: [QuietPen] = []
        for depth in 0..<5 {
            // Only the top of the chain handles: each motion walks five links.
            let r = QuietPen(handles: depth == 0)
            chain.append(r)
            let s = Surface(name: "d\(depth)", frame: SurfaceRect(x: 10, y: 10, width: 400 - Double(depth) * 50, height: 400), responder: r)
            parent.addChild(s)
            parent = s
        }
        // The events are made first: making a TabletEvent in the test allocates (it is not
        // routing's), so the measured loop only injects.
        func stroke(_ n: Int) -> [InputEvent] {
            var events: [InputEvent] = []
            let tool = PenHarness.pen
            func add(_ kind: TabletEvent.Kind, _ x: Double, _ y: Double, _ value: Double = 0, pressure: Double = 0) {
                events.append(InputEvent(time: .milliseconds(Int64(events.count)), device: DeviceID(7), .tablet(TabletEvent(
                    kind: kind, position: LayoutPoint(x: x, y: y), value: value, tool: tool,
                    axes: PenAxes(pressure: pressure, tiltX: 3), changedAxes: [.position, .pressure, .tilt]))))
            }
            add(.toolProximity, 20, 20, 1)
            add(.toolTip, 20, 20, 1, pressure: 0.2)
            for i in 0..<n { add(.toolAxis, 20 + Double(i % 50), 20, pressure: 0.5) }
            add(.toolTip, 20, 20, 0)
            for i in 0..<n { add(.toolAxis, 20 + Double(i % 50), 30) }
            add(.toolProximity, 20, 30, 0)
            return events
        }
        for e in stroke(50) { h.router.inject(e) }
        let events = stroke(200)
        // An index loop: `for e in events` allocated per iteration in debug builds.
        let allocations = events.withUnsafeBufferPointer { buffer in
            let before = seatkit_thread_allocations()
            var i = 0
            while i < buffer.count {
                h.router.inject(buffer[i])
                i += 1
            }
            return seatkit_thread_allocations() - before
        }
        #expect(allocations == 0, "\(allocations) allocations for 400 pen motions")
        // Down, stroke and hover go up the chain from d1 (the hit-test surface) to d0.
        #expect(chain[0].calls >= 400 && chain[1].calls >= 400)
    }
}
