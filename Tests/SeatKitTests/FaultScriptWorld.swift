import Foundation
// `@testable` only to re-read the router's focus history after a callback moved focus
// during a removal (the model cannot follow those); every check is on public state.
@testable import SeatKit

/// One broken invariant: its name (the letter of issue 12's proof list, then a short name),
/// what happened, and the step after (or during) which it was seen.
struct SoakViolation: Equatable, CustomStringConvertible {
    var invariant: String
    var message: String
    var step: Int
    var description: String { "[\(invariant)] at step \(step): \(message)" }
}

/// A touch instance: a finger ID and the time it went down (IDs are reused).
struct TouchInstance: Hashable, CustomStringConvertible {
    var id: Int32
    var start: Int64
    var description: String { "t\(id)@\(start / 1000)ms" }
}

/// What one responder saw of one touch instance.
struct SeenTouch {
    var sawBegan = false
    /// Seen as the responder of the surface the touch is bound to (`context.target`).
    var bound = false
    /// Ended or cancelled.
    var terminal = false
}

/// The responder of every surface and root in the soak: checks each call as it comes
/// against what this responder was told before, then runs an armed step if one waits for
/// this call.
final class SoakResponder: Responder {
    unowned let world: FaultScriptWorld
    /// The script's surface index, or `-(o + 1)` for output `o`'s root.
    let index: Int
    let focusable: Bool
    weak var surface: Surface?
    var entered = false
    var became = false
    var enterCount = 0, leaveCount = 0, becomeCount = 0, resignCount = 0
    var touches: [TouchInstance: SeenTouch] = [:]

    init(world: FaultScriptWorld, index: Int, focusable: Bool) {
        self.world = world
        self.index = index
        self.focusable = focusable
    }

    var name: String { index >= 0 ? "s\(index)" : "root\(-index - 1)" }

    private func fire(_ callback: FaultScript.Callback) {
        if index >= 0 { world.fire(.surface(index, callback)) }
    }

    private func touchPhase(_ phase: FaultScript.Callback, _ event: TouchEvent, _ context: ResponderContext) {
        if phase != .cancelled {
            world.expectDeliverable(self, "touches\(phase.rawValue)")
            world.grabCheck(self, .touch, "touches\(phase.rawValue)", target: context.target)
        }
        let bound = context.target != nil && context.target === context.surface
        for point in event.touches {
            let key = TouchInstance(id: point.id.rawValue, start: point.startTime.microseconds)
            if let f = world.fingers[key.id], f.key == key, !f.routed {
                world.fail("j.unrouted-touch-delivered", "\(name) got touches\(phase.rawValue) of \(key), whose down a filter or a grab took")
            }
            var seen = touches[key] ?? SeenTouch()
            if seen.terminal {
                world.fail("d.event-after-end", "\(name) got touches\(phase.rawValue) of \(key) after its ended or cancelled")
            }
            if bound { seen.bound = true }
            switch phase {
            case .began:
                if seen.sawBegan { world.fail("d.began-twice", "\(name) got touchesBegan twice for \(key)") }
                seen.sawBegan = true
            case .moved, .ended:
                if bound && !seen.sawBegan {
                    world.fail("d.phase-before-began", "\(name) (bound) got touches\(phase.rawValue) of \(key) before its touchesBegan")
                } else if !seen.sawBegan && !seen.terminal {
                    world.fail(phase == .ended ? "d.end-without-began" : "d.moved-without-began",
                               "\(name) got touches\(phase.rawValue) of \(key), whose touchesBegan it never got")
                }
            case .cancelled:
                if !seen.sawBegan && !seen.terminal {
                    world.fail("d.end-without-began", "\(name) got touchesCancelled of \(key), whose touchesBegan it never got")
                }
            default: break
            }
            // The bound surface's responder gets each point in the surface's space as it is at
            // the call (a surface moved while its touch was held by a recognizer included).
            if bound, phase != .cancelled, let target = context.target, world.isLive(target),
               let origin = target.layoutOrigin {
                let dx = point.location.x - origin.x - point.surfaceLocation.x
                let dy = point.location.y - origin.y - point.surfaceLocation.y
                if abs(dx) > 1e-6 || abs(dy) > 1e-6 {
                    world.fail("d.stale-surface-point", "\(name) got touches\(phase.rawValue) of \(key) at \(point.surfaceLocation) in its space, but the finger is at \(point.location), \(point.location.x - origin.x),\(point.location.y - origin.y) in its space now")
                }
            }
            if phase == .ended || phase == .cancelled { seen.terminal = true }
            if phase == .cancelled, world.moving.contains(ObjectIdentifier(self)) {
                world.fail("f.move-cancelled-touch", "\(name) got touchesCancelled for \(key) while its subtree was moved, not removed")
            }
            touches[key] = seen
            if phase == .began && bound { world.checkReuseOrder(key) }
        }
        fire(phase)
    }

    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        touchPhase(.began, event, context)
        return .notHandled
    }
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        touchPhase(.moved, event, context)
        return .notHandled
    }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        touchPhase(.ended, event, context)
        return .notHandled
    }
    func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {
        touchPhase(.cancelled, event, context)
    }

    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {
        world.expectDeliverable(self, "pointerEntered")
        if entered { world.fail("b.enter-twice", "\(name) got pointerEntered while entered (no pointerLeft between)") }
        if let other = world.allResponders.first(where: { $0 !== self && $0.entered }) {
            world.fail("b.two-entered", "\(name) got pointerEntered while \(other.name) is still entered")
        }
        world.grabCheck(self, .pointer, "pointerEntered", target: surface)
        entered = true
        enterCount += 1
        buttonsAsFocus.removeAll()
        if world.moving.contains(ObjectIdentifier(self)) { world.movedEntered.insert(ObjectIdentifier(self)) }
        fire(.entered)
    }
    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
        if !entered { world.fail("b.leave-without-enter", "\(name) got pointerLeft without pointerEntered") }
        entered = false
        leaveCount += 1
        if world.moving.contains(ObjectIdentifier(self)) { world.movedLeft.insert(ObjectIdentifier(self)) }
        fire(.left)
    }
    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
        world.expectDeliverable(self, "pointerMoved")
        world.grabCheck(self, .pointer, "pointerMoved", target: context.target)
        return .notHandled
    }
    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        if event.isCancelled {
            // Owed on removal or when a grab takes the pointer: only to the entered surface,
            // only for a button it saw pressed.
            if !entered || !buttonsDown.contains(event.button) {
                world.fail("g.cancelled-button-not-pressed", "\(name) got a cancelled release of \(event.button) it never saw pressed while entered")
            }
            buttonsDown.remove(event.button)
            buttonsAsFocus.remove(event.button)
            return .notHandled
        }
        world.expectDeliverable(self, "pointerButton")
        world.grabCheck(self, .pointer, "pointerButton", target: context.target)
        world.buttonDeliveries += 1
        if event.state == .pressed {
            buttonsDown.insert(event.button)
            if entered && context.target === surface { buttonsAsFocus.insert(event.button) }
        } else {
            buttonsDown.remove(event.button)
            buttonsAsFocus.remove(event.button)
        }
        return .notHandled
    }
    func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult {
        world.expectDeliverable(self, "pointerAxis")
        world.grabCheck(self, .pointer, "pointerAxis", target: context.target)
        return .notHandled
    }
    func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult {
        world.expectDeliverable(self, "touchpadGesture")
        world.grabCheck(self, .pointer, "touchpadGesture", target: context.target)
        return .notHandled
    }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        world.expectDeliverable(self, "keyDown")
        world.grabCheck(self, .keyboard, "keyDown", target: context.target)
        if event.state == .pressed {
            keysDown.insert(event.keycode)
            if became && context.target === surface { keysAsFirst.insert(event.keycode) }
        }
        fire(.keyDown)
        return .notHandled
    }
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        // Every press has exactly one release: a real release reaches the first responder
        // only for a key it saw pressed (or an enter listed) and has not heard released.
        if !event.isCancelled, context.target === surface, surface != nil, !keysDown.contains(event.keycode) {
            world.fail("k.release-without-press", "\(name) got a release of key \(event.keycode) as first responder without its press (or got it twice)")
        }
        if event.isCancelled {
            // Owed on removal or when a keyboard grab starts: only to the first responder,
            // only for a key it saw pressed.
            if !became || !keysDown.contains(event.keycode) {
                world.fail("g.cancelled-key-not-pressed", "\(name) got a cancelled release of key \(event.keycode) it never saw pressed as first responder")
            }
            keysDown.remove(event.keycode)
            keysAsFirst.remove(event.keycode)
            return .notHandled
        }
        world.expectDeliverable(self, "keyUp")
        world.grabCheck(self, .keyboard, "keyUp", target: context.target)
        keysDown.remove(event.keycode)
        keysAsFirst.remove(event.keycode)
        return .notHandled
    }

    /// Keys and buttons this responder saw pressed and not yet released.
    var keysDown: Set<UInt32> = []
    var buttonsDown: Set<UInt32> = []
    /// Keys pressed while this responder was first responder (the press's target), and
    /// buttons pressed while it was the entered pointer focus: what it is owed cancelled
    /// releases of when it is removed or a grab takes the device.
    var keysAsFirst: Set<UInt32> = []
    var buttonsAsFocus: Set<UInt32> = []

    var canBecomeFirstResponder: Bool { focusable }

    func didBecomeFirstResponder(context: ResponderContext) {
        if became { world.fail("c.become-twice", "\(name) got didBecomeFirstResponder twice without didResign") }
        if let other = world.allResponders.first(where: { $0 !== self && $0.became }) {
            world.fail("c.two-first-responders", "\(name) got didBecomeFirstResponder while \(other.name) has not resigned")
        }
        if let surface, !world.isLive(surface) {
            world.fail("c.become-while-removed", "\(name) became first responder while not in the layout (removed surface or output)")
        }
        became = true
        becomeCount += 1
        // As wl_keyboard.enter: the keys held for focus are now this responder's, and their
        // releases (real or cancelled) come to it.
        let listed = context.router.heldKeysForFocus
        keysDown.formUnion(listed)
        keysAsFirst = Set(listed)
        fire(.become)
    }
    func didResignFirstResponder(context: ResponderContext) {
        if !became { world.fail("c.resign-without-become", "\(name) got didResignFirstResponder without didBecome") }
        if world.moving.contains(ObjectIdentifier(self)) {
            world.fail("f.move-resigned", "\(name) resigned first responder while its subtree was moved, not removed")
        }
        became = false
        resignCount += 1
        world.focusResigned(self)
        fire(.resign)
    }

    func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
        fire(.refine)
        return true
    }
}

