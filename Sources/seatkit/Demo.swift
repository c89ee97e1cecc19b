import ArgumentParser
import SeatKit

/// Builds a small kiosk layout, routes a scripted sequence of touches, clicks and keys
/// through it under a virtual clock, and prints the delivery trace.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Route a scripted sequence of touches, clicks and keys through a kiosk layout and print the trace."
    )

    func run() throws {
        let kiosk = DemoKiosk()
        for line in kiosk.run() { print(line) }
        try finishStandardOutput()
    }
}

/// A responder that takes what the demo wants it to take, and says so.
final class DemoButton: Responder {
    let label: String
    private let log: (String) -> Void
    init(_ label: String, log: @escaping (String) -> Void) {
        self.label = label
        self.log = log
    }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        log("\(label): tapped")
        return .handled
    }
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        if event.state == .released { log("\(label): clicked at \(event.surfaceLocation)") }
        return .handled
    }
}

/// A text field: takes keyboard focus and keys.
final class DemoTextField: Responder {
    private let log: (String) -> Void
    init(log: @escaping (String) -> Void) { self.log = log }
    var canBecomeFirstResponder: Bool { true }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        if let surface = context.surface { context.router.becomeFirstResponder(surface) }
        return .handled
    }
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        log("field: key \(event.keycode)")
        return .handled
    }
}

/// The compositor at the end of every chain.
final class DemoCompositor: CompositorDelegate {
    private let log: (String) -> Void
    init(log: @escaping (String) -> Void) { self.log = log }
    func router(_ router: Router, dropped event: DroppedEvent) {
        if case .keyUp = event { return }
        log("compositor: nobody took \(Self.describe(event))")
    }

    /// One short phrase per dropped event, in layout coordinates.
    static func describe(_ event: DroppedEvent) -> String {
        func touches(_ e: TouchEvent) -> String { e.touches.map { "\($0.id) at \($0.location)" }.joined(separator: ", ") }
        switch event {
        case .touchesBegan(let e): return "touches began: \(touches(e))"
        case .touchesMoved(let e): return "touches moved: \(touches(e))"
        case .touchesEnded(let e): return "touches ended: \(touches(e))"
        case .pointerMotion(let e): return "the pointer's motion to \(e.location)"
        case .pointerButton(let e): return "button \(e.button) \(e.state == .pressed ? "pressed" : "released") at \(e.location)"
        case .pointerAxis(let e): return "scrolling at \(e.location)"
        case .touchpadGesture(let e): return "a touchpad gesture at \(e.location)"
        case .keyDown(let e): return "key \(e.keycode) pressed"
        case .keyUp(let e): return "key \(e.keycode) released"
        case .action(let action): return "the action \(action)"
        }
    }
}

struct DemoKiosk {
    func run() -> [String] {
        var lines: [String] = []
        let log: (String) -> Void = { lines.append("  >> " + $0) }
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let compositor = DemoCompositor(log: log)
        router.delegate = compositor
        let traceLog = TraceLog()
        router.trace = traceLog

        let output = Output(name: "DSI-1", modeSize: Size(width: 800, height: 480))
        router.addOutput(output)
        let panel = Surface(name: "panel", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 480))
        let ok = Surface(name: "ok-button", frame: SurfaceRect(x: 600, y: 380, width: 160, height: 60),
                         responder: DemoButton("OK", log: log))
        let field = Surface(name: "text-field", frame: SurfaceRect(x: 40, y: 40, width: 400, height: 50),
                            responder: DemoTextField(log: log))
        output.root.addChild(panel)
        panel.addChild(field)
        panel.addChild(ok)

        var t: Int64 = 0
        func send(_ kind: InputEvent.Kind, after ms: Int64 = 10) {
            t += ms
            clock.advance(to: .milliseconds(t))
            router.inject(InputEvent(time: .milliseconds(t), device: DeviceID(1), kind))
        }
        send(.deviceAdded(DeviceInfo(name: "demo touchscreen", capabilities: .touch)))
        send(.touchDown(TouchID(0), LayoutPoint(x: 680, y: 410)))
        send(.touchFrame, after: 0)
        send(.touchMotion(TouchID(0), LayoutPoint(x: 770, y: 200)))
        send(.touchFrame, after: 0)
        send(.touchUp(TouchID(0)))
        send(.touchFrame, after: 0)
        send(.touchDown(TouchID(1), LayoutPoint(x: 100, y: 60)))
        send(.touchFrame, after: 0)
        send(.touchUp(TouchID(1)))
        send(.touchFrame, after: 0)
        send(.key(keycode: 30, state: .pressed))
        send(.key(keycode: 30, state: .released))
        send(.pointerMotionAbsolute(LayoutPoint(x: 650, y: 400)))
        send(.pointerButton(button: 0x110, state: .pressed))
        send(.pointerButton(button: 0x110, state: .released))
        send(.pointerMotion(delta: Vector(dx: -600, dy: -300), unaccelerated: Vector(dx: -600, dy: -300)))

        var out: [String] = []
        // Interleave the responders' own lines after the trace records that led to them.
        out.append(contentsOf: traceLog.lines)
        out.append("responders said:")
        out.append(contentsOf: lines)
        return out
    }
}
