import SeatKit
import Testing

/// BuildingAKiosk.md's `KioskInput`, driven on a virtual clock: each of the four behaviours
/// the guide promises happens, and the app sees what the guide says it sees.
@Suite struct KioskGuideTests {
    final class Screen: KioskScreen {
        var log: [String] = []
        func powerOn() { log.append("power on") }
        func showCursor(_ visible: Bool) { log.append(visible ? "cursor shown" : "cursor hidden") }
        func showNextApp() { log.append("next app") }
    }

    final class App: Responder {
        var log: [String] = []
        func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            log.append("began \(event.touches.count)")
            return .handled
        }
        func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            log.append("ended")
            return .handled
        }
        func touchesCancelled(_ event: TouchEvent, context: ResponderContext) { log.append("cancelled") }
        func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
            log.append("button \(String(event.button, radix: 16)) \(event.state)")
            return .handled
        }
    }

    let clock = VirtualClock()
    let router: Router
    let output = Output(name: "DSI-1", modeSize: Size(width: 800, height: 480))
    let app = App()
    let screen = Screen()
    let kiosk: KioskInput
    let touchscreen = DeviceID(1)

    init() {
        router = Router(clock: clock)
        router.addOutput(output)
        output.root.addChild(Surface(name: "app", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 480), responder: app))
        kiosk = KioskInput(router: router, output: output, screen: screen)
    }

    func touch(_ kind: InputEvent.Kind) {
        router.inject(InputEvent(time: clock.now, device: touchscreen, kind))
        router.inject(InputEvent(time: clock.now, device: touchscreen, .touchFrame))
    }

    @Test func theTouchThatWakesTheScreenReachesNoApp() {
        kiosk.screenWentIdle()
        touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)))
        touch(.touchUp(TouchID(0)))
        #expect(screen.log == ["power on", "cursor hidden"])
        #expect(app.log.isEmpty)
        touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)))
        touch(.touchUp(TouchID(0)))
        #expect(app.log == ["began 1", "ended"])
    }

    @Test func aLongPressIsARightClickAfterTheAppsTouchIsCancelled() {
        touch(.touchDown(TouchID(0), LayoutPoint(x: 300, y: 200)))
        clock.advance(by: .milliseconds(650))
        touch(.touchUp(TouchID(0)))
        #expect(app.log == ["began 1", "cancelled", "button 111 pressed", "button 111 released"])
        // The click came from the synthetic pointer: the cursor stays hidden.
        #expect(screen.log == ["cursor hidden"])
    }

    @Test func threeFingersSwipedLeftShowTheNextApp() {
        let starts = [LayoutPoint(x: 500, y: 150), LayoutPoint(x: 550, y: 250), LayoutPoint(x: 600, y: 350)]
        for (i, p) in starts.enumerated() { touch(.touchDown(TouchID(Int32(i)), p)) }
        for step in 1...10 {
            clock.advance(by: .milliseconds(15))
            for (i, p) in starts.enumerated() {
                router.inject(InputEvent(time: clock.now, device: touchscreen,
                                         .touchMotion(TouchID(Int32(i)), LayoutPoint(x: p.x - Double(step) * 20, y: p.y))))
            }
            router.inject(InputEvent(time: clock.now, device: touchscreen, .touchFrame))
        }
        #expect(screen.log == ["cursor hidden", "next app"])
        #expect(app.log.last == "cancelled")
    }
}

/// BuildingAKiosk.md's following switch: the screen slides with the fingers, and undoes the
/// slide when they lift short of the threshold.
@Suite struct KioskGuideFollowingSwitchTests {
    final class Screen: SlidingKioskScreen {
        var log: [String] = []
        func slideApps(by progress: Double) { log.append("slide \((progress * 10).rounded() / 10)") }
        func showNextApp() { log.append("next app") }
    }

    @Test func theAppsSlideWithTheFingersAndSlideBackShortOfTheThreshold() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let output = Output(name: "DSI-1", modeSize: Size(width: 800, height: 480))
        router.addOutput(output)
        let screen = Screen()
        let switcher = addFollowingSwitcher(to: output, screen: screen)
        // No physical size: 96 dpi, so 30 mm is 113.4 units.
        func fingers(_ kind: (TouchID, LayoutPoint) -> InputEvent.Kind, x: Double) {
            for i in 0..<3 { router.inject(InputEvent(time: clock.now, device: DeviceID(1), kind(TouchID(Int32(i)), LayoutPoint(x: x, y: 100 + Double(i) * 100)))) }
            router.inject(InputEvent(time: clock.now, device: DeviceID(1), .touchFrame))
        }
        func lift() {
            for i in 0..<3 { router.inject(InputEvent(time: clock.now, device: DeviceID(1), .touchUp(TouchID(Int32(i))))) }
            router.inject(InputEvent(time: clock.now, device: DeviceID(1), .touchFrame))
        }
        fingers({ .touchDown($0, $1) }, x: 600)
        for x in [580.0, 540, 570] { fingers({ .touchMotion($0, $1) }, x: x) }
        lift()
        fingers({ .touchDown($0, $1) }, x: 600)
        for x in [560.0, 470] { fingers({ .touchMotion($0, $1) }, x: x) }
        lift()
        #expect(screen.log == ["slide 0.2", "slide 0.5", "slide 0.3", "slide 0.0", "slide 0.4", "slide 1.0", "next app"])
        withExtendedLifetime(switcher) {}
    }
}