/// The compositor delegate: the default focus rule, nothing recorded.
final class SoakDelegate: CompositorDelegate {}

/// A filter that consumes one kind of event while installed.
final class SoakFilter: InputFilter {
    let kind: FaultScript.FilterKind
    init(kind: FaultScript.FilterKind) { self.kind = kind }

    func takes(_ event: InputEvent) -> Bool {
        switch event.kind {
        case .touchDown, .touchMotion, .touchUp: return kind == .touch || kind == .all
        case .pointerMotion, .pointerMotionAbsolute, .pointerButton, .pointerAxis, .touchpadGesture:
            return kind == .pointer || kind == .all
        case .key: return kind == .keys || kind == .all
        default: return false
        }
    }

    func filter(_ event: InputEvent, router: Router) -> FilterDecision { takes(event) ? .consume : .pass }
}

/// A lock screen: takes every class it is started for and forwards nothing.
/// A keyboard grab that forwards every key to the first responder's chain, or none.
final class SoakKeyboardGrab: KeyboardGrab {
    let forwards: Bool
    init(forwards: Bool) { self.forwards = forwards }
    func key(_ event: KeyEvent, router: Router) { if forwards { router.deliverKey(event) } }
}

final class SoakLockGrab: PointerGrab, TouchGrab, KeyboardGrab {
    var cancels = 0
    func cancel(router: Router) { cancels += 1 }
    func pointerMoved(_ event: PointerMotionEvent, router: Router) {}
    func pointerButton(_ event: PointerButtonEvent, router: Router) {}
    func pointerAxis(_ event: PointerAxisEvent, router: Router) {}
    func touchpadGesture(_ event: TouchpadGestureEvent, router: Router) {}
    func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, router: Router) {}
    func touchMoved(_ event: InputEvent, id: TouchID, to point: LayoutPoint, router: Router) {}
    func touchUp(_ event: InputEvent, id: TouchID, router: Router) {}
    func touchCancelled(_ event: InputEvent, id: TouchID, router: Router) {}
    func touchFrame(_ event: InputEvent, router: Router) {}
    func key(_ event: KeyEvent, router: Router) {}
}

/// A popup grab the script started, and how often its dismiss handler ran.
final class SoakPopup {
    let index: Int
    let closes: Bool
    var grab: PopupGrab!
    var dismissCount = 0
    /// It was stacked on its parent's grab when it started (not a grab of its own).
    var nested = false
    /// Its end was checked (dismissed exactly once).
    var endChecked = false
    init(index: Int, closes: Bool) {
        self.index = index
        self.closes = closes
    }
}

/// A router, its tree and the reference model, driven by fault-script steps.
final class FaultScriptWorld {
    enum FingerState { case live, cancelled, uncertain }

    /// A finger the script holds down.
    struct Finger {
        var key: TouchInstance
        /// No filter took its down.
        var routed: Bool
        var state: FingerState
        var bound: Surface?
        var output: Output?
        /// The down has reached the router (a callback inside its hit-test runs before).
        var injected = false
        var device: Int32 = 1
    }

    enum GrabClass: String { case pointer, touch, keyboard }

    /// Something a removed surface's responder is owed (invariant g).
    enum Owed {
        case leave(SoakResponder, before: Int, String)
        case resign(SoakResponder, before: Int)
        case cancel(SoakResponder, TouchInstance, String)
        /// Cancelled releases of these buttons (keys) still held.
        case buttons(SoakResponder, Set<UInt32>, String)
        case keys(SoakResponder, Set<UInt32>, String)
    }

    let clock = VirtualClock()
    let router: Router
    let delegate = SoakDelegate()
    var outputs: [Output?] = Array(repeating: nil, count: FaultScript.outputCount)
    var retiredOutputs: [Output] = []
    var rootResponders: [SoakResponder] = []
    var surfaces: [Surface?] = Array(repeating: nil, count: FaultScript.surfaceCount)
    var surfaceResponders: [SoakResponder] = []
    var recognizers: [GestureRecognizer?] = Array(repeating: nil, count: FaultScript.recognizerCount)
    var allRecognizers: [GestureRecognizer] = []
    var filters: [SoakFilter?] = Array(repeating: nil, count: FaultScript.filterCount)
    var arms: [FaultScript.ArmSite: FaultScript.Step] = [:]
    var fingers: [Int32: Finger] = [:]
    var upSent: Set<TouchInstance> = []
    /// Fingers lifted in the touch frame being sent: a recognizer may still use where they
    /// were for the other fingers' motion of the same frame.
    var liftedThisFrame: Set<TouchInstance> = []
    /// Touch frames sent, and the frame in which each instance went down and up.
    var frameCount = 0
    var downFrame: [TouchInstance: Int] = [:]
    var upFrame: [TouchInstance: Int] = [:]
    var lastAllUp: Int64 = 0
    var owed: [Owed] = []
    /// Responders of a subtree being moved (reparent, restack), and what they were told.
    var moving: Set<ObjectIdentifier> = []
    var movedLeft: Set<ObjectIdentifier> = []
    var movedEntered: Set<ObjectIdentifier> = []

