import Testing
@testable import SeatKit

/// Filters asked only about the kinds of events they filter (``InputFilter/filteredKinds``).
@Suite("Filters asked only about their kinds")
struct FilterKindTests {
    /// Logs "name kind" for each event it is asked about ("name interpreted-key" for
    /// ``InputFilter/filterKey(_:router:)``), and runs `onFilter` after; consumes the kinds
    /// in `consumes`.
    final class KindFilter: InputFilter {
        let name: String
        var kinds: InputEventKinds
        var consumes: InputEventKinds = []
        let log: (String) -> Void
        var onFilter: ((InputEvent, Router) -> Void)?
        init(_ name: String, kinds: InputEventKinds = .all, log: @escaping (String) -> Void) {
            self.name = name
            self.kinds = kinds
            self.log = log
        }
        var filteredKinds: InputEventKinds { kinds }
        func filter(_ event: InputEvent, router: Router) -> FilterDecision {
            log("\(name) \(event.kind.name)")
            onFilter?(event, router)
            return consumes.contains(kind: event.kind.tableKind) ? .consume : .pass
        }
        func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
            log("\(name) interpreted-key")
            return .pass
        }
    }

    /// The kinds a filter is never asked about, whatever it declares.
    static let neverAsked: Set<InputEventKind> = [.touchFrame, .deviceAdded, .deviceRemoved]

    /// One event of each kind, in the table's order, with the touch's down before its motion
    /// and up, so that each is asked about.
    static func sendOneOfEach(_ h: Harness) {
        for kind in SpyKindTests.oneOfEach { h.send(kind) }
    }

    /// For each kind, a filter of that kind alone is asked about that kind alone (a key as its
    /// raw event and as interpreted), while a filter of all kinds after it is asked about every
    /// kind a filter is asked about, each after the first.
    @Test func aFilterOfOneKindIsAskedAboutThatKindAlone() {
        for wanted in InputEventKind.allCases {
            let h = Harness()
            h.router.keyInterpreter = FixedInterpreter(keysym: 0x61, modifiers: [])
            var log: [String] = []
            let one = KindFilter("one", kinds: InputEventKinds(wanted)) { log.append($0) }
            let all = KindFilter("all") { log.append($0) }
            h.router.addFilter(one)
            h.router.addFilter(all)
            Self.sendOneOfEach(h)
            let expected: [String] = Self.neverAsked.contains(wanted) ? []
                : wanted == .key ? ["one key", "one interpreted-key"] : ["one \(wanted.name)"]
            #expect(log.filter { $0.hasPrefix("one") } == expected, "\(wanted.name): \(log)")
            let askable = InputEventKind.allCases.filter { !Self.neverAsked.contains($0) }
            #expect(log.filter { $0.hasPrefix("all") }.count == askable.count + 1, "\(wanted.name): \(log)")
            if let first = log.firstIndex(where: { $0.hasPrefix("one") }) {
                #expect(log[first + 1] == "all \(wanted.name)", "in the order added: \(log)")
            }
        }
    }

    /// A filter of no kind is asked about nothing, alone or among others; the others are asked
    /// as before.
    @Test func aFilterOfNoKindIsNeverAsked() {
        let h = Harness()
        h.router.keyInterpreter = FixedInterpreter(keysym: 0x61, modifiers: [])
        var log: [String] = []
        h.router.addFilter(KindFilter("none", kinds: []) { log.append($0) })
        Self.sendOneOfEach(h)
        #expect(log.isEmpty)
        #expect(!h.router.unchecked.filterList.asks(.touches) && !h.router.unchecked.filterList.asks(.interpretedKeys))
        h.router.addFilter(KindFilter("touches", kinds: .touches) { log.append($0) })
        Self.sendOneOfEach(h)
        #expect(log == ["touches touch-down", "touches touch-motion", "touches touch-up", "touches touch-cancel"], "\(log)")
    }

    /// Filters of kinds that share a class of the router's lists (relative and absolute
    /// motion; touch motion, up and cancel; gestures, switches, tablet and unknown events)
    /// are each asked about their own kinds only, in the order they were added, whether one
    /// is alone in the class or several are.
    @Test func filtersOfPartOfAClassAreAskedAboutTheirKindsOnlyInOrder() {
        let h = Harness()
        h.router.keyInterpreter = FixedInterpreter(keysym: 0x61, modifiers: [])
        var log: [String] = []
        let relative = KindFilter("relative", kinds: .pointerMotion) { log.append($0) }
        h.router.addFilter(relative)
        h.send(.pointerMotionAbsolute(LayoutPoint(x: 30, y: 30)))
        h.send(.pointerMotion(delta: Vector(dx: 1, dy: 0), unaccelerated: Vector(dx: 1, dy: 0)))
        #expect(log == ["relative pointer-motion"], "a lone filter of part of a class: \(log)")
        log.removeAll()

        let ups = KindFilter("ups", kinds: [.touchDown, .touchUp]) { log.append($0) }
        let moves = KindFilter("moves", kinds: .touchMotion) { log.append($0) }
        let all = KindFilter("all") { log.append($0) }
        let pinches = KindFilter("pinches", kinds: [.touchpadPinch, .touchMotion]) { log.append($0) }
        h.router.addFilter(ups)
        h.router.addFilter(moves)
        h.router.addFilter(all)
        h.router.addFilter(pinches)
        Self.sendOneOfEach(h)
        #expect(log.filter { !$0.hasPrefix("all") } == [
            "ups touch-down", "moves touch-motion", "pinches touch-motion", "ups touch-up",
            "relative pointer-motion", "pinches gesture-pinch",
        ], "\(log)")
        #expect(Array(log.prefix(6)) == [
            "ups touch-down", "all touch-down", "moves touch-motion", "all touch-motion", "pinches touch-motion", "ups touch-up",
        ], "in the order added: \(log)")
        #expect(log.contains("all gesture-swipe") && log.contains("all pointer-motion-absolute"))
    }

    /// Taking a touch's down takes the whole touch for a filter that declares downs alone: its
    /// motion and up go nowhere, and the filter is not asked about them.
    @Test func aFilterOfTouchDownsTakesTheWholeTouchWithoutBeingAskedAboutTheRest() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        var log: [String] = []
        let downs = KindFilter("downs", kinds: .touchDown) { log.append($0) }
        downs.consumes = .touchDown
        h.router.addFilter(downs)
        h.down(0, 10, 10)
        h.move(0, 20, 20)
        h.up(0)
        #expect(log == ["downs touch-down"], "\(log)")
        #expect(!h.log.entries.contains { $0.contains("began") || $0.contains("moved") || $0.contains("ended") }, "\(h.log.entries)")
    }

    /// A filter added from inside another's call is asked from the next event on, about its
    /// kinds only; one removed from inside a call is still asked about the event under way,
    /// and not after.
    @Test func aFilterAddedOrRemovedInsideACallTakesEffectFromTheNextEvent() {
        let h = Harness()
        var log: [String] = []
        let adder = KindFilter("adder", kinds: .touchDown) { log.append($0) }
        let added = KindFilter("added", kinds: [.touchDown, .touchUp]) { log.append($0) }
        var removed: KindFilter? = KindFilter("removed", kinds: .touchDown) { log.append($0) }
        h.router.addFilter(adder)
        h.router.addFilter(removed!)
        adder.onFilter = { [weak removed] _, router in
            guard let removed else { return }
            router.removeFilter(removed)
            router.addFilter(added)
        }
        weak var gone = removed
        removed = nil
        h.down(0, 10, 10)
        #expect(gone == nil, "let go once the asking ended")
        #expect(log == ["adder touch-down", "removed touch-down"], "\(log)")
        log.removeAll()
        adder.onFilter = nil
        h.move(0, 20, 20)
        h.up(0)
        h.down(1, 10, 10)
        #expect(log == ["added touch-up", "adder touch-down", "added touch-down"], "\(log)")
    }

    /// A filter added during a nested asking (an event injected from a filter's call) waits
    /// for the next outermost event, whatever its kinds.
    @Test func aFilterAddedDuringANestedAskingWaitsForTheNextEvent() {
        let h = Harness()
        var log: [String] = []
        let injector = KindFilter("injector", kinds: .switchToggled) { log.append($0) }
        let early = KindFilter("early", kinds: .unknown) { log.append($0) }
        let late = KindFilter("late", kinds: .unknown) { log.append($0) }
        h.router.addFilter(injector)
        h.router.addFilter(early)
        injector.onFilter = { event, router in
            router.addFilter(late)
            router.inject(InputEvent(time: event.time, device: event.device, .unknown(code: 1)))
        }
        h.send(.switchToggled(.lid, on: true))
        injector.onFilter = nil
        h.send(.unknown(code: 2))
        #expect(log == ["injector switch", "early unknown", "early unknown", "late unknown"], "\(log)")
    }

    /// A filter whose kinds change tells the router (``Router/filteredKindsChanged(_:)``): it
    /// keeps its place among the filters; told from inside a call, the event under way is
    /// asked as before.
    @Test func aFilterWhoseKindsChangeKeepsItsPlace() {
        let h = Harness()
        var log: [String] = []
        let first = KindFilter("first", kinds: []) { log.append($0) }
        let second = KindFilter("second", kinds: .touchDown) { log.append($0) }
        h.router.addFilter(first)
        h.router.addFilter(second)
        h.down(0, 10, 10)
        #expect(log == ["second touch-down"])
        first.kinds = .touches
        h.router.filteredKindsChanged(first)
        log.removeAll()
        h.up(0)
        h.down(1, 10, 10)
        #expect(log == ["first touch-up", "first touch-down", "second touch-down"], "\(log)")

        // Told inside a call: the event under way is asked as the filters were.
        log.removeAll()
        first.onFilter = { event, router in
            guard case .touchUp = event.kind else { return }
            second.kinds = .touches
            router.filteredKindsChanged(second)
        }
        h.up(1)
        first.onFilter = nil
        h.down(2, 10, 10)
        #expect(log == ["first touch-up", "first touch-down", "second touch-down"], "\(log)")
        log.removeAll()
        h.up(2)
        #expect(log == ["first touch-up", "second touch-up"], "\(log)")

        // Not added: nothing.
        let stranger = KindFilter("stranger", kinds: .all) { log.append($0) }
        h.router.filteredKindsChanged(stranger)
        log.removeAll()
        h.down(3, 10, 10)
        #expect(log == ["first touch-down", "second touch-down"], "\(log)")
    }

    /// The core's own filters (switched) are asked as before beside a user's filter of some
    /// kinds: bounce keys alone about keys, then the user's filter of keys.
    @Test func theCoresFiltersAreAskedAsBeforeBesideFiltersOfSomeKinds() {
        let h = Harness()
        h.surface("app", 0, 0, 1000, 1000, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        h.router.keyInterpreter = FixedInterpreter(keysym: 0x61, modifiers: [])
        var log: [String] = []
        let bounce = BounceKeys(delay: .milliseconds(100))
        var bounced: [UInt32] = []
        bounce.onBounce = { bounced.append($0) }
        h.router.addFilter(bounce)
        h.router.addFilter(KindFilter("touches", kinds: .touches) { log.append($0) })
        h.router.addFilter(KindFilter("keys", kinds: .key) { log.append($0) })
        h.key(30, .pressed)
        h.key(30, .released)
        h.key(30, .pressed)  // a bounce: taken by bounce keys, within its delay
        #expect(bounced == [30])
        #expect(log == ["keys key", "keys interpreted-key", "keys key"], "\(log)")
    }

    /// Each class's kinds, and the classes a declaration touches.
    @Test func theClassesOfADeclaration() {
        #expect(FilterInterests.touched(by: .all) == .allClasses)
        #expect(FilterInterests.touched(by: []) == [])
        #expect(FilterInterests.touched(by: .key) == FilterInterests.anyKeys)
        #expect(FilterInterests.touched(by: [.touchFrame, .deviceAdded, .deviceRemoved]) == [])
        #expect(FilterInterests.touched(by: .pointerMotionAbsolute) == .pointerMotion)
        #expect(FilterInterests.touched(by: .touches) == FilterInterests.touchDowns.union(.touches))
        // Every kind a filter is asked about is in exactly one class's kinds, the class of its events.
        for kind in SpyKindTests.oneOfEach where !Self.neverAsked.contains(kind.tableKind) {
            let event = InputEvent(time: .milliseconds(1), kind)
            #expect(FilterInterests.of(event).kinds.contains(kind: kind.tableKind), "\(kind.name)")
        }
    }
}
