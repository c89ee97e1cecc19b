import SeatKit
import Testing

/// The router keeps its compositor delegate without owning it: it reads `nil` once the
/// delegate is gone, from the start of its deinit, and lets go of a replaced one.
struct RouterDelegateTests {
    final class Compositor: CompositorDelegate {
        var keys = 0
        var drops = 0
        var onDeinit: (() -> Void)?
        func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
            keys += 1
            return .notHandled
        }
        func router(_ router: Router, dropped event: DroppedEvent) { drops += 1 }
        deinit { onDeinit?() }
    }

    private func press(_ router: Router, at ms: Int64) {
        router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(1), .key(keycode: 30, state: .pressed)))
        router.inject(InputEvent(time: .milliseconds(ms + 1), device: DeviceID(1), .key(keycode: 30, state: .released)))
    }

    @Test func theRouterDoesNotKeepItsDelegateAliveAndReadsNilOnceItIsGone() {
        let router = Router(clock: VirtualClock())
        var compositor: Compositor? = Compositor()
        weak let gone = compositor
        router.delegate = compositor
        press(router, at: 0)
        #expect(compositor?.keys == 1)
        #expect(compositor?.drops == 2)
        #expect(router.delegate === compositor)
        compositor = nil
        #expect(gone == nil)
        #expect(router.delegate == nil)
        // A key with no first responder walks to where the delegate was: dropped, nobody asked.
        press(router, at: 10)
        let next = Compositor()
        router.delegate = next
        press(router, at: 20)
        #expect(next.keys == 1 && next.drops == 2)
        router.delegate = nil
        #expect(router.delegate == nil)
        press(router, at: 30)
        #expect(next.keys == 1)
    }

    /// Inside its own deinit the delegate is already gone for the router, as with `weak`.
    @Test func aDelegateReadsAsGoneFromTheStartOfItsDeinit() {
        let router = Router(clock: VirtualClock())
        var seenInDeinit: Bool?
        var compositor: Compositor? = Compositor()
        compositor?.onDeinit = { [unowned router] in seenInDeinit = router.delegate != nil }
        router.delegate = compositor
        compositor = nil
        #expect(seenInDeinit == false)
        #expect(router.delegate == nil)
    }

    /// A router that outlives its delegate and a delegate replaced many times: each link lets
    /// go of the memory it kept (the AddressSanitizer run checks the reads).
    @Test func replacingTheDelegateLetsGoOfTheOldOne() {
        let router = Router(clock: VirtualClock())
        var i = 0
        while i < 100 {
            let compositor = Compositor()
            router.delegate = compositor
            press(router, at: Int64(i) * 10)
            #expect(compositor.keys == 1)
            i += 1
        }
        #expect(router.delegate == nil)
    }
}