    // Grabs, devices, focus history (the API issue 12 added).
    let lock = SoakLockGrab()
    /// The keyboard grabs of `.keyboardGrab` steps, one per kind.
    let keyboardGrabs: [FaultScript.KeyGrabKind: SoakKeyboardGrab] = Dictionary(uniqueKeysWithValues:
        FaultScript.KeyGrabKind.allCases.map { ($0, SoakKeyboardGrab(forwards: $0 == .forwardKeep || $0 == .forwardClear)) })
    var popups: [SoakPopup] = []
    /// The inject serial at which the current grab of each class started: events injected
    /// later must not reach responders past it.
    var grabSince: [GrabClass: Int] = [:]
    var injectSerial = 0
    var injectStack: [Int] = []
    var lastTouchGrab: ObjectIdentifier?
    var buttonDeliveries = 0
    /// Keys and buttons physically held (the script's presses and releases).
    var keysHeld: Set<UInt32> = []
    var buttonsHeld: Set<UInt32> = []
    /// Each touch device's mapped output name.
    var deviceMap: [Int32: String?] = [:]
    /// The model of the router's focus history: former first responders, oldest first.
    var focusHistory: [Surface] = []
    /// Set while the script asks for a focus change (a resignation then is remembered);
    /// cleared while it removes (a removed first responder is not).
    var explicitFocus = false

    /// Event time in milliseconds.
    var time: Int64 = 0
    var depth = 0
    var armsFired = 0
    var checking = false
    var stepIndex = 0
    var violation: SoakViolation?

    /// Every responder, roots and surfaces.
    var allResponders: [SoakResponder] { rootResponders + surfaceResponders }

    init() {
        router = Router(clock: clock)
        router.delegate = delegate
    }

    deinit {
        arms.removeAll()
    }

    // MARK: Running

    /// Runs `script`; returns the first violation, if any.
    static func run(_ script: [FaultScript.Step], only: String? = nil) -> SoakViolation? {
        let world = FaultScriptWorld()
        world.only = only
        return world.run(script)
    }

    /// Runs all of `script`; returns the first violation of each invariant broken.
    static func runCollectingAll(_ script: [FaultScript.Step], ignoring: [String] = []) -> [SoakViolation] {
        let world = FaultScriptWorld()
        world.collectAll = true
        world.ignored += ignoring
        _ = world.run(script)
        return world.violations.values.sorted { $0.step < $1.step }
    }

    func run(_ script: [FaultScript.Step]) -> SoakViolation? {
        for (i, step) in script.enumerated() {
            stepIndex = i
            let armsBefore = armsFired
            perform(step)
            syncTouchGrab()
            if armsFired != armsBefore {
                // A callback may have moved focus or removed surfaces: the model's history
                // follows the router's from here.
                focusHistory = router.unchecked.keyboard.history.compactMap(\.surface)
            }
            checkAfterStep(step, armsFiredDuring: armsFired - armsBefore)
            if violation != nil && !collectAll { break }
        }
        arms.removeAll()
        return violation
    }

    /// Invariants not reported (SEATKIT_SOAK_IGNORE, comma-separated prefixes): to look past
    /// a known failure for the next one.
    var ignored: [String] = FaultScriptWorld.ignoredFromEnvironment

    static let ignoredFromEnvironment: [String] = {
        guard let value = getenv("SEATKIT_SOAK_IGNORE") else { return [] }
        return String(cString: value).split(separator: ",").map(String.init)
    }()

    /// Only this invariant is reported (shrinking looks for one invariant, past others).
    var only: String?
    /// Keep running after a violation, recording the first violation of each invariant.
    var collectAll = false
    /// The first violation of each invariant, when `collectAll` is set.
    var violations: [String: SoakViolation] = [:]

    func fail(_ invariant: String, _ message: String) {
        if ignored.contains(where: { invariant.hasPrefix($0) }) { return }
        if let only, only != invariant { return }
        if collectAll && violations[invariant] == nil {
            violations[invariant] = SoakViolation(invariant: invariant, message: message, step: stepIndex)
        }
        if violation == nil { violation = SoakViolation(invariant: invariant, message: message, step: stepIndex) }
    }

    func fire(_ site: FaultScript.ArmSite) {
        guard !checking, depth < 6, let step = arms.removeValue(forKey: site) else { return }
        depth += 1
        armsFired += 1
        perform(step)
        depth -= 1
    }

    // MARK: Lookups

    func isInLayout(_ output: Output?) -> Bool {
        guard let output else { return false }
        return router.layout.outputs.contains { $0 === output }
    }

    /// Attached to an output that is in the layout.
    func isLive(_ surface: Surface) -> Bool {
        surface.isAttached && isInLayout(surface.output)
    }

    func surface(_ parent: FaultScript.Parent) -> Surface? {
        switch parent {
        case .root(let o): return o < outputs.count ? outputs[o]?.root : nil
        case .surface(let s): return s < surfaces.count ? surfaces[s] : nil
        }
    }

    func responder(of surface: Surface) -> SoakResponder? { surface.responder as? SoakResponder }

    func subtree(_ surface: Surface) -> [Surface] {
        var result: [Surface] = []
        var stack = [surface]
        while let s = stack.popLast(), result.count < 1000 {
            result.append(s)
            stack.append(contentsOf: s.children)
        }
        return result
    }

    func filterTakes(_ event: InputEvent) -> Bool {
        filters.contains { $0?.takes(event) == true }
    }

    func expectDeliverable(_ responder: SoakResponder, _ what: String) {
        guard let surface = responder.surface else { return }
        if !isLive(surface) {
            if responder.index < 0 && (what == "keyDown" || what == "keyUp") {
                fail("c.key-to-removed-output-root", "\(what) delivered to \(responder.name), the root of a removed output")
            } else {
                fail("h.event-to-detached", "\(what) delivered to \(responder.name), which is not in the layout")
            }
        }
    }

    func checkReuseOrder(_ key: TouchInstance) {
        for r in allResponders {
            for (other, seen) in r.touches where other.id == key.id && other.start < key.start && seen.bound && !seen.terminal {
                if let up = upFrame[other], up == downFrame[key] {
                    fail("d.reuse-order", "touchesBegan of \(key) came before \(r.name) got the end of \(other) (same ID up and down in one frame)")
                } else {
                    // The old touch's end is held back (a recognizer's delaysTouchesEnded)
                    // while the ID is reused in a later frame: a Wayland client would see
                    // a second down for an ID it still holds.
                    fail("d.reuse-order-held", "touchesBegan of \(key) came before \(r.name) got the end of \(other), lifted in an earlier frame (same ID reused)")
                }
            }
        }
    }

    // MARK: Events

    /// The time of the next event: timers due by then fire first (at the top level only:
    /// a real event loop never runs timers from inside a callback).
    func nextTime() -> Int64 {
        if depth == 0 { clock.advance(to: .milliseconds(time + 1)) }
        time += 1
        return time
    }

    func inject(_ kind: InputEvent.Kind) {
        inject(kind, at: nextTime())
    }

    func inject(_ kind: InputEvent.Kind, at t: Int64, device: Int32 = 1) {
        injectSerial += 1
        injectStack.append(injectSerial)
        router.inject(InputEvent(time: .milliseconds(t), device: DeviceID(UInt32(device)), kind))
        injectStack.removeLast()
        syncTouchGrab()
    }

    // MARK: Grabs

    /// Every change of touch grab (start, end, replacement) cancels every routed touch.
    func syncTouchGrab() {
        let now = router.touchGrab.map { ObjectIdentifier($0) }
        guard now != lastTouchGrab else { return }
        lastTouchGrab = now
        for (id, f) in fingers where f.injected { setFingerState(id, .cancelled) }
    }

    /// A grab holds `cls`: an event injected after it started reaches no responder (lock
    /// screen), or only the popup's subtree as its target (popup).
    func grabCheck(_ r: SoakResponder, _ cls: GrabClass, _ what: String, target: Surface?) {
        let grab: AnyObject?
        switch cls {
        case .pointer: grab = router.pointerGrab
        case .touch: grab = router.touchGrab
        case .keyboard: grab = router.keyboardGrab
        }
        guard let grab else { return }
        let serial = injectStack.last ?? Int.max
        guard serial > grabSince[cls] ?? Int.max else { return }
        if grab === lock {
            fail("j.lock-\(cls.rawValue)-delivered", "\(what) reached \(r.name) while the lock screen holds \(cls.rawValue) input")
        } else if let popup = grab as? PopupGrab, !popup.contains(target ?? r.surface) {
            fail("j.popup-outside-\(cls.rawValue)", "\(what) reached \(r.name) (target \(target?.name ?? "nil")) outside the popup \(popup.popup.name) while its grab holds \(cls.rawValue) input")
        }
    }

