import Foundation
@testable import SeatKit
import SeededRandom
import Testing

/// Issue 30, goal 8: seeded soaks of random recognizer graphs. Each seed builds a random tree
/// of surfaces, attaches random recognizers of every kind (tap, double tap, long press, pan,
/// swipe, pinch, rotation, screen-edge pan on the output, and a "chaos" recognizer that takes
/// random legal transitions and may follow pointer presses) with random require-to-fail and
/// simultaneous relations, random cancels-touches and delays, then sends random touch and
/// pointer streams with random tree edits, focus changes, cancels and disallow-interception
/// requests, between events and from inside responder and recognizer callbacks. The
/// invariants, checked as events arrive and after a final drain:
///
/// - each touch ends exactly once (ended or cancelled) for every responder that saw it began,
///   and no responder sees a phase of a touch it did not see begin, or a second began;
/// - a recognizer only takes legal transitions (``GestureRecognizerState/canTransition(from:to:)``,
///   resets to possible between gestures);
/// - no touch began, moved or ended and no pointer event is delivered to a surface that is not
///   in the tree (a removed surface hears only the cancels it is owed);
/// - enter and leave pair up per surface; become and resign first responder pair up;
/// - once every finger is up and the clock has run on, nothing is held back, no touch is
///   active and every recognizer is back to possible (delayed touches were delivered or
///   dropped, exactly once);
/// - a recognizer inhibited until cancelled is not recognized while its inhibitor may still
///   begin, is in progress or succeeded;
/// - no crash.
///
/// Beyond touches and buttons, a seed may use pen strokes (`SEATKIT_SOAK_PENS=0`: none),
/// recognizers that follow left-button drags (`SEATKIT_SOAK_POINTER=0`), random gesture masks
/// (`SEATKIT_SOAK_MASKS=0`), and random Mutter relationships and Flutter arena rules
/// (`SEATKIT_SOAK_RELATIONSHIPS=0`).
///
/// The default run is `defaultSeeds` seeds of `defaultSteps` steps. A longer run:
///
///     SEATKIT_SOAK_SEEDS=1000 SEATKIT_SOAK_STEPS=400 SEATKIT_SOAK_FIRST_SEED=1 \
///         swift test -c release -Xswiftc -enable-testing --skip-build --filter GestureGraphSoakTests
///
/// A failing seed prints its first violation and the steps that led to it; rerun one seed with
/// `SEATKIT_SOAK_FIRST_SEED=<seed> SEATKIT_SOAK_SEEDS=1`.
@Suite("Gesture graph soak")
struct GestureGraphSoakTests {
    static let defaultSeeds = 60
    static let defaultSteps = 250

    static func environment(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }

    @Test func randomRecognizerGraphsKeepEveryInvariantUnderTreeEdits() {
        let seeds = Self.environment("SEATKIT_SOAK_SEEDS") ?? Self.defaultSeeds
        let steps = Self.environment("SEATKIT_SOAK_STEPS") ?? Self.defaultSteps
        let first = UInt64(Self.environment("SEATKIT_SOAK_FIRST_SEED") ?? 1)
        let started = ContinuousClock.now
        var failures: [(seed: UInt64, world: GestureGraphWorld)] = []
        var events = 0
        let options = GestureGraphWorld.Options(
            pointerKinds: (Self.environment("SEATKIT_SOAK_POINTER") ?? 1) != 0,
            pens: (Self.environment("SEATKIT_SOAK_PENS") ?? 1) != 0,
            masks: (Self.environment("SEATKIT_SOAK_MASKS") ?? 1) != 0,
            relationships: (Self.environment("SEATKIT_SOAK_RELATIONSHIPS") ?? 1) != 0)
        for seed in first..<(first + UInt64(seeds)) {
            let world = GestureGraphWorld(seed: seed, options: options)
            // SEATKIT_SOAK_TRACE=<name>: the router's trace lines naming it, for one seed.
            let traced = ProcessInfo.processInfo.environment["SEATKIT_SOAK_TRACE"]
            let trace = traced.map { _ in TraceLog() }
            world.router.trace = trace
            world.run(steps: steps)
            if let traced, let trace {
                print(trace.lines.filter { $0.contains(traced) }.suffix(60).joined(separator: "\n"))
            }
            events += world.eventsSent
            if !world.violations.isEmpty { failures.append((seed, world)) }
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("gesture-graph soak: seeds \(first)..<\(first + UInt64(seeds)), \(steps) steps each, \(events) events in \(String(format: "%.2f", seconds)) s, \(failures.count) failing seed(s)")
        for (n, failure) in failures.enumerated() where n < 10 {
            print("=== seed \(failure.seed): \(failure.world.violations.count) violation(s):\n    " + failure.world.violations.prefix(5).joined(separator: "\n    "))
            print("    last steps:\n      " + failure.world.recentSteps.joined(separator: "\n      "))
        }
        if !failures.isEmpty {
            Issue.record("\(failures.count) of \(seeds) seeds broke invariants (first seed \(failures[0].seed): \(failures[0].world.violations[0]))")
        }
    }
}

/// The shared random source of one seed: steps and callbacks draw from it in the order they
/// happen, so a seed repeats exactly.
final class GraphSoakDice {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17) }
    func below(_ n: Int) -> Int { n <= 1 ? 0 : generator.below(n) }
    func chance(_ percent: Int) -> Bool { below(100) < percent }
    func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[below(items.count)] }
    func unit() -> Double { Double(below(1_000_001)) / 1_000_000 }
}

