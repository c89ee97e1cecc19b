import SeatKit

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
    /// ``SeatKit/InputEvent/Kind/name``: `touch-down`, `pointer-button`, `key`, ...
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
        var bound: [TouchID: String] = [:]
        var pointer = pointerPath.makeIterator()
        var events = perEvent.map { group in
            var e = RoutedEvent(event: group.event, decisions: group.decisions, bound: &bound, surfaces: surfaces)
            switch group.event.kind {
            case .pointerMotion, .pointerMotionAbsolute, .pointerButton:
                // The harness noted where the pointer was after each of these, in order.
                if let step = pointer.next() {
                    e.layoutPoint = step.location
                    e.surface = step.focus
                    e.surfacePoint = step.focus.flatMap { surfaces[$0]?.convert(step.location) }
                }
            default: break
            }
            return e
        }
        // Touch downs, moves and ups are delivered together at their frame: the frame's
        // answers say who took each of them.
        var sinceFrame: [Int] = []
        for i in events.indices {
            switch events[i].event.kind {
            case .touchDown, .touchMotion, .touchUp, .touchCancel:
                sinceFrame.append(i)
            case .touchFrame:
                let frame = events[i]
                for j in sinceFrame where events[j].takenBy == nil {
                    let kind: RoutedEventKind
                    switch events[j].event.kind {
                    case .touchDown: kind = .touchesBegan
                    case .touchMotion: kind = .touchesMoved
                    case .touchUp: kind = .touchesEnded
                    default: kind = .touchesCancelled
                    }
                    let touch = events[j].touch.map { TouchID($0) }
                    if let taker = frame.decisions.lazy.compactMap({ record -> String? in
                        if case .touchTaken(let id, let by) = record, id == touch { return "gesture \(by)" }
                        return nil
                    }).first {
                        events[j].takenBy = taker
                    } else if let handled = frame.asked.first(where: { $0.event == kind && $0.handled }) {
                        events[j].takenBy = handled.link
                    } else if frame.asked.contains(where: { $0.event == kind }) {
                        events[j].takenBy = "dropped"
                    }
                }
                sinceFrame.removeAll()
            default: break
            }
        }
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
        var byKind: [String: Int] = [:], byTaker: [String: Int] = [:]
        for e in events {
            byKind[e.kind, default: 0] += 1
            if let t = e.takenBy { byTaker[t, default: 0] += 1 }
        }
        return RoutedSummary(events: events.count, byKind: byKind, byTaker: byTaker, dropped: byTaker["dropped"] ?? 0,
                             firstTime: events.first?.time, lastTime: events.last?.time)
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
        for record in decisions {
            switch record {
            case .hitTest(let p, let result):
                hitTest = (p, Self.name(result))
                if layoutPoint == nil { layoutPoint = p }
                if surface == nil { surface = Self.name(result) }
            case .touchBound(let id, let subject):
                bound[id] = Self.name(subject)
            case .asked(let subject, let k, let r):
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

    public static func document(run: ReplayRun, events: [RoutedEvent], recording: String?, recordingDuration: Int64?) -> String {
        var out = "[\n"
        var header = Object()
        header.add("schema", string: schema)
        header.add("version", raw: "\(version)")
        if let recording { header.add("recording", string: recording) }
        if let d = recordingDuration { header.add("recording_duration_us", raw: "\(d)") }
        if let l = run.libinput {
            header.add("frames_written", raw: "\(l.framesWritten)")
            header.add("evdev_events_written", raw: "\(l.evdevEventsWritten)")
            header.add("libinput_events", raw: "\(l.events.count)")
        }
        out += header.text + ",\n"
        for e in events { out += record(e) + ",\n" }
        let s = run.summary(of: events)
        var summary = Object()
        summary.add("events", raw: "\(s.events)")
        summary.add("dropped", raw: "\(s.dropped)")
        if let f = s.firstTime { summary.add("first_time_us", raw: "\(f)") }
        if let l = s.lastTime { summary.add("last_time_us", raw: "\(l)") }
        summary.add("by_kind", raw: counts(s.byKind))
        summary.add("by_taker", raw: counts(s.byTaker))
        var wrapper = Object()
        wrapper.add("summary", raw: summary.text)
        out += wrapper.text + "\n]\n"
        return out
    }

    public static func record(_ e: RoutedEvent) -> String {
        var o = Object()
        o.add("time_us", raw: "\(e.time)")
        o.add("device", raw: "\(e.device)")
        o.add("kind", string: e.kind)
        if let t = e.touch { o.add("touch", raw: "\(t)") }
        if let c = e.code {
            switch e.event.kind {
            case .pointerButton: o.add("button", raw: "\(c)")
            case .key: o.add("key", raw: "\(c)")
            case .switchToggled: o.add("switch", string: c == 0 ? "lid" : "tablet-mode")
            default: break
            }
        }
        if let s = e.state { o.add("state", string: s) }
        if let p = e.layoutPoint { o.add("layout", raw: point(p.x, p.y)) }
        if let s = e.surface {
            var so = Object()
            so.add("name", string: s)
            if let p = e.surfacePoint {
                so.add("x", raw: number(p.x))
                so.add("y", raw: number(p.y))
            }
            o.add("surface", raw: so.text)
        }
        if let d = e.delta { o.add("delta", raw: vector(d)) }
        if let u = e.unacceleratedDelta { o.add("unaccelerated", raw: vector(u)) }
        if let g = e.gesture {
            var go = Object()
            go.add("type", string: "\(g.kind)")
            switch g.phase {
            case .begin: go.add("phase", string: "begin")
            case .update: go.add("phase", string: "update")
            case .end(let cancelled): go.add("phase", string: cancelled ? "cancel" : "end")
            }
            go.add("fingers", raw: "\(g.fingers)")
            if g.kind == .pinch {
                go.add("scale", raw: number(g.scale))
                go.add("rotation", raw: number(g.rotation))
            }
            o.add("gesture", raw: go.text)
        }
        if let a = e.scroll {
            var ao = Object()
            ao.add("source", string: "\(a.source)")
            ao.add("horizontal", raw: number(a.horizontal))
            ao.add("vertical", raw: number(a.vertical))
            ao.add("horizontal_v120", raw: number(a.horizontalV120))
            ao.add("vertical_v120", raw: number(a.verticalV120))
            o.add("scroll", raw: ao.text)
        }
        if let h = e.hitTest {
            var ho = Object()
            ho.add("x", raw: number(h.point.x))
            ho.add("y", raw: number(h.point.y))
            if let s = h.surface { ho.add("result", string: s) } else { ho.add("result", raw: "null") }
            o.add("hit_test", raw: ho.text)
        }
        if !e.asked.isEmpty {
            o.add("asked", raw: "[" + e.asked.map { a in
                var ao = Object()
                ao.add("link", string: a.link)
                ao.add("event", string: a.event.rawValue)
                ao.add("answer", string: a.handled ? "handled" : "not handled")
                return ao.text
            }.joined(separator: ",") + "]")
        }
        if !e.told.isEmpty {
            o.add("told", raw: "[" + e.told.map { t in
                var to = Object()
                to.add("link", string: t.link)
                to.add("event", string: t.event.rawValue)
                return to.text
            }.joined(separator: ",") + "]")
        }
        if !e.recognizers.isEmpty {
            o.add("recognizers", raw: "[" + e.recognizers.map { r in
                var ro = Object()
                ro.add("recognizer", string: r.recognizer)
                ro.add("from", string: r.from)
                ro.add("to", string: r.to)
                if let why = r.reason { ro.add("reason", string: why) }
                return ro.text
            }.joined(separator: ",") + "]")
        }
        if let t = e.takenBy { o.add("taken_by", string: t) } else { o.add("taken_by", raw: "null") }
        o.add("trace", raw: "[" + e.decisions.map { string(String($0.description.drop { $0 == " " })) }.joined(separator: ",") + "]")
        return o.text
    }

    struct Object {
        var parts: [String] = []
        mutating func add(_ key: String, raw: String) { parts.append(ReplayTraceJSON.string(key) + ":" + raw) }
        mutating func add(_ key: String, string: String) { add(key, raw: ReplayTraceJSON.string(string)) }
        var text: String { "{" + parts.joined(separator: ",") + "}" }
    }

    static func counts(_ c: [String: Int]) -> String {
        "{" + c.keys.sorted().map { string($0) + ":\(c[$0]!)" }.joined(separator: ",") + "}"
    }

    static func point(_ x: Double, _ y: Double) -> String { "{\"x\":\(number(x)),\"y\":\(number(y))}" }
    static func vector(_ v: Vector) -> String { "{\"dx\":\(number(v.dx)),\"dy\":\(number(v.dy))}" }

    /// Shortest round-trip form; JSON has no NaN or infinities, which become null.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