    /// Before a grab of these classes starts: what the old targets are owed.
    func noteGrabStart(pointer: Bool, touch: Bool, keyboard: Bool) {
        if pointer {
            grabSince[.pointer] = injectSerial
            for r in allResponders where r.entered {
                owed.append(.leave(r, before: r.leaveCount, "j.grab-no-leave"))
                let held = r.buttonsAsFocus.intersection(buttonsHeld)
                if !held.isEmpty { owed.append(.buttons(r, held, "j.grab-no-cancelled-button")) }
            }
        }
        if touch {
            grabSince[.touch] = injectSerial
            for r in allResponders {
                for (key, seen) in r.touches where !seen.terminal {
                    if let f = fingers[key.id], f.key == key, f.routed, f.injected, f.state == .live {
                        owed.append(.cancel(r, key, "j.grab-no-cancel"))
                    }
                }
            }
            // Starting a touch grab cancels every routed finger, even if a callback inside
            // the start ends the grab again before `syncTouchGrab` can see it.
            for (id, f) in fingers where f.injected { setFingerState(id, .cancelled) }
        }
        if keyboard {
            grabSince[.keyboard] = injectSerial
            if let first = router.firstResponder, let r = responder(of: first), r.became {
                let held = r.keysAsFirst.intersection(keysHeld)
                if !held.isEmpty { owed.append(.keys(r, held, "j.grab-no-cancelled-key")) }
            }
        }
    }

    func popupHolding(pointer: Bool) -> SoakPopup? {
        popups.last { pointer ? router.pointerGrab === $0.grab : router.touchGrab === $0.grab }
    }

    func dismissed(_ popup: SoakPopup) {
        popup.dismissCount += 1
        // Innermost first: a grab nested in this one was dismissed before it.
        if let child = popups.first(where: { $0.nested && $0.grab.parent === popup.grab && $0.dismissCount == 0 }) {
            fail("j.popup-parent-before-child", "s\(popup.index)'s popup grab was dismissed before s\(child.index)'s, nested in it")
        }
        if popup.dismissCount > 1 {
            fail("j.dismiss-twice", "the dismiss handler of the popup grab of s\(popup.index) ran \(popup.dismissCount) times")
        }
        // A compositor closes the popup from inside its dismiss handler.
        if popup.closes, depth < 6 {
            depth += 1
            armsFired += 1
            perform(.remove(popup.index))
            depth -= 1
        }
    }

    // MARK: Devices

    /// The output device `device` is mapped to, if it is in the layout.
    func mappedOutput(_ device: Int32) -> Output? {
        guard let entry = deviceMap[device], let name = entry else { return nil }
        return router.layout.output(named: name)
    }

    // MARK: Focus history

    func focusResigned(_ r: SoakResponder) {
        guard explicitFocus, let s = r.surface else { return }
        focusHistory.removeAll { $0 === s }
        focusHistory.append(s)
        if focusHistory.count > 32 { focusHistory.removeFirst(focusHistory.count - 32) }
    }

    /// Where focus goes when the first responder is removed: the most recent former first
    /// responder that can take it (those that cannot are dropped), else the default
    /// delegate rule, from the removed subtree's former parent up.
    func expectedFocusAfterRemoval(formerParent: Surface?) -> Surface? {
        while let last = focusHistory.popLast() {
            if last.isAttached && last.responder.canBecomeFirstResponder { return last }
        }
        var node = formerParent
        while let current = node {
            if current.isAttached && current.responder.canBecomeFirstResponder { return current }
            node = current.parent
        }
        return nil
    }

    /// Runs a removal at the top level and checks where focus went (invariant c.focus-history).
    func removing(formerParent: Surface?, _ body: () -> Void) {
        let before = router.firstResponder
        let armsBefore = armsFired
        let saved = explicitFocus
        explicitFocus = false
        body()
        explicitFocus = saved
        guard depth == 0, let before, !isLive(before) else { return }
        guard armsFired == armsBefore else { return }
        let expected = expectedFocusAfterRemoval(formerParent: formerParent)
        if router.firstResponder !== expected {
            fail("c.focus-history", "\(before.name) (first responder) was removed; focus went to \(router.firstResponder?.name ?? "nil"), the history and the default rule say \(expected?.name ?? "nil")")
        }
    }

    func setFingerState(_ id: Int32, _ state: FingerState) {
        guard var f = fingers[id], f.routed, f.state != .cancelled else { return }
        if state == .uncertain && f.state != .live { return }
        f.state = state
        fingers[id] = f
    }

    /// After a removal: the fingers whose surface or output left the layout are cancelled.
    func fingersAfterRemoval() {
        for (id, f) in fingers where f.routed && f.state != .cancelled && f.injected {
            if let bound = f.bound {
                if !isLive(bound) {
                    setFingerState(id, .cancelled)
                } else if !isInLayout(f.output) {
                    setFingerState(id, .uncertain)  // moved to another output, then its first output went
                }
            } else if f.output != nil && !isInLayout(f.output) {
                setFingerState(id, .cancelled)  // landed on no surface of an output now removed
            }
        }
    }

    /// Records what the responders of `surfaces` are owed once they are removed.
    func noteOwed(_ surfaces: [Surface]) {
        let removed = Set(surfaces.map(ObjectIdentifier.init))
        for s in surfaces {
            guard let r = responder(of: s) else { continue }
            if r.entered {
                owed.append(.leave(r, before: r.leaveCount, "g.remove-no-leave"))
                let held = r.buttonsAsFocus.intersection(buttonsHeld)
                if !held.isEmpty { owed.append(.buttons(r, held, "g.remove-no-cancelled-button")) }
            }
            if r.became {
                owed.append(.resign(r, before: r.resignCount))
                let held = r.keysAsFirst.intersection(keysHeld)
                if !held.isEmpty && router.keyboardGrab == nil { owed.append(.keys(r, held, "g.remove-no-cancelled-key")) }
            }
            for (key, seen) in r.touches where !seen.terminal {
                // Owed only while the touch's surface goes too: a responder that saw a touch
                // as an ancestor of a surface since moved away from it is off its chain.
                if let f = fingers[key.id], f.key == key, f.routed, f.state != .cancelled,
                   let bound = f.bound, removed.contains(ObjectIdentifier(bound)) {
                    owed.append(.cancel(r, key, "g.remove-no-cancel"))
                }
            }
        }
    }

    /// Runs a move (reparent, restack) and checks that it was not a removal (invariant f).
    func move(_ s: Surface, _ body: () -> Void) {
        let members = subtree(s)
        let ids = Set(members.compactMap { responder(of: $0) }.map(ObjectIdentifier.init))
        let savedMoving = moving
        moving.formUnion(ids)
        movedLeft.removeAll()
        movedEntered.removeAll()
        let focusBefore = router.firstResponder
        let armsBefore = armsFired
        body()
        moving = savedMoving
        let quiet = armsFired == armsBefore
        for id in movedLeft.intersection(movedEntered) {
            let r = allResponders.first { ObjectIdentifier($0) == id }
            fail("f.move-reentered", "\(r?.name ?? "?") got pointerLeft and pointerEntered when its surface was moved")
        }
        if quiet {
            for id in movedLeft {
                guard let r = allResponders.first(where: { ObjectIdentifier($0) == id }), let surface = r.surface else { continue }
                if !router.heldButtons.isEmpty || bruteHit(router.pointerLocation) === surface {
                    fail("f.move-left-under-pointer", "\(r.name) got pointerLeft when moved, though the pointer is still on it")
                }
            }
            if let focusBefore, members.contains(where: { $0 === focusBefore }), router.firstResponder !== focusBefore {
                fail("f.move-lost-first-responder",
                     "\(focusBefore.name) was first responder and was moved; now \(router.firstResponder?.name ?? "nil") is")
            }
        }
        movedLeft.removeAll()
        movedEntered.removeAll()
    }

