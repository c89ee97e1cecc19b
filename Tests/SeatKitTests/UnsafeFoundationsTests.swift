import Foundation
import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// The invariants of the core's one unsafe abstraction (`Unretained`, `KeptAliveWhileInUse`):
/// each rule its doc comment states, and that no public type lets a caller keep an unretained
/// reference.
@Suite struct UnsafeFoundationsTests {
    final class Token {}

    // MARK: KeptAliveWhileInUse (rule 3)

    @Test func anObjectReplacedOutsideAnyUseIsNotKept() {
        var kept = KeptAliveWhileInUse<Token>()
        weak var token: Token?
        do {
            let t = Token()
            token = t
            kept.keep(t)
        }
        #expect(kept.keptCount == 0)
        #expect(token == nil)
    }

    @Test func anObjectReplacedDuringNestedUsesLivesUntilTheOutermostEnds() {
        var kept = KeptAliveWhileInUse<Token>()
        weak var token: Token?
        kept.enter()
        kept.enter()
        do {
            let t = Token()
            token = t
            kept.keep(t)
        }
        #expect(token != nil)
        #expect(kept.leave() == false, "an inner use ending releases nothing")
        #expect(token != nil)
        #expect(kept.leave() == true, "the last use ending asks for the kept objects to be taken")
        #expect(token != nil, "nothing is released inside leave()")
        _ = kept.takeKept()
        #expect(token == nil)
        #expect(kept.keptCount == 0)
        #expect(!kept.isInUse)
    }

    // MARK: Unretained

    @Test func linksCompareByIdentityWithoutTouchingTheObject() {
        let a = Token(), b = Token()
        let link = Unretained(a)
        #expect(link.refers(to: a))
        #expect(!link.refers(to: b))
        #expect(link.refers(toSameAs: Unretained(a)))
        #expect(link.identity == ObjectIdentifier(a))
        #expect(link.object === a)
        #expect(link.with { $0 === a })
    }

    // MARK: Rule 1: cleared by the owner

