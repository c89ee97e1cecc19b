@_spi(SeatKitInternals) import SeatKit

/// One input event that entered the router and what became of it, as typed values: the
/// same facts `seatkit replay --format json` writes (schema in docs/replay-trace-schema.md).
///
/// Coordinates: `layoutPoint` is in layout space (the space of all outputs); `surfacePoint`
/// is in the space of ``surface`` (its top-left is 0,0). Nothing here goes through filters
/// or grabs again: it is a record of what the router did.
public struct RoutedEvent: Sendable {
    /// Microseconds on the recording's timeline.
    public var time: Int64
    public var device: UInt32
    /// The event kind's stable name (SeatKit's `InputEvent.Kind.name`, from its
    /// `InputEventKind` table): `touch-down`, `pointer-button`, `key`, ...
    public var kind: String
    public var event: InputEvent
    public var touch: Int32?
    /// Button or key code (evdev), or the switch's number (lid 0, tablet mode 1).
    public var code: UInt32?
    /// `pressed`, `released`, `repeated`; `on`, `off` for switches.
    public var state: String?
    /// Where the event happened: the touch point, or the pointer after the event.
    public var layoutPoint: LayoutPoint?
    /// The surface the touch is bound to or the pointer is over, and the point in its space.
    public var surface: String?
    public var surfacePoint: SurfacePoint?
    /// Pointer motion and touchpad gestures: accelerated and raw deltas.
    public var delta: Vector?
    public var unacceleratedDelta: Vector?
    public var gesture: TouchpadGesture?
    public var scroll: AxisMotion?
    /// The hit test the router made for this event, and the surface it found (nil: none).
    public var hitTest: (point: LayoutPoint, surface: String?)?
    /// Each link of a responder chain asked, in order, and its answer.
    public var asked: [(link: String, event: RoutedEventKind, handled: Bool)] = []
    /// Links told without an answer (pointer entered/left, touches cancelled, focus).
    public var told: [(link: String, event: RoutedEventKind)] = []
    /// Gesture recognizer transitions this event caused, with the reason when one is given.
    public var recognizers: [RecognizerTransition] = []
    /// Who took the event: a surface's name, `filter N`, `gesture NAME`, `output:NAME`,
    /// `delegate`; "dropped" when nothing did; nil when the event is not one anything
    /// takes (motion no one was asked about). A touch down, move or up is taken at its
    /// frame: it carries the frame's answer for its kind (touchesBegan, touchesMoved, ...).
    public var takenBy: String?
    /// Every decision, as the core traced it.
    public var decisions: [TraceRecord]
}

/// A gesture recognizer's change of state.
public struct RecognizerTransition: Sendable, Hashable {
    public var recognizer: String
    public var from: String
    /// A state, or `refused`, `waiting`, `reset`.
    public var to: String
    public var reason: String?
}

/// Totals over a replay, for the trace's summary record.
public struct RoutedSummary: Sendable {
    public var events: Int
    public var byKind: [String: Int]
    /// How many events each taker took (`dropped` included).
    public var byTaker: [String: Int]
    public var dropped: Int
    public var firstTime: Int64?
    public var lastTime: Int64?
}

extension ReplayRun {
    /// Every input event with what became of it, in order. Two taps are two events each.
    public func routedEvents(surfaces: [String: Surface] = [:]) -> [RoutedEvent] {
        var stream = RoutedEventStream(surfaces: surfaces)
        var pointer = pointerPath.makeIterator()
        var events: [RoutedEvent] = []
        events.reserveCapacity(inputEvents.count)
        for group in perEvent {
            let step = RoutedEventStream.isPointerEvent(group.event) ? pointer.next() : nil
            stream.add(group.event, decisions: group.decisions, pointer: step) { events.append($0) }
        }
        stream.finish { events.append($0) }
        return events
    }

