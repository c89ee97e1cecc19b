import SeatKit
import SeatKitLibinput

/// A deterministic seat for test suites: a router with a virtual clock, a layout of outputs
/// and surfaces, and a recording replayed into it through real libinput.
///
/// ```swift
/// let layout = try SurfaceLayout.parse("output DSI-1 800x480\nsurface ok-button 600,380,160x60 in DSI-1\n", source: "kiosk")
/// var touch = TouchScript(layout: layout)
/// touch.tap(at: LayoutPoint(x: 680, y: 410))
/// let run = try ReplayHarness(layout: layout).replay(touch.recording())
/// // many replays in a suite: ReplayHarness(layout: layout, session: Self.session), where
/// // `static let session = ReplaySession()` keeps one worker for all of them
/// #expect(run.surfaces(receiving: .touchesEnded) == ["ok-button"])
/// // a file beside the test: RecordingParser.parse(contentsOf: "Fixtures/tap.yml", relativeTo: #filePath)
/// ```
///
/// Every surface the layout names gets a ``ReplayHarness/SurfaceRecorder`` responder that
/// handles touches, buttons, scrolls, gestures and keys; replace a surface's `responder` for
/// other behaviour. The trace of every routing decision is in ``trace``; a run's
/// ``ReplayRun/routedEvents(surfaces:)`` gives each input event with its fields, hit test,
/// links asked and taker as typed values (pass ``surfaces`` for surface-local points).
public final class ReplayHarness {
    public let clock: VirtualClock
    public let router: Router
    public let trace: TraceLog
    public let translator: DeviceEventTranslator
    /// The layout's surfaces by name.
    public private(set) var surfaces: [String: Surface] = [:]
    /// The worker and testbed that ``replay(_:options:)`` uses; nil: a fresh one per replay.
    /// Share one session between the harnesses of a test suite so that its replays pay the
    /// worker's start-up once (see ``ReplaySession``).
    public var session: ReplaySession?

    /// A responder that takes what reaches it; the trace says who took what.
    public final class SurfaceRecorder: Responder {
        public init() {}
        public var canBecomeFirstResponder: Bool { true }
        public func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
        public func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
        public func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
        public func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult { .handled }
        public func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult { .handled }
        public func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult { .handled }
        public func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .handled }
        public func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .handled }
    }

    public init(layout: SurfaceLayout? = nil, touchMapping: TouchOutputMapping? = nil, session: ReplaySession? = nil) {
        self.session = session
        clock = VirtualClock()
        router = Router(clock: clock)
        trace = TraceLog()
        router.trace = trace
        translator = DeviceEventTranslator(touchMapping: touchMapping ?? layout?.touchMapping ?? TouchOutputMapping())
        if let layout {
            surfaces = layout.build(in: router) { _ in SurfaceRecorder() }
        }
    }

    /// Replays `recording` through real libinput (see ``LibinputReplay``; on ``session``
    /// when there is one) and routes what libinput reports.
    @discardableResult
    public func replay(_ recording: Recording, options: ReplayOptions = ReplayOptions()) throws(ReplayError) -> ReplayRun {
        let result = try libinputEvents(of: recording, options: options)
        return route(result.events, libinputResult: result)
    }

    /// What real libinput reports for `recording` (on ``session`` when there is one), not
    /// routed yet: give its events to ``route(_:libinputResult:)`` or
    /// ``route(_:streaming:)``.
    public func libinputEvents(of recording: Recording, options: ReplayOptions = ReplayOptions()) throws(ReplayError) -> LibinputReplayResult {
        if let session { return try session.replay(recording, options: options) }
        return try LibinputReplay(recording: recording, options: options).run()
    }

    /// Routes `events` as ``route(_:libinputResult:)`` does but keeps nothing, for traces too
    /// long to hold: after each input event, `body` gets the trace records made since the
    /// last call, in order (``trace`` is emptied as it goes), and, for pointer motion and
    /// buttons, where the pointer was after it and which surface had pointer focus.
    /// ``RoutedEventStream`` turns these into ``RoutedEvent``s. Returns how many input
    /// events were routed.
    @discardableResult
    public func route(_ events: [DeviceEvent],
                      streaming body: (_ records: [TraceRecord], _ pointer: (location: LayoutPoint, focus: String?)?) throws -> Void) rethrows -> Int {
        trace.removeAll()
        for event in events {
            let step = routeOne(event)
            try body(trace.records, step)
        }
        return events.count
    }

    /// Replays `recording` through real libinput and routes each event the moment libinput
    /// reports it, keeping neither libinput's events nor the trace: ``route(_:streaming:)``
    /// for a recording whose events would not fit in memory. `body` is called as there. The
    /// result's `events` is empty. A `body` that throws stops the routing (the replay runs
    /// to its end) and the error is thrown here.
    @discardableResult
    public func replay(_ recording: Recording, options: ReplayOptions = ReplayOptions(),
                       streaming body: @escaping (_ records: [TraceRecord], _ pointer: (location: LayoutPoint, focus: String?)?) throws -> Void) throws -> LibinputReplayResult {
        var options = options
        var failure: (any Error)?
        trace.removeAll()
        options.eventSink = { [unowned self] event in
            guard failure == nil else { return }
            let step = self.routeOne(event)
            do { try body(self.trace.records, step) } catch { failure = error }
        }
        let result = try libinputEvents(of: recording, options: options)
        if let failure { throw failure }
        return result
    }

    /// Routes one event, leaving its records in ``trace`` for the caller to take and clear;
    /// returns where the pointer was after it if it was pointer motion or a button.
    private func routeOne(_ event: DeviceEvent) -> (location: LayoutPoint, focus: String?)? {
        trace.removeAll()
        let input = translator.translate(event, router: router)
        clock.advance(to: input.time)
        router.inject(input)
        return RoutedEventStream.isPointerEvent(input) ? (router.pointerLocation, router.pointerFocus?.name) : nil
    }

    /// Routes events libinput reported (from a replay, or from a `--with-libinput` file via
    /// ``RecordedLibinputEvents``), advancing the virtual clock to each event's time.
    @discardableResult
    public func route(_ events: [DeviceEvent], libinputResult: LibinputReplayResult? = nil) -> ReplayRun {
        let firstRecord = trace.records.count
        var inputs: [InputEvent] = []
        var pointerPath: [(LayoutPoint, String?)] = []
        inputs.reserveCapacity(events.count)
        for event in events {
            let input = translator.translate(event, router: router)
            clock.advance(to: input.time)
            router.inject(input)
            inputs.append(input)
            switch input.kind {
            case .pointerMotion, .pointerMotionAbsolute, .pointerButton:
                pointerPath.append((router.pointerLocation, router.pointerFocus?.name))
            default: break
            }
        }
        return ReplayRun(inputEvents: inputs, trace: Array(trace.records[firstRecord...]), libinput: libinputResult, pointerPath: pointerPath)
    }
}

