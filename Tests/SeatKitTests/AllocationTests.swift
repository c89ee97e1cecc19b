import AllocationCounter
import Testing
@testable import SeatKit

/// Counts calls without allocating, and handles what it is told to.
final class QuietResponder: Responder {
    var calls = 0
    let handlesTouches: Bool
    let canBecomeFirst: Bool
    init(handlesTouches: Bool = false, canBecomeFirst: Bool = false) {
        self.handlesTouches = handlesTouches
        self.canBecomeFirst = canBecomeFirst
    }
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { calls += 1; return handlesTouches ? .handled : .notHandled }
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { calls += 1; return handlesTouches ? .handled : .notHandled }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { calls += 1; return handlesTouches ? .handled : .notHandled }
    var cancels = 0
    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) { cancels += 1 }
    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) { calls += 1 }
    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) { calls += 1 }
    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult { calls += 1; return .notHandled }
    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult { calls += 1; return .handled }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { calls += 1; return .notHandled }
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { calls += 1; return .notHandled }
    var canBecomeFirstResponder: Bool { canBecomeFirst }
}

final class QuietDelegate: CompositorDelegate {
    var drops = 0
    func router(_ router: Router, dropped event: DroppedEvent) { drops += 1 }
}

@Suite("Allocations on the per-event path")
struct AllocationTests {
    /// A five-deep chain: root > a > b > c > d > leaf, the leaf handling touches at the end.
    private func deepTree(_ router: Router, _ output: Output) -> (leaf: Surface, chain: [QuietResponder]) {
        var parent = output.root
        var chain: [QuietResponder] = []
        for depth in 0..<5 {
            let r = QuietResponder(handlesTouches: depth == 0, canBecomeFirst: depth == 4)
            chain.append(r)
            let s = Surface(name: "d\(depth)", frame: SurfaceRect(x: 10, y: 10, width: 400 - Double(depth) * 50, height: 400), responder: r)
            parent.addChild(s)
            parent = s
        }
        // Siblings to make hit-testing do some work.
        for i in 0..<20 {
            output.root.addChild(Surface(name: "sib\(i)", frame: SurfaceRect(x: 500 + Double(i) * 20, y: 0, width: 15, height: 500), responder: QuietResponder()))
        }
        return (parent, chain)
    }

    /// A router with a quiet delegate and one output holding ``deepTree(_:_:)``.
    private func routerWithDeepTree() -> (router: Router, delegate: QuietDelegate, leaf: Surface, chain: [QuietResponder]) {
        let router = Router(clock: VirtualClock())
        let delegate = QuietDelegate()
        router.delegate = delegate
        let output = Output(name: "o", modeSize: Size(width: 1920, height: 1080))
        router.addOutput(output)
        let (leaf, chain) = deepTree(router, output)
        return (router, delegate, leaf, chain)
    }

    private func allocations(_ body: () -> Void) -> UInt64 {
        let before = seatkit_thread_allocations()
        body()
        return seatkit_thread_allocations() - before
    }