    /// The surfaces that handled each event of `kind`, one entry per event (two taps on one
    /// button give it twice).
    public func handled(_ kind: RoutedEventKind) -> [(time: Int64, surface: String)] {
        var result: [(time: Int64, surface: String)] = []
        for group in perEvent {
            for record in group.decisions {
                if case .asked(.surface(_, let name), kind, .handled) = record {
                    result.append((group.event.time.microseconds, name))
                    break
                }
            }
        }
        return result
    }

    public func summary(of events: [RoutedEvent]) -> RoutedSummary {
        var summary = RoutedSummary()
        for e in events { summary.count(e) }
        return summary
    }
}

extension RoutedSummary {
    /// Nothing counted yet.
    public init() {
        self.init(events: 0, byKind: [:], byTaker: [:], dropped: 0, firstTime: nil, lastTime: nil)
    }

    /// Counts `e`, the next event in order.
    public mutating func count(_ e: RoutedEvent) {
        events += 1
        byKind[e.kind, default: 0] += 1
        if let t = e.takenBy {
            byTaker[t, default: 0] += 1
            if t == "dropped" { dropped += 1 }
        }
        if firstTime == nil { firstTime = e.time }
        lastTime = e.time
    }
}

/// Turns the router's trace into ``RoutedEvent``s as it is made, one input event at a time,
/// keeping only what is not settled yet: a touch down, move or up is taken at its touch
/// frame, so the events from the first such one to its frame are held until the frame.
/// ``ReplayRun/routedEvents(surfaces:)`` is this over a whole run; the command line uses it
/// to write a trace longer than would fit in memory.
public struct RoutedEventStream {
    private let surfaces: [String: Surface]
    private var bound: [TouchID: String] = [:]
    /// Events not yet given out, in order; `sinceFrame` indexes the touch events among them.
    private var held: [RoutedEvent] = []
    private var sinceFrame: [Int] = []
    /// The input event whose decisions are being gathered from raw records, and its pointer step.
    private var openEvent: InputEvent?
    private var openPointer: (location: LayoutPoint, focus: String?)?
    /// Its decisions so far. The storage is used again for the next event once the event
    /// made from it is gone (settled and written), so gathering allocates nothing then.
    private var openDecisions: [TraceRecord] = []

    /// `surfaces`: the layout's surfaces by name, for surface-local points.
    public init(surfaces: [String: Surface] = [:]) {
        self.surfaces = surfaces
    }

    /// Pointer motion and buttons: the events after which the harness notes where the pointer is.
    static func isPointerEvent(_ event: InputEvent) -> Bool {
        switch event.kind {
        case .pointerMotion, .pointerMotionAbsolute, .pointerButton: return true
        default: return false
        }
    }

    /// Adds the next input event with its decisions (as in ``ReplayRun/perEvent``) and, for
    /// pointer motion and buttons, where the pointer was after it and which surface had
    /// focus. Returns the events now settled, in order (often none, or this one).
    public mutating func add(_ event: InputEvent, decisions: [TraceRecord], pointer: (location: LayoutPoint, focus: String?)?) -> [RoutedEvent] {
        var settled: [RoutedEvent] = []
        add(event, decisions: decisions, pointer: pointer) { settled.append($0) }
        return settled
    }