/// One seed's world: the router, its tree, recognizers, the responders' records and the
/// violations found.
final class GestureGraphWorld {
    /// What a run may use beyond touches, buttons and tree edits (each on by default; the
    /// dice are drawn the same either way, so a seed's other steps stay comparable).
    struct Options {
        /// Recognizers may follow left-button drags as touches (`SEATKIT_SOAK_POINTER=0`: never).
        var pointerKinds = true
        /// Pen strokes (proximity, tip down, motion, tip up) and recognizers that refuse pens.
        var pens = true
        /// Random ``GestureMask``s and high-priority recognizers that leave subviews out.
        var masks = true
        /// Random can-not-cancel, recognize-independently and inhibit-until-cancelled
        /// relationships, and random arena rules.
        var relationships = true
    }
    let options: Options
    let seed: UInt64
    let dice: GraphSoakDice
    let clock = VirtualClock()
    let router: Router
    let output: Output
    var surfaces: [Surface] = []
    var recognizers: [GestureRecognizer] = []
    var violations: [String] = []
    var recentSteps: [String] = []
    var eventsSent = 0
    var stepIndex = 0
    private(set) var now: Int64 = 0
    var fingersDown: [Int32: LayoutPoint] = [:]
    var buttonsDown: Set<UInt32> = []
    /// The pen: in proximity, and where its tip is down.
    var penInProximity = false
    var penDown: LayoutPoint?
    var penLocation = LayoutPoint(x: 0, y: 0)
    /// Depth of callbacks under way; edits from inside callbacks are bounded by it.
    var callbackDepth = 0
    var editsThisStep = 0
    private var nextSurface = 0
    let delegate: GraphSoakDelegate

    init(seed: UInt64, options: Options = Options()) {
        self.options = options
        self.seed = seed
        dice = GraphSoakDice(seed: seed)
        router = Router(clock: clock)
        delegate = GraphSoakDelegate()
        router.delegate = delegate
        output = Output(name: "OUT", modeSize: Size(width: 1000, height: 1000))
        router.addOutput(output)
        router.inject(InputEvent(time: .zero, device: DeviceID(1), .deviceAdded(DeviceInfo(
            name: "panel", capabilities: .touch, physicalSize: Size(width: 100, height: 100), mappedOutput: "OUT"))))
        delegate.world = self
        let count = 3 + dice.below(7)
        for _ in 0..<count { _ = addRandomSurface() }
        for _ in 0..<(2 + dice.below(8)) { addRandomRecognizer() }
        if dice.chance(50) { addEdgePan() }
        relateRandomly()
        if options.relationships {
            router.gestureArenaRules = dice.pick([GestureArenaRules.none, .lastRemainingWins, .sweepAtEnd, [.lastRemainingWins, .sweepAtEnd]])!
        }
    }

    func violation(_ text: String) {
        if violations.count < 50 { violations.append("step \(stepIndex): \(text)") }
    }

    func note(_ step: String) {
        recentSteps.append("\(stepIndex): \(step)")
        if recentSteps.count > 40 { recentSteps.removeFirst() }
    }

    // MARK: Tree

