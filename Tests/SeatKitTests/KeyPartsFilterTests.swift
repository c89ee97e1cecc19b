import Testing
@testable import SeatKit

/// A key is asked of its filters from its parts (issue 28, i28b): bounce keys and sticky keys
/// take the keycode and state, and the key's event is made only for whoever takes a whole
/// event. These pin that the parts path decides as the event path did.
@Suite("Key filters asked from the key's parts")
struct KeyPartsFilterTests {
    static func key(_ keycode: UInt32, _ state: KeyState, _ t: Int64, device: UInt32 = 1) -> InputEvent {
        InputEvent(time: .milliseconds(t), device: DeviceID(device), .key(keycode: keycode, state: state))
    }

    /// A user's filter alone on raw keys gets the key's event as it was injected (time,
    /// device, keycode, state), presses, repeats and releases.
    @Test func aLoneUserFilterOfRawKeysSeesEachKeyAsItWasInjected() {
        let router = Router(clock: VirtualClock())
        var seen: [InputEvent] = []
        let filter = ClosureFilter({ seen.append($0); return .pass })
        router.addFilter(filter)
        #expect(router.unchecked.filterList.loneRawKeyFilter(released: false)?.builtin == .user)
        let events = [Self.key(30, .pressed, 5, device: 7), Self.key(30, .repeated, 6, device: 7), Self.key(30, .released, 8, device: 7)]
        for event in events { router.inject(event) }
        #expect(seen == events)
    }

    /// Bounce keys alone, with no spy and no trace (no event made for the key at all): a
    /// press of the key just released within the delay is taken, its release swallowed, and
    /// the next press after the delay passes.
    @Test func bounceKeysAloneTakesABounceFromTheKeysPartsWithNoSpyOrTrace() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let bounce = BounceKeys(delay: .milliseconds(100))
        var bounces: [UInt32] = []
        bounce.onBounce = { bounces.append($0) }
        router.addFilter(bounce)
        #expect(router.unchecked.filterList.loneRawKeyFilter(released: false)?.builtin == .bounceKeys)
        router.inject(Self.key(30, .pressed, 0))
        router.inject(Self.key(30, .released, 10))
        router.inject(Self.key(30, .pressed, 20))  // the clock stands at 0: within the delay
        #expect(bounces == [30])
        #expect(router.unchecked.keyboard.isHeld(30, pressWentTo: .taken), "the bounce's press is taken")
        router.inject(Self.key(30, .released, 30))
        #expect(router.unchecked.keyboard.heldKeys.isEmpty, "its release swallowed, the record gone")
        clock.advance(to: .milliseconds(200))
        router.inject(Self.key(30, .pressed, 200))
        #expect(bounces == [30], "past the delay: not a bounce")
        #expect(!router.unchecked.keyboard.isHeld(30, pressWentTo: .taken))
    }

    /// Sticky keys alone is the lone filter of raw releases while a modifier is held, asked
    /// from the release's parts: Shift tapped alone latches, tapped again locks.
    @Test func stickyKeysLatchesAModifierTappedAloneFromTheReleasesParts() {
        let router = Router(clock: VirtualClock())
        let sticky = StickyKeys()
        router.addFilter(sticky)
        router.inject(Self.key(42, .pressed, 0))  // Shift_L, by its evdev code
        #expect(router.unchecked.filterList.loneRawKeyFilter(released: true)?.builtin == .stickyKeys)
        router.inject(Self.key(42, .released, 1))
        #expect(sticky.latched == .shift)
        router.inject(Self.key(42, .pressed, 2))
        router.inject(Self.key(42, .released, 3))
        #expect(sticky.latched.isEmpty)
        #expect(sticky.locked == .shift)
    }
}
