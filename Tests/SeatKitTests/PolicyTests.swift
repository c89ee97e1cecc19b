import Testing
@testable import SeatKit

/// Consumes what its closure says.
final class ClosureFilter: InputFilter {
    let decide: (InputEvent) -> FilterDecision
    let decideKey: (KeyEvent) -> FilterDecision
    init(_ decide: @escaping (InputEvent) -> FilterDecision = { _ in .pass },
         key decideKey: @escaping (KeyEvent) -> FilterDecision = { _ in .pass }) {
        self.decide = decide
        self.decideKey = decideKey
    }
    func filter(_ event: InputEvent, router: Router) -> FilterDecision { decide(event) }
    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision { decideKey(event) }
}

final class CountingSpy: InputSpy {
    var seen = 0
    var consumed = 0
    func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        seen += 1
        if consumed { self.consumed += 1 }
    }
}

@Suite("Filters and spies")
struct PolicyTests {
    @Test func aLockScreenFilterTakesEverythingAndSpiesStillSeeIt() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["began", "ended", "button", "keyDown"], canBecomeFirst: true)
        let spy = CountingSpy()
        h.router.addFilter(ClosureFilter { _ in .consume })
        h.router.addSpy(spy)
        h.down(0, 10, 10)
        h.up(0)
        h.pointer(to: 20, 20)
        h.press()
        h.release()
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(h.log.entries.isEmpty)
        #expect(spy.seen == 9)
        #expect(spy.consumed == 7)  // the two frames are not consumable on their own
    }

    @Test func aTouchDownTakenByAFilterTakesTheWholeTouch() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        var asked = 0
        h.router.addFilter(ClosureFilter { event in
            guard case .touchDown = event.kind else { return .pass }
            asked += 1
            return asked == 1 ? .consume : .pass  // only the first down: the wake-up touch
        })
        h.down(0, 10, 10)
        h.move(0, 20, 20)
        h.up(0)
        #expect(h.log.entries.isEmpty)
        h.down(0, 10, 10)
        #expect(h.log.entries == ["app.began"])
    }

    @Test func filtersRunInOrderAndTheFirstToConsumeWins() {
        let h = Harness()
        var order: [String] = []
        h.router.addFilter(ClosureFilter { _ in order.append("first"); return .pass })
        h.router.addFilter(ClosureFilter { _ in order.append("second"); return .consume })
        h.router.addFilter(ClosureFilter { _ in order.append("third"); return .pass })
        h.press()
        #expect(order == ["first", "second"])
    }

    @Test func aGlobalShortcutSwallowsItsReleaseSoTheClientNeverSeesHalfAKey() {
        let h = Harness()
        let app = h.surface("app", 0, 0, 100, 100, canBecomeFirst: true)
        h.router.becomeFirstResponder(app)
        h.router.keyInterpreter = FixedInterpreter(keysym: 0xff09 /* Tab */, modifiers: .logo)
        var taken = 0
        h.router.addFilter(ClosureFilter(key: { event in
            guard event.keysym == 0xff09, event.modifiers.contains(.logo) else { return .pass }
            taken += 1
            return .consume
        }))
        h.log.clear()
        h.key(15, .pressed)
        h.key(15, .repeated)
        h.key(15, .released)
        #expect(taken == 1)
        #expect(h.log.entries.isEmpty)
        #expect(h.router.pressedKeys.isEmpty)
        // The next, unrelated key goes through.
        h.router.keyInterpreter = FixedInterpreter(keysym: 0x61, modifiers: [])
        h.key(30, .pressed)
        #expect(h.log.entries.first == "app.keyDown")
    }

    @Test func aButtonPressTakenByAFilterTakesItsRelease() {
        let h = Harness()
        h.surface("app", 0, 0, 100, 100, handles: ["button"])
        h.pointer(to: 10, 10)
        var first = true
        h.router.addFilter(ClosureFilter { event in
            guard case .pointerButton(_, .pressed) = event.kind, first else { return .pass }
            first = false
            return .consume
        })
        h.log.clear()
        h.press()
        h.release()
        #expect(h.log.entries.isEmpty)
        #expect(!h.router.isPointerGrabbed)
    }

    /// Spies are told from holders the router keeps, not from a copy of the list: an edit made
    /// from inside a spy's call must leave the event under way told to the spies it started
    /// with, keep a spy that removed itself alive until that event is told, and take effect
    /// from the next event.
    @Test func aSpyRemovedOrAddedFromInsideASpyTakesEffectFromTheNextEvent() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        final class LoggingSpy: InputSpy {
            let name: String
            let log: (String) -> Void
            var onObserve: (() -> Void)?
            init(_ name: String, log: @escaping (String) -> Void) {
                self.name = name
                self.log = log
            }
            deinit { log("\(name) gone") }
            func observe(_ event: InputEvent, consumed: Bool, router: Router) {
                let kind = "\(event.kind)".prefix { $0 != "(" }
                log("\(name) \(kind)")
                onObserve?()
            }
        }
        var log: [String] = []
        let first = LoggingSpy("first") { log.append($0) }
        let later = LoggingSpy("later") { log.append($0) }
        var second: LoggingSpy? = LoggingSpy("second") { log.append($0) }
        h.router.addSpy(first)
        h.router.addSpy(second!)
        // Told the down, the first spy removes the second (whose only owner is then the
        // router) and adds another.
        first.onObserve = { [weak router = h.router, weak second] in
            guard let router, let second else { return }
            router.removeSpy(second)
            router.addSpy(later)
            #expect(router.spies.count == 2, "the public list changes at once")
        }
        second = nil
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        #expect(log == ["first touchDown", "second touchDown", "second gone"])
        log.removeAll()
        h.send(.touchFrame)
        #expect(log == ["first touchFrame", "later touchFrame"])
        #expect(h.router.spies.count == 2)
    }
}
