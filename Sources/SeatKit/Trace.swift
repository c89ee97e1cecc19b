/// Who a trace record speaks of: a link of a chain, named for people.
public enum TraceSubject: Hashable, Sendable, CustomStringConvertible {
    /// A surface, by ID and name.
    case surface(SurfaceID, String)
    /// An output's responder, by output name.
    case output(String)
    /// The compositor delegate.
    case delegate
    /// No surface (a hit-test that found nothing, no focus).
    case none

    init(_ link: ChainLink) {
        switch link {
        case .surface(let s): self = .surface(s.id, s.name)
        case .output(let o): self = .output(o.name)
        case .delegate: self = .delegate
        }
    }

    init(_ surface: Surface?) {
        if let surface { self = .surface(surface.id, surface.name) } else { self = .none }
    }

    /// The surface's name, "output:NAME", "delegate" or "nothing".
    public var description: String {
        switch self {
        case .surface(_, let name): return name
        case .output(let name): return "output:" + name
        case .delegate: return "delegate"
        case .none: return "nothing"
        }
    }
}

/// The responder method an event was delivered through.
public enum RoutedEventKind: String, Sendable, Hashable {
    /// The touch handlers of ``Responder``.
    case touchesBegan, touchesMoved, touchesEnded, touchesCancelled
    /// The pointer and touchpad handlers of ``Responder``.
    case pointerEntered, pointerLeft, pointerMoved, pointerButton, pointerAxis, touchpadGesture
    /// The pen handlers of ``Responder``.
    case penEntered, penLeft, penMoved, penDown, penUp, penButton
    /// Key handlers, a matched ``KeyCommand``, and ``Router/sendAction(_:to:)``.
    case keyDown, keyUp, keyCommand, action
    /// Becoming or resigning first responder.
    case firstResponder
}

/// One routing decision.
public enum TraceRecord: Hashable, Sendable {
    /// An event entered the router.
    case received(InputEvent)
    /// Filter number `filter` (in the order added) took the event.
    case consumed(InputEvent, filter: Int)
    /// A release, repeat or motion taken because its press or down was taken.
    case followedConsumed(InputEvent)
    /// Hit-testing at a layout point found a surface (or nothing).
    case hitTest(LayoutPoint, result: TraceSubject)
    /// A touch was bound to a surface for its life.
    case touchBound(TouchID, to: TraceSubject)
    /// A responder was asked and answered.
    case asked(TraceSubject, RoutedEventKind, ResponderResult)
    /// A responder was told (enter, leave, cancel, focus notifications): no answer.
    case told(TraceSubject, RoutedEventKind)
    /// A key command of `subject` matched and its action was performed.
    case keyCommand(TraceSubject, Action)
    /// Nobody handled the event.
    case dropped(RoutedEventKind)
    /// Pointer or keyboard focus moved.
    case pointerFocus(from: TraceSubject, to: TraceSubject)
    /// The first responder changed.
    case keyboardFocus(from: TraceSubject, to: TraceSubject)
    /// A touch ended early, with the reason.
    case touchCancelled(TouchID, reason: String)
    /// Something was wrong with the input itself (a duplicate touch id, an unknown touch),
    /// and the router ignored it.
    case ignored(InputEvent, reason: String)
    /// A chain redirected by `nextResponder` ran in a circle and was cut off.
    case chainCycle(RoutedEventKind)
    /// A gesture recognizer (named "name@surface") was shown a phase of its touches, or a
    /// touchpad gesture event, before the responders.
    case gestureSaw(String, RoutedEventKind)
    /// A recognizer changed state.
    case gestureState(String, from: GestureRecognizerState, to: GestureRecognizerState)
    /// A recognizer asked for `requested` (or was stopped in that state) and was made to
    /// fail, or was cancelled, for the reason given.
    case gestureRefused(String, GestureRecognizerState, reason: String)
    /// A recognizer's recognition waits for another, which it requires to fail.
    case gestureDeferred(String, waitingFor: String)
    /// A recognizer was reset to possible, ready for the next gesture.
    case gestureReset(String)
    /// A phase of a touch was held back from the responders, and by whom.
    case touchDelayed(TouchID, RoutedEventKind, by: String)
    /// A held phase went on to the responders: its recognizers gave up.
    case touchReleased(TouchID, RoutedEventKind)
    /// A held phase was thrown away, with the reason.
    case heldTouchDropped(TouchID, RoutedEventKind, reason: String)
    /// A recognizer took the touch: responders that saw it are told it was cancelled and see
    /// nothing more of it.
    case touchTaken(TouchID, by: String)
    /// A recognizer took the current touchpad gesture from the responders.
    case touchpadGestureTaken(by: String)
    /// A recognizer took the current pointer press: its motion no longer reaches the
    /// responders (a release still follows a press they saw).
    case pointerPressTaken(by: String)
}

