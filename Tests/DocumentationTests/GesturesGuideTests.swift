import SeatKit
import Testing

/// The code of GesturesForEveryDevice.md (Snippets/Gestures.swift), run: a pen on the drawing page stays the
/// page's, a mouse drag moves the map, a hold then a drag moves the tile, a single tap selects
/// only after the double tap's interval, and editing the list turns its recognizers off.
@Suite struct GesturesGuideTests {
    final class World {
        let clock = VirtualClock()
        let router: Router
        let output = Output(name: "OUT", modeSize: Size(width: 1000, height: 1000))
        let page = Surface(name: "page", frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        let map = Surface(name: "map", frame: SurfaceRect(x: 200, y: 0, width: 200, height: 200))
        let tile = Surface(name: "tile", frame: SurfaceRect(x: 400, y: 0, width: 200, height: 200))
        let photo = Surface(name: "photo", frame: SurfaceRect(x: 600, y: 0, width: 200, height: 200))
        let list = Surface(name: "list", frame: SurfaceRect(x: 0, y: 400, width: 400, height: 400))
        let gestures: GuideGestures
        var ms: Int64 = 0

        init() {
            router = Router(clock: clock)
            router.addOutput(output)
            for s in [page, map, tile, photo, list] { output.root.addChild(s) }
            gestures = GuideGestures(page: page, map: map, tile: tile, photo: photo, list: list)
        }

        func send(_ kind: InputEvent.Kind, after step: Int64 = 10, device: UInt32 = 1) {
            ms += step
            clock.advance(to: .milliseconds(ms))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(device), kind))
            if case .touchDown = kind { router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(device), .touchFrame)) }
            if case .touchMotion = kind { router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(device), .touchFrame)) }
            if case .touchUp = kind { router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(device), .touchFrame)) }
        }

        func pen(_ kind: TabletEvent.Kind, _ x: Double, _ y: Double, value: Double = 0) {
            let tool = PenTool(kind: .pen, serial: 1, hardwareID: 1, capabilities: [.position, .pressure])
            send(.tablet(TabletEvent(kind: kind, position: LayoutPoint(x: x, y: y), code: 0, value: value, tool: tool,
                                     axes: PenAxes(pressure: 0.5), changedAxes: [.position])), device: 9)
        }
    }

    @Test func thePenDrawsOnThePageWhileFingersScrollIt() {
        let w = World()
        var scrollStates: [GestureRecognizerState] = []
        w.gestures.scroll.addTarget { scrollStates.append($0.state) }
        w.pen(.toolProximity, 50, 50, value: 1)
        w.pen(.toolTip, 50, 50, value: 1)
        w.pen(.toolAxis, 150, 50)
        w.pen(.toolTip, 150, 50, value: 0)
        #expect(scrollStates.isEmpty, "the pen is the page's")
        w.send(.touchDown(TouchID(0), LayoutPoint(x: 50, y: 50)))
        w.send(.touchMotion(TouchID(0), LayoutPoint(x: 50, y: 150)))
        w.send(.touchUp(TouchID(0)))
        #expect(scrollStates == [.began, .ended])
    }

    @Test func aMouseDragMovesTheMap() {
        let w = World()
        var translations: [Vector] = []
        w.gestures.move.addTarget { translations.append(($0 as! PanGestureRecognizer).translation) }
        w.send(.pointerMotionAbsolute(LayoutPoint(x: 250, y: 50)), device: 2)
        w.send(.pointerButton(button: 0x110, state: .pressed), device: 2)
        w.send(.pointerMotionAbsolute(LayoutPoint(x: 300, y: 50)), device: 2)
        w.send(.pointerButton(button: 0x110, state: .released), device: 2)
        #expect(translations == [Vector(dx: 50, dy: 0), Vector(dx: 50, dy: 0)])
    }

    @Test func aHoldThenADragMovesTheTileAndASingleTapSelectsAfterTheDoubleTapsInterval() {
        let w = World()
        w.send(.touchDown(TouchID(0), LayoutPoint(x: 450, y: 50)))
        w.send(.touchMotion(TouchID(0), LayoutPoint(x: 480, y: 50)), after: 100)   // before the hold: nothing moves
        #expect(w.gestures.effects.moved.isEmpty)
        w.send(.touchMotion(TouchID(0), LayoutPoint(x: 480, y: 50)), after: 300)   // 410 ms: held
        w.send(.touchMotion(TouchID(0), LayoutPoint(x: 520, y: 50)))
        #expect(w.gestures.effects.moved.last == Vector(dx: 40, dy: 0))
        w.send(.touchUp(TouchID(0)))
        w.send(.touchDown(TouchID(1), LayoutPoint(x: 450, y: 150)), after: 1000)
        w.send(.touchUp(TouchID(1)))
        #expect(w.gestures.effects.selections == 0)
        w.send(.touchFrame, after: 300)
        #expect(w.gestures.effects.selections == 1 && w.gestures.effects.zooms == 0)
        w.send(.touchDown(TouchID(2), LayoutPoint(x: 450, y: 150)), after: 1000)
        w.send(.touchUp(TouchID(2)))
        w.send(.touchDown(TouchID(3), LayoutPoint(x: 450, y: 150)))
        w.send(.touchUp(TouchID(3)))
        #expect(w.gestures.effects.zooms == 1 && w.gestures.effects.selections == 1)
    }

    @Test func editingTheListTurnsItsSwipeOff() {
        let w = World()
        var states: [GestureRecognizerState] = []
        w.gestures.swipe.addTarget { states.append($0.state) }
        w.gestures.setEditing(true)
        w.send(.touchDown(TouchID(0), LayoutPoint(x: 50, y: 450)))
        w.send(.touchMotion(TouchID(0), LayoutPoint(x: 150, y: 450)))
        w.send(.touchUp(TouchID(0)))
        #expect(states.isEmpty)
        w.gestures.setEditing(false)
        w.send(.touchDown(TouchID(1), LayoutPoint(x: 50, y: 450)))
        w.send(.touchMotion(TouchID(1), LayoutPoint(x: 150, y: 450)))
        w.send(.touchUp(TouchID(1)))
        #expect(states == [.began, .ended])
    }
}