    @discardableResult
    func addRandomSurface() -> Surface {
        nextSurface += 1
        let name = "s\(nextSurface)"
        let responder = GraphSoakResponder(name: name, world: self)
        let parent = dice.chance(30) ? output.root : (dice.pick(surfaces.filter(\.isAttached)) ?? output.root)
        let origin = parent.layoutOrigin ?? .zero
        let w = Double(100 + dice.below(600)), h = Double(100 + dice.below(600))
        let x = Double(dice.below(Int(max(1, 1000 - w)))) - origin.x, y = Double(dice.below(Int(max(1, 1000 - h)))) - origin.y
        let surface = Surface(name: name, frame: SurfaceRect(x: x, y: y, width: w, height: h), responder: responder)
        responder.surface = surface
        surface.clipsChildren = dice.chance(20)
        parent.addChild(surface)
        surfaces.append(surface)
        return surface
    }

    func randomRecognizer() -> GestureRecognizer {
        let r: GestureRecognizer
        switch dice.below(12) {
        case 9, 10:
            // A composite of two parts (each checked and able to edit from its targets too):
            // sequenced, exclusive or simultaneous.
            let first = randomPart(), second = randomPart()
            switch dice.below(3) {
            case 0: r = first.sequenced(before: second, name: "sequence")
            case 1: r = first.exclusively(before: second, name: "exclusive")
            default: r = first.simultaneously(with: second, name: "simultaneous")
            }
        case 11: r = basicRecognizer()
        default: r = basicRecognizer()
        }
        r.cancelsTouchesInView = dice.chance(70)
        r.delaysTouchesBegan = dice.chance(25)
        r.delaysTouchesEnded = dice.chance(60)
        if dice.chance(15) { r.isHighPriority = true }
        if dice.chance(20) && options.pointerKinds { r.allowedInputKinds = r.allowedInputKinds.union(.pointer) }
        if dice.chance(15) && options.pens { r.allowedInputKinds = r.allowedInputKinds.subtracting(.pen) }
        if dice.chance(12) && options.masks { r.mask = dice.pick([GestureMask.none, .gesture, .subviews])! }
        if dice.chance(30) {
            let d = GraphSoakRecognizerDelegate(world: self)
            r.delegate = d
            delegate.recognizerDelegates.append(d)
        }
        let checker = GraphTransitionChecker(world: self)
        r.addTarget { checker.saw($0) }
        r.addTarget { [unowned self] _ in self.maybeEditFromCallback("target of \(r.name)") }
        return r
    }

    /// A part of a composite: a built-in recognizer or a chaos one, with a transition checker.
    func randomPart() -> GestureRecognizer {
        let r = basicRecognizer()
        let checker = GraphTransitionChecker(world: self)
        r.addTarget { checker.saw($0) }
        r.addTarget { [unowned self] _ in self.maybeEditFromCallback("target of a part \(r.name)") }
        return r
    }

    func basicRecognizer() -> GestureRecognizer {
        let r: GestureRecognizer
        switch dice.below(9) {
        case 0: r = TapGestureRecognizer(name: "tap", taps: 1, touches: 1 + dice.below(2))
        case 1: r = TapGestureRecognizer(name: "double-tap", taps: 2)
        case 2: r = LongPressGestureRecognizer(name: "long-press", minimumPressDuration: .milliseconds(Int64(100 + dice.below(500))))
        case 3: r = PanGestureRecognizer(name: "pan", minimumTouches: 1 + dice.below(2), minimumDistance: Double(1 + dice.below(5)))
        case 4:
            let directions: [SwipeGestureRecognizer.Direction] = [.left, .right, .up, .down, [.left, .right]]
            r = SwipeGestureRecognizer(name: "swipe", direction: dice.pick(directions)!, touches: 1 + dice.below(2))
        case 5: r = PinchGestureRecognizer(name: "pinch")
        case 6: r = RotationGestureRecognizer(name: "rotation")
        default: r = GraphChaosRecognizer(world: self)
        }
        return r
    }

    func addRandomRecognizer() {
        guard let host = dice.pick(surfaces) else { return }
        let r = randomRecognizer()
        r.name = "\(r.name)#\(recognizers.count)"
        host.addGestureRecognizer(r)
        recognizers.append(r)
    }

    func addEdgePan() {
        let r = ScreenEdgePanGestureRecognizer(name: "edge#\(recognizers.count)", edges: [.left, .top])
        let checker = GraphTransitionChecker(world: self)
        r.addTarget { checker.saw($0) }
        r.addTarget { [unowned self] _ in self.maybeEditFromCallback("target of edge") }
        output.addGestureRecognizer(r)
        recognizers.append(r)
    }