    func makeRecognizer(_ r: Int, _ kind: FaultScript.Rec) -> GestureRecognizer {
        let name = "r\(r)"
        let recognizer: GestureRecognizer
        switch kind {
        case .tap: recognizer = TapGestureRecognizer(name: name)
        case .doubleTap: recognizer = TapGestureRecognizer(name: name, taps: 2)
        case .pan: recognizer = PanGestureRecognizer(name: name)
        case .pinch: recognizer = PinchGestureRecognizer(name: name)
        case .longPress: recognizer = LongPressGestureRecognizer(name: name)
        case .delayingTap:
            recognizer = TapGestureRecognizer(name: name)
            recognizer.delaysTouchesBegan = true
        }
        recognizer.addTarget { [weak self] g in self?.recognizerChanged(r, g) }
        return recognizer
    }

    func isModelLive(_ touch: TouchPoint) -> Bool {
        guard let f = fingers[touch.id.rawValue] else { return false }
        return f.key.start == touch.startTime.microseconds && f.routed && f.state != .cancelled
    }

    func recognizerChanged(_ r: Int, _ g: GestureRecognizer) {
        if g is PinchGestureRecognizer, g.state == .began {
            let live = Set(g.touches.filter { isModelLive($0) || liftedThisFrame.contains(TouchInstance(id: $0.id.rawValue, start: $0.startTime.microseconds)) }.map(\.id)).count
            if g.touches.count < 2 || live < 2 {
                fail("e.pinch-one-finger", "\(g.name) began with \(g.touches.count) touches, \(live) of them really down")
            }
        }
        fire(.recognizer(r))
    }

    // MARK: Steps

    func perform(_ step: FaultScript.Step) {
        switch step {
        case let .addOutput(o, x, y, w, h, rootFocusable):
            guard o < outputs.count, !isInLayout(outputs[o]) else { return }
            if let old = outputs[o] { retiredOutputs.append(old) }
            let output = Output(name: "OUT-\(o)", position: LayoutPoint(x: Double(x), y: Double(y)),
                                modeSize: Size(width: Double(w), height: Double(h)))
            let r = SoakResponder(world: self, index: -(o + 1), focusable: rootFocusable)
            r.surface = output.root
            output.root.responder = r
            rootResponders.append(r)
            outputs[o] = output
            router.addOutput(output)

        case let .removeOutput(o):
            guard o < outputs.count, let output = outputs[o], isInLayout(output) else { return }
            noteOwed(subtree(output.root))
            removing(formerParent: output.root) { router.removeOutput(output) }
            fingersAfterRemoval()

        case let .add(s, parent, index, frame, focusable):
            guard s < surfaces.count, let p = surface(parent) else { return }
            let child: Surface
            if let existing = surfaces[s] {
                child = existing
                guard !isLive(child) else { return }
            } else {
                let r = SoakResponder(world: self, index: s, focusable: focusable)
                child = Surface(name: "s\(s)", frame: frame.rect, responder: r)
                r.surface = child
                surfaceResponders.append(r)
                surfaces[s] = child
            }
            guard p !== child, !p.isDescendant(of: child) else { return }
            p.insertChild(child, at: min(max(index, 0), p.children.count))

        case let .reparent(s, parent, index):
            guard s < surfaces.count, let child = surfaces[s], isLive(child), let p = surface(parent), isLive(p),
                  p !== child, !p.isDescendant(of: child) else { return }
            move(child) { p.insertChild(child, at: min(max(index, 0), p.children.count)) }

        case let .remove(s):
            guard s < surfaces.count, let child = surfaces[s], child.parent != nil else { return }
            if isLive(child) { noteOwed(subtree(child)) }
            let formerParent = child.parent
            removing(formerParent: formerParent) { child.removeFromParent() }
            fingersAfterRemoval()

        case let .bringToFront(s):
            guard s < surfaces.count, let child = surfaces[s], let parent = child.parent else { return }
            if isLive(child) {
                move(child) { parent.bringToFront(child) }
            } else {
                parent.bringToFront(child)
            }

        case let .setFrame(s, r):
            guard s < surfaces.count, let child = surfaces[s] else { return }
            child.frame = r.rect
        case let .setHidden(s, b):
            guard s < surfaces.count, let child = surfaces[s] else { return }
            child.isHidden = b
        case let .setInputDisabled(s, b):
            guard s < surfaces.count, let child = surfaces[s] else { return }
            child.isInputDisabled = b
        case let .setClips(s, b):
            guard s < surfaces.count, let child = surfaces[s] else { return }
            child.clipsChildren = b
        case let .setInputRegion(s, region):
            guard s < surfaces.count, let child = surfaces[s] else { return }
            child.inputRegion = region.map { $0.map(\.rect) }

        case let .touch(ops):
            touchFrame(ops, device: 1)
        case let .touchFrom(d, ops):
            touchFrame(ops, device: Int32(1 + min(max(d, 0), FaultScript.deviceCount)))

        case let .touchCancel(i):
            let id = Int32(i)
            guard let f = fingers[id] else { return }
            fingers[id] = nil
            upSent.insert(f.key)
            let t = nextTime()
            if fingers.isEmpty { lastAllUp = t }
            inject(.touchCancel(TouchID(id)), at: t, device: f.device)
            inject(.touchFrame, at: nextTime(), device: f.device)

        case let .pointerBy(dx, dy):
            inject(.pointerMotion(delta: Vector(dx: Double(dx), dy: Double(dy)), unaccelerated: Vector(dx: Double(dx), dy: Double(dy))))
        case let .pointerTo(x, y):
            inject(.pointerMotionAbsolute(LayoutPoint(x: Double(x), y: Double(y))))
        case let .button(b, pressed):
            let button = 0x110 + UInt32(max(0, b))
            let kind = InputEvent.Kind.pointerButton(button: button, state: pressed ? .pressed : .released)
            if pressed { buttonsHeld.insert(button) } else { buttonsHeld.remove(button) }
            // A press outside a popup holding the pointer dismisses it and reaches nobody.
            let popup = popupHolding(pointer: true)
            let outside = pressed && popup != nil && !popup!.grab.contains(router.pointerFocus) && !filterTakes(InputEvent(time: .zero, kind))
            let armsBefore = armsFired, deliveriesBefore = buttonDeliveries
            inject(kind)
            if let popup, outside, armsFired == armsBefore {
                checkDismissedByPress(popup, "a button press outside it")
                if buttonDeliveries != deliveriesBefore {
                    fail("j.popup-dismissing-press-delivered", "the press that dismissed the popup grab of s\(popup.index) reached a responder")
                }
            }
        case let .axis(v):
            inject(.pointerAxis(AxisMotion(source: .wheel, vertical: Double(v) * 15, verticalV120: Double(v) * 120)))
        case let .key(k, op):
            let state: KeyState = op == .press ? .pressed : op == .release ? .released : .repeated
            let keycode = 30 + UInt32(max(0, k))
            if op == .press { keysHeld.insert(keycode) } else if op == .release { keysHeld.remove(keycode) }
            inject(.key(keycode: keycode, state: state))
        case let .touchpad(kind, phase, count):
            let k: TouchpadGesture.Kind = kind == .swipe ? .swipe : kind == .pinch ? .pinch : .hold
            let p: GesturePhase
            switch phase {
            case .begin: p = .begin
            case .update: p = .update
            case .end: p = .end(cancelled: false)
            case .cancel: p = .end(cancelled: true)
            }
            inject(.touchpadGesture(TouchpadGesture(kind: k, phase: p, fingers: count, delta: Vector(dx: 5, dy: 3),
                                                    scale: phase == .update ? 1.2 : 1)))
        case let .advance(ms):
            guard depth == 0 else { return }
            time += Int64(max(0, ms))
            clock.advance(to: .milliseconds(time))

        case let .addRecognizer(r, kind, host, requireToFail):
            guard r < recognizers.count, recognizers[r] == nil else { return }
            let recognizer = makeRecognizer(r, kind)
            if let other = requireToFail, other < r, other >= 0, let o = recognizers[other] {
                // A newer recognizer waits for an older one: never a cycle.
                try? recognizer.require(toFail: o)
            }
            recognizers[r] = recognizer
            allRecognizers.append(recognizer)
            switch host {
            case .surface(let s): if s < surfaces.count { surfaces[s]?.addGestureRecognizer(recognizer) }
            case .output(let o): if o < outputs.count { outputs[o]?.addGestureRecognizer(recognizer) }
            }
        case let .removeRecognizer(r):
            guard r < recognizers.count, let recognizer = recognizers[r] else { return }
            recognizers[r] = nil
            if let s = recognizer.surface { s.removeGestureRecognizer(recognizer) }
            if let o = recognizer.output { o.removeGestureRecognizer(recognizer) }

        case let .becomeFirst(target):
            let s: Surface?
            switch target {
            case .surface(let i): s = i < surfaces.count ? surfaces[i] : nil
            case .root(let o): s = o < outputs.count ? outputs[o]?.root : nil
            }
            if let s {
                let saved = explicitFocus
                explicitFocus = true
                router.becomeFirstResponder(s)
                explicitFocus = saved
            }
        case .resignFirst:
            let saved = explicitFocus
            explicitFocus = true
            router.resignFirstResponder()
            explicitFocus = saved
        case .cancelTouches:
            router.cancelTouches(reason: "soak") { _ in true }
            for (id, f) in fingers where f.injected { setFingerState(id, .cancelled) }
        case .refreshPointer:
            router.refreshPointerFocus()
        case .refreshTouches:
            router.refreshTouchLocations()
        case let .addFilter(f, kind):
            guard f < filters.count, filters[f] == nil else { return }
            let filter = SoakFilter(kind: kind)
            filters[f] = filter
            router.addFilter(filter)
        case let .removeFilter(f):
            guard f < filters.count, let filter = filters[f] else { return }
            filters[f] = nil
            router.removeFilter(filter)
        case let .arm(site, inner):
            if case .arm = inner { return }
            arms[site] = inner

        case let .setBelowParent(s, b):
            guard s < surfaces.count, let child = surfaces[s] else { return }
            child.isBelowParent = b
        case let .popupGrab(s, closes), let .nestedPopupGrab(s, closes):
            guard s < surfaces.count, let surface = surfaces[s], isLive(surface) else { return }
            let popup = SoakPopup(index: s, closes: closes)
            var parent: PopupGrab?
            if case .nestedPopupGrab = step { parent = router.popupGrabs.last }
            popup.grab = PopupGrab(popup: surface, parent: parent) { [weak self, unowned popup] in self?.dismissed(popup) }
            popups.append(popup)
            noteGrabStart(pointer: true, touch: true, keyboard: false)
            router.startPopupGrab(popup.grab)
            popup.nested = parent != nil && router.popupGrabs.count > 1 && router.popupGrabs.last === popup.grab
            syncTouchGrab()
        case let .lockGrab(kind):
            let pointer = kind == .pointer || kind == .all
            let touch = kind == .touch || kind == .all
            let keyboard = kind == .keyboard || kind == .all
            noteGrabStart(pointer: pointer, touch: touch, keyboard: keyboard)
            if pointer { router.startPointerGrab(lock) }
            if touch { router.startTouchGrab(lock) }
            syncTouchGrab()
            if keyboard { router.startKeyboardGrab(lock) }
        case let .keyboardGrab(kind):
            let clears = kind == .clear || kind == .forwardClear
            noteGrabStart(pointer: false, touch: false, keyboard: true)
            if clears, let first = router.firstResponder, let r = responder(of: first), r.became {
                owed.append(.resign(r, before: r.resignCount))
            }
            router.startKeyboardGrab(keyboardGrabs[kind]!, focus: clears ? .clear : .keep)
            // A grab that clears focus remembers it in the router's history.
            focusHistory = router.unchecked.keyboard.history.compactMap(\.surface)
        case let .endGrab(which):
            switch which {
            case .popup:
                guard let popup = popups.last, router.pointerGrab === popup.grab || router.touchGrab === popup.grab else { return }
                router.endGrab(popup.grab)
                if popup.dismissCount != 1 {
                    fail("j.popup-end-dismiss", "router.endGrab(popup) ran the dismiss handler of s\(popup.index)'s popup grab \(popup.dismissCount) times")
                }
            case .lock: router.endGrab(lock)
            case .pointer: router.endPointerGrab()
            case .touch: router.endTouchGrab()
            case .keyboard: router.endKeyboardGrab()
            }
            // A grab that cleared focus gives it back from the history.
            focusHistory = router.unchecked.keyboard.history.compactMap(\.surface)
            syncTouchGrab()
        case let .addDevice(d, o):
            let device = Int32(1 + min(max(d, 0), FaultScript.deviceCount))
            let name = o.map { "OUT-\($0)" }
            deviceMap[device] = name
            inject(.deviceAdded(DeviceInfo(name: "touch-\(d)", capabilities: .touch, mappedOutput: name)), at: nextTime(), device: device)
        }
        syncTouchGrab()
    }

