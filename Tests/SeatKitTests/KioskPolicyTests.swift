import SeatKit
import Testing

/// WakeTouchFilter, CursorVisibility and LongPressAsSecondaryClick on a real router with a
/// virtual clock.
struct KioskPolicyTests {
    private func makeWorld() -> (Router, VirtualClock, Output, CallLog, RecordingResponder) {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let output = Output(name: "out", modeSize: Size(width: 800, height: 600))
        router.addOutput(output)
        let log = CallLog()
        let app = RecordingResponder("app", log: log, handles: ["began", "moved", "ended", "button"])
        output.root.addChild(Surface(name: "app", frame: SurfaceRect(x: 100, y: 100, width: 700, height: 500), responder: app))
        return (router, clock, output, log, app)
    }

    private func touch(_ router: Router, _ kind: InputEvent.Kind, at ms: Int64) {
        router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(1), kind))
        router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(1), .touchFrame))
    }

    @Test func theWholeWakingTouchIsSwallowedAndTheNextTouchIsDelivered() {
        let (router, _, _, log, _) = makeWorld()
        var wakes = 0
        let wake = WakeTouchFilter(isBlanked: true) { wakes += 1 }
        router.addFilter(wake)
        touch(router, .touchDown(TouchID(0), LayoutPoint(x: 300, y: 300)), at: 0)
        // A second finger while the first is down belongs to the waking touch.
        touch(router, .touchDown(TouchID(1), LayoutPoint(x: 400, y: 300)), at: 10)
        touch(router, .touchMotion(TouchID(1), LayoutPoint(x: 420, y: 300)), at: 20)
        touch(router, .touchUp(TouchID(0)), at: 30)
        touch(router, .touchUp(TouchID(1)), at: 40)
        #expect(wakes == 1)
        #expect(!wake.isBlanked)
        #expect(wake.wakingTouches.isEmpty)
        #expect(log.entries.isEmpty)
        touch(router, .touchDown(TouchID(2), LayoutPoint(x: 300, y: 300)), at: 100)
        #expect(log.entries == ["app.began"])
    }

    @Test func aKeyThatWakesIsSwallowedWithItsRelease() {
        let (router, _, _, log, _) = makeWorld()
        let wake = WakeTouchFilter()
        router.addFilter(wake)
        touch(router, .touchDown(TouchID(0), LayoutPoint(x: 300, y: 300)), at: 0)
        #expect(log.entries == ["app.began"], "not blanked: everything passes")
        wake.blank()
        router.inject(InputEvent(time: .milliseconds(10), .key(keycode: 30, state: .pressed)))
        router.inject(InputEvent(time: .milliseconds(20), .key(keycode: 30, state: .released)))
        #expect(!wake.isBlanked)
        #expect(log.entries == ["app.began"])
    }

    @Test func theCursorHidesOnTouchAndShowsOnRealPointerInputOnly() {
        let (router, _, _, _, _) = makeWorld()
        var changes: [Bool] = []
        let cursor = CursorVisibility { changes.append($0) }
        router.addSpy(cursor)
        touch(router, .touchDown(TouchID(0), LayoutPoint(x: 300, y: 300)), at: 0)
        touch(router, .touchUp(TouchID(0)), at: 10)
        router.inject(InputEvent(time: .milliseconds(20), device: LongPressAsSecondaryClick.device,
                                 .pointerMotionAbsolute(LayoutPoint(x: 10, y: 10))))
        #expect(changes == [false], "the long press's synthetic pointer does not show the cursor")
        router.inject(InputEvent(time: .milliseconds(30), device: DeviceID(2), .pointerMotion(delta: Vector(dx: 1, dy: 0), unaccelerated: Vector(dx: 1, dy: 0))))
        #expect(changes == [false, true])
        #expect(cursor.isVisible)
    }

    @Test func aLongPressCancelsTheAppsTouchAndRightClicksUnderTheFinger() {
        let (router, clock, output, log, app) = makeWorld()
        let longPress = LongPressAsSecondaryClick(minimumPressDuration: .milliseconds(500))
        longPress.attach(to: output)
        var clicks: [LayoutPoint] = []
        longPress.onClick = { clicks.append($0) }
        touch(router, .touchDown(TouchID(0), LayoutPoint(x: 300, y: 250)), at: 0)
        clock.advance(to: .milliseconds(499))
        #expect(clicks.isEmpty)
        clock.advance(to: .milliseconds(500))
        #expect(clicks == [LayoutPoint(x: 300, y: 250)])
        #expect(log.entries == ["app.began", "app.cancelled", "app.enter", "app.motion", "app.button", "app.button"])
        #expect(app.lastButton?.button == 0x111)
        #expect(app.lastButton?.state == .released)
        #expect(app.lastButton?.surfaceLocation == SurfacePoint(x: 200, y: 150))
        touch(router, .touchUp(TouchID(0)), at: 700)
        #expect(log.entries.count == 6, "the rest of the touch is the recognizer's")
        // Detached: a long press is a touch like any other.
        longPress.detach()
        log.clear()
        touch(router, .touchDown(TouchID(1), LayoutPoint(x: 300, y: 250)), at: 1000)
        clock.advance(to: .milliseconds(2000))
        #expect(log.entries == ["app.began"])
    }

    @Test func aShortTapIsNotALongPress() {
        let (router, clock, output, log, _) = makeWorld()
        let longPress = LongPressAsSecondaryClick()
        longPress.attach(to: output)
        touch(router, .touchDown(TouchID(0), LayoutPoint(x: 300, y: 250)), at: 0)
        touch(router, .touchUp(TouchID(0)), at: 100)
        clock.advance(to: .milliseconds(1000))
        #expect(log.entries == ["app.began", "app.ended"])
    }
}