    func relateRandomly() {
        for r in recognizers where dice.chance(30) {
            guard let other = dice.pick(recognizers), other !== r else { continue }
            try? r.require(toFail: other)
        }
        guard options.relationships else { return }
        for r in recognizers where dice.chance(20) {
            guard let other = dice.pick(recognizers), other !== r else { continue }
            switch dice.below(5) {
            case 0, 1: r.cannotCancel(other)
            case 2: r.recognizeIndependently(of: other)
            case 3: try? r.inhibitUntilCancelled(other)
            default: r.removeRelationships(with: other)
            }
        }
    }

    // MARK: Edits

    /// A random edit of the tree, focus, recognizers or touches.
    func randomEdit(_ origin: String) {
        editsThisStep += 1
        let live = surfaces.filter(\.isAttached)
        switch dice.below(15) {
        case 14:
            guard options.masks, let r = dice.pick(recognizers) else { return }
            let mask = dice.pick([GestureMask.all, .none, .gesture, .subviews])!
            note("  edit(\(origin)): mask of \(r.name) \(mask.rawValue)")
            r.mask = mask
        case 0:
            let s = addRandomSurface()
            note("  edit(\(origin)): add \(s.name)")
        case 1, 2:
            guard let s = dice.pick(live) else { return }
            note("  edit(\(origin)): remove \(s.name)")
            s.removeFromParent()
        case 3:
            guard let s = dice.pick(surfaces), let p = dice.pick(live + [output.root]), p !== s, !p.isDescendant(of: s) else { return }
            note("  edit(\(origin)): reparent \(s.name) to \(p.name)")
            p.addChild(s)
        case 4:
            guard let s = dice.pick(live) else { return }
            var f = s.frame
            f.origin.x += Double(dice.below(201) - 100)
            f.origin.y += Double(dice.below(201) - 100)
            note("  edit(\(origin)): move \(s.name)")
            s.frame = f
        case 5:
            guard let s = dice.pick(live) else { return }
            note("  edit(\(origin)): hide \(s.name) \(!s.isHidden)")
            s.isHidden.toggle()
        case 6:
            guard let s = dice.pick(live) else { return }
            note("  edit(\(origin)): focus \(s.name)")
            _ = router.becomeFirstResponder(s)
        case 7:
            note("  edit(\(origin)): resign focus")
            _ = router.resignFirstResponder()
        case 8:
            guard let r = dice.pick(recognizers) else { return }
            note("  edit(\(origin)): detach \(r.name)")
            r.surface?.removeGestureRecognizer(r)
            r.output?.removeGestureRecognizer(r)
        case 9:
            guard let r = dice.pick(recognizers), let s = dice.pick(live) else { return }
            note("  edit(\(origin)): attach \(r.name) to \(s.name)")
            s.addGestureRecognizer(r)
        case 10:
            guard let id = dice.pick(Array(fingersDown.keys).sorted()) else { return }
            note("  edit(\(origin)): cancel t\(id)")
            router.cancelTouches(reason: "soak") { $0.id == TouchID(id) }
        case 11:
            guard let s = dice.pick(live) else { return }
            note("  edit(\(origin)): disallow interception by \(s.name)")
            router.requestDisallowInterception(by: s)
        case 12:
            guard let r = dice.pick(recognizers) else { return }
            note("  edit(\(origin)): enable \(r.name) \(!r.isEnabled)")
            r.isEnabled.toggle()
        default:
            guard let s = dice.pick(live) else { return }
            note("  edit(\(origin)): raise \(s.name)")
            s.parent?.bringToFront(s)
        }
    }

    /// Called at every responder, recognizer and target callback: now and then, an edit.
    func maybeEditFromCallback(_ origin: String) {
        guard callbackDepth < 3, editsThisStep < 4, dice.chance(6) else { return }
        callbackDepth += 1
        randomEdit(origin)
        callbackDepth -= 1
    }

    // MARK: Input

    func send(_ kind: InputEvent.Kind) {
        eventsSent += 1
        router.inject(InputEvent(time: .milliseconds(now), device: DeviceID(1), kind))
    }

    func randomPoint(near: LayoutPoint? = nil) -> LayoutPoint {
        if let near {
            return LayoutPoint(x: min(999, max(0, near.x + Double(dice.below(121) - 60))), y: min(999, max(0, near.y + Double(dice.below(121) - 60))))
        }
        if dice.chance(10) { return LayoutPoint(x: Double(dice.below(8)), y: Double(dice.below(1000))) }
        return LayoutPoint(x: Double(dice.below(1000)), y: Double(dice.below(1000)))
    }