/// What one replay did: the events that entered the router and every routing decision.
public struct ReplayRun {
    public var inputEvents: [InputEvent]
    public var trace: [TraceRecord]
    public var libinput: LibinputReplayResult?
    /// The pointer's layout-space location after each pointer event, and the surface that had
    /// pointer focus then.
    public var pointerPath: [(location: LayoutPoint, focus: String?)] = []

    /// A run put together by hand, for example from ``ReplayHarness/route(_:streaming:)``
    /// keeping only the records a report needs.
    public init(inputEvents: [InputEvent], trace: [TraceRecord], libinput: LibinputReplayResult?,
                pointerPath: [(location: LayoutPoint, focus: String?)]) {
        self.inputEvents = inputEvents
        self.trace = trace
        self.libinput = libinput
        self.pointerPath = pointerPath
    }

    /// Each touch from down to up or cancel: its layout-space points and the surface it was
    /// bound to.
    public var touchPaths: [(touch: TouchID, surface: String?, points: [LayoutPoint])] {
        var collector = TouchPathCollector()
        for record in trace { collector.add(record) }
        return collector.paths
    }

    /// The trace cut into one group per input event: the event, then what happened to it.
    public var perEvent: [(event: InputEvent, decisions: [TraceRecord])] {
        var groups: [(event: InputEvent, decisions: [TraceRecord])] = []
        for record in trace {
            if case .received(let e) = record {
                groups.append((e, []))
            } else if !groups.isEmpty {
                groups[groups.count - 1].decisions.append(record)
            }
        }
        return groups
    }

    /// Names of the surfaces that handled events of `kind`, one per event handled, in order:
    /// two taps on one button name it twice. ``handled(_:)`` adds each event's time.
    public func surfaces(receiving kind: RoutedEventKind) -> [String] {
        handled(kind).map(\.surface)
    }

    /// How many events of each kind entered the router.
    public var inputCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for e in inputEvents { counts[e.kind.name, default: 0] += 1 }
        return counts
    }
}

/// Each touch from down to up or cancel, gathered from trace records in the order the router
/// made them: its layout-space points and the surface it was bound to. ``ReplayRun/touchPaths``
/// over a whole trace; record by record for a trace that is not kept.
public struct TouchPathCollector {
    public private(set) var paths: [(touch: TouchID, surface: String?, points: [LayoutPoint])] = []
    private var open: [TouchID: Int] = [:]

    public init() {}

    /// Takes the next record; only touch events and bindings matter.
    public mutating func add(_ record: TraceRecord) {
        switch record {
        case .received(let e):
            switch e.kind {
            case .touchDown(let id, let p):
                open[id] = paths.count
                paths.append((id, nil, [p]))
            case .touchMotion(let id, let p):
                if let i = open[id] { paths[i].points.append(p) }
            case .touchUp(let id), .touchCancel(let id):
                open[id] = nil
            default: break
            }
        case .touchBound(let id, let subject):
            if let i = open[id], case .surface(_, let name) = subject { paths[i].surface = name }
        default: break
        }
    }
}