    @Test func aChildThatOutlivesItsParentHasNoParent() {
        let child = Surface(name: "child", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        do {
            let parent = Surface(name: "parent", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
            parent.addChild(child)
            #expect(child.parent === parent)
        }
        #expect(child.parent == nil)
        #expect(child.layoutOrigin == nil)
    }

    @Test func aSurfaceThatOutlivesItsOutputHasNoOutput() {
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        do {
            let output = Output(name: "o", modeSize: Size(width: 100, height: 100))
            output.root.addChild(surface)
            #expect(surface.output === output)
        }
        #expect(surface.output == nil)
        #expect(surface.layoutOrigin == nil)
    }

    @Test func aRecognizerThatOutlivesItsSurfaceOrOutputIsDetached() {
        let onSurface = TapGestureRecognizer(name: "tap")
        let onOutput = TapGestureRecognizer(name: "global")
        do {
            let output = Output(name: "o", modeSize: Size(width: 100, height: 100))
            let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
            output.root.addChild(surface)
            surface.addGestureRecognizer(onSurface)
            output.addGestureRecognizer(onOutput)
            #expect(onSurface.surface === surface)
            #expect(onOutput.output === output)
        }
        #expect(onSurface.surface == nil)
        #expect(onOutput.output == nil)
        #expect(onSurface.router == nil)
    }

    @Test func anOutputThatOutlivesItsRouterHasNoRouter() {
        let output = Output(name: "o", modeSize: Size(width: 100, height: 100))
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        output.root.addChild(surface)
        do {
            let router = Router(clock: VirtualClock())
            router.addOutput(output)
            #expect(output.router === router)
        }
        #expect(output.router == nil)
        // Editing the tree reads the link (a routed tree tells its router): nothing to tell.
        surface.frame.origin = SurfacePoint(x: 5, y: 5)
        let removed = Output(name: "removed", modeSize: Size(width: 100, height: 100))
        let router = Router(clock: VirtualClock())
        router.addOutput(removed)
        router.removeOutput(removed)
        #expect(removed.router == nil)
    }

    @Test func aRecognizerEngagedWhenItsRouterGoesFollowsNoRouter() {
        let clock = VirtualClock()
        let output = Output(name: "o", modeSize: Size(width: 100, height: 100))
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        output.root.addChild(surface)
        let pan = PanGestureRecognizer()
        surface.addGestureRecognizer(pan)
        do {
            let router = Router(clock: clock)
            router.addOutput(output)
            router.inject(InputEvent(time: .milliseconds(1), device: DeviceID(1), .touchDown(TouchID(0), LayoutPoint(x: 10, y: 10))))
            router.inject(InputEvent(time: .milliseconds(1), device: DeviceID(1), .touchFrame))
            #expect(pan.engagedRouter === router)
        }
        #expect(pan.engagedRouter == nil)
        #expect(pan.router == nil)
        // What reads the link: a state change goes to the recognizer itself, with no router.
        pan.state = .failed
        #expect(pan.state == .failed)
    }

    @Test func removingARecognizerClearsItsLink() {
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let recognizer = TapGestureRecognizer(name: "tap")
        surface.addGestureRecognizer(recognizer)
        surface.removeGestureRecognizer(recognizer)
        #expect(recognizer.surface == nil)
    }

    // MARK: Rule 2 and 3 through the router: a responder replaced from inside its own call

    @Test func aResponderReplacedInsideItsOwnHandlerLivesUntilTheCallEnds() {
        final class SelfReplacing: Responder {
            weak var surface: Surface?
            var after: (() -> Void)?
            func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
                surface?.responder = PassThroughResponder()
                // Still alive and asked: the surface keeps the replaced holder for the call.
                after?()
                return .handled
            }
        }
        let h = Harness()
        let surface = h.surface("s", 0, 0, 100, 100)
        weak var replaced: SelfReplacing?
        var keptDuringCall = -1
        do {
            let responder = SelfReplacing()
            responder.surface = surface
            responder.after = { keptDuringCall = surface.formerResponderCountForTesting }
            replaced = responder
            surface.responder = responder
        }
        #expect(replaced != nil)
        h.down(1, 10, 10)
        #expect(keptDuringCall == 1)
        #expect(surface.formerResponderCountForTesting == 0)
        #expect(replaced == nil, "released once the call ended")
    }

    // MARK: Filters asked through unretained links (FilterList)

    /// A filter that runs `onFilter` at each event it is asked about and counts them.
    final class EditingFilter: InputFilter {
        var asked = 0
        var onFilter: ((InputEvent) -> Void)?
        func filter(_ event: InputEvent, router: Router) -> FilterDecision {
            asked += 1
            onFilter?(event)
            return .pass
        }
    }

    static func motion(_ t: Int64) -> InputEvent {
        InputEvent(time: .milliseconds(t), device: DeviceID(1), .pointerMotion(delta: Vector(dx: 1, dy: 0), unaccelerated: Vector(dx: 1, dy: 0)))
    }

    /// A filter that removes itself and the next one while asked: both are still asked about
    /// that event (as a copy of the list would be), both stay alive until the asking ends,
    /// neither is asked again, and `filters` shows the removal at once.
    @Test func filtersRemovedWhileAskedAreAskedAboutThatEventAndLiveUntilTheAskingEnds() {
        let router = Router(clock: VirtualClock())
        weak var first: EditingFilter?
        weak var second: EditingFilter?
        var firstAliveInSecond = false
        var filtersSeenInSecond = -1
        do {
            let a = EditingFilter(), b = EditingFilter()
            first = a
            second = b
            router.addFilter(a)
            router.addFilter(b)
            a.onFilter = { [unowned router, unowned a, unowned b] _ in
                router.removeFilter(a)
                router.removeFilter(b)
            }
            b.onFilter = { [unowned router] _ in
                firstAliveInSecond = first != nil
                filtersSeenInSecond = router.filters.count
            }
        }
        #expect(first != nil && second != nil, "the router keeps its filters alive")
        router.inject(Self.motion(1))
        #expect(firstAliveInSecond, "a filter removed during the asking is kept alive until it ends")
        #expect(filtersSeenInSecond == 0, "the public list shows the removals at once")
        #expect(first == nil && second == nil, "released once the asking ended")
        #expect(router.filters.isEmpty)
        router.inject(Self.motion(2))
    }

    /// A filter added while the filters are asked is asked from the next event on, and so
    /// is one added from inside a nested asking (a filter injecting an event).
    @Test func aFilterAddedWhileFiltersAreAskedIsAskedFromTheNextEvent() {
        let router = Router(clock: VirtualClock())
        let adder = EditingFilter(), added = EditingFilter(), nestedAdded = EditingFilter()
        router.addFilter(adder)
        adder.onFilter = { [unowned router] event in
            guard adder.asked == 1 else { return }
            router.addFilter(added)
            // A nested asking (as mouse keys inject motion from inside a filter call).
            router.inject(Self.motion(2))
            router.addFilter(nestedAdded)
        }
        router.inject(Self.motion(1))
        #expect(adder.asked == 2, "asked about the event and the one injected from inside its call")
        #expect(added.asked == 0, "not asked about the event under way, nor the nested one")
        #expect(nestedAdded.asked == 0)
        #expect(router.filters.count == 3)
        router.inject(Self.motion(3))
        #expect(added.asked == 1)
        #expect(nestedAdded.asked == 1)
        #expect(adder.asked == 3)
    }

    /// A filter added twice is asked twice; removed outside an asking, it goes from the
    /// asked list at once (every time it was added).
    @Test func aFilterRemovedOutsideAnAskingIsNeverAskedAgain() {
        let router = Router(clock: VirtualClock())
        let a = EditingFilter(), b = EditingFilter()
        router.addFilter(a)
        router.addFilter(b)
        router.addFilter(a)
        router.inject(Self.motion(1))
        #expect(a.asked == 2 && b.asked == 1)
        router.removeFilter(a)
        #expect(router.filters.count == 1)
        router.inject(Self.motion(2))
        #expect(a.asked == 2 && b.asked == 2)
    }

    /// The eight accessibility filters, off, are passed over without a call (their switch
    /// is off); on, each is asked about the events it acts on and no others; a filter of the
    /// user's is always asked.
    @Test func anAccessibilityFilterIsAskedOnlyWhileOnAndOnlyAboutTheEventsItActsOn() {
        let classes: [FilterInterests] = [.keys, .keyReleases, .interpretedKeys, .pointerMotion, .pointerButtons, .pointerAxis, .touchDowns, .touches, .other]
        let sticky = StickyKeys(isEnabled: false), slow = SlowKeys(isEnabled: false), bounce = BounceKeys(isEnabled: false)
        let mouse = MouseKeys(isEnabled: false), dwell = DwellClick(isEnabled: false)
        let secondary = SimulatedSecondaryClick(isEnabled: false), locate = LocatePointer(isEnabled: false)
        let touch = TouchAccommodations(isEnabled: false)
        let filters: [(any InputFilter, FilterInterests)] = [
            (sticky, .interpretedKeys), (slow, .interpretedKeys), (bounce, [.keys, .keyReleases]),
            (mouse, .interpretedKeys), (dwell, [.pointerMotion, .pointerButtons]), (secondary, .pointerButtons),
            (locate, .interpretedKeys), (touch, .touchDowns),
        ]
        let router = Router(clock: VirtualClock())
        for (filter, _) in filters {
            router.addFilter(filter)
            for c in classes { #expect(!FilterCall(filter).isAsked(about: c), "\(type(of: filter)) off") }
        }
        for c in classes { #expect(!router.unchecked.filterList.asks(c), "no filter on: class \(c.rawValue) skipped") }
        sticky.isEnabled = true; slow.isEnabled = true; bounce.isEnabled = true; mouse.isEnabled = true
        dwell.isEnabled = true; secondary.isEnabled = true; locate.isEnabled = true; touch.isEnabled = true
        for (filter, interests) in filters {
            for c in classes {
                #expect(FilterCall(filter).isAsked(about: c) == interests.contains(c), "\(type(of: filter)) on, \(c.rawValue)")
            }
        }
        // The router's asked lists follow the switches from the next event.
        router.inject(Self.motion(1))
        // (The rest of a touch is asked of nobody: touch accommodations holds no finger; nor
        // is scrolling: locate pointer has no Ctrl press under way.)
        for c in classes { #expect(router.unchecked.filterList.asks(c) == (c != .other && c != .touches && c != .pointerAxis), "class \(c.rawValue)") }
        for c in classes { #expect(FilterCall(EditingFilter()).isAsked(about: c)) }
    }

    /// Simulated secondary click is asked about pointer motion only while a hold is under
    /// way, and still cancels the hold when the pointer moves too far during it; touch
    /// accommodations is asked about the rest of touches only while it holds a finger, and
    /// still takes the whole of a held touch.
    @Test func secondaryClickAndTouchAccommodationsAreAskedAboutMotionOnlyWhileTheyHaveSomethingUnderWay() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let secondary = SimulatedSecondaryClick(delay: .milliseconds(100), movementThreshold: 10)
        let touch = TouchAccommodations(holdDuration: .milliseconds(100))
        var clicks = 0
        secondary.onClick = { _ in clicks += 1 }
        router.addFilter(secondary)
        router.addFilter(touch)
        let secondaryCall = FilterCall(secondary), touchCall = FilterCall(touch)
        #expect(!secondaryCall.isAsked(about: .pointerMotion) && secondaryCall.isAsked(about: .pointerButtons))
        #expect(!touchCall.isAsked(about: .touches) && touchCall.isAsked(about: .touchDowns))
        let device = DeviceID(1)
        router.inject(InputEvent(time: .milliseconds(1), device: device, .pointerMotionAbsolute(LayoutPoint(x: 50, y: 50))))
        #expect(!router.unchecked.filterList.asks(.pointerMotion), "no hold: no filter is asked about motion")
        router.inject(InputEvent(time: .milliseconds(2), device: device, .pointerButton(button: 0x110, state: .pressed)))
        #expect(secondaryCall.isAsked(about: .pointerMotion), "a hold under way: motion asked")
        router.inject(InputEvent(time: .milliseconds(3), device: device, .pointerMotionAbsolute(LayoutPoint(x: 90, y: 50))))
        #expect(!secondaryCall.isAsked(about: .pointerMotion), "moved too far: the hold is over")
        clock.advance(to: .milliseconds(500))
        router.inject(InputEvent(time: .milliseconds(500), device: device, .pointerButton(button: 0x110, state: .released)))
        #expect(clicks == 0)
        router.inject(InputEvent(time: .milliseconds(600), device: device, .touchDown(TouchID(1), LayoutPoint(x: 5, y: 5))))
        #expect(touchCall.isAsked(about: .touches), "a finger held: the rest of touches asked")
        router.inject(InputEvent(time: .milliseconds(610), device: device, .touchMotion(TouchID(1), LayoutPoint(x: 6, y: 5))))
        router.inject(InputEvent(time: .milliseconds(620), device: device, .touchUp(TouchID(1))))
        #expect(!touchCall.isAsked(about: .touches), "no finger held")
        #expect(router.activeTouchCount == 0, "the held touch never reached routing")
        router.inject(InputEvent(time: .milliseconds(630), device: device, .touchFrame))
        #expect(!router.unchecked.filterList.asks(.touches))
    }

    /// The core's eight filters are called by their class, not through `any InputFilter`; a
    /// filter of the user's through the protocol. Each direct call is the filter's own
    /// method: what it answers and does is the same (locate pointer locates on a Ctrl tap
    /// asked through the holder, bounce keys takes a bounce, a user's filter is asked).
    @Test func theCoreFiltersAreCalledByTheirClassAndAUsersFiltersThroughTheProtocol() {
        let expected: [(any InputFilter, BuiltinFilter)] = [
            (StickyKeys(), .stickyKeys), (SlowKeys(), .slowKeys), (BounceKeys(), .bounceKeys), (MouseKeys(), .mouseKeys),
            (DwellClick(), .dwellClick), (SimulatedSecondaryClick(), .simulatedSecondaryClick),
            (LocatePointer(), .locatePointer), (TouchAccommodations(), .touchAccommodations), (EditingFilter(), .user),
        ]
        for (filter, builtin) in expected {
            let call = FilterCall(filter)
            #expect(call.builtin == builtin, "\(type(of: filter))")
            let sameObject = ObjectIdentifier(call.object.takeUnretainedValue()) == ObjectIdentifier(filter as AnyObject)
            #expect(sameObject)
        }
        let router = Router(clock: VirtualClock())
        var located = 0
        let locatePointer = LocatePointer(onLocate: { _ in located += 1 })
        let locate = AskedFilter(FilterCall(locatePointer), index: 0, kind: .keyReleases)
        let ctrl = UInt32(29)
        #expect(locate.askKey(KeyEvent(time: .milliseconds(1), device: DeviceID(1), keycode: ctrl, state: .pressed), router: router) == .pass)
        #expect(locate.ask(InputEvent(time: .milliseconds(2), .key(keycode: ctrl, state: .released)), router: router) == .pass)
        #expect(located == 1)
        let bounceKeys = BounceKeys(delay: .milliseconds(300))
        let bounce = AskedFilter(FilterCall(bounceKeys), index: 0, kind: .keys)
        #expect(bounce.ask(InputEvent(time: .milliseconds(3), .key(keycode: 30, state: .released)), router: router) == .pass)
        #expect(bounce.ask(InputEvent(time: .milliseconds(4), .key(keycode: 30, state: .pressed)), router: router) == .consume)
        let user = EditingFilter()
        let userCall = FilterCall(user)
        #expect(AskedFilter(userCall, index: 0, kind: .pointerMotion).ask(Self.motion(5), router: router) == .pass)
        #expect(user.asked == 1)
    }

    /// A filter that is off is in none of the router's asked lists: with every filter off,
    /// no class of event is asked about (the router skips the filters with one test), and a
    /// filter turned on outside an event is asked about the next one.
    @Test func filtersThatAreOffAreInNoAskedListAndOneTurnedOnIsAskedFromTheNextEvent() {
        let router = Router(clock: VirtualClock())
        let locate = LocatePointer(isEnabled: false)
        var located = 0
        locate.onLocate = { _ in located += 1 }
        router.addFilter(locate)
        router.addFilter(DwellClick(isEnabled: false))
        #expect(!router.unchecked.filterList.asks([.keys, .keyReleases, .interpretedKeys, .pointerMotion, .pointerButtons, .pointerAxis, .touchDowns, .touches, .other]))
        let ctrl = UInt32(29)
        router.inject(InputEvent(time: .milliseconds(1), .key(keycode: ctrl, state: .pressed)))
        router.inject(InputEvent(time: .milliseconds(2), .key(keycode: ctrl, state: .released)))
        #expect(located == 0)
        locate.isEnabled = true
        router.inject(InputEvent(time: .milliseconds(3), .key(keycode: ctrl, state: .pressed)))
        router.inject(InputEvent(time: .milliseconds(4), .key(keycode: ctrl, state: .released)))
        #expect(located == 1, "asked from the first event after it was turned on")
        #expect(router.unchecked.filterList.asks(.interpretedKeys) && !router.unchecked.filterList.asks(.pointerMotion))
        locate.isEnabled = false
        router.inject(InputEvent(time: .milliseconds(5), .key(keycode: ctrl, state: .pressed)))
        router.inject(InputEvent(time: .milliseconds(6), .key(keycode: ctrl, state: .released)))
        #expect(located == 1)
        #expect(!router.unchecked.filterList.asks(.interpretedKeys))
    }

    /// A filter turned on by an earlier filter while an event is asked about is asked about
    /// that event at its turn, as when each switch was read at the filter's turn, and about
    /// an event injected from inside that call (a nested asking, while the asked lists are
    /// stale); one turned off so is not asked.
    @Test func aFilterTurnedOnWhileFiltersAreAskedIsAskedAtItsTurnOfThatEvent() {
        let router = Router(clock: VirtualClock())
        let switcher = EditingFilter()
        let dwell = DwellClick(isEnabled: false)
        var begun: [Double] = []
        dwell.onDwellChange = { if let d = $0 { begun.append(d.location.x) } }
        router.addFilter(switcher)
        router.addFilter(dwell)
        func move(_ x: Double) -> InputEvent {
            InputEvent(time: .milliseconds(Int64(x)), device: DeviceID(1), .pointerMotionAbsolute(LayoutPoint(x: x, y: 0)))
        }
        switcher.onFilter = { [unowned router] event in
            guard case .pointerMotionAbsolute(let p) = event.kind, p.x == 100 else { return }
            dwell.isEnabled = true
            router.inject(move(200))
        }
        router.inject(move(100))
        #expect(begun == [200, 100], "asked about the nested event, then at its turn of the outer one")
        switcher.onFilter = { event in
            if case .pointerMotionAbsolute(let p) = event.kind, p.x == 300 { dwell.isEnabled = false }
        }
        router.inject(move(300))
        #expect(begun == [200, 100], "turned off by an earlier filter: not asked")
        switcher.onFilter = nil
        dwell.isEnabled = true
        router.inject(move(400))
        #expect(begun == [200, 100, 400])
    }

    final class TakingFilter: InputFilter {
        var asked = 0
        func filter(_ event: InputEvent, router: Router) -> FilterDecision {
            asked += 1
            return .consume
        }
    }

    final class VerdictSpy: InputSpy {
        var consumed: [Bool] = []
        func observe(_ event: InputEvent, consumed: Bool, router: Router) { self.consumed.append(consumed) }
    }

    /// A class of events with one filter asked about it is asked without the loop
    /// (`askLoneFilter`): a user's filter alone is still asked and still takes what it
    /// consumes; a core filter whose interests change at run time (simulated secondary click,
    /// asked about motion only during a hold) is asked about motion from the event after its
    /// hold began and not after it ended; a second filter puts the class back on the loop, in
    /// order.
    @Test func aLoneFilterIsAskedWithoutTheLoopTakesWhatItConsumesAndFollowsItsInterests() {
        let router = Router(clock: VirtualClock())
        let spy = VerdictSpy()
        router.addSpy(spy)
        let taker = TakingFilter()
        router.addFilter(taker)
        #expect(router.unchecked.filterList.asksOne(.pointerMotion))
        router.inject(Self.motion(1))
        #expect(taker.asked == 1)
        #expect(spy.consumed == [true], "taken by the lone filter")
        let second = EditingFilter()
        router.addFilter(second)
        #expect(!router.unchecked.filterList.asksOne(.pointerMotion), "two filters: the loop")
        router.inject(Self.motion(2))
        #expect(taker.asked == 2 && second.asked == 0, "the first takes it; the second is not asked")
        router.removeFilter(taker)
        router.inject(Self.motion(3))
        #expect(router.unchecked.filterList.asksOne(.pointerMotion))
        #expect(second.asked == 1 && spy.consumed == [true, true, false])
        router.removeFilter(second)

        let clock = VirtualClock()
        let held = Router(clock: clock)
        let secondary = SimulatedSecondaryClick(delay: .milliseconds(100), movementThreshold: 10)
        var clicks = 0
        secondary.onClick = { _ in clicks += 1 }
        held.addFilter(secondary)
        #expect(held.unchecked.filterList.asksOne(.pointerButtons))
        #expect(!held.unchecked.filterList.asks(.pointerMotion), "no hold: motion is not asked")
        func button(_ state: ButtonState, _ t: Int64) {
            held.inject(InputEvent(time: .milliseconds(t), device: DeviceID(1), .pointerButton(button: 0x110, state: state)))
        }
        func move(_ dx: Double, _ t: Int64) {
            held.inject(InputEvent(time: .milliseconds(t), device: DeviceID(1), .pointerMotion(delta: Vector(dx: dx, dy: 0), unaccelerated: Vector(dx: dx, dy: 0))))
        }
        button(.pressed, 1)
        move(5, 2)
        #expect(held.unchecked.filterList.asksOne(.pointerMotion), "during the hold, motion is asked of it alone")
        move(20, 3)  // beyond the threshold: the hold ends (asked alone, as the one before)
        clock.advance(by: .milliseconds(200))
        #expect(clicks == 0, "a drag, not a secondary click")
        button(.released, 300)
        button(.pressed, 301)
        move(5, 302)
        clock.advance(by: .milliseconds(200))
        #expect(clicks == 1, "held still within the threshold: the secondary click")
        button(.released, 600)
    }

    final class SwitchingKeyFilter: InputFilter {
        var asked = 0
        var onFilter: (() -> Void)?
        func filter(_ event: InputEvent, router: Router) -> FilterDecision {
            asked += 1
            onFilter?()
            return .pass
        }
    }

    static func key(_ keycode: UInt32, _ state: KeyState, _ t: Int64) -> InputEvent {
        InputEvent(time: .milliseconds(t), device: DeviceID(1), .key(keycode: keycode, state: state))
    }

    /// The key path asks the lone filter of each of its classes (raw presses, raw releases,
    /// interpreted keys) from a plain field, inline in `routeKey`'s filtered path: bounce keys
    /// alone is asked about raw presses and releases and takes a bounce; a second filter of
    /// a class puts it back on the loop; a filter turned on by the lone filter's call is
    /// asked about that same key at its turn (slow keys, turned on while the raw press is
    /// asked, takes the press as interpreted).
    @Test func theKeyPathAsksTheLoneFilterOfEachClassAndAFilterTurnedOnMidKeyAtItsTurn() {
        let router = Router(clock: VirtualClock())
        let spy = VerdictSpy()
        router.addSpy(spy)
        let bounce = BounceKeys(delay: .milliseconds(100))
        var bounces: [UInt32] = []
        bounce.onBounce = { bounces.append($0) }
        router.addFilter(bounce)
        let list = router.unchecked.filterList
        #expect(list.loneRawKeyFilter(released: false)?.builtin == .bounceKeys)
        #expect(list.loneRawKeyFilter(released: true)?.builtin == .bounceKeys)
        #expect(list.loneInterpretedKeyFilter == nil, "bounce keys does not look at interpreted keys")
        router.inject(Self.key(30, .pressed, 1))
        router.inject(Self.key(30, .released, 2))
        router.inject(Self.key(30, .pressed, 3))  // the clock stands still: within the delay
        router.inject(Self.key(30, .released, 4))
        #expect(bounces == [30], "the second press is a bounce")
        #expect(spy.consumed == [false, false, true, true], "taken, and its release swallowed")
        router.removeFilter(bounce)

        let sticky = StickyKeys(), mouse = MouseKeys()
        router.addFilter(sticky)
        #expect(router.unchecked.filterList.loneInterpretedKeyFilter?.builtin == .stickyKeys)
        router.addFilter(mouse)
        #expect(router.unchecked.filterList.loneInterpretedKeyFilter == nil, "two filters: the loop")
        router.removeFilter(sticky)
        router.removeFilter(mouse)

        let switcher = SwitchingKeyFilter()
        let slow = SlowKeys(delay: .milliseconds(100), isEnabled: false)
        var outcomes: [SlowKeys.Outcome] = []
        slow.onKey = { _, outcome in outcomes.append(outcome) }
        switcher.onFilter = { slow.isEnabled = true }
        router.addFilter(switcher)
        router.addFilter(slow)
        #expect(router.unchecked.filterList.loneRawKeyFilter(released: false) != nil, "the user's filter alone on raw keys")
        router.inject(Self.key(31, .pressed, 10))
        #expect(switcher.asked == 1)
        #expect(outcomes == [.pressed], "turned on while the raw press was asked: it takes the press as interpreted")
        #expect(spy.consumed.last == true)
        switcher.onFilter = nil
        router.inject(Self.key(31, .released, 11))
        #expect(spy.consumed.last == true, "the release of the taken press is swallowed")
    }

    /// A user's filter of pointer motion that takes the motion while `takes`.
    final class MotionTaker: InputFilter {
        var asked = 0
        var takes = false
        func filter(_ event: InputEvent, router: Router) -> FilterDecision {
            guard case .pointerMotionAbsolute = event.kind else { return .pass }
            asked += 1
            return takes ? .consume : .pass
        }
    }

    /// The pointer's motion asks its lone filter from a plain field, inline (dwell click's
    /// motion body with it): a moving pointer with no listener restarts the dwell at every
    /// motion on one timer and clicks once, at the last restart's deadline; a listener set
    /// afterwards is told each begin and restart; a second filter of pointer motion puts the
    /// class back on the loop (both asked, in order), and a user's filter alone is asked
    /// from the field too and takes what it consumes (the pointer stays).
    @Test func thePointerMotionAsksItsLoneFilterInlineAndASecondFilterPutsItBackOnTheLoop() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        router.addOutput(Output(name: "out", modeSize: Size(width: 800, height: 600)))
        let spy = VerdictSpy()
        router.addSpy(spy)
        func move(to x: Double, at ms: Int64) {
            clock.advance(to: .milliseconds(ms))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(1), .pointerMotionAbsolute(LayoutPoint(x: x, y: 100))))
        }
        let dwell = DwellClick(delay: .milliseconds(1000), movementThreshold: 10)
        var clicks: [LayoutPoint] = []
        dwell.onClick = { clicks.append($0) }
        router.addFilter(dwell)
        #expect(router.unchecked.filterList.lonePointerMotionFilter?.builtin == .dwellClick)
        for step in 0..<5 {
            move(to: 100 + Double(step) * 12, at: Int64(step) * 100)
            #expect(clock.pendingTimerCount == 1)
        }
        #expect(dwell.progress(at: .milliseconds(900)) == 0.5, "restarted at 400")
        clock.advance(to: .milliseconds(1399))
        #expect(clicks.isEmpty, "no click before the last restart's deadline")
        clock.advance(to: .milliseconds(1400))
        #expect(clicks == [LayoutPoint(x: 148, y: 100)])

        var changes: [Bool] = []
        dwell.onDwellChange = { changes.append($0 != nil) }
        move(to: 300, at: 1500)
        move(to: 320, at: 1600)
        move(to: 325, at: 1700)   // within the threshold: nothing told
        #expect(changes == [true, false, true], "a begin, then a restart's end and begin")
        #expect(dwell.progress(at: .milliseconds(2100)) == 0.5, "restarted at 1600")

        let taker = MotionTaker()
        router.addFilter(taker)
        #expect(router.unchecked.filterList.lonePointerMotionFilter == nil, "two filters: the loop")
        move(to: 400, at: 1800)
        #expect(taker.asked == 1)
        #expect(changes == [true, false, true, false, true], "dwell click asked first")
        dwell.isEnabled = false
        #expect(router.unchecked.filterList.lonePointerMotionFilter == nil, "a switch changed: stale")
        move(to: 420, at: 1900)
        #expect(router.unchecked.filterList.lonePointerMotionFilter?.index == 1, "rebuilt: the user's filter alone")
        #expect(taker.asked == 2)
        taker.takes = true
        move(to: 500, at: 2000)
        #expect(taker.asked == 3)
        #expect(spy.consumed.last == true)
        #expect(router.pointerLocation == LayoutPoint(x: 420, y: 100), "the taken motion does not move the pointer")
        dwell.isEnabled = true
        router.removeFilter(taker)
        #expect(router.unchecked.filterList.lonePointerMotionFilter?.builtin == .dwellClick)
        move(to: 600, at: 2100)
        #expect(router.pointerLocation == LayoutPoint(x: 600, y: 100))
        #expect(spy.consumed.last == false)
    }

    // MARK: The tricks stay in their one place

    /// The one-place rules: in every module, the only stored properties that skip the
    /// exclusivity check are the non-public `unchecked` hot-state properties of the shape
    /// UnsafeFoundations.swift describes; no file of any module but UnsafeFoundations.swift
    /// uses `unowned(unsafe)` or `_withUnsafeGuaranteedRef`, and no core file `Unmanaged`.
    @Test func theUnsafeTricksStayInternalAndInOnePlace() throws {
        // Every module's sources: rule 1 holds for the adapters too; the one-place rule for
        // unretained references is the core's (adapters pass objects through C `void *`).
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 60)
        var uncheckedStorage: [String] = []
        var hotStateProperties = 0
        var strayUnretained: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let place = "\(file.lastPathComponent):\(n + 1)"
                if code.contains("@exclusivity(unchecked)") {
                    let hotState = code.trimmingCharacters(in: .whitespaces)
                        .replacingOccurrences(of: "nonisolated(unsafe) ", with: "")
                        .replacingOccurrences(of: "private static ", with: "")
                        .replacingOccurrences(of: "private ", with: "")
                    if !hotState.hasPrefix("@exclusivity(unchecked) var unchecked = ")
                        && !hotState.hasPrefix("@exclusivity(unchecked) var unchecked: ") {
                        uncheckedStorage.append(place)
                    }
                    hotStateProperties += 1
                }
                // Unretained links go through `Unretained` in every module; the adapters keep
                // `Unmanaged` only to pass objects through C's `void *` user data.
                let unretainedTrick = code.contains("unowned(unsafe)") || code.contains("_withUnsafeGuaranteedRef")
                    || (file.path.contains("/Sources/SeatKit/") && code.contains("Unmanaged"))
                if unretainedTrick, file.lastPathComponent != "UnsafeFoundations.swift" {
                    strayUnretained.append(place)
                }
            }
        }
        #expect(uncheckedStorage.isEmpty, "exclusivity skipped outside a hot-state property: \(uncheckedStorage)")
        #expect(hotStateProperties > 10, "the scan saw the hot-state properties")
        #expect(strayUnretained.isEmpty, "unretained tricks outside UnsafeFoundations.swift: \(strayUnretained)")
    }

    // MARK: No public type lets a caller keep an unretained reference

    /// `ResponderContext` is non-escapable: a responder that stores one does not compile.
    /// Checked with the compiler against the built SeatKit module; the same snippet without
    /// the store compiles, so the failure is the escape and nothing else.
    @Test func aResponderThatStoresItsContextDoesNotCompile() throws {
        let modules = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("SeatKit.swiftmodule").path) else {
            Issue.record("SeatKit.swiftmodule not found beside the test binary, in \(modules.path)")
            return
        }
        let good = """
        import SeatKit
        final class Keeper: Responder {
            var surfaces: [Surface] = []
            func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
                if let s = context.surface { surfaces.append(s) }
                return .handled
            }
        }
        """
        let bad = good.replacingOccurrences(of: "var surfaces: [Surface] = []", with: "var contexts: [ResponderContext] = []")
            .replacingOccurrences(of: "if let s = context.surface { surfaces.append(s) }", with: "contexts.append(context)")
        let goodResult = try typecheck(good, modules: modules)
        #expect(goodResult.status == 0, "\(goodResult.output)")
        let badResult = try typecheck(bad, modules: modules)
        #expect(badResult.status != 0)
        #expect(badResult.output.contains("Escapable"), "\(badResult.output)")
    }

    private func typecheck(_ source: String, modules: URL) throws -> (status: Int32, output: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-escape-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-I", modules.path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    // MARK: scanBorrowed (rule 5)

    final class Holder { var items: [Token] = [] }

    @Test func aBorrowedScanVisitsEveryElementInOrderWithItsIndex() {
        let tokens = [Token(), Token(), Token()]
        var visited: [(ObjectIdentifier, Int)] = []
        tokens.scanBorrowedWithIndex { token, i in visited.append((ObjectIdentifier(token), i)) }
        #expect(visited.map(\.0) == tokens.map(ObjectIdentifier.init))
        #expect(visited.map(\.1) == [0, 1, 2])
        var count = 0
        [Token]().scanBorrowed { _ in count += 1 }
        #expect(count == 0)
    }

    @Test func elementsStayAliveWhenTheirOwnerDropsThemDuringABorrowedScan() {
        let holder = Holder()
        holder.items = [Token(), Token(), Token()]
        weak let last = holder.items[2]
        var aliveWhenVisited: [Bool] = []
        holder.items.scanBorrowed { token in
            // The owner lets every element go: the scanned array value still holds them.
            holder.items = []
            aliveWhenVisited.append(last != nil)
            _ = ObjectIdentifier(token)
        }
        #expect(aliveWhenVisited == [true, true, true])
        #expect(last == nil, "released once the scan is over")
    }

    // MARK: storeOverNil

    final class Slot { var token: Token? }

    @Test func storingOverNilKeepsTheValueAndLeaksNothing() {
        let slot = Slot()
        weak var stored: Token?
        do {
            let t = Token()
            stored = t
            storeOverNil(&slot.token, t)
        }
        #expect(stored != nil, "the slot keeps what was stored")
        #expect(slot.token === stored)
        slot.token = nil
        #expect(stored == nil, "released once the slot lets it go: not retained twice")
        storeOverNil(&slot.token, nil)
        #expect(slot.token == nil)
    }
}