    func step(_ index: Int) {
        editsThisStep = 0
        now += Int64(1 + dice.below(40))
        clock.advance(to: .milliseconds(now))
        switch dice.below(23) {
        case 20, 21, 22:
            guard options.pens else { return }
            penStep()
        case 0, 1, 2:
            // A frame with one or two fingers going down.
            let free = (0..<4).map(Int32.init).filter { fingersDown[$0] == nil }
            guard !free.isEmpty else { return step(index) }
            var kinds: [InputEvent.Kind] = []
            var text = "frame:"
            for _ in 0..<(1 + dice.below(2)) {
                guard let id = dice.pick(free.filter { fingersDown[$0] == nil }) else { break }
                let p = randomPoint()
                fingersDown[id] = p
                kinds.append(.touchDown(TouchID(id), p))
                text += " down t\(id) (\(Int(p.x)),\(Int(p.y)))"
            }
            note(text)
            for k in kinds { send(k) }
            send(.touchFrame)
        case 3...9:
            guard !fingersDown.isEmpty else { return }
            var text = "frame:"
            for id in fingersDown.keys.sorted() where dice.chance(70) {
                let p = randomPoint(near: fingersDown[id])
                fingersDown[id] = p
                text += " move t\(id) (\(Int(p.x)),\(Int(p.y)))"
                send(.touchMotion(TouchID(id), p))
            }
            note(text)
            send(.touchFrame)
        case 10, 11:
            guard let id = dice.pick(fingersDown.keys.sorted()) else { return }
            fingersDown[id] = nil
            var text = "frame: up t\(id)"
            send(.touchUp(TouchID(id)))
            // A reused slot: the same ID down again in the frame that lifted it.
            if dice.chance(15) {
                let p = randomPoint()
                fingersDown[id] = p
                text += " down t\(id) (\(Int(p.x)),\(Int(p.y)))"
                send(.touchDown(TouchID(id), p))
            }
            note(text)
            send(.touchFrame)
        case 12:
            guard let id = dice.pick(fingersDown.keys.sorted()) else { return }
            fingersDown[id] = nil
            note("device cancel t\(id)")
            send(.touchCancel(TouchID(id)))
            send(.touchFrame)
        case 13:
            let p = randomPoint()
            note("pointer to (\(Int(p.x)),\(Int(p.y)))")
            send(.pointerMotionAbsolute(p))
        case 14:
            let button: UInt32 = dice.chance(70) ? 0x110 : 0x111
            if buttonsDown.contains(button) {
                buttonsDown.remove(button)
                note("release \(button)")
                send(.pointerButton(button: button, state: .released))
            } else {
                buttonsDown.insert(button)
                note("press \(button)")
                send(.pointerButton(button: button, state: .pressed))
            }
        case 15:
            let wait = Int64(dice.below(700))
            now += wait
            note("wait \(wait) ms")
            clock.advance(to: .milliseconds(now))
        case 16, 17:
            randomEdit("step")
        case 18:
            if dice.chance(50) { addRandomRecognizer(); note("add recognizer \(recognizers.last!.name)") } else {
                relateRandomly()
                note("relate")
            }
        default:
            guard let s = dice.pick(surfaces.filter(\.isAttached)) else { return }
            note("key to \(s.name)")
            send(.key(keycode: 30, state: .pressed))
            send(.key(keycode: 30, state: .released))
        }
    }

    static let pen = PenTool(kind: .pen, serial: 0x50A4, hardwareID: 0x802, capabilities: [.position, .pressure])

    func sendPen(_ kind: TabletEvent.Kind, _ p: LayoutPoint, value: Double = 0) {
        eventsSent += 1
        router.inject(InputEvent(time: .milliseconds(now), device: DeviceID(2), .tablet(TabletEvent(
            kind: kind, position: p, code: 0, value: value, tool: Self.pen,
            axes: PenAxes(pressure: value > 0 || penDown != nil ? 0.4 : 0), changedAxes: [.position, .pressure]))))
    }