    /// ``add(_:decisions:pointer:)`` handing each settled event to `settle`, in order, with
    /// no array in between: the command line's path.
    public mutating func add(_ event: InputEvent, decisions: [TraceRecord], pointer: (location: LayoutPoint, focus: String?)?,
                             settle: (RoutedEvent) -> Void) {
        let pointerStep = Self.isPointerEvent(event) ? pointer : nil
        var e = RoutedEvent(event: event, decisions: decisions, bound: &bound, surfaces: pointerStep == nil ? surfaces : [:])
        if let step = pointerStep {
            e.layoutPoint = step.location
            e.surface = step.focus
            e.surfacePoint = step.focus.flatMap { surfaces[$0]?.convert(step.location) }
        }
        switch event.kind {
        case .touchDown, .touchMotion, .touchUp, .touchCancel:
            sinceFrame.append(held.count)
            held.append(e)
        case .touchFrame:
            // The frame's answers say who took each touch event since the last frame.
            for j in sinceFrame where held[j].takenBy == nil {
                let kind: RoutedEventKind
                switch held[j].event.kind {
                case .touchDown: kind = .touchesBegan
                case .touchMotion: kind = .touchesMoved
                case .touchUp: kind = .touchesEnded
                default: kind = .touchesCancelled
                }
                let touch = held[j].touch.map { TouchID($0) }
                if let taker = e.decisions.lazy.compactMap({ record -> String? in
                    if case .touchTaken(let id, let by) = record, id == touch { return "gesture \(by)" }
                    return nil
                }).first {
                    held[j].takenBy = taker
                } else if let handled = e.asked.first(where: { $0.event == kind && $0.handled }) {
                    held[j].takenBy = handled.link
                } else if e.asked.contains(where: { $0.event == kind }) {
                    held[j].takenBy = "dropped"
                }
            }
            sinceFrame.removeAll(keepingCapacity: true)
            for h in held { settle(h) }
            held.removeAll(keepingCapacity: true)
            settle(e)
        default:
            if sinceFrame.isEmpty { settle(e) } else { held.append(e) }
        }
    }

    /// Adds raw trace records in the order the router made them (a `received` record starts
    /// an input event's group; records before the first one belong to no event), with the
    /// pointer step of the input event routed last if it was pointer motion or a button.
    /// Returns the events now settled.
    public mutating func add(records: some Sequence<TraceRecord>, pointer: (location: LayoutPoint, focus: String?)?) -> [RoutedEvent] {
        var settled: [RoutedEvent] = []
        add(records: records, pointer: pointer) { settled.append($0) }
        return settled
    }

    /// ``add(records:pointer:)`` handing each settled event to `settle`, in order.
    public mutating func add(records: some Sequence<TraceRecord>, pointer: (location: LayoutPoint, focus: String?)?,
                             settle: (RoutedEvent) -> Void) {
        let done: Void? = records.withContiguousStorageIfAvailable { records in
            // Runs of decisions are copied whole.
            var i = 0
            while i < records.count {
                if case .received(let event) = records[i] {
                    closeOpen(settle: settle)
                    openEvent = event
                    openPointer = pointer
                    i += 1
                }
                var end = i
                while end < records.count {
                    if case .received = records[end] { break }
                    end += 1
                }
                if openEvent != nil { openDecisions.append(contentsOf: records[i..<end]) }
                i = end
            }
        }
        guard done == nil else { return }
        for record in records {
            if case .received(let event) = record {
                closeOpen(settle: settle)
                openEvent = event
                openPointer = pointer
            } else if openEvent != nil {
                openDecisions.append(record)
            }
        }
    }

    /// Makes the event being gathered into a ``RoutedEvent``.
    private mutating func closeOpen(settle: (RoutedEvent) -> Void) {
        guard let event = openEvent else { return }
        openEvent = nil
        add(event, decisions: openDecisions, pointer: openPointer, settle: settle)
        openDecisions.removeAll(keepingCapacity: true)
    }

    /// The events still held (touch events whose frame never came, and the last event).
    public mutating func finish() -> [RoutedEvent] {
        var settled: [RoutedEvent] = []
        finish { settled.append($0) }
        return settled
    }

    /// ``finish()`` handing each event to `settle`, in order.
    public mutating func finish(settle: (RoutedEvent) -> Void) {
        closeOpen(settle: settle)
        for h in held { settle(h) }
        held.removeAll()
        sinceFrame.removeAll()
    }
}

