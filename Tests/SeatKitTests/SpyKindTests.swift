import Testing
@testable import SeatKit

/// Spies told only the kinds of events they observe (``InputSpy/observedKinds``).
@Suite("Spies told only their kinds")
struct SpyKindTests {
    /// Logs "name kind" for each event it is told, and runs `onObserve` after.
    final class KindSpy: InputSpy {
        let name: String
        let kinds: InputEventKinds
        let log: (String) -> Void
        var onObserve: ((InputEvent, Router) -> Void)?
        init(_ name: String, kinds: InputEventKinds = .all, log: @escaping (String) -> Void) {
            self.name = name
            self.kinds = kinds
            self.log = log
        }
        var observedKinds: InputEventKinds { kinds }
        func observe(_ event: InputEvent, consumed: Bool, router: Router) {
            log("\(name) \(event.kind.name)")
            onObserve?(event, router)
        }
    }

    /// One event of each ``InputEventKind``, in the table's order.
    static let oneOfEach: [InputEvent.Kind] = [
        .touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)), .touchMotion(TouchID(0), LayoutPoint(x: 20, y: 10)),
        .touchUp(TouchID(0)), .touchCancel(TouchID(5)), .touchFrame,
        .pointerMotion(delta: Vector(dx: 1, dy: 0), unaccelerated: Vector(dx: 1, dy: 0)),
        .pointerMotionAbsolute(LayoutPoint(x: 30, y: 30)), .pointerButton(button: 0x110, state: .pressed),
        .pointerAxis(AxisMotion(source: .wheel, vertical: 1)),
        .touchpadGesture(TouchpadGesture(kind: .swipe, phase: .begin, fingers: 3)),
        .touchpadGesture(TouchpadGesture(kind: .pinch, phase: .begin, fingers: 2)),
        .touchpadGesture(TouchpadGesture(kind: .hold, phase: .begin, fingers: 2)),
        .key(keycode: 30, state: .pressed), .switchToggled(.lid, on: true),
        .tablet(TabletEvent(kind: .padButton, code: 1, value: 1)), .unknown(code: 999),
        .deviceAdded(DeviceInfo(name: "dev", capabilities: .keyboard)), .deviceRemoved,
    ]

    @Test func eachEventsBitIsItsTableKindsBit() {
        #expect(Self.oneOfEach.map { $0.tableKind } == InputEventKind.allCases)
        for kind in Self.oneOfEach {
            let event = InputEvent(time: .milliseconds(1), kind)
            #expect(InputEventKinds.bit(of: event) == InputEventKinds(kind.tableKind).rawValue, "\(kind.name)")
            #expect(InputEventKinds.all.contains(kind: kind.tableKind))
        }
        #expect(InputEventKinds.touches.contains(kind: .touchFrame) && !InputEventKinds.touches.contains(kind: .key))
    }

    /// A spy of keys never sees a touch (or anything else); one that says nothing sees every
    /// kind; both in the order they were added.
    @Test func aSpyOfKeysOnlyNeverSeesATouchAndOneForAllKindsSeesAll() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended", "keyDown"], canBecomeFirst: true)
        var log: [String] = []
        let all = KindSpy("all") { log.append($0) }
        let keys = KindSpy("keys", kinds: .key) { log.append($0) }
        let counting = CountingSpy()
        h.router.addSpy(all)
        h.router.addSpy(keys)
        h.router.addSpy(counting)
        #expect(counting.observedKinds == .all)
        h.down(0, 10, 10)
        h.send(.touchMotion(TouchID(0), LayoutPoint(x: 20, y: 20)))
        h.send(.touchFrame)
        h.up(0)
        h.pointer(to: 30, 30)
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(!log.contains { $0.hasPrefix("keys") && !$0.hasSuffix(" key") }, "\(log)")
        #expect(log.filter { $0.hasPrefix("keys") } == ["keys key", "keys key"])
        #expect(log.suffix(4) == ["all key", "keys key", "all key", "keys key"], "in the order added")
        #expect(log.filter { $0.hasPrefix("all") }.count == counting.seen)
        #expect(log.contains("all touch-down") && log.contains("all touch-frame") && log.contains("all pointer-motion-absolute"))
    }

    /// A spy of touch downs alone (as a cursor-visibility spy) hears only the downs, and the
    /// touch's motions and frames reach the responder exactly as with no spy at all: the
    /// router routes them without the event (its path for no spy of those kinds), and a
    /// spy that wants them makes it take the whole way with the same result.
    @Test func aSpyOfTouchDownsAloneLeavesMotionsAndFramesAsWithNoSpy() {
        func run(spyKinds: InputEventKinds?) -> (calls: [String], told: [String]) {
            let h = Harness()
            h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
            var told: [String] = []
            if let spyKinds { h.router.addSpy(KindSpy("spy", kinds: spyKinds) { told.append($0) }) }
            h.down(0, 10, 10)
            h.move(0, 20, 30)
            h.move(0, 25, 35)
            h.up(0)
            return (h.log.entries, told)
        }
        let none = run(spyKinds: nil)
        let downs = run(spyKinds: .touchDown)
        let motions = run(spyKinds: [.touchMotion, .touchFrame])
        #expect(none.calls.filter { $0.contains("moved") }.count == 2, "\(none.calls)")
        #expect(downs.calls == none.calls && motions.calls == none.calls)
        #expect(downs.told == ["spy touch-down"])
        #expect(motions.told == ["spy touch-frame", "spy touch-motion", "spy touch-frame", "spy touch-motion",
                                 "spy touch-frame", "spy touch-frame"], "\(motions.told)")
    }

    /// Every kind of event reaches a spy of all kinds, and a spy of one kind hears that
    /// kind alone.
    @Test func aSpyOfOneKindHearsThatKindOfEveryKindInjected() {
        for wanted in InputEventKind.allCases {
            let h = Harness()
            var log: [String] = []
            let one = KindSpy("one", kinds: InputEventKinds(wanted)) { log.append($0) }
            let all = KindSpy("all") { log.append($0) }
            h.router.addSpy(one)
            h.router.addSpy(all)
            for kind in Self.oneOfEach { h.send(kind) }
            #expect(log.filter { $0.hasPrefix("one") } == ["one \(wanted.name)"], "\(wanted.name): \(log)")
            #expect(log.filter { $0.hasPrefix("all") }.count == Self.oneOfEach.count, "\(wanted.name)")
        }
    }

    /// A spy added from inside another's call is told from the next event on, of its own
    /// kinds only; one removed is still told the event under way; the kinds no spy is left
    /// to want are no longer told.
    @Test func aSpyAddedOrRemovedInsideACallTakesEffectFromTheNextEventWithItsKinds() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended", "keyDown"], canBecomeFirst: true)
        var log: [String] = []
        let touches = KindSpy("touches", kinds: .touches) { log.append($0) }
        let keys = KindSpy("keys", kinds: .key) { log.append($0) }
        var frames: KindSpy? = KindSpy("frames", kinds: .touchFrame) { log.append($0) }
        h.router.addSpy(touches)
        h.router.addSpy(frames!)
        touches.onObserve = { [weak frames] event, router in
            guard case .touchDown = event.kind, let frames else { return }
            router.removeSpy(frames)
            router.addSpy(keys)
        }
        weak var gone = frames
        frames = nil
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        h.send(.touchFrame)
        #expect(gone == nil, "let go once the telling ended")
        h.key(30, .pressed)
        #expect(log == ["touches touch-down", "touches touch-frame", "keys key"], "\(log)")
        #expect(h.router.unchecked.spyList.wants(.key) && h.router.unchecked.spyList.wants(.touchUp))
        #expect(!h.router.unchecked.spyList.wants(.pointerButton))
        h.router.removeSpy(touches)
        h.router.removeSpy(keys)
        #expect(h.router.unchecked.spyList.isEmpty)
        log.removeAll()
        h.send(.touchFrame)
        h.key(30, .released)
        #expect(log.isEmpty)
    }

    /// A spy added inside a call to a spy of other kinds, while an event it wants is being
    /// injected from that call (a nested telling), is told from the next outermost event.
    @Test func aSpyAddedDuringANestedTellingWaitsForTheNextEvent() {
        let h = Harness()
        var log: [String] = []
        let injector = KindSpy("injector", kinds: .switchToggled) { log.append($0) }
        let late = KindSpy("late", kinds: .unknown) { log.append($0) }
        let early = KindSpy("early", kinds: .unknown) { log.append($0) }
        h.router.addSpy(injector)
        h.router.addSpy(early)
        injector.onObserve = { event, router in
            router.addSpy(late)
            router.inject(InputEvent(time: event.time, device: event.device, .unknown(code: 1)))
        }
        h.send(.switchToggled(.lid, on: true))
        injector.onObserve = nil
        h.send(.unknown(code: 2))
        #expect(log == ["injector switch", "early unknown", "early unknown", "late unknown"], "\(log)")
    }

    /// The spies of the library and the kiosk say their kinds.
    @Test func cursorVisibilityObservesTouchDownsAndPointerEventsOnly() {
        let cursor = CursorVisibility()
        #expect(cursor.observedKinds == InputEventKinds.touchDown.union(.pointer))
        let h = Harness()
        h.router.addSpy(cursor)
        h.pointer(to: 10, 10)
        h.down(0, 10, 10)
        #expect(!cursor.isVisible)
        h.send(.key(keycode: 30, state: .pressed))
        #expect(!cursor.isVisible)
        h.pointer(to: 20, 20)
        #expect(cursor.isVisible)
    }

    /// The lone spy of keys among spies of other kinds (a kiosk's idle spy) is told each key
    /// straight (``Router/tellKeySpies(_:consumed:)``); a second spy of keys added inside its
    /// call is told from the next key on, both in the order added; the lone one removing
    /// itself inside its call is told nothing after, and the other becomes the lone one.
    @Test func theLoneSpyOfKeysIsToldEachKeyAndEditsInsideItsCallTakeEffectFromTheNextKey() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        var log: [String] = []
        let touches = KindSpy("touches", kinds: .touches) { log.append($0) }
        let keys = KindSpy("keys", kinds: .key) { log.append($0) }
        let pointer = KindSpy("pointer", kinds: [.pointerMotion, .pointerButton]) { log.append($0) }
        let second = KindSpy("second", kinds: [.key, .touchDown]) { log.append($0) }
        h.router.addSpy(touches)
        h.router.addSpy(keys)
        h.router.addSpy(pointer)
        h.key(30, .pressed)
        #expect(log == ["keys key"])
        keys.onObserve = { [weak second] _, router in
            if let second { router.addSpy(second) }
        }
        h.key(30, .released)
        #expect(log == ["keys key", "keys key"], "the spy added inside the call waits for the next key")
        keys.onObserve = { [weak keys] _, router in
            if let keys { router.removeSpy(keys) }
        }
        h.key(31, .pressed)
        #expect(log == ["keys key", "keys key", "keys key", "second key"], "both, in the order added")
        h.key(31, .released)
        h.key(32, .pressed)
        #expect(log.suffix(2) == ["second key", "second key"], "the removed spy hears no more keys")
        #expect(h.router.spies.count == 3)
        #expect(!log.contains { $0.hasPrefix("touches") || $0.hasPrefix("pointer") })
    }
}