    /// A pen step: in proximity, hover, tip down, stroke motion, tip up, out of proximity.
    func penStep() {
        if !penInProximity {
            let p = randomPoint()
            penInProximity = true
            penLocation = p
            note("pen in (\(Int(p.x)),\(Int(p.y)))")
            sendPen(.toolProximity, p, value: 1)
        } else if let down = penDown {
            if dice.chance(70) {
                let p = randomPoint(near: down)
                penDown = p
                penLocation = p
                note("pen stroke to (\(Int(p.x)),\(Int(p.y)))")
                sendPen(.toolAxis, p)
            } else {
                penDown = nil
                note("pen up")
                sendPen(.toolTip, down, value: 0)
            }
        } else {
            switch dice.below(10) {
            case 0...4:
                let p = randomPoint(near: penLocation)
                penDown = p
                penLocation = p
                note("pen down (\(Int(p.x)),\(Int(p.y)))")
                sendPen(.toolTip, p, value: 1)
            case 5, 6:
                penInProximity = false
                note("pen out")
                sendPen(.toolProximity, penLocation, value: 0)
            default:
                let p = randomPoint(near: penLocation)
                penLocation = p
                note("pen hover (\(Int(p.x)),\(Int(p.y)))")
                sendPen(.toolAxis, p)
            }
        }
    }

    func run(steps: Int) {
        for i in 0..<steps {
            stepIndex = i
            step(i)
        }
        stepIndex = steps
        drain()
    }

    /// Lifts every finger and button and runs the clock on; then nothing may be left.
    func drain() {
        note("drain")
        now += 10
        clock.advance(to: .milliseconds(now))
        for id in fingersDown.keys.sorted() { send(.touchUp(TouchID(id))) }
        fingersDown.removeAll()
        send(.touchFrame)
        for b in buttonsDown.sorted() { send(.pointerButton(button: b, state: .released)) }
        buttonsDown.removeAll()
        if let down = penDown {
            penDown = nil
            sendPen(.toolTip, down, value: 0)
        }
        if penInProximity {
            penInProximity = false
            sendPen(.toolProximity, penLocation, value: 0)
        }
        // Callbacks of the drain may still put fingers down? They cannot (only the world
        // injects); they may cancel, edit and request.
        now += 5000
        clock.advance(to: .milliseconds(now))
        if router.activeTouchCount != 0 { violation("\(router.activeTouchCount) touch(es) still down after the drain") }
        if !router.unchecked.touches.records.isEmpty { violation("\(router.unchecked.touches.records.count) touch record(s) left after the drain") }
        if !router.gestures.unchecked.heldTouches.isEmpty {
            violation("\(router.gestures.unchecked.heldTouches.count) held touch phase(s) never delivered or dropped")
        }
        for r in recognizers where r.state != .possible {
            violation("\(r.name) is \(r.state) after every input ended (touches \(r.touches.map { "t\($0.id.rawValue)@\($0.startTime.microseconds)" }), engaged \(r.unchecked.isEngaged), follows pointer \(r.unchecked.followsPointerOrTouchpad), on \(r.surface?.name ?? r.output?.name ?? "nothing"))")
        }
        for s in surfaces {
            let responder = s.responder as! GraphSoakResponder
            for (key, _) in responder.open {
                violation("\(s.name) saw touch \(key) begin and never heard its end")
            }
            if responder.penStrokeOpen { violation("\(s.name) saw a pen down and never heard its up") }
            if responder.penHandledOpen { violation("\(s.name) handled a pen down for a descendant and never heard its up") }
        }
        for (name, arena) in [("pointer", router.gestures.pointerArena), ("pen", router.gestures.penArena), ("touchpad", router.gestures.touchpadArena)]
        where arena.unchecked.entries.contains(where: \.isCurrent) {
            violation("the \(name) arena still holds recognizers after the drain")
        }
        if router.isInterceptionDisallowed(by: surfaces[0]) || !router.unchecked.touches.disallowedInterceptions.isEmpty {
            violation("an interception request outlived every touch")
        }
    }
}

/// Checks a recognizer's transitions as its first target sees them.
final class GraphTransitionChecker {
    unowned let world: GestureGraphWorld
    var last = GestureRecognizerState.possible
    init(world: GestureGraphWorld) { self.world = world }
    func saw(_ r: GestureRecognizer) {
        let new = r.state
        // Final states are followed by the router's reset, which targets do not see.
        let from: GestureRecognizerState = last.isFinal ? .possible : last
        if !GestureRecognizerState.canTransition(from: from, to: new) {
            world.violation("\(r.name): illegal transition \(last) -> \(new)")
        }
        if ProcessInfo.processInfo.environment["SEATKIT_SOAK_TRACE"] != nil {
            world.note("  \(r.name) -> \(new) (engaged \(r.unchecked.isEngaged), router \(r.router != nil), parts \((r as? ComposedGestureRecognizer).map { "\($0.first.name)=\($0.first.state) \($0.second.name)=\($0.second.state)" } ?? "-"))")
        }
        if (new == .began || new == .recognized) && r.composite == nil && !r.unchecked.isEngaged {
            world.violation("\(r.name) \(new) while following no input")
        }
        // The reference rule of inhibit until cancelled: no recognition while an inhibitor
        // that follows input may still begin, is in progress, ended or was recognized.
        if new == .began || new == .recognized {
            for inhibitor in r.unchecked.composition.relationships.inhibitedBy {
                guard let i = inhibitor.object, i.unchecked.isEngaged, !r.isIndependent(of: i) else { continue }
                let s = i.state
                if s != .failed && s != .cancelled {
                    world.violation("\(r.name) \(new) while \(i.name), which inhibits it until cancelled, is \(s)")
                }
            }
        }
        last = new
    }
}