    /// A press or touch down outside the popup holding the device: dismissed exactly once,
    /// both halves of its grab ended.
    func checkDismissedByPress(_ popup: SoakPopup, _ what: String) {
        if popup.dismissCount != 1 {
            fail("j.popup-not-dismissed", "\(what) ran the dismiss handler of s\(popup.index)'s popup grab \(popup.dismissCount) times")
        }
        if router.pointerGrab === popup.grab || router.touchGrab === popup.grab {
            fail("j.popup-grab-not-ended", "\(what) dismissed s\(popup.index)'s popup, but its grab still holds \(router.pointerGrab === popup.grab ? "the pointer" : "touch")")
        }
        // A press outside every popup of a chain dismisses the chain.
        var parent = popup.nested ? popup.grab.parent : nil
        while let grab = parent, let outer = popups.first(where: { $0.grab === grab }) {
            if outer.dismissCount != 1 {
                fail("j.popup-chain-not-dismissed", "\(what) dismissed s\(popup.index)'s popup but not s\(outer.index)'s, which it is nested in")
            }
            parent = outer.nested ? grab.parent : nil
        }
        if !router.popupGrabs.isEmpty {
            fail("j.popup-chain-not-dismissed", "\(what) left popup grabs \(router.popupGrabs.map(\.popup.name)) in the chain")
        }
    }

