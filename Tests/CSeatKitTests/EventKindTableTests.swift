// The one table of event kinds (issue 25, goal 6): every place that names or numbers a kind
// (the trace's text, the replay harness's counts, its JSON, the C API's event type and its
// trace JSON) must give each row's name or number. This file imports CSeatKit's Swift side
// for its conversions and the C header for the constants the table must match.
@testable import CSeatKit
import CSeatKitSupport
@testable import SeatKit
import SeatKitReplay
import Testing

struct EventKindTableTests {
    /// An event of each row. Exhaustive over the table: a new row does not compile until it
    /// has a sample here, and so is checked in every place below.
    static func sample(_ kind: InputEventKind) -> InputEvent.Kind {
        let p = LayoutPoint(x: 10, y: 20)
        switch kind {
        case .touchDown: return .touchDown(TouchID(1), p)
        case .touchMotion: return .touchMotion(TouchID(1), p)
        case .touchUp: return .touchUp(TouchID(1))
        case .touchCancel: return .touchCancel(TouchID(1))
        case .touchFrame: return .touchFrame
        case .pointerMotion: return .pointerMotion(delta: Vector(dx: 1, dy: 2), unaccelerated: Vector(dx: 1, dy: 2))
        case .pointerMotionAbsolute: return .pointerMotionAbsolute(p)
        case .pointerButton: return .pointerButton(button: 0x110, state: .pressed)
        case .pointerAxis:
            return .pointerAxis(AxisMotion(source: .wheel, horizontal: 0, vertical: 15, horizontalV120: 0, verticalV120: 120,
                                           horizontalStop: false, verticalStop: false))
        case .touchpadSwipe: return .touchpadGesture(TouchpadGesture(kind: .swipe, phase: .begin, fingers: 3))
        case .touchpadPinch: return .touchpadGesture(TouchpadGesture(kind: .pinch, phase: .update, fingers: 2, scale: 1.5))
        case .touchpadHold: return .touchpadGesture(TouchpadGesture(kind: .hold, phase: .end(cancelled: false), fingers: 1))
        case .key: return .key(keycode: 30, state: .pressed)
        case .switchToggled: return .switchToggled(.lid, on: true)
        case .tablet: return .tablet(TabletEvent(kind: .padButton, code: 1, value: 1))
        case .unknown: return .unknown(code: 9999)
        case .deviceAdded: return .deviceAdded(DeviceInfo(name: "panel", capabilities: .touch))
        case .deviceRemoved: return .deviceRemoved
        }
    }

    /// The header's constant for each row, written out: the check that the table's numbers
    /// are the C API's.
    static func headerType(_ kind: InputEventKind) -> seatkit_input_event_type {
        switch kind {
        case .touchDown: SEATKIT_INPUT_TOUCH_DOWN
        case .touchMotion: SEATKIT_INPUT_TOUCH_MOTION
        case .touchUp: SEATKIT_INPUT_TOUCH_UP
        case .touchCancel: SEATKIT_INPUT_TOUCH_CANCEL
        case .touchFrame: SEATKIT_INPUT_TOUCH_FRAME
        case .pointerMotion: SEATKIT_INPUT_POINTER_MOTION
        case .pointerMotionAbsolute: SEATKIT_INPUT_POINTER_MOTION_ABSOLUTE
        case .pointerButton: SEATKIT_INPUT_POINTER_BUTTON
        case .pointerAxis: SEATKIT_INPUT_POINTER_AXIS
        case .touchpadSwipe, .touchpadPinch, .touchpadHold: SEATKIT_INPUT_TOUCHPAD_GESTURE
        case .key: SEATKIT_INPUT_KEY
        case .switchToggled: SEATKIT_INPUT_SWITCH
        case .tablet: SEATKIT_INPUT_TABLET
        case .unknown: SEATKIT_INPUT_UNKNOWN
        case .deviceAdded: SEATKIT_INPUT_DEVICE_ADDED
        case .deviceRemoved: SEATKIT_INPUT_DEVICE_REMOVED
        }
    }