/// A responder that records what it saw per touch and checks the touch invariants.
final class GraphSoakResponder: Responder {
    let name: String
    unowned let world: GestureGraphWorld
    weak var surface: Surface?
    /// Touches seen begin and not yet ended, by "id@start".
    var open: [String: Bool] = [:]
    var entered = false
    var isFirst = false
    let handlesTouches: Bool

    init(name: String, world: GestureGraphWorld) {
        self.name = name
        self.world = world
        handlesTouches = world.dice.chance(60)
    }

    var canBecomeFirstResponder: Bool { true }

    private func key(_ p: TouchPoint) -> String { "t\(p.id.rawValue)@\(p.startTime.microseconds)" }

    private func attachedCheck(_ what: String) {
        if let surface, !surface.isAttached { world.violation("\(name) (removed) got \(what)") }
    }

    /// The responder asked is this surface's (not an ancestor's walk through us).
    private func mine(_ context: ResponderContext) -> Bool { context.surface === surface }

    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        attachedCheck("touchesBegan")
        for p in event.touches {
            if open[key(p)] != nil { world.violation("\(name) got a second began of \(key(p))") }
            open[key(p)] = true
        }
        if world.dice.chance(5) {
            world.note("  \(name).began: disallow interception")
            context.requestDisallowInterception()
        }
        world.maybeEditFromCallback("\(name).began")
        return handlesTouches ? .handled : .notHandled
    }

    private func follow(_ phase: String, _ event: TouchEvent, context: ResponderContext, ends: Bool) {
        for p in event.touches {
            if open[key(p)] == nil { world.violation("\(name) got \(phase) of \(key(p)) without its began (or after its end)") }
            if ends { open[key(p)] = nil }
        }
    }

    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        attachedCheck("touchesMoved")
        follow("moved", event, context: context, ends: false)
        world.maybeEditFromCallback("\(name).moved")
        return handlesTouches ? .handled : .notHandled
    }

    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        attachedCheck("touchesEnded")
        follow("ended", event, context: context, ends: true)
        world.maybeEditFromCallback("\(name).ended")
        return handlesTouches ? .handled : .notHandled
    }

    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {
        guard mine(context) else { return }
        follow("cancelled", event, context: context, ends: true)
        world.maybeEditFromCallback("\(name).cancelled")
    }

    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {
        guard mine(context) else { return }
        attachedCheck("pointerEntered")
        if entered { world.violation("\(name) entered twice") }
        entered = true
        world.maybeEditFromCallback("\(name).enter")
    }

    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
        guard mine(context) else { return }
        if !entered { world.violation("\(name) left without an enter") }
        entered = false
        world.maybeEditFromCallback("\(name).leave")
    }

    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        attachedCheck("pointerMoved")
        return .notHandled
    }

    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        // A removed focus is owed a cancelled release of each press it saw (removing tells).
        if !event.isCancelled { attachedCheck("pointerButton") }
        world.maybeEditFromCallback("\(name).button")
        return handlesTouches ? .handled : .notHandled
    }

    /// A pen stroke bound to this surface, seen down here and not yet up.
    var penStrokeOpen = false
    /// A pen stroke bound to a descendant whose down this surface handled (up the chain), not
    /// yet up: the handler is owed the stroke's end as the stroke's surface is (a cancelled
    /// up when the stroke stops short).
    var penHandledOpen = false

    func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        attachedCheck("penDown")
        guard context.target === surface else {
            if handlesTouches {
                if penHandledOpen { world.violation("\(name) handled a second pen down") }
                world.note("  \(name).penDown (handled for \(context.target?.name ?? "nothing"))")
                penHandledOpen = true
                world.maybeEditFromCallback("\(name).penDown")
            }
            return handlesTouches ? .handled : .notHandled
        }
        if penStrokeOpen { world.violation("\(name) got a second pen down") }
        world.note("  \(name).penDown")
        penStrokeOpen = true
        world.maybeEditFromCallback("\(name).penDown")
        return handlesTouches ? .handled : .notHandled
    }

    func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        attachedCheck("penMoved")
        if event.isInContact && context.target === surface && !penStrokeOpen { world.violation("\(name) got stroke motion without its pen down") }
        return handlesTouches ? .handled : .notHandled
    }

    func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        if !event.isCancelled { attachedCheck("penUp") }
        guard context.target === surface else {
            // An up walking a chain the stroke's surface moved into may reach a handler
            // that never saw the down; a cancelled one is only for the down's handler.
            if event.isCancelled && !penHandledOpen { world.violation("\(name) got a cancelled pen up it handled no down of") }
            if penHandledOpen && handlesTouches {
                world.note("  \(name).penUp\(event.isCancelled ? " (cancelled)" : "") (handled)")
                penHandledOpen = false
                world.maybeEditFromCallback("\(name).penUp")
            }
            return handlesTouches ? .handled : .notHandled
        }
        if !penStrokeOpen { world.violation("\(name) got a pen up without its down") }
        world.note("  \(name).penUp\(event.isCancelled ? " (cancelled)" : "")")
        penStrokeOpen = false
        world.maybeEditFromCallback("\(name).penUp")
        return handlesTouches ? .handled : .notHandled
    }

    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        guard mine(context) else { return .notHandled }
        attachedCheck("keyDown")
        return .notHandled
    }

    func didBecomeFirstResponder(context: ResponderContext) {
        if isFirst { world.violation("\(name) became first responder twice") }
        isFirst = true
        world.maybeEditFromCallback("\(name).become")
    }

    func didResignFirstResponder(context: ResponderContext) {
        if !isFirst { world.violation("\(name) resigned without becoming first responder") }
        isFirst = false
        world.maybeEditFromCallback("\(name).resign")
    }
}