    /// One device frame of touch changes from `device`.
    func touchFrame(_ ops: [FaultScript.TouchOp], device: Int32) {
        var any = false
        for op in ops {
            switch op {
            case let .down(i, x, y):
                let id = Int32(i)
                guard fingers[id] == nil else { continue }
                let point = LayoutPoint(x: Double(x), y: Double(y))
                let t = nextTime()
                let event = InputEvent(time: .milliseconds(t), device: DeviceID(UInt32(device)), .touchDown(TouchID(id), point))
                var routed = !filterTakes(event)
                // A grab holding touch takes the down: a lock screen keeps it, a popup
                // routes it only inside the popup and is dismissed by one outside.
                var dismissing: SoakPopup?
                if routed, let grab = router.touchGrab {
                    // The model's own hit-test runs no armed step (`checking`).
                    checking = true
                    let hit = router.surface(at: point, device: DeviceID(UInt32(device)))
                    checking = false
                    if let popup = popupHolding(pointer: false), !popup.grab.contains(hit) {
                        dismissing = popup
                        routed = false
                    } else if !(grab is PopupGrab) {
                        routed = false
                    }
                }
                let key = TouchInstance(id: id, start: Timestamp.milliseconds(t).microseconds)
                fingers[id] = Finger(key: key, routed: routed, state: .live, bound: nil,
                                     output: mappedOutput(device) ?? router.layout.output(at: point), device: device)
                downFrame[key] = frameCount
                let armsBefore = armsFired
                inject(event.kind, at: t, device: device)
                let quiet = armsFired == armsBefore
                if var f = fingers[id], f.key == key {
                    f.injected = true
                    if !quiet {
                        // A callback inside the hit-test may have started or ended a grab
                        // (a grab started there takes the touch too).
                        f.routed = true
                        f.state = .uncertain
                    }
                    f.bound = f.routed ? router.surface(boundTo: TouchID(id)) : nil
                    if let bound = f.bound, !isLive(bound) { f.state = .uncertain }
                    if quiet, f.routed, f.state == .live {
                        // The down is hit-tested on the device's mapped output, if any.
                        let expected = bruteHit(point, device: device)
                        if f.bound !== expected {
                            let on = mappedOutput(device).map { " on its mapped output \($0.name)" } ?? ""
                            fail("i.touch-bound-not-hit", "t\(id) from dev\(device) down at \(point)\(on) is bound to \(f.bound?.name ?? "nil"), the reference says \(expected?.name ?? "nil")")
                        }
                    }
                    fingers[id] = f
                }
                if let dismissing, quiet { checkDismissedByPress(dismissing, "a touch down outside it") }
                any = true
            case let .move(i, x, y):
                let id = Int32(i)
                guard fingers[id] != nil else { continue }
                let kind = InputEvent.Kind.touchMotion(TouchID(id), LayoutPoint(x: Double(x), y: Double(y)))
                if filterTakes(InputEvent(time: .zero, kind)) { setFingerState(id, .uncertain) }
                inject(kind, at: nextTime(), device: device)
                any = true
            case let .up(i):
                let id = Int32(i)
                guard let f = fingers[id] else { continue }
                if filterTakes(InputEvent(time: .zero, .touchUp(TouchID(id)))) { setFingerState(id, .uncertain) }
                fingers[id] = nil
                upSent.insert(f.key)
                if f.routed && f.state != .cancelled { liftedThisFrame.insert(f.key) }
                upFrame[f.key] = frameCount
                let t = nextTime()
                if fingers.isEmpty { lastAllUp = t }
                inject(.touchUp(TouchID(id)), at: t, device: device)
                any = true
            }
        }
        if any {
            frameCount += 1
            inject(.touchFrame, at: nextTime(), device: device)
        }
        liftedThisFrame.removeAll()
    }

    // MARK: The reference hit-test

    /// Brute force over the tree: the topmost output holding the point decides; within a
    /// tree, children from the top down, each subtree before its parent's own area; hidden
    /// and input-disabled subtrees skipped; clipping; input regions.
    func bruteHit(_ point: LayoutPoint) -> Surface? {
        for output in router.layout.outputs.reversed() where output.layoutFrame.contains(point) {
            return bruteHit(output.root, SurfacePoint(x: point.x - output.position.x, y: point.y - output.position.y))
        }
        return nil
    }

    func bruteHit(_ s: Surface, _ p: SurfacePoint) -> Surface? {
        if s.isHidden || s.isInputDisabled { return nil }
        if s.clipsChildren && !s.bounds.contains(p) { return nil }
        // Children above the parent, from the top; its own area; children placed below it
        // (`isBelowParent`), from the top.
        for child in s.children.reversed() where !child.isBelowParent {
            if let hit = bruteHit(child, SurfacePoint(x: p.x - child.frame.origin.x, y: p.y - child.frame.origin.y)) {
                return hit
            }
        }
        if s.bounds.contains(p) && (s.inputRegion.map { region in region.contains { $0.contains(p) } } ?? true) { return s }
        for child in s.children.reversed() where child.isBelowParent {
            if let hit = bruteHit(child, SurfacePoint(x: p.x - child.frame.origin.x, y: p.y - child.frame.origin.y)) {
                return hit
            }
        }
        return nil
    }

    /// The reference for a device's absolute input: on its mapped output if that output is
    /// in the layout (whatever output is on top there), else as ``bruteHit(_:)``.
    func bruteHit(_ point: LayoutPoint, device: Int32) -> Surface? {
        guard let output = mappedOutput(device) else { return bruteHit(point) }
        return bruteHit(output.root, SurfacePoint(x: point.x - output.position.x, y: point.y - output.position.y))
    }

    // MARK: Invariants after every step

    func checkAfterStep(_ step: FaultScript.Step, armsFiredDuring: Int) {
        checking = true
        defer { checking = false }
        for popup in popups where !popup.endChecked {
            guard router.pointerGrab !== popup.grab && router.touchGrab !== popup.grab,
                  !router.popupGrabs.contains(where: { $0 === popup.grab }) else {
                // A popup grab still in the chain has its popup in the layout: a removed
                // popup ends its own grab.
                if !isLive(popup.grab.popup) {
                    fail("j.popup-removed-keeps-grab", "s\(popup.index) left the layout but its popup grab is still in the chain")
                }
                continue
            }
            popup.endChecked = true
            if popup.dismissCount != 1 {
                fail("j.popup-dismiss-count", "s\(popup.index)'s popup grab ended and its dismiss handler ran \(popup.dismissCount) times")
            }
        }
        checkHitTesting()
        checkPointer(step, armsFiredDuring: armsFiredDuring)
        checkKeyboard()
        checkOwed()
        checkTouches()
        checkRecognizers()
        checkRoutingStateInvariants()
    }

    /// The pointer's, the keyboard's and the touches' own invariants (PointerRouting.swift,
    /// KeyboardRouting.swift, TouchRouting.swift), as their types state them.
    func checkRoutingStateInvariants() {
        for broken in router.unchecked.pointer.checkInvariants(layout: router.unchecked.layout,
                                                                treeEditCount: router.unchecked.treeEditCount) {
            fail("k.pointer-state", broken)
        }
        for broken in router.unchecked.keyboard.checkInvariants() {
            fail("k.keyboard-state", broken)
        }
        for broken in router.unchecked.touches.checkInvariants(treeEditCount: router.unchecked.treeEditCount,
                                                               held: router.gestures.unchecked.heldTouches) {
            fail("k.touch-state", broken)
        }
    }

    func checkHitTesting() {
        var points: [LayoutPoint] = [router.pointerLocation]
        var x = 10.0
        while x < 2400 {
            var y = 10.0
            while y < 800 {
                points.append(LayoutPoint(x: x, y: y))
                y += 130
            }
            x += 170
        }
        for s in surfaces {
            if let s, let origin = s.layoutOrigin {
                points.append(LayoutPoint(x: origin.x + s.frame.size.width / 2, y: origin.y + s.frame.size.height / 2))
                points.append(LayoutPoint(x: origin.x + 1, y: origin.y + 1))
            }
        }
        for p in points {
            let expected = bruteHit(p)
            let actual = router.surface(at: p)
            if expected !== actual {
                fail("a.hit-test", "surface(at: \(p)) is \(actual?.name ?? "nil"), the reference says \(expected?.name ?? "nil")")
                return
            }
        }
        for device in deviceMap.keys.sorted() where mappedOutput(device) != nil {
            for p in points {
                let expected = bruteHit(p, device: device)
                let actual = router.surface(at: p, device: DeviceID(UInt32(device)))
                if expected !== actual {
                    fail("a.hit-test-mapped", "surface(at: \(p), device: dev\(device)) is \(actual?.name ?? "nil"), the reference on its mapped output says \(expected?.name ?? "nil")")
                    return
                }
            }
        }
    }