extension RoutedEvent {
    init(event: InputEvent, decisions: [TraceRecord], bound: inout [TouchID: String], surfaces: [String: Surface]) {
        self.time = event.time.microseconds
        self.device = event.device.rawValue
        self.kind = event.kind.name
        self.event = event
        self.decisions = decisions
        switch event.kind {
        case .touchDown(let id, let p), .touchMotion(let id, let p):
            touch = id.rawValue
            layoutPoint = p
        case .touchUp(let id), .touchCancel(let id):
            touch = id.rawValue
        case .pointerMotion(let d, let u):
            delta = d
            unacceleratedDelta = u
        case .pointerMotionAbsolute(let p):
            layoutPoint = p
        case .pointerButton(let b, let s):
            code = b
            state = s == .pressed ? "pressed" : "released"
        case .pointerAxis(let a):
            scroll = a
        case .touchpadGesture(let g):
            gesture = g
            delta = g.delta
            unacceleratedDelta = g.unacceleratedDelta
        case .key(let k, let s):
            code = k
            state = s == .pressed ? "pressed" : s == .released ? "released" : "repeated"
        case .switchToggled(let which, let on):
            code = which == .lid ? 0 : 1
            state = on ? "on" : "off"
        default: break
        }
        var handledBy: String?
        var toldLast: String?
        for i in decisions.indices {
            switch decisions[i] {
            case .hitTest(let p, let result):
                hitTest = (p, Self.name(result))
                if layoutPoint == nil { layoutPoint = p }
                if surface == nil { surface = Self.name(result) }
            case .touchBound(let id, let subject):
                bound[id] = Self.name(subject)
            case .asked(let subject, let k, let r):
                // Room for a chain's few links at once, not grown one by one.
                if asked.capacity == 0 { asked.reserveCapacity(4) }
                asked.append((subject.description, k, r == .handled))
                if r == .handled && handledBy == nil { handledBy = subject.description }
            case .told(let subject, let k):
                told.append((subject.description, k))
                toldLast = subject.description
            case .consumed(_, let filter): handledBy = handledBy ?? "filter \(filter)"
            case .followedConsumed: handledBy = handledBy ?? "filter (with its press)"
            case .touchTaken(_, let by), .touchpadGestureTaken(let by), .pointerPressTaken(let by):
                handledBy = handledBy ?? "gesture \(by)"
            case .keyCommand(let subject, _): handledBy = handledBy ?? subject.description
            case .dropped: handledBy = handledBy ?? "dropped"
            case .ignored: handledBy = handledBy ?? "ignored"
            case .gestureState(let r, let a, let b):
                recognizers.append(RecognizerTransition(recognizer: r, from: "\(a)", to: "\(b)"))
            case .gestureRefused(let r, let s, let why):
                recognizers.append(RecognizerTransition(recognizer: r, from: "\(s)", to: "refused", reason: why))
            case .gestureDeferred(let r, let other):
                recognizers.append(RecognizerTransition(recognizer: r, from: "possible", to: "waiting", reason: "waits for \(other) to fail"))
            case .gestureReset(let r):
                recognizers.append(RecognizerTransition(recognizer: r, from: "", to: "reset"))
            case .touchCancelled(_, let why):
                recognizers.append(RecognizerTransition(recognizer: "", from: "touch", to: "cancelled", reason: why))
            default: break
            }
        }
        if let t = touch, surface == nil { surface = bound[TouchID(t)] }
        if case .touchUp(let id) = event.kind { bound[id] = nil }
        if case .touchCancel(let id) = event.kind { bound[id] = nil }
        takenBy = handledBy ?? (asked.isEmpty ? toldLast : "dropped")
        if let s = surface, let p = layoutPoint, let view = surfaces[s] { surfacePoint = view.convert(p) }
    }

    static func name(_ subject: TraceSubject) -> String? {
        if case .none = subject { return nil }
        return subject.description
    }
}

/// The replay trace as JSON: an array of a header, one object per input event (one line
/// each) and a summary. Field by field in docs/replay-trace-schema.md; numbers are written
/// the same on every run, so equal replays give byte-identical files.
public enum ReplayTraceJSON {
    public static let schema = "seatkit-replay-trace"
    public static let version = 1