extension TraceRecord: CustomStringConvertible {
    /// One indented line per decision (unindented for a received event), as in the replay
    /// tool's output.
    public var description: String {
        var text = TraceText()
        text.append(self, indented: true)
        return text.string
    }
}

extension TraceText {
    /// The record's line, as ``TraceRecord/description`` gives it; `indented: false` leaves
    /// out the two spaces before a decision (the JSON trace's form).
    package mutating func append(_ record: TraceRecord, indented: Bool) {
        if indented, !record.isReceived { append("  ") }
        switch record {
        case .received(let e): append("input "); append(event: e)
        case .consumed(let e, let i): append("consumed by filter "); append(Int64(i)); append(": "); append(event: e)
        case .followedConsumed(let e): append("consumed with its press: "); append(event: e)
        case .hitTest(let p, let r): append("hit-test "); append(pair: p.x, p.y); append(" -> "); append(r)
        case .touchBound(let t, let s): append(t); append(" bound to "); append(s)
        case .asked(let s, let k, let r):
            append(k); append(" -> "); append(s)
            if r == .handled { append(": handled") } else { append(": not handled") }
        case .told(let s, let k): append(k); append(" -> "); append(s)
        case .keyCommand(let s, let a): append("key command "); append("\(a)"); append(" on "); append(s)
        case .dropped(let k): append("dropped "); append(k)
        case .pointerFocus(let a, let b): append("pointer focus "); append(a); append(" -> "); append(b)
        case .keyboardFocus(let a, let b): append("keyboard focus "); append(a); append(" -> "); append(b)
        case .touchCancelled(let t, let why): append(t); append(" cancelled: "); append(why)
        case .ignored(let e, let why): append("ignored "); append(event: e); append(": "); append(why)
        case .chainCycle(let k): append("chain cycle cut off for "); append(k)
        case .gestureSaw(let r, let k): append("gesture "); append(r); append(" saw "); append(k)
        case .gestureState(let r, let a, let b): append("gesture "); append(r); append(": "); append("\(a)"); append(" -> "); append("\(b)")
        case .gestureRefused(let r, let s, let why): append("gesture "); append(r); append(" stopped at "); append("\(s)"); append(": "); append(why)
        case .gestureDeferred(let r, let other): append("gesture "); append(r); append(" waits for "); append(other); append(" to fail")
        case .gestureReset(let r): append("gesture "); append(r); append(" reset")
        case .touchDelayed(let t, let k, let by): append(t); append(" "); append(k); append(" held back by "); append(by)
        case .touchReleased(let t, let k): append(t); append(" "); append(k); append(" released to responders")
        case .heldTouchDropped(let t, let k, let why): append(t); append(" held "); append(k); append(" dropped: "); append(why)
        case .touchTaken(let t, let by): append(t); append(" taken by gesture "); append(by)
        case .touchpadGestureTaken(let by): append("touchpad gesture taken by "); append(by)
        case .pointerPressTaken(let by): append("pointer press taken by "); append(by)
        }
    }

