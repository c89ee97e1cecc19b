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
        case .output(let name): return "output:\(name)"
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
        switch self {
        case .received(let e): return "input \(e.traceDescription)"
        case .consumed(let e, let i): return "  consumed by filter \(i): \(e.traceDescription)"
        case .followedConsumed(let e): return "  consumed with its press: \(e.traceDescription)"
        case .hitTest(let p, let r): return "  hit-test \(p) -> \(r)"
        case .touchBound(let t, let s): return "  \(t) bound to \(s)"
        case .asked(let s, let k, let r): return "  \(k.rawValue) -> \(s): \(r == .handled ? "handled" : "not handled")"
        case .told(let s, let k): return "  \(k.rawValue) -> \(s)"
        case .keyCommand(let s, let a): return "  key command \(a) on \(s)"
        case .dropped(let k): return "  dropped \(k.rawValue)"
        case .pointerFocus(let a, let b): return "  pointer focus \(a) -> \(b)"
        case .keyboardFocus(let a, let b): return "  keyboard focus \(a) -> \(b)"
        case .touchCancelled(let t, let why): return "  \(t) cancelled: \(why)"
        case .ignored(let e, let why): return "  ignored \(e.traceDescription): \(why)"
        case .chainCycle(let k): return "  chain cycle cut off for \(k.rawValue)"
        case .gestureSaw(let r, let k): return "  gesture \(r) saw \(k.rawValue)"
        case .gestureState(let r, let a, let b): return "  gesture \(r): \(a) -> \(b)"
        case .gestureRefused(let r, let s, let why): return "  gesture \(r) stopped at \(s): \(why)"
        case .gestureDeferred(let r, let other): return "  gesture \(r) waits for \(other) to fail"
        case .gestureReset(let r): return "  gesture \(r) reset"
        case .touchDelayed(let t, let k, let by): return "  \(t) \(k.rawValue) held back by \(by)"
        case .touchReleased(let t, let k): return "  \(t) \(k.rawValue) released to responders"
        case .heldTouchDropped(let t, let k, let why): return "  \(t) held \(k.rawValue) dropped: \(why)"
        case .touchTaken(let t, let by): return "  \(t) taken by gesture \(by)"
        case .touchpadGestureTaken(let by): return "  touchpad gesture taken by \(by)"
        case .pointerPressTaken(let by): return "  pointer press taken by \(by)"
        }
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
    /// A short human description for traces.
    public var traceDescription: String {
        let what: String
        switch kind {
        case .touchDown(let id, let p): what = "touch down \(id) at \(p)"
        case .touchMotion(let id, let p): what = "touch motion \(id) to \(p)"
        case .touchUp(let id): what = "touch up \(id)"
        case .touchCancel(let id): what = "touch cancel \(id)"
        case .touchFrame: what = "touch frame"
        case .pointerMotion(let d, _): what = "pointer motion \(d)"
        case .pointerMotionAbsolute(let p): what = "pointer absolute \(p)"
        case .pointerButton(let b, let s): what = "button 0x\(String(b, radix: 16)) \(s)"
        case .pointerAxis(let a): what = "axis \(a.source) h=\(a.horizontal.compactDescription) v=\(a.vertical.compactDescription)"
        case .touchpadGesture(let g): what = "touchpad \(g.kind) \(g.phase) \(g.fingers) fingers"
        case .key(let code, let s): what = "key \(code) \(s)"
        case .switchToggled(let k, let on): what = "switch \(k) \(on ? "on" : "off")"
        case .tablet(let t): what = "tablet \(t.kind)"
        case .deviceAdded(let info): what = "device added \(info.name) [\(info.capabilities)]"
        case .deviceRemoved: what = "device removed"
        }
        return "\(time) \(device) \(what)"
    }
}
