import SeatKit
import Testing

/// AccessibilityFilters.md's `KioskAccessibility` on a virtual clock: every filter starts off (keys
/// and touches pass at once), and each turns on alone.
@Suite struct AccessibilityGuideTests {
    final class Keys: Responder {
        var downs: [UInt32] = []
        var canBecomeFirstResponder: Bool { true }
        func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
            downs.append(event.keycode)
            return .handled
        }
        func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .handled }
    }

    @Test func theGuidesFiltersStartOffAndSlowKeysTurnsOnAlone() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let output = Output(name: "out", modeSize: Size(width: 800, height: 600))
        router.addOutput(output)
        let keys = Keys()
        let surface = Surface(name: "app", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600), responder: keys)
        output.root.addChild(surface)
        router.becomeFirstResponder(surface)
        var located: [LayoutPoint] = []
        let a11y = KioskAccessibility(router: router, sendModifiers: { _ in }, showPointer: { located.append($0) })
        #expect(router.filters.count == 8)
        router.inject(InputEvent(time: .milliseconds(0), .key(keycode: 30, state: .pressed)))
        router.inject(InputEvent(time: .milliseconds(10), .key(keycode: 30, state: .released)))
        #expect(keys.downs == [30])
        a11y.slow.isEnabled = true
        router.inject(InputEvent(time: .milliseconds(20), .key(keycode: 31, state: .pressed)))
        #expect(keys.downs == [30])
        clock.advance(to: .milliseconds(320))
        #expect(keys.downs == [30, 31])
        a11y.locate.isEnabled = true
        router.inject(InputEvent(time: .milliseconds(400), .key(keycode: 29, state: .pressed)))
        clock.advance(to: .milliseconds(700))
        router.inject(InputEvent(time: .milliseconds(700), .key(keycode: 29, state: .released)))
        #expect(located == [router.pointerLocation])
    }
}