    /// The event as ``InputEvent/traceDescription`` gives it.
    package mutating func append(event e: InputEvent) {
        append(milliseconds: e.time.microseconds)
        append(" dev")
        append(Int64(e.device.rawValue))
        append(" ")
        // The kind's words come from the one table of event kinds (InputEventKind.swift).
        append(e.kind.tableKind.traceName)
        switch e.kind {
        case .touchDown(let id, let p): append(" "); append(id); append(" at "); append(pair: p.x, p.y)
        case .touchMotion(let id, let p): append(" "); append(id); append(" to "); append(pair: p.x, p.y)
        case .touchUp(let id): append(" "); append(id)
        case .touchCancel(let id): append(" "); append(id)
        case .touchFrame: break
        case .pointerMotion(let d, _): append(" "); append(pair: d.dx, d.dy)
        case .pointerMotionAbsolute(let p): append(" "); append(pair: p.x, p.y)
        case .pointerButton(let b, let s):
            append(" 0x"); append(String(b, radix: 16))
            append(s == .pressed ? " pressed" : " released")
        case .pointerAxis(let a):
            append(" "); append("\(a.source)")
            append(" h="); append(compact: a.horizontal)
            append(" v="); append(compact: a.vertical)
        case .touchpadGesture(let g): append(" \(g.phase) \(g.fingers) fingers")
        case .key(let code, let s):
            append(" "); append(Int64(code))
            switch s {
            case .pressed: append(" pressed")
            case .released: append(" released")
            case .repeated: append(" repeated")
            }
        case .switchToggled(let k, let on): append(" \(k) "); append(on ? "on" : "off")
        case .tablet(let t):
            append(" \(t.kind)")
            if t.isToolEvent {
                append(" \(t.tool.kind)")
                if let p = t.position { append(" at "); append(pair: p.x, p.y) }
                switch t.kind {
                case .toolProximity: append(t.value == 1 ? " in" : " out")
                case .toolTip: append(t.value == 1 ? " down" : " up")
                case .toolButton: append(" 0x"); append(String(t.code, radix: 16)); append(t.value == 1 ? " pressed" : " released")
                default: break
                }
                if t.tool.capabilities.contains(.pressure) { append(" pressure="); append(compact: t.axes.pressure) }
                if t.tool.capabilities.contains(.tilt) { append(" tilt="); append(pair: t.axes.tiltX, t.axes.tiltY) }
            } else {
                append(" "); append(Int64(t.code)); append(" value="); append(compact: t.value)
            }
        case .unknown(let code): append(" "); append(Int64(code))
        case .deviceAdded(let info): append(" "); append(info.name); append(" [\(info.capabilities)]")
        case .deviceRemoved: break
        }
    }
}

extension TraceRecord {
    var isReceived: Bool {
        if case .received = self { return true }
        return false
    }
}

/// Receives the router's trace. Set ``Router/trace`` to one; while it is `nil` the router
/// builds no records at all.
public protocol TraceSink: AnyObject {
    /// One decision, in the order the router made them, on the event loop's thread. Runs
    /// inside routing: keep it cheap, and do not route from it.
    func record(_ record: TraceRecord)
}

/// A trace sink that keeps every record in memory.
public final class TraceLog: TraceSink {
    /// Every record so far, oldest first. Grows without bound: clear it with ``removeAll()``.
    public private(set) var records: [TraceRecord] = []
    /// An empty log.
    public init() {}
    /// Appends `record`.
    public func record(_ record: TraceRecord) { records.append(record) }
    /// Forgets every record, keeping the storage.
    public func removeAll() { records.removeAll(keepingCapacity: true) }
    /// One line a record.
    public var lines: [String] { records.map(\.description) }
}

extension InputEvent {
    /// A short human description for traces: "12.5ms dev1 pointer motion (1, 0)".
    public var traceDescription: String {
        var text = TraceText()
        text.append(event: self)
        return text.string
    }
}