    /// The whole document as one string. ``write(run:events:recording:recordingDuration:to:)``
    /// gives the same bytes in pieces, without holding them all.
    public static func document(run: ReplayRun, events: [RoutedEvent], recording: String?, recordingDuration: Int64?) -> String {
        var bytes: [UInt8] = []
        _ = write(run: run, events: events, recording: recording, recordingDuration: recordingDuration) { piece in
            bytes.append(contentsOf: piece)
            return true
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the document to `sink` in pieces of about 64 KiB (each valid only during the
    /// call). Stops, returning false, at the first piece `sink` refuses (a full disk).
    public static func write(run: ReplayRun, events: [RoutedEvent], recording: String?, recordingDuration: Int64?,
                             to sink: @escaping (UnsafeRawBufferPointer) -> Bool) -> Bool {
        var writer = Writer(libinput: run.libinput, recording: recording, recordingDuration: recordingDuration, sink: sink)
        for e in events { guard writer.add(e) else { return false } }
        return writer.finish()
    }

    /// The document written as it is made: the header at once, each event as it comes, the
    /// summary (counted along the way) at the end; pieces of about 64 KiB go to `sink`.
    public struct Writer: ~Copyable {
        private var w = JSONBytes(capacity: JSONBytes.flushSize + 4096)
        private var summary = RoutedSummary()
        private let sink: (UnsafeRawBufferPointer) -> Bool
        private var failed = false

        public init(libinput: LibinputReplayResult?, recording: String?, recordingDuration: Int64?,
                    sink: @escaping (UnsafeRawBufferPointer) -> Bool) {
            self.sink = sink
            Self.writeHeader(libinput: libinput.map { ($0.framesWritten, $0.evdevEventsWritten, $0.events.count) },
                             recording: recording, recordingDuration: recordingDuration, to: &w)
        }

        /// A writer of the events and the summary only, for a replay routed while libinput
        /// runs: the header, whose libinput totals are known only at the replay's end, is
        /// ``header(libinput:recording:recordingDuration:)``, written ahead of these bytes.
        public init(bodyOnly sink: @escaping (UnsafeRawBufferPointer) -> Bool) {
            self.sink = sink
        }

        /// The document's header, as ``init(libinput:recording:recordingDuration:sink:)``
        /// writes it: libinput's totals are frames written, evdev events written, and the
        /// events libinput reported.
        public static func header(libinput: (framesWritten: Int, evdevEventsWritten: Int, events: Int)?,
                                  recording: String?, recordingDuration: Int64?) -> [UInt8] {
            var w = JSONBytes()
            writeHeader(libinput: libinput, recording: recording, recordingDuration: recordingDuration, to: &w)
            return w.text.withBytes { Array($0) }
        }

        private static func writeHeader(libinput: (framesWritten: Int, evdevEventsWritten: Int, events: Int)?,
                                        recording: String?, recordingDuration: Int64?, to w: inout JSONBytes) {
            w.raw("[\n{")
            w.key("schema", first: true); w.string(schema)
            w.key("version"); w.int(Int64(version))
            if let recording { w.key("recording"); w.string(recording) }
            if let d = recordingDuration { w.key("recording_duration_us"); w.int(d) }
            if let l = libinput {
                w.key("frames_written"); w.int(Int64(l.framesWritten))
                w.key("evdev_events_written"); w.int(Int64(l.evdevEventsWritten))
                w.key("libinput_events"); w.int(Int64(l.events))
            }
            w.raw("},\n")
        }

        /// Adds the next event; false once `sink` refused a piece.
        public mutating func add(_ e: RoutedEvent) -> Bool {
            count(e)
            ReplayTraceJSON.write(e, to: &w)
            w.raw(",\n")
            return flush(force: false)
        }

        /// Events of one kind and one taker in a row, not yet in `summary`: 160,000 pointer
        /// motions that all dropped cost two string comparisons each, not two dictionary
        /// look-ups (the summary's figures are the same).
        private var run: (kind: String, takenBy: String?, count: Int) = ("", nil, 0)

        private mutating func count(_ e: RoutedEvent) {
            if run.count > 0, e.kind == run.kind, e.takenBy == run.takenBy {
                run.count += 1
            } else {
                countRun()
                run = (e.kind, e.takenBy, 1)
            }
            if summary.firstTime == nil { summary.firstTime = e.time }
            summary.lastTime = e.time
        }

        private mutating func countRun() {
            guard run.count > 0 else { return }
            summary.events += run.count
            summary.byKind[run.kind, default: 0] += run.count
            if let t = run.takenBy {
                summary.byTaker[t, default: 0] += run.count
                if t == "dropped" { summary.dropped += run.count }
            }
            run.count = 0
        }

        /// The summary and the closing bracket; false if `sink` refused a piece.
        public mutating func finish() -> Bool {
            countRun()
            let s = summary
            w.raw("{\"summary\":{")
            w.key("events", first: true); w.int(Int64(s.events))
            w.key("dropped"); w.int(Int64(s.dropped))
            if let f = s.firstTime { w.key("first_time_us"); w.int(f) }
            if let l = s.lastTime { w.key("last_time_us"); w.int(l) }
            w.key("by_kind"); w.counts(s.byKind)
            w.key("by_taker"); w.counts(s.byTaker)
            w.raw("}}\n]\n")
            return flush(force: true)
        }

        private mutating func flush(force: Bool) -> Bool {
            guard !failed else { return false }
            guard force || w.text.count >= JSONBytes.flushSize else { return true }
            defer { w.text.removeAll() }
            failed = !w.text.withBytes { sink($0) }
            return !failed
        }
    }

    /// One event's object, as one line of the document.
    public static func record(_ e: RoutedEvent) -> String {
        var w = JSONBytes()
        write(e, to: &w)
        return w.text.string
    }

    static func write(_ e: RoutedEvent, to w: inout JSONBytes) {
        w.raw("{")
        w.key("time_us", first: true); w.int(e.time)
        w.key("device"); w.int(Int64(e.device))
        w.key("kind"); w.string(e.kind)
        if let t = e.touch { w.key("touch"); w.int(Int64(t)) }
        if let c = e.code {
            switch e.event.kind {
            case .pointerButton: w.key("button"); w.int(Int64(c))
            case .key: w.key("key"); w.int(Int64(c))
            case .switchToggled: w.key("switch"); w.string(c == 0 ? "lid" : "tablet-mode")
            default: break
            }
        }
        if let s = e.state { w.key("state"); w.string(s) }
        if let p = e.layoutPoint { w.key("layout"); w.point(p.x, p.y) }
        if let s = e.surface {
            w.key("surface"); w.raw("{")
            w.key("name", first: true); w.string(s)
            if let p = e.surfacePoint {
                w.key("x"); w.number(p.x)
                w.key("y"); w.number(p.y)
            }
            w.raw("}")
        }
        if let d = e.delta { w.key("delta"); w.vector(d) }
        if case .tablet(let t) = e.event.kind, t.isToolEvent {
            w.key("pen"); w.raw("{")
            w.key("tool", first: true); w.string("\(t.tool.kind)")
            w.key("serial"); w.int(Int64(bitPattern: t.tool.serial))
            switch t.kind {
            case .toolProximity: w.key("proximity"); w.string(t.value == 1 ? "in" : "out")
            case .toolTip: w.key("tip"); w.string(t.value == 1 ? "down" : "up")
            case .toolButton: w.key("button"); w.int(Int64(t.code)); w.key("state"); w.string(t.value == 1 ? "pressed" : "released")
            default: break
            }
            let caps = t.tool.capabilities
            if caps.contains(.pressure) { w.key("pressure"); w.number(t.axes.pressure) }
            if caps.contains(.distance) { w.key("distance"); w.number(t.axes.distance) }
            if caps.contains(.tilt) { w.key("tilt_x"); w.number(t.axes.tiltX); w.key("tilt_y"); w.number(t.axes.tiltY) }
            if caps.contains(.rotation) { w.key("rotation"); w.number(t.axes.rotation) }
            if caps.contains(.slider) { w.key("slider"); w.number(t.axes.slider) }
            if caps.contains(.wheel) { w.key("wheel"); w.number(t.axes.wheelDelta) }
            w.raw("}")
        }
        if let u = e.unacceleratedDelta { w.key("unaccelerated"); w.vector(u) }
        if let g = e.gesture {
            w.key("gesture"); w.raw("{")
            w.key("type", first: true); w.string("\(g.kind)")
            w.key("phase")
            switch g.phase {
            case .begin: w.string("begin")
            case .update: w.string("update")
            case .end(let cancelled): w.string(cancelled ? "cancel" : "end")
            }
            w.key("fingers"); w.int(Int64(g.fingers))
            if g.kind == .pinch {
                w.key("scale"); w.number(g.scale)
                w.key("rotation"); w.number(g.rotation)
            }
            w.raw("}")
        }
        if let a = e.scroll {
            w.key("scroll"); w.raw("{")
            w.key("source", first: true); w.string("\(a.source)")
            w.key("horizontal"); w.number(a.horizontal)
            w.key("vertical"); w.number(a.vertical)
            w.key("horizontal_v120"); w.number(a.horizontalV120)
            w.key("vertical_v120"); w.number(a.verticalV120)
            w.raw("}")
        }
        if let h = e.hitTest {
            w.key("hit_test"); w.raw("{")
            w.key("x", first: true); w.number(h.point.x)
            w.key("y"); w.number(h.point.y)
            w.key("result")
            if let s = h.surface { w.string(s) } else { w.raw("null") }
            w.raw("}")
        }
        if !e.asked.isEmpty {
            w.key("asked"); w.raw("[")
            for i in e.asked.indices {
                if i > 0 { w.raw(",") }
                w.raw("{")
                w.key("link", first: true); w.string(e.asked[i].link)
                w.key("event"); w.name(e.asked[i].event)
                if e.asked[i].handled { w.raw(",\"answer\":\"handled\"") } else { w.raw(",\"answer\":\"not handled\"") }
                w.raw("}")
            }
            w.raw("]")
        }
        if !e.told.isEmpty {
            w.key("told"); w.raw("[")
            for i in e.told.indices {
                if i > 0 { w.raw(",") }
                w.raw("{")
                w.key("link", first: true); w.string(e.told[i].link)
                w.key("event"); w.name(e.told[i].event)
                w.raw("}")
            }
            w.raw("]")
        }
        if !e.recognizers.isEmpty {
            w.key("recognizers"); w.raw("[")
            for (i, r) in e.recognizers.enumerated() {
                if i > 0 { w.raw(",") }
                w.raw("{")
                w.key("recognizer", first: true); w.string(r.recognizer)
                w.key("from"); w.string(r.from)
                w.key("to"); w.string(r.to)
                if let why = r.reason { w.key("reason"); w.string(why) }
                w.raw("}")
            }
            w.raw("]")
        }
        w.key("taken_by")
        if let t = e.takenBy { w.string(t) } else { w.raw("null") }
        w.key("trace"); w.raw("[")
        for i in e.decisions.indices {
            if i > 0 { w.raw(",") }
            // The text trace's line without its indentation, written in place (indexed: an
            // iterator would copy each record, retaining what it holds).
            w.string(record: e.decisions[i])
        }
        w.raw("]}")
    }

    public static func string(_ s: String) -> String {
        var w = JSONBytes()
        w.string(s)
        return w.text.string
    }
}

/// The trace's JSON, appended as UTF-8 bytes: no intermediate strings for objects, keys or
/// integers, and strings copied whole when nothing in them needs escaping. Written into a
/// ``TraceText`` (memory of its own, no array's checks per append); like it, not copyable.
struct JSONBytes: ~Copyable {
    static let flushSize = 64 << 10
    /// The document so far; its number writer keeps the text of the last few numbers, which
    /// one event repeats (its point, its hit-test's point, the trace's hit-test line).
    var text: TraceText

    init(capacity: Int = 256) { text = TraceText(capacity: capacity) }

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        self.text.append(text)
    }

    /// `"key":`, after a comma unless it is the object's first.
    @inline(__always)
    mutating func key(_ name: StaticString, first: Bool = false) {
        text.reserve(name.utf8CodeUnitCount + 4)
        if !first { text.append(unchecked: UInt8(ascii: ",")) }
        text.append(unchecked: UInt8(ascii: "\""))
        text.append(name)
        text.append(unchecked: UInt8(ascii: "\""))
        text.append(unchecked: UInt8(ascii: ":"))
    }

    /// An event kind's name, quoted: a Swift identifier, so nothing to escape.
    mutating func name(_ kind: RoutedEventKind) {
        text.append(byte: UInt8(ascii: "\""))
        text.append(kind)
        text.append(byte: UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int64) {
        text.append(value)
    }

    /// Whole numbers below 1e15 as integers, others in Swift's shortest round-trip form
    /// (the trace's text form of a number); null for infinities and NaN.
    mutating func number(_ v: Double) {
        guard v.isFinite else { raw("null"); return }
        text.append(compact: v)
    }

    mutating func point(_ x: Double, _ y: Double) {
        raw("{\"x\":"); number(x); raw(",\"y\":"); number(y); raw("}")
    }

    mutating func vector(_ v: Vector) {
        raw("{\"dx\":"); number(v.dx); raw(",\"dy\":"); number(v.dy); raw("}")
    }

    mutating func counts(_ c: [String: Int]) {
        raw("{")
        for (i, name) in c.keys.sorted().enumerated() {
            if i > 0 { raw(",") }
            string(name)
            raw(":")
            int(Int64(c[name]!))
        }
        raw("}")
    }

    /// A trace record's line (unindented), quoted and escaped as ``string(_:)``
    /// would, but written straight into the document; only a line that needs escaping (a
    /// name with a quote in it) is copied again.
    mutating func string(record: TraceRecord) {
        text.append(byte: UInt8(ascii: "\""))
        let start = text.count
        text.append(record, indented: false)
        if text.withBytes(from: start, { Self.needsEscape($0) }) {
            let line = text.string(from: start)
            text.removeAll(from: start - 1)
            string(line)
        } else {
            text.append(byte: UInt8(ascii: "\""))
        }
    }

    @inline(__always)
    static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x7F || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")
    }

    /// True when any of `bytes` needs escaping, read eight at a time: a byte below 0x20 (the
    /// borrow of subtracting 0x20 from each byte reaches its top bit), or one equal to `"`,
    /// `\` or DEL (zero after XOR with it). Exact for "any"; the bytes after a match may
    /// show as matches too, which does not matter here.
    static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i &+ 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C), delete = w ^ (ones &* 0x7F)
            let below = (w &- ones &* 0x20) & ~w
            let equal = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((delete &- ones) & ~delete)
            if (below | equal) & highs != 0 { return true }
            i &+= 8
        }
        while i < n {
            if needsEscape(base[i]) { return true }
            i &+= 1
        }
        return false
    }

    /// `s` quoted, with `"`, `\` and control characters (and DEL) escaped. Bytes of 0x80 and
    /// above (the rest of UTF-8) are copied as they are.
    mutating func string(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ string(utf8: $0) }) == nil {
            var copy = s
            copy.withUTF8 { string(utf8: $0) }
        }
    }

    private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        text.append(byte: UInt8(ascii: "\""))
        guard Self.needsEscape(utf8) else {
            // Most strings (names, kinds) need nothing escaped: copied whole.
            text.append(utf8)
            text.append(byte: UInt8(ascii: "\""))
            return
        }
        var run = 0
        for i in 0..<utf8.count {
            let b = utf8[i]
            guard Self.needsEscape(b) else { continue }
            text.append(UnsafeBufferPointer(rebasing: utf8[run..<i]))
            run = i + 1
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\t"): raw("\\t")
            case UInt8(ascii: "\r"): raw("\\r")
            default:
                let hex: StaticString = "0123456789abcdef"
                raw("\\u00")
                hex.withUTF8Buffer { digits in
                    text.append(byte: digits[Int(b >> 4)])
                    text.append(byte: digits[Int(b & 0xF)])
                }
            }
        }
        text.append(UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
        text.append(byte: UInt8(ascii: "\""))
    }
}