    static func event(_ kind: InputEventKind) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 12_000), device: DeviceID(3), sample(kind))
    }

    @Test(arguments: InputEventKind.allCases)
    func eachKindRoundTripsByNameInTheTable(_ kind: InputEventKind) {
        #expect(Self.sample(kind).tableKind == kind)
        #expect(InputEventKind(name: kind.name) == kind)
        #expect(Self.sample(kind).name == kind.name)
        #expect(InputEventKind.allCases.filter { $0.name == kind.name } == [kind], "names are unique")
    }

    @Test(arguments: InputEventKind.allCases)
    func theTraceTextOfEachKindBeginsWithItsTableWords(_ kind: InputEventKind) {
        let text = Self.event(kind).traceDescription
        #expect(text.hasPrefix("12ms dev3 \(kind.traceName)"), "\(text)")
        // And only this row's words fit (no row's words are a longer row's prefix here).
        let matching = InputEventKind.allCases.filter { text.hasPrefix("12ms dev3 \($0.traceName)") }
        #expect(matching.allSatisfy { kind.traceName.hasPrefix($0.traceName) }, "\(matching)")
    }

    @Test(arguments: InputEventKind.allCases)
    func theCAPITypeOfEachKindIsTheHeadersAndItsTraceJSONUsesTheName(_ kind: InputEventKind) {
        let type = CValues.withInputEvent(Self.event(kind)) { $0.pointee.type }
        #expect(type == Self.headerType(kind))
        #expect(type.rawValue == kind.cTypeNumber)
        let json = TraceJSON.encode([.received(Self.event(kind))])
        #expect(json.contains("\"kind\":\"\(kind.name)\""), "\(json)")
    }

    @Test(arguments: InputEventKind.allCases)
    func theReplayHarnessCountsAndItsJSONUseTheName(_ kind: InputEventKind) {
        var stream = RoutedEventStream()
        var routed = stream.add(Self.event(kind), decisions: [], pointer: nil)
        // Touch events settle at their frame.
        routed += stream.add(InputEvent(time: Timestamp(microseconds: 12_001), device: DeviceID(3), .touchFrame), decisions: [], pointer: nil)
        let first = try? #require(routed.first)
        #expect(first?.kind == kind.name)
        if let first { #expect(ReplayTraceJSON.record(first).contains("\"kind\":\"\(kind.name)\"")) }
        let run = ReplayRun(inputEvents: [Self.event(kind)], trace: [.received(Self.event(kind))], libinput: nil, pointerPath: [])
        #expect(run.inputCounts == [kind.name: 1])
    }

    /// Every handler kind, in declaration order: each case names the next. Exhaustive, so a new
    /// kind does not compile until it has a place in the walk below.
    static func handlerKind(after kind: RoutedEventKind) -> RoutedEventKind? {
        switch kind {
        case .touchesBegan: .touchesMoved
        case .touchesMoved: .touchesEnded
        case .touchesEnded: .touchesCancelled
        case .touchesCancelled: .pointerEntered
        case .pointerEntered: .pointerLeft
        case .pointerLeft: .pointerMoved
        case .pointerMoved: .pointerButton
        case .pointerButton: .pointerAxis
        case .pointerAxis: .touchpadGesture
        case .touchpadGesture: .penEntered
        case .penEntered: .penLeft
        case .penLeft: .penMoved
        case .penMoved: .penDown
        case .penDown: .penUp
        case .penUp: .penButton
        case .penButton: .keyDown
        case .keyDown: .keyUp
        case .keyUp: .keyCommand
        case .keyCommand: .action
        case .action: .firstResponder
        case .firstResponder: nil
        }
    }

    @Test func theDelegatesDroppedNameOfEachHandlerKindIsItsRawValue() {
        var kind: RoutedEventKind? = .touchesBegan
        var seen = 0
        while let k = kind {
            #expect(String(cString: CValues.name(k)) == k.rawValue)
            seen += 1
            kind = Self.handlerKind(after: k)
        }
        #expect(seen == 21)
    }

    /// A dropped event of each case, each naming the next: exhaustive, so a new case does not
    /// compile until it has a sample here.
    static func droppedSample(after event: DroppedEvent?) -> DroppedEvent? {
        let t = Timestamp(microseconds: 1)
        let d = DeviceID(2)
        let p = LayoutPoint(x: 1, y: 2)
        let s = SurfacePoint(x: 3, y: 4)
        let touches = TouchEvent(time: t, touches: [])
        let key = KeyEvent(time: t, device: d, keycode: 30, state: .pressed)
        guard let event else { return .touchesBegan(touches) }
        switch event {
        case .touchesBegan: return .touchesMoved(touches)
        case .touchesMoved: return .touchesEnded(touches)
        case .touchesEnded:
            return .pointerMotion(PointerMotionEvent(time: t, device: d, location: p, surfaceLocation: s,
                                                     delta: Vector(dx: 1, dy: 1), unacceleratedDelta: Vector(dx: 1, dy: 1)))
        case .pointerMotion:
            return .pointerButton(PointerButtonEvent(time: t, device: d, button: 0x110, state: .pressed, location: p,
                                                     surfaceLocation: s))
        case .pointerButton:
            return .pointerAxis(PointerAxisEvent(
                time: t, device: d,
                motion: AxisMotion(source: .wheel, horizontal: 0, vertical: 15, horizontalV120: 0, verticalV120: 120,
                                   horizontalStop: false, verticalStop: false),
                location: p, surfaceLocation: s))
        case .pointerAxis:
            return .touchpadGesture(TouchpadGestureEvent(time: t, device: d, gesture: TouchpadGesture(kind: .swipe, phase: .begin, fingers: 3),
                                                         location: p, surfaceLocation: s))
        case .touchpadGesture: return .keyDown(key)
        case .keyDown: return .keyUp(key)
        case .keyUp: return .action(Action("copy"))
        case .action: return nil
        }
    }

    @Test func theCAPIsKindOfEachDroppedEventIsSeatKits() {
        var event = Self.droppedSample(after: nil)
        var seen = 0
        while let e = event {
            #expect(CValues.kind(e) == e.kind)
            #expect(String(cString: CValues.name(CValues.kind(e))) == e.kind.rawValue)
            seen += 1
            event = Self.droppedSample(after: e)
        }
        #expect(seen == 10)
    }
}