    @Test func aWarmRouterAllocatesNothingPerTouchMotion() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let delegate = QuietDelegate()
        router.delegate = delegate
        let output = Output(name: "o", modeSize: Size(width: 1920, height: 1080))
        router.addOutput(output)
        let (leaf, chain) = deepTree(router, output)
        // Only the top of the chain handles touches: motion walks all five levels.
        chain.forEach { _ in }
        let leafResponder = leaf.responder as! QuietResponder
        var t: Int64 = 0
        func send(_ k: InputEvent.Kind) { t += 1; router.inject(InputEvent(time: .milliseconds(t), k)) }
        // Warm up: one whole touch, and the motion path.
        for round in 0..<3 {
            send(.touchDown(TouchID(0), LayoutPoint(x: 60, y: 60)))
            send(.touchDown(TouchID(1), LayoutPoint(x: 70, y: 60)))
            send(.touchFrame)
            for i in 0..<10 { send(.touchMotion(TouchID(0), LayoutPoint(x: 60 + Double(i), y: 60))); send(.touchFrame) }
            if round < 2 { send(.touchUp(TouchID(0))); send(.touchUp(TouchID(1))); send(.touchFrame) }
        }
        let callsBefore = leafResponder.calls
        let count = allocations {
            for i in 0..<1000 {
                send(.touchMotion(TouchID(0), LayoutPoint(x: 80 + Double(i % 50), y: 61)))
                send(.touchMotion(TouchID(1), LayoutPoint(x: 90 + Double(i % 50), y: 61)))
                send(.touchFrame)
            }
        }
        #expect(count == 0)
        #expect(leafResponder.calls - callsBefore == 1000)
        #expect(chain[0].calls > 1000)  // the top of the chain handled them
    }

    @Test func aWarmRouterAllocatesNothingPerPointerMotionWithFocusChangesOrPerButton() {
        let (router, delegate, _, _) = routerWithDeepTree()
        var t: Int64 = 0
        func send(_ k: InputEvent.Kind) { t += 1; router.inject(InputEvent(time: .milliseconds(t), k)) }
        for _ in 0..<3 {
            send(.pointerMotionAbsolute(LayoutPoint(x: 60, y: 60)))
            send(.pointerMotionAbsolute(LayoutPoint(x: 505, y: 60)))
            send(.pointerButton(button: 0x110, state: .pressed))
            send(.pointerButton(button: 0x110, state: .released))
            send(.pointerAxis(AxisMotion(source: .wheel, vertical: 15, verticalV120: 120)))
        }
        let focusChangesBefore = delegate.drops
        let count = allocations {
            for i in 0..<500 {
                send(.pointerMotionAbsolute(LayoutPoint(x: 60 + Double(i % 7), y: 60)))   // deep surface
                send(.pointerMotionAbsolute(LayoutPoint(x: 505 + Double(i % 7) * 20, y: 60)))  // a sibling: leave + enter
                send(.pointerButton(button: 0x110, state: .pressed))
                send(.pointerButton(button: 0x110, state: .released))
                send(.pointerMotion(delta: Vector(dx: 1, dy: 0), unaccelerated: Vector(dx: 1, dy: 0)))
                send(.pointerAxis(AxisMotion(source: .wheel, vertical: 15, verticalV120: 120)))
            }
        }
        #expect(count == 0)
        #expect(delegate.drops > focusChangesBefore)  // motion reached the end of the chain
    }

    @Test func aWarmRouterAllocatesNothingPerKey() {
        let (router, delegate, leaf, _) = routerWithDeepTree()
        #expect(router.becomeFirstResponder(leaf))
        router.keyInterpreter = FixedInterpreter(keysym: 0x61, modifiers: [])
        var t: Int64 = 0
        func send(_ k: InputEvent.Kind) { t += 1; router.inject(InputEvent(time: .milliseconds(t), k)) }
        for _ in 0..<3 { send(.key(keycode: 30, state: .pressed)); send(.key(keycode: 30, state: .released)) }
        let leafResponder = leaf.responder as! QuietResponder
        let before = leafResponder.calls
        let count = allocations {
            for _ in 0..<1000 {
                send(.key(keycode: 30, state: .pressed))
                send(.key(keycode: 30, state: .released))
            }
        }
        #expect(count == 0)
        #expect(leafResponder.calls - before == 2000)
        withExtendedLifetime(delegate) {}
    }

    @Test func aWarmRouterAllocatesNothingPerDeviceTouchCancelWhateverTheNumberOfRespondersThatSawIt() {
        let (router, delegate, leaf, chain) = routerWithDeepTree()
        var t: Int64 = 0
        func send(_ k: InputEvent.Kind) { t += 1; router.inject(InputEvent(time: .milliseconds(t), k)) }
        // Two fingers, each seen by the whole five-deep chain, cancelled by the device.
        func round() {
            send(.touchDown(TouchID(0), LayoutPoint(x: 60, y: 60)))
            send(.touchDown(TouchID(1), LayoutPoint(x: 70, y: 60)))
            send(.touchFrame)
            send(.touchCancel(TouchID(0)))
            send(.touchCancel(TouchID(1)))
            send(.touchFrame)
        }
        for _ in 0..<3 { round() }
        let leafResponder = leaf.responder as! QuietResponder
        let before = leafResponder.cancels
        let count = allocations {
            for _ in 0..<500 { round() }
        }
        #expect(count == 0)
        #expect(leafResponder.cancels - before == 1000)
        #expect(chain.allSatisfy { $0.cancels > 1000 })
        withExtendedLifetime(delegate) {}
    }

    @Test func theCounterSeesAllocations() {
        // Guards the guard: if the counter stopped counting, the tests above would pass
        // for the wrong reason.
        let count = allocations {
            let array = [Int](repeating: 1, count: 1000)
            #expect(array.count == 1000)
        }
        // Under a sanitizer nothing is counted (the plain and optimized runs check counts).
        #expect(count >= 1 || seatkit_allocations_are_counted() == 0)
    }
}
