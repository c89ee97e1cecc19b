import Testing
@testable import SeatKit

/// How the router routes the touches a filter routes past itself
/// (`Router.injectTouch(_:afterFilter:)`, internal): edge cases of the one routing that
/// `inject(_:)`'s touch cases share with it, pinned down with touch accommodations on a
/// virtual clock. Internal state (the followed fingers) read through `@testable import`.
@Suite struct TouchAccommodationsRoutingTests {
    private final class World {
        let clock = VirtualClock()
        let router: Router
        let log = CallLog()
        let app: RecordingResponder

        init() {
            router = Router(clock: clock)
            let output = Output(name: "out", modeSize: Size(width: 800, height: 600))
            router.addOutput(output)
            app = RecordingResponder("app", log: log, handles: ["began", "moved", "ended"])
            output.root.addChild(Surface(name: "app", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600), responder: app))
            log.clear()
        }

        func touch(_ kind: InputEvent.Kind, device: DeviceID, at ms: Int64) {
            clock.advance(to: .milliseconds(ms))
            router.inject(InputEvent(time: .milliseconds(ms), device: device, kind))
            router.inject(InputEvent(time: .milliseconds(ms), device: device, .touchFrame))
        }
    }

    /// Takes every touch of `device` and routes it past itself with its ID raised by
    /// `offset`: a filter that routes touches past itself, as touch accommodations routes
    /// its counted touch, in front of touch accommodations (which then holds the touch it
    /// routes). Passes every other event.
    private final class Renumber: InputFilter {
        let device: DeviceID
        let offset: Int32
        init(device: DeviceID, offset: Int32) { self.device = device; self.offset = offset }

        func filter(_ event: InputEvent, router: Router) -> FilterDecision {
            guard event.device == device, let index = router.unchecked.filterList.index(of: self) else { return .pass }
            let kind: InputEvent.Kind
            switch event.kind {
            case .touchDown(let id, let point): kind = .touchDown(TouchID(id.rawValue + offset), point)
            case .touchMotion(let id, let point): kind = .touchMotion(TouchID(id.rawValue + offset), point)
            case .touchUp(let id): kind = .touchUp(TouchID(id.rawValue + offset))
            case .touchCancel(let id): kind = .touchCancel(TouchID(id.rawValue + offset))
            default: return .pass
            }
            router.injectTouch(InputEvent(time: event.time, device: event.device, kind), afterFilter: index)
            return .consume
        }
    }

    /// A touch that touch accommodations counted and follows, which ends by coming through
    /// `injectTouch(_:afterFilter:)` (a filter in front renumbered it), leaves no followed
    /// finger behind: a later finger with the same ID is held and counted where it is when
    /// its hold ends, as any finger. A lingering entry would route that finger's motion as the
    /// old counted touch's (long gone: nothing moves) without asking touch accommodations,
    /// which would then count the finger where it went down.
    @Test func aFollowedFingerEndingThroughInjectTouchIsForgottenAndItsIDCountsAnewWhereTheFingerIs() {
        let world = World()
        let screen = DeviceID(2), renumbered = DeviceID(3)
        world.router.addFilter(Renumber(device: renumbered, offset: 100))
        world.router.addFilter(TouchAccommodations(holdDuration: .milliseconds(100), ignoreRepeat: nil))
        let finger = TouchID(100)

        // Finger 0 of the renumbered device reaches touch accommodations as touch 100, which
        // counts it and follows it; its up comes the same way, past the renumbering filter.
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), device: renumbered, at: 0)
        world.clock.advance(to: .milliseconds(100))
        #expect(world.router.unchecked.touches.followedFingers.map(\.finger) == [finger])
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 110, y: 100)), device: renumbered, at: 150)
        world.touch(.touchUp(TouchID(0)), device: renumbered, at: 200)
        #expect(world.log.entries == ["app.began", "app.moved", "app.ended"])
        #expect(world.router.unchecked.touches.takenByFilters.isEmpty)
        #expect(world.router.unchecked.touches.followedFingers.isEmpty, "the ended touch's followed-finger entry is forgotten")

        // A finger with ID 100 straight from the screen: held, moved, counted where it is then.
        world.log.clear()
        world.touch(.touchDown(finger, LayoutPoint(x: 100, y: 100)), device: screen, at: 300)
        world.touch(.touchMotion(finger, LayoutPoint(x: 130, y: 100)), device: screen, at: 350)
        world.clock.advance(to: .milliseconds(400))
        #expect(world.log.entries == ["app.began"])
        #expect(world.app.lastTouches.first?.location == LayoutPoint(x: 130, y: 100),
                "touch accommodations saw the finger's motion (no stale entry routed it elsewhere)")
        world.touch(.touchUp(finger), device: screen, at: 500)
        #expect(world.log.entries == ["app.began", "app.ended"])
        #expect(world.router.activeTouchCount == 0)
        #expect(world.router.unchecked.touches.followedFingers.isEmpty)
    }

    /// An event that is not a touch's down, motion, up or cancel, handed to
    /// `injectTouch(_:afterFilter:)` (a frame, or anything else), is injected: it enters the
    /// router once, so the trace records it as received once, as `inject(_:)` would.
    @Test func aNonTouchEventHandedToInjectTouchIsTracedAsReceivedOnce() {
        let world = World()
        let trace = TraceLog()
        world.router.trace = trace
        world.router.addFilter(TouchAccommodations(holdDuration: .milliseconds(100)))
        let frame = InputEvent(time: .milliseconds(0), device: TouchAccommodations.device, .touchFrame)
        let key = InputEvent(time: .milliseconds(0), device: DeviceID(1), .key(keycode: 30, state: .pressed))
        world.router.injectTouch(frame, afterFilter: 0)
        world.router.injectTouch(key, afterFilter: 0)
        #expect(trace.records.filter { $0 == .received(frame) }.count == 1)
        #expect(trace.records.filter { $0 == .received(key) }.count == 1)
        #expect(trace.records.filter { if case .received = $0 { true } else { false } }.count == 2)
    }
}