    func checkPointer(_ step: FaultScript.Step, armsFiredDuring: Int) {
        let entered = allResponders.filter(\.entered)
        if entered.count > 1 {
            fail("b.two-entered", "\(entered.map(\.name)) are all entered")
        }
        let focus = router.pointerFocus
        if let focus, !isLive(focus) {
            fail("b.focus-detached", "pointerFocus \(focus.name) is not in the layout")
        }
        if let one = entered.first, one.surface !== focus {
            fail("b.entered-not-focus", "\(one.name) is entered but pointerFocus is \(focus?.name ?? "nil")")
        }
        if entered.isEmpty, let focus, let r = responder(of: focus) {
            fail("b.focus-not-entered", "pointerFocus is \(focus.name) but \(r.name) was never sent pointerEntered")
        }
        if router.pointerGrab === lock, let focus {
            fail("j.lock-pointer-focus", "the lock screen holds the pointer, but pointerFocus is \(focus.name)")
        }
        let event = InputEvent(time: .zero, .pointerMotion(delta: .zero, unaccelerated: .zero))
        if let popup = popupHolding(pointer: true) {
            if case .pointerTo = step, armsFiredDuring == 0, router.heldButtons.isEmpty, !filterTakes(event) {
                let hit = bruteHit(router.pointerLocation)
                let expected = popup.grab.contains(hit) ? hit : nil
                if expected !== focus {
                    fail("j.popup-focus", "after pointer motion to \(router.pointerLocation) under s\(popup.index)'s popup grab, pointerFocus is \(focus?.name ?? "nil"), expected \(expected?.name ?? "nil") (hit \(hit?.name ?? "nil"))")
                }
            }
            if let focus, !popup.grab.contains(focus), armsFiredDuring == 0 {
                fail("j.popup-focus-outside", "s\(popup.index)'s popup grab holds the pointer, but pointerFocus is \(focus.name), outside it")
            }
        }
        switch step {
        case .pointerTo, .pointerBy:
            if armsFiredDuring == 0, router.pointerGrab == nil, router.heldButtons.isEmpty, !filterTakes(event) {
                let expected = bruteHit(router.pointerLocation)
                if expected !== focus {
                    fail("b.focus-not-under-pointer",
                         "after pointer motion to \(router.pointerLocation), pointerFocus is \(focus?.name ?? "nil"), the surface there is \(expected?.name ?? "nil")")
                }
            }
        default: break
        }
    }

    func checkKeyboard() {
        let became = allResponders.filter(\.became)
        if became.count > 1 {
            fail("c.two-first-responders", "\(became.map(\.name)) all believe they are first responder")
        }
        let first = router.firstResponder
        if let first {
            if !isLive(first) {
                fail("c.first-responder-removed", "firstResponder \(first.name) is not in the layout (removed surface or output)")
            }
            if !first.responder.canBecomeFirstResponder {
                fail("c.first-responder-cannot", "firstResponder \(first.name) cannot become first responder")
            }
        }
        if let one = became.first, one.surface !== first {
            fail("c.became-not-first-responder", "\(one.name) got didBecome but firstResponder is \(first?.name ?? "nil")")
        }
        if became.isEmpty, let first, let r = responder(of: first) {
            fail("c.first-responder-not-told", "firstResponder is \(first.name) but \(r.name) never got didBecomeFirstResponder")
        }
        // Every press has a release: a key the first responder saw pressed (as the target, or
        // listed by its enter) and that is no longer held has been released to it.
        for r in became {
            let stuck = r.keysAsFirst.subtracting(keysHeld)
            if !stuck.isEmpty {
                fail("k.press-without-release", "\(r.name) is first responder and never heard the release of keys \(stuck.sorted()), no longer held")
            }
        }
    }

    func checkOwed() {
        for o in owed {
            switch o {
            case let .leave(r, before, name):
                if r.leaveCount <= before { fail(name, "\(r.name) was entered and got no pointerLeft (\(why(name)))") }
            case let .resign(r, before):
                if r.resignCount <= before { fail("g.remove-no-resign", "\(r.name) was removed while first responder and got no didResign") }
            case let .cancel(r, key, name):
                if r.touches[key]?.terminal != true {
                    fail(name, "\(r.name) followed \(key) and got no touchesCancelled (\(why(name)))")
                }
            case let .buttons(r, held, name):
                let missing = held.intersection(r.buttonsAsFocus).intersection(buttonsHeld)
                if !missing.isEmpty {
                    fail(name, "\(r.name) was the pointer focus with buttons \(missing.sorted()) held and got no cancelled release (\(why(name)))")
                }
            case let .keys(r, held, name):
                let missing = held.intersection(r.keysAsFirst).intersection(keysHeld)
                if !missing.isEmpty {
                    fail(name, "\(r.name) was first responder with keys \(missing.sorted()) held and got no cancelled release (\(why(name)))")
                }
            }
        }
        owed.removeAll()
    }

    func why(_ invariant: String) -> String {
        invariant.hasPrefix("g.") ? "removed" : "a grab took the device"
    }

    func checkTouches() {
        var live = 0, uncertain = 0
        for f in fingers.values where f.routed {
            if f.state == .live { live += 1 } else if f.state == .uncertain { uncertain += 1 }
        }
        let active = router.activeTouchCount
        if active < live || active > live + uncertain {
            fail("d.active-touch-count", "activeTouchCount is \(active); the model has \(live) routed fingers down (+\(uncertain) uncertain)")
        }
        // Quiet: no finger down for a second (every recognizer timer has run out): every
        // touch a bound responder saw has ended or been cancelled.
        if fingers.isEmpty && time - lastAllUp >= 1000 && !upSent.isEmpty {
            for r in allResponders {
                for (key, seen) in r.touches.sorted(by: { $0.key.start < $1.key.start }) where !seen.terminal {
                    if seen.bound {
                        fail("d.touch-never-ended", "\(r.name) saw \(key) as its bound surface and never got touchesEnded or touchesCancelled")
                    } else if seen.sawBegan {
                        fail("d.began-without-end", "\(r.name) got touchesBegan of \(key) and never touchesEnded or touchesCancelled")
                    }
                }
                r.touches.removeAll()
            }
            upSent.removeAll()
            downFrame.removeAll()
            upFrame.removeAll()
        }
    }

    func checkRecognizers() {
        for g in allRecognizers {
            for t in g.touches where !isModelLive(t) {
                fail("e.phantom-touch", "\(g.name) (\(g.state)) still holds \(t.id)@\(t.startTime.microseconds / 1000)ms, which is no longer down")
                break
            }
            if g.state.isInProgress && g.touches.isEmpty {
                fail("e.in-progress-without-touches", "\(g.name) is \(g.state) with no touches")
            }
        }
    }
}

extension FaultScriptWorld {
    /// Delta debugging: removes chunks of steps while the same invariant still fails.
    /// At most `budget` runs.
    static func shrink(_ script: [FaultScript.Step], invariant: String, budget: Int = 2000) -> [FaultScript.Step] {
        var runs = 0
        func fails(_ s: [FaultScript.Step]) -> SoakViolation? {
            runs += 1
            guard let v = run(s, only: invariant), v.invariant == invariant else { return nil }
            return v
        }
        var current = script
        if let v = fails(current) { current = Array(current.prefix(v.step + 1)) } else { return script }
        var n = 2
        while current.count >= 2 && runs < budget {
            let chunk = (current.count + n - 1) / n
            var reduced = false
            var start = 0
            while start < current.count && runs < budget {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, current.count))
                if let v = fails(candidate) {
                    current = Array(candidate.prefix(v.step + 1))
                    reduced = true
                    break
                }
                start += chunk
            }
            if reduced {
                n = max(n - 1, 2)
            } else {
                if n >= current.count { break }
                n = min(current.count, n * 2)
            }
        }
        // Inside armed steps: try the armed step alone, unarmed.
        var i = 0
        while i < current.count && runs < budget {
            if case let .arm(_, inner) = current[i] {
                var candidate = current
                candidate[i] = inner
                if fails(candidate) != nil { current = candidate }
            }
            i += 1
        }
        return current
    }

    /// A script as Swift source to paste into a test.
    static func swiftSource(_ script: [FaultScript.Step]) -> String {
        "let script: [FaultScript.Step] = [\n" + script.map { "    \($0)," }.joined(separator: "\n") + "\n]\n#expect(FaultScriptWorld.run(script) == nil)"
    }
}