/// Decides simultaneity and begin by the dice, once per pair and recognizer (a delegate
/// that changes its answer mid-gesture is legal, but not what this soak pins).
final class GraphSoakRecognizerDelegate: GestureRecognizerDelegate {
    unowned let world: GestureGraphWorld
    let simultaneous: Bool
    let refusesBegin: Bool
    init(world: GestureGraphWorld) {
        self.world = world
        simultaneous = world.dice.chance(50)
        refusesBegin = world.dice.chance(10)
    }
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { !refusesBegin }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool { simultaneous }
}

/// A recognizer that takes random legal transitions from its touch and pointer callbacks.
final class GraphChaosRecognizer: GestureRecognizer {
    unowned let world: GestureGraphWorld
    let followsPointer: Bool
    init(world: GestureGraphWorld) {
        self.world = world
        followsPointer = world.dice.chance(50)
        super.init(name: "chaos")
    }
    override var receivesPointerEvents: Bool { followsPointer }

    private func act(_ origin: String) {
        let dice = world.dice
        switch state {
        case .possible:
            switch dice.below(10) {
            case 0: state = .began
            case 1: state = .recognized
            case 2: state = .failed
            default: break
            }
        case .began, .changed:
            switch dice.below(10) {
            case 0: state = .ended
            case 1: state = .cancelled
            case 2...5: state = .changed
            default: break
            }
        default: break
        }
        world.maybeEditFromCallback("\(name).\(origin)")
    }

    override func touchesBegan(_ event: TouchEvent) { act("began") }
    override func touchesMoved(_ event: TouchEvent) { act("moved") }
    override func touchesEnded(_ event: TouchEvent) {
        act("ended")
        if touches.count == event.touches.count {
            if state.isInProgress { state = .ended } else { failIfPossible() }
        }
    }
    override func gestureArenaWon() { act("won") }
    override func pointerButton(_ event: PointerButtonEvent) { act("button") }
    override func pointerMoved(_ event: PointerMotionEvent) { act("pointer") }
}

/// The compositor delegate: checks nothing of its own, and lets focus fall back to the former
/// parent when it is attached.
final class GraphSoakDelegate: CompositorDelegate {
    weak var world: GestureGraphWorld?
    var recognizerDelegates: [GraphSoakRecognizerDelegate] = []
    func canPerform(_ action: Action) -> Bool { true }
    func perform(_ action: Action, context: ResponderContext) {}
}
