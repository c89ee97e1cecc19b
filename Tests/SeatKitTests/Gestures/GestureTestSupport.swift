import SeatKit

/// An ordered log shared by the responders and recognizers of one gesture test.
final class GestureCallLog {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
    func clear() { entries.removeAll() }
    /// Entries whose text starts with `prefix`.
    func matching(_ prefix: String) -> [String] { entries.filter { $0.hasPrefix(prefix) } }
}

/// Logs each touch call as "name.phase[ids]" and handles what it is told to.
final class TouchLoggingResponder: Responder {
    let name: String
    let log: GestureCallLog
    var handles: Set<String>

    init(_ name: String, log: GestureCallLog, handles: Set<String> = []) {
        self.name = name
        self.log = log
        self.handles = handles
    }

    private func answer(_ phase: String, _ event: TouchEvent) -> ResponderResult {
        let ids = event.touches.map { "t\($0.id.rawValue)" }.joined(separator: ",")
        log.add("\(name).\(phase)[\(ids)]")
        return handles.contains(phase) ? .handled : .notHandled
    }

    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { answer("began", event) }
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { answer("moved", event) }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { answer("ended", event) }
    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) { _ = answer("cancelled", event) }
    func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult {
        log.add("\(name).touchpad")
        return handles.contains("touchpad") ? .handled : .notHandled
    }
    func canPerform(_ action: Action) -> Bool { handles.contains("action") }
    func perform(_ action: Action, context: ResponderContext) { log.add("\(name).perform(\(action.name))") }
}

/// Lets chosen pairs recognize together.
final class SimultaneousDelegate: GestureRecognizerDelegate {
    var allowsSimultaneous = true
    var refusesBegin = false
    var receives: (TouchPoint) -> Bool = { _ in true }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        allowsSimultaneous
    }
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { !refusesBegin }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: TouchPoint) -> Bool { receives(touch) }
}

/// A router with one 1000x1000 output ("OUT") and a virtual clock. Touch device 1 reports a
/// 100 x 100 mm panel mapped to the output: 10 layout units per millimetre.
/// Each `down`, `move` and `up` first advances time by `step` ms, then sends the event
/// and a frame.
final class GestureRig {
    let clock = VirtualClock()
    let router: Router
    let output: Output
    let log = GestureCallLog()
    let delegate: GestureRigDelegate
    private(set) var now: Int64 = 0
    var step: Int64 = 10

    init(millimetreScale: Bool = true) {
        router = Router(clock: clock)
        delegate = GestureRigDelegate(log: log)
        router.delegate = delegate
        output = Output(name: "OUT", modeSize: Size(width: 1000, height: 1000))
        router.addOutput(output)
        if millimetreScale {
            router.inject(InputEvent(time: .zero, device: DeviceID(1), .deviceAdded(DeviceInfo(
                name: "panel", capabilities: .touch, physicalSize: Size(width: 100, height: 100), mappedOutput: "OUT"))))
        }
    }

    @discardableResult
    func surface(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, in parent: Surface? = nil,
                 handles: Set<String> = []) -> Surface {
        let s = Surface(name: name, frame: SurfaceRect(x: x, y: y, width: w, height: h),
                        responder: TouchLoggingResponder(name, log: log, handles: handles))
        (parent ?? output.root).addChild(s)
        return s
    }

    /// Moves time forward by `ms`, firing due timers.
    func wait(_ ms: Int64) {
        now += ms
        clock.advance(to: .milliseconds(now))
    }

    func send(_ kind: InputEvent.Kind) {
        router.inject(InputEvent(time: .milliseconds(now), device: DeviceID(1), kind))
    }

    func down(_ id: Int32, _ x: Double, _ y: Double) {
        wait(step)
        send(.touchDown(TouchID(id), LayoutPoint(x: x, y: y)))
        send(.touchFrame)
    }

    func move(_ id: Int32, _ x: Double, _ y: Double) {
        wait(step)
        send(.touchMotion(TouchID(id), LayoutPoint(x: x, y: y)))
        send(.touchFrame)
    }

    func up(_ id: Int32) {
        wait(step)
        send(.touchUp(TouchID(id)))
        send(.touchFrame)
    }

    /// Several fingers changing in one frame.
    func frame(_ changes: [InputEvent.Kind]) {
        wait(step)
        for change in changes { send(change) }
        send(.touchFrame)
    }

    /// Logs every transition of `recognizer` as "name:state".
    func watch(_ recognizer: GestureRecognizer) {
        let log = self.log
        recognizer.addTarget { r in log.add("\(r.name):\(r.state)") }
    }
}

/// The rig's compositor delegate: logs actions it performs and drops.
final class GestureRigDelegate: CompositorDelegate {
    let log: GestureCallLog
    init(log: GestureCallLog) { self.log = log }
    func canPerform(_ action: Action) -> Bool { true }
    func perform(_ action: Action, context: ResponderContext) { log.add("delegate.perform(\(action.name))") }
}

func fingerDown(_ id: Int32, _ x: Double, _ y: Double) -> InputEvent.Kind { .touchDown(TouchID(id), LayoutPoint(x: x, y: y)) }
func fingerMoved(_ id: Int32, _ x: Double, _ y: Double) -> InputEvent.Kind { .touchMotion(TouchID(id), LayoutPoint(x: x, y: y)) }
func fingerUp(_ id: Int32) -> InputEvent.Kind { .touchUp(TouchID(id)) }
