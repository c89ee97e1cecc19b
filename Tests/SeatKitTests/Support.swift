import AllocationCounter
import SeededRandom
import SeatKit

/// A shared, ordered log of what responders were asked.
final class CallLog {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
    func clear() { entries.removeAll() }
}

/// A responder that logs every call as "name.method" and handles what it is told to.
final class RecordingResponder: Responder {
    let name: String
    let log: CallLog
    var handles: Set<String>
    var canBecomeFirst: Bool
    var refusesResign = false
    var actions: Set<String> = []
    var commands: [KeyCommand] = []
    var redirect: ChainLink??
    var onCall: ((String, ResponderContext) -> Void)?
    var lastTouches: [TouchPoint] = []
    var lastMotion: PointerMotionEvent?
    var lastButton: PointerButtonEvent?
    var lastKey: KeyEvent?

    init(_ name: String, log: CallLog, handles: Set<String> = [], canBecomeFirst: Bool = false) {
        self.name = name
        self.log = log
        self.handles = handles
        self.canBecomeFirst = canBecomeFirst
    }

    private func answer(_ method: String, _ context: ResponderContext) -> ResponderResult {
        log.add("\(name).\(method)")
        onCall?(method, context)
        return handles.contains(method) ? .handled : .notHandled
    }

    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        lastTouches = event.touches
        return answer("began", context)
    }
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        lastTouches = event.touches
        return answer("moved", context)
    }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        lastTouches = event.touches
        return answer("ended", context)
    }
    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {
        lastTouches = event.touches
        _ = answer("cancelled", context)
    }
    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) { _ = answer("enter", context) }
    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) { _ = answer("leave", context) }
    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
        lastMotion = event
        return answer("motion", context)
    }
    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        lastButton = event
        return answer("button", context)
    }
    func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult { answer("axis", context) }
    func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult { answer("gesture", context) }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        lastKey = event
        return answer("keyDown", context)
    }
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        lastKey = event
        return answer("keyUp", context)
    }
    var keyCommands: [KeyCommand] { commands }
    var canBecomeFirstResponder: Bool { canBecomeFirst }
    var canResignFirstResponder: Bool { !refusesResign }
    func didBecomeFirstResponder(context: ResponderContext) { log.add("\(name).didBecome") }
    func didResignFirstResponder(context: ResponderContext) { log.add("\(name).didResign") }
    func canPerform(_ action: Action) -> Bool { actions.contains(action.name) }
    func perform(_ action: Action, context: ResponderContext) { log.add("\(name).perform(\(action.name))") }
    func nextResponder(after defaultNext: ChainLink?) -> ChainLink? {
        if let redirect { return redirect }
        return defaultNext
    }
}

/// A compositor delegate that logs like the responders and records drops.
final class RecordingDelegate: CompositorDelegate {
    let log: CallLog
    var handles: Set<String> = []
    var dropped: [String] = []
    var capabilityChanges: [DeviceCapabilities] = []
    var deviceEvents: [InputEvent] = []
    var focusRule: ((Surface, Surface) -> Surface?)?

    init(log: CallLog) { self.log = log }

    private func answer(_ method: String) -> ResponderResult {
        log.add("delegate.\(method)")
        return handles.contains(method) ? .handled : .notHandled
    }
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { answer("began") }
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { answer("moved") }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { answer("ended") }
    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) { _ = answer("cancelled") }
    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult { answer("button") }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { answer("keyDown") }

    func router(_ router: Router, dropped event: DroppedEvent) {
        switch event {
        case .touchesBegan: dropped.append("began")
        case .touchesMoved: dropped.append("moved")
        case .touchesEnded: dropped.append("ended")
        case .pointerMotion: dropped.append("motion")
        case .pointerButton: dropped.append("button")
        case .pointerAxis: dropped.append("axis")
        case .touchpadGesture: dropped.append("gesture")
        case .keyDown: dropped.append("keyDown")
        case .keyUp: dropped.append("keyUp")
        case .action(let a): dropped.append("action(\(a.name))")
        }
    }
    func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        if let focusRule { return focusRule(removed, formerParent) }
        return router.defaultFirstResponder(afterRemoving: removed, formerParent: formerParent)
    }
    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {
        capabilityChanges.append(capabilities)
    }
    func router(_ router: Router, deviceEvent event: InputEvent) { deviceEvents.append(event) }
}

/// A router with one 1000x1000 output at the layout origin and a virtual clock, and a
/// helper to send events at advancing times.
final class Harness {
    let clock = VirtualClock()
    let router: Router
    let output: Output
    let log = CallLog()
    let delegate: RecordingDelegate
    private(set) var time: Int64 = 0

    init(outputSize: Size = Size(width: 1000, height: 1000)) {
        router = Router(clock: clock)
        delegate = RecordingDelegate(log: log)
        router.delegate = delegate
        output = Output(name: "OUT-1", modeSize: outputSize)
        router.addOutput(output)
    }

    /// A surface with a recording responder named like the surface.
    @discardableResult
    func surface(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, in parent: Surface? = nil,
                 handles: Set<String> = [], canBecomeFirst: Bool = false) -> Surface {
        let responder = RecordingResponder(name, log: log, handles: handles, canBecomeFirst: canBecomeFirst)
        let s = Surface(name: name, frame: SurfaceRect(x: x, y: y, width: w, height: h), responder: responder)
        (parent ?? output.root).addChild(s)
        return s
    }

    func send(_ kind: InputEvent.Kind, device: UInt32 = 1) {
        time += 1
        clock.advance(to: .milliseconds(time))
        router.inject(InputEvent(time: .milliseconds(time), device: DeviceID(device), kind))
    }

    func down(_ id: Int32, _ x: Double, _ y: Double) {
        send(.touchDown(TouchID(id), LayoutPoint(x: x, y: y)))
        send(.touchFrame)
    }
    func move(_ id: Int32, _ x: Double, _ y: Double) {
        send(.touchMotion(TouchID(id), LayoutPoint(x: x, y: y)))
        send(.touchFrame)
    }
    func up(_ id: Int32) {
        send(.touchUp(TouchID(id)))
        send(.touchFrame)
    }
    func pointer(to x: Double, _ y: Double) { send(.pointerMotionAbsolute(LayoutPoint(x: x, y: y))) }
    func press(_ button: UInt32 = 0x110) { send(.pointerButton(button: button, state: .pressed)) }
    func release(_ button: UInt32 = 0x110) { send(.pointerButton(button: button, state: .released)) }
    func key(_ code: UInt32, _ state: KeyState) { send(.key(keycode: code, state: state)) }
}

extension Surface {
    var recorder: RecordingResponder { responder as! RecordingResponder }
}

/// The shared SplitMix64 (SeededRandom), so property tests repeat exactly.
typealias SeededGenerator = SplitMix64

/// Edits the tree `edits` times with `edit` and hit-tests every point after each edit;
/// returns the heap allocations of the hit-tests alone (not of the edits) and how many hit.
func hitTestAllocationsAfterEdits(_ root: Surface, _ points: [SurfacePoint], edits: Int,
                                  edit: (Int) -> Void) -> (allocations: UInt64, hits: Int) {
    var allocations: UInt64 = 0
    var hits = 0
    for step in 0..<edits {
        edit(step)
        let before = seatkit_thread_allocations()
        var i = 0
        while i < points.count {
            if root.hitTest(points[i]) != nil { hits += 1 }
            i += 1
        }
        allocations += seatkit_thread_allocations() - before
    }
    return (allocations, hits)
}
