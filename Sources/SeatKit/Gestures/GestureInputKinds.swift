// One engine for every device (issue 30, goal 5): a recognizer says which kinds of input it
// follows; a pen stroke and a left-button drag reach a touch recognizer as one touch.
//
// ```
//  pen tip down ─► pen arena: recognizers of the stroke's surface, its ancestors, its output
//                  that take .pen ─► touchesBegan (one touch, id -2), before the responders
//  pen motion   ─► touchesMoved;  tip up ─► touchesEnded; proximity out, lost surface ─► cancelled
//  left press   ─► pointer arena: those that take .pointer (and do not read raw pointer
//                  events) ─► touchesBegan (one touch, id -1); motion, release likewise
//  a recognizer that takes the stroke (begins, cancels touches in view): the responders that
//  saw the down get a cancelled up, and nothing more of the stroke
// ```

/// The kinds of input a gesture recognizer follows (UIKit's `allowedTouchTypes`, Mutter's
/// device filter). See ``GestureRecognizer/supportedInputKinds`` (what it can follow) and
/// ``GestureRecognizer/allowedInputKinds`` (what it is allowed to).
public struct GestureInputKinds: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Fingers on a touchscreen.
    public static let touch = GestureInputKinds(rawValue: 1 << 0)
    /// libinput's touchpad gestures (swipe, pinch, hold).
    public static let touchpad = GestureInputKinds(rawValue: 1 << 1)
    /// The pointer: raw buttons and motion for a recognizer that reads them
    /// (``GestureRecognizer/receivesPointerEvents``), else a left-button drag as one touch
    /// (layout space; `surfaceLocation` in the pointer focus's space), from the press that
    /// starts the implicit grab; filters and a ``PointerGrab`` see it first.
    public static let pointer = GestureInputKinds(rawValue: 1 << 2)
    /// A tablet tool (pen, eraser, …) in contact: a stroke from tip down to tip up as one
    /// touch (its `location` in layout space, its `surfaceLocation` in the space of the
    /// surface the stroke is bound to). Only strokes routed by the default rule: filters and
    /// a ``PenGrab`` see the pen first, and a grab that does not forward keeps the stroke from
    /// recognizers too. One stroke at a time: another tool's tip going down cancels the
    /// stroke followed so far for the recognizers, which then follow the new one.
    public static let pen = GestureInputKinds(rawValue: 1 << 3)
    /// Every kind.
    public static let all = GestureInputKinds(rawValue: 0b1111)
    /// What the built-in pan, long press and tap follow. (Kinds computed on the touch path are
    /// built from raw values: an array literal allocates in debug builds.)
    static let touchPenPointer = GestureInputKinds(rawValue: 0b1101)
    static let touchAndPen = GestureInputKinds(rawValue: 0b1001)
    static let touchAndTouchpad = GestureInputKinds(rawValue: 0b0011)

    /// "touch+pen", or "none".
    public var description: String {
        var names: [String] = []
        if contains(.touch) { names.append("touch") }
        if contains(.touchpad) { names.append("touchpad") }
        if contains(.pointer) { names.append("pointer") }
        if contains(.pen) { names.append("pen") }
        return names.isEmpty ? "none" : names.joined(separator: "+")
    }
}

/// Which recognizers run where a recognizer is attached (SwiftUI's `GestureMask`): the
/// recognizer itself (``gesture``) and those of the surfaces below its surface
/// (``subviews``). Set on a recognizer with ``GestureRecognizer/mask``.
public struct GestureMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The recognizer itself takes part.
    public static let gesture = GestureMask(rawValue: 1 << 0)
    /// The recognizers of the surfaces below (for an output's recognizer: of every surface
    /// on it) take part.
    public static let subviews = GestureMask(rawValue: 1 << 1)
    /// Both: the default.
    public static let all: GestureMask = [.gesture, .subviews]
    /// Neither: the recognizer and those below it are out.
    public static let none: GestureMask = []
}

/// A recognizer's input kinds, priority, mask and host (a recognizer's `HotState`).
struct CompositionState {
    /// ``GestureRecognizer/allowedInputKinds`` as set; `nil`: the default.
    var allowed: GestureInputKinds?
    /// The kind of the input it follows now.
    var inputKind: GestureInputKinds = .touch
    /// The pen stroke or pointer drag it follows as a touch, as last shown.
    var emulatedTouch: TouchPoint?
    /// The composed recognizer it is a part of, unretained (rule 1 of ``Unretained``: the
    /// composite holds its parts and clears the link in its `deinit`).
    var host: Unretained<ComposedGestureRecognizer>?
    var isHighPriority = false
    var mask = GestureMask.all
    /// Mutter's relationships (GestureRelationships.swift).
    var relationships = GestureRelationships()
}

/// The pen stroke the pen arena follows.
struct PenStrokeGestures {
    var device = DeviceID(0)
    var tool: PenTool?
    /// A recognizer took the stroke: the responders get nothing more of it.
    var taken = false
    /// The responders saw the stroke's down.
    var seenByResponders = false
}

extension GestureRecognizer {
    /// What ``supportedInputKinds`` is unless overridden.
    var defaultSupportedInputKinds: GestureInputKinds {
        var kinds = GestureInputKinds(rawValue: 0)
        if receivesTouches { kinds.insert(.touch) }
        if receivesTouchpadGestures { kinds.insert(.touchpad) }
        if receivesPointerEvents { kinds.insert(.pointer) }
        return kinds
    }

    /// The kinds of input it may follow, of those it supports (``supportedInputKinds``): what
    /// it follows is ``inputKinds``, both together. Default: the kinds it reads natively
    /// (touch for touch recognizers, touchpad for the touchpad ones, the pointer for one that
    /// reads pointer events), and the pen for the built-in pan, long press and tap. Remove
    /// ``GestureInputKinds/pen`` and pen strokes go to the responders as if the recognizer
    /// were not there; add ``GestureInputKinds/pointer`` to let a pan follow left-button
    /// drags, or ``GestureInputKinds/touchpad`` to let a ``PinchGestureRecognizer`` follow
    /// touchpad pinches. Takes effect at the next gesture.
    public var allowedInputKinds: GestureInputKinds {
        get {
            if let allowed = unchecked.composition.allowed { return allowed }
            var native = GestureInputKinds(rawValue: 0)
            if receivesTouches { native.insert(.touch) }
            if receivesTouchpadGestures { native.insert(.touchpad) }
            if receivesPointerEvents { native.insert(.pointer) }
            return native
        }
        set { unchecked.composition.allowed = newValue }
    }

    /// The kinds of input it follows: ``supportedInputKinds`` and ``allowedInputKinds``.
    public var inputKinds: GestureInputKinds { supportedInputKinds.intersection(allowedInputKinds) }

    /// The kind of the input it follows now (or followed last): ``GestureInputKinds/pen``
    /// while its ``touches`` are a pen stroke, ``GestureInputKinds/pointer`` while they are a
    /// drag. One kind.
    public var currentInputKind: GestureInputKinds { unchecked.composition.inputKind }

    /// Takes part in input of `kind`: an enabled recognizer that follows the kind and whose
    /// mask keeps it in.
    /// The same answer as `inputKinds.contains(kind)`, with fewer calls of the overridable
    /// getters: ``supportedInputKinds``, then, when ``allowedInputKinds`` is the default, only
    /// the `receives…` getter of each kind asked about. Through `inputKinds`, each touch down
    /// asked each recognizer's three `receives…` getters twice (once in the default
    /// `supportedInputKinds`, once in the default `allowedInputKinds`), seven calls through
    /// the class's table where five now do (issue 25, nineteenth round).
    func takesPart(_ kind: GestureInputKinds) -> Bool {
        guard isEnabled && unchecked.composition.mask.contains(.gesture) && supportedInputKinds.contains(kind) else { return false }
        if let allowed = unchecked.composition.allowed { return allowed.contains(kind) }
        return readsNatively(kind)
    }

    /// Whether the kinds it reads natively (``allowedInputKinds``' default: touch if
    /// ``receivesTouches``, touchpad if ``receivesTouchpadGestures``, pointer if
    /// ``receivesPointerEvents``, nothing else) hold all of `kind`, asking only the getters
    /// of the kinds in it.
    @inline(__always)
    private func readsNatively(_ kind: GestureInputKinds) -> Bool {
        guard kind.isSubset(of: [.touch, .touchpad, .pointer]) else { return false }
        if kind.contains(.touch) && !receivesTouches { return false }
        if kind.contains(.touchpad) && !receivesTouchpadGestures { return false }
        if kind.contains(.pointer) && !receivesPointerEvents { return false }
        return true
    }

    /// Whether its recognition goes before that of the recognizers of the surfaces below
    /// its surface (SwiftUI's `highPriorityGesture`): theirs waits until it fails, and fails
    /// if it begins or is recognized. On an output, it goes before those of every surface
    /// on it. Default `false`: the first to begin wins. Several high-priority recognizers
    /// over the same input coordinate among themselves as usual.
    public var isHighPriority: Bool {
        get { unchecked.composition.isHighPriority }
        set { unchecked.composition.isHighPriority = newValue }
    }

    /// Which recognizers run where it is attached: itself (``GestureMask/gesture``) and those
    /// of the surfaces below (``GestureMask/subviews``). Default ``GestureMask/all``. With
    /// ``GestureMask/none`` neither runs; with ``GestureMask/gesture`` only it; with
    /// ``GestureMask/subviews`` only they. Applies to input that starts after the change
    /// (touches, pen strokes, pointer presses, touchpad gestures), whatever their kind.
    public var mask: GestureMask {
        get { unchecked.composition.mask }
        set { unchecked.composition.mask = newValue }
    }

    /// Whether this high-priority recognizer is above `other`: on an ancestor of (or the
    /// same) surface, or on an output while `other` is on a surface.
    func isAbove(_ other: GestureRecognizer) -> Bool {
        if output != nil { return other.output == nil && other.surface != nil }
        guard let mine = surface, var node = other.surface else { return false }
        while true {
            if node === mine { return true }
            guard let parent = node.parent else { return false }
            node = parent
        }
    }
}

extension Surface {
    /// Attaches `recognizer` as a high-priority gesture (SwiftUI's
    /// `highPriorityGesture(_:including:)`): its recognition goes before that of the
    /// recognizers of the surfaces below, and `mask` says which run at all.
    public func addHighPriorityGestureRecognizer(_ recognizer: GestureRecognizer, including mask: GestureMask = .all) {
        recognizer.isHighPriority = true
        recognizer.mask = mask
        addGestureRecognizer(recognizer)
    }
}

extension GestureCoordinator {
    /// Where the walk up from `surface` over the surfaces' recognizers starts: `surface`
    /// itself; the topmost surface on the way with a recognizer that leaves out subviews
    /// (its mask, GestureComposition.swift); `nil` when the output has such a recognizer, or
    /// when no surface on the way has any recognizer (the usual case when only the output
    /// has some: the second walk would find nothing, so it is not made).
    ///
    /// One walk, with no call out (``GestureRecognizer/isEnabled`` and the mask are plain
    /// reads): when it finds no recognizer on any surface, none is added before the caller
    /// would have read the lists again, so skipping them calls `body` with the same
    /// recognizers in the same order. Each `Surface.gestureRecognizers` read is a run-time
    /// exclusivity check (~75 instructions): the second walk made two more per touch down in
    /// the kiosk, where the recognizers are the output's (issue 25, twelfth round).
    ///
    /// The ancestors are reached through their parent links as they are kept, unretained
    /// (rule 1 of ``Unretained``): nothing here calls out, so the tree keeps each surface on
    /// the way for the whole walk; `parent` handed out a strong reference, a retain and a
    /// release per level. The start is handed out unretained too (rule 1: `surface` is held by
    /// the caller, and each ancestor is kept by the tree until something is called out; the
    /// caller's walk holds each surface it calls out from): handed out strongly, it was
    /// retained here and again by the caller, two retains and two releases a touch down
    /// (issue 25, sixteenth round).
    func recognizerWalkStart(from surface: Surface, output: Output?) -> Unretained<Surface>? {
        var start = Unretained(surface)
        var anyOnSurfaces = false
        var node: Unretained<Surface>? = Unretained(surface)
        while let link = node {
            node = link.with { current in
                // Read in place (nothing here calls out), not through `gestureRecognizers`,
                // which hands out a copy (issue 25, fifteenth round; the optimizer had already
                // dropped that copy's reference counting: the tap's cost here did not move).
                if !current.unchecked.gestureRecognizers.isEmpty {
                    anyOnSurfaces = true
                    if current.unchecked.gestureRecognizers.scanIndex(where: { $0.isEnabled && !$0.unchecked.composition.mask.contains(.subviews) }) != nil {
                        start = Unretained(current)
                    }
                }
                return current.unchecked.parentLink
            }
        }
        if !anyOnSurfaces { return nil }
        if let output, output.unchecked.gestureRecognizers.scanIndex(where: { $0.isEnabled && !$0.unchecked.composition.mask.contains(.subviews) }) != nil {
            return nil
        }
        return start
    }

    /// The high-priority recognizer above `recognizer` in its arenas that has not failed,
    /// if any: its recognition waits for it.
    func highPriorityRival(in router: Router, of recognizer: GestureRecognizer) -> GestureRecognizer? {
        guard !recognizer.isHighPriority else { return nil }
        return forEachPeer(in: router, of: recognizer) { other in
            guard other.isHighPriority, !recognizer.isIndependent(of: other) else { return false }
            let s = other.unchecked.storedState
            guard s != .failed && s != .cancelled else { return false }
            return other.isAbove(recognizer)
        }
    }

    /// Whether high-priority `recognizer` is what `waiter` waits for: above it and sharing
    /// one of its arenas (a high-priority recognizer elsewhere leaves it alone).
    func highPriority(_ recognizer: GestureRecognizer, holds waiter: GestureRecognizer, in router: Router) -> Bool {
        guard recognizer.isAbove(waiter), !waiter.isIndependent(of: recognizer) else { return false }
        return forEachPeer(in: router, of: waiter) { $0 === recognizer } != nil
    }

    // MARK: Pen strokes and drags as touches

    /// The touch id a pen stroke has for recognizers (fingers' ids are seat slots, never
    /// negative).
    static let penTouchID = TouchID(-2)
    /// The touch id a left-button drag has for recognizers.
    static let pointerTouchID = TouchID(-1)
    /// BTN_LEFT: the button whose drag is a touch.
    static let leftButton: UInt32 = 0x110

    private func showEmulated(in router: Router, _ recognizer: GestureRecognizer, _ point: TouchPoint, _ phase: TouchPhase, time: Timestamp) {
        unchecked.gestureScratch.removeAll(keepingCapacity: true)
        unchecked.gestureScratch.append(point)
        let event = TouchEvent(time: time, touches: unchecked.gestureScratch)
        switch phase {
        case .began:
            recognizer.unchecked.composition.emulatedTouch = point
            recognizer.beginTouches(event)
        case .moved:
            recognizer.unchecked.composition.emulatedTouch = point
            recognizer.moveTouches(event)
        case .ended:
            recognizer.unchecked.composition.emulatedTouch = nil
            if recognizer.unchecked.storedState.isFinal {
                recognizer.forgetTouches(event)
            } else {
                recognizer.endTouches(event)
            }
            resetIfSettled(in: router, recognizer)
        }
    }

    /// Ends the touch `recognizer` follows for a pen stroke or a drag as cancelled (a
    /// settled one only forgets it).
    func cancelEmulatedTouch(in router: Router, of recognizer: GestureRecognizer, time: Timestamp) {
        guard let point = recognizer.unchecked.composition.emulatedTouch else { return }
        recognizer.unchecked.composition.emulatedTouch = nil
        unchecked.gestureScratch.removeAll(keepingCapacity: true)
        unchecked.gestureScratch.append(point)
        let event = TouchEvent(time: time, touches: unchecked.gestureScratch)
        if recognizer.unchecked.storedState.isFinal {
            recognizer.forgetTouches(event)
        } else {
            if let trace = router.trace { trace.record(.gestureSaw(recognizer.description, .touchesCancelled)) }
            recognizer.cancelTouches(event)
            if recognizer.unchecked.touches.isEmpty { forceSettle(in: router, recognizer) }
        }
        resetIfSettled(in: router, recognizer)
    }

    /// A pointer button for a recognizer of the pointer arena: raw to one that reads pointer
    /// events, else the left button's press and release as a touch's begin and end.
    func showPointerButton(in router: Router, _ event: PointerButtonEvent, to recognizer: GestureRecognizer) {
        if recognizer.receivesPointerEvents { return recognizer.pointerButton(event) }
        guard event.button == Self.leftButton else { return }
        if event.state == .pressed {
            guard recognizer.unchecked.composition.emulatedTouch == nil else { return }
            let point = TouchPoint(id: Self.pointerTouchID, device: event.device, location: event.location,
                                   surfaceLocation: event.surfaceLocation, startLocation: event.location, startTime: event.time)
            showEmulated(in: router, recognizer, point, .began, time: event.time)
        } else if var point = recognizer.unchecked.composition.emulatedTouch {
            point.location = event.location
            point.surfaceLocation = event.surfaceLocation
            showEmulated(in: router, recognizer, point, .ended, time: event.time)
        }
    }

    /// Pointer motion for a recognizer of the pointer arena: raw, or the drag's touch moving.
    func showPointerMotion(in router: Router, _ event: PointerMotionEvent, to recognizer: GestureRecognizer) {
        if recognizer.receivesPointerEvents { return recognizer.pointerMoved(event) }
        guard var point = recognizer.unchecked.composition.emulatedTouch else { return }
        point.location = event.location
        point.surfaceLocation = event.surfaceLocation
        showEmulated(in: router, recognizer, point, .moved, time: event.time)
    }

    /// A pen's tip went down on `focus`: opens the pen arena (the recognizers of `focus`, its
    /// ancestors and its output that take pens) and shows them the touch. Returns true when
    /// one of them took the stroke: the responders must not see the down.
    func beginPenStroke(in router: Router, _ event: PenEvent, focus: Surface?) -> Bool {
        cancelPenStroke(in: router)
        unchecked.penStroke = PenStrokeGestures(device: event.device, tool: event.tool)
        forEachRecognizer(of: focus, output: focus?.output ?? router.unchecked.layout.output(at: event.location)) { recognizer in
            // One emulated touch at a time: a recognizer following a mouse drag as a touch
            // sits this stroke out (soak seed 1228: the drag's touch was never lifted).
            if recognizer.takesPart(.pen) && recognizer.unchecked.composition.emulatedTouch == nil {
                follow(in: router, recognizer, in: penArena)
                recognizer.unchecked.composition.inputKind = .pen
            }
        }
        guard !penArena.unchecked.entries.isEmpty else { return false }
        let point = TouchPoint(id: Self.penTouchID, device: event.device, location: event.location,
                               surfaceLocation: focus?.convert(event.location) ?? .zero,
                               startLocation: event.location, startTime: event.time)
        show(in: router, penArena, .penDown) { showEmulated(in: router, $0, point, .began, time: event.time) }
        return notePenTaken(in: router, focus: focus, time: event.time)
    }

    /// Whether `event` belongs to the stroke the pen arena follows.
    func followsPenStroke(_ event: PenEvent) -> Bool {
        guard !penArena.unchecked.entries.isEmpty, let tool = unchecked.penStroke.tool else { return false }
        return unchecked.penStroke.device == event.device && tool.kind == event.tool.kind && tool.serial == event.tool.serial
    }

    /// The stroke's motion for the pen arena. Returns true when a recognizer has taken the
    /// stroke: the motion goes no further.
    func movePenStroke(in router: Router, _ event: PenEvent, focus: Surface?) -> Bool {
        let surfaceLocation = focus?.convert(event.location) ?? .zero
        show(in: router, penArena, .penMoved) { recognizer in
            guard var point = recognizer.unchecked.composition.emulatedTouch else { return }
            point.location = event.location
            point.surfaceLocation = surfaceLocation
            showEmulated(in: router, recognizer, point, .moved, time: event.time)
        }
        return notePenTaken(in: router, focus: focus, time: event.time)
    }

    /// The tip lifted: the arena's recognizers see the touch end, then the arena closes.
    /// Returns true when a recognizer took the stroke (the responders get no up: those that
    /// saw the down were told a cancelled up when it was taken).
    func endPenStroke(in router: Router, _ event: PenEvent, focus: Surface?) -> Bool {
        let surfaceLocation = focus?.convert(event.location) ?? .zero
        // Once taken, the stroke stays taken for this up (the responders were told a
        // cancelled up: they must not hear the up as well), whenever a recognizer takes it
        // below, even if a handler ends the stroke's record meanwhile.
        var taken = unchecked.penStroke.taken
        var i = 0
        while i < penArena.unchecked.entries.count {
            let entry = penArena.unchecked.entries[i]
            i += 1
            guard entry.isCurrent, var point = entry.recognizer.unchecked.composition.emulatedTouch else { continue }
            point.location = event.location
            point.surfaceLocation = surfaceLocation
            if let trace = router.trace, !entry.recognizer.unchecked.storedState.isFinal {
                trace.record(.gestureSaw(entry.recognizer.description, .penUp))
            }
            showEmulated(in: router, entry.recognizer, point, .ended, time: event.time)
            taken = taken || unchecked.penStroke.taken
        }
        if unchecked.arenaRules.contains(.sweepAtEnd) {
            sweep(in: router, penArena)
            taken = taken || unchecked.penStroke.taken
        }
        taken = notePenTaken(in: router, focus: focus, time: event.time) || taken
        // Closing the arena settles the members left possible; one waiting for them to fail
        // may be recognized then, and take the stroke (seed 1301: the responders heard a
        // cancelled up, then the up).
        end(in: router, penArena)
        taken = taken || unchecked.penStroke.taken
        unchecked.penStroke = PenStrokeGestures()
        return taken
    }

    /// The stroke stopped short (proximity out, its surface or tablet gone, the next down):
    /// its recognizers see the touch cancelled.
    func cancelPenStroke(in router: Router) {
        guard !penArena.unchecked.entries.isEmpty else { return }
        end(in: router, penArena)
        unchecked.penStroke = PenStrokeGestures()
    }

    /// Ends the stroke the pen arena follows if it is `tool`'s on `device` (`nil`: any), as
    /// cancelled for its recognizers. Returns whether a recognizer had taken it (its surface
    /// was told a cancelled up then, and must not be told again).
    func stopPenStroke(in router: Router, device: DeviceID?, tool: PenTool?) -> Bool {
        guard !penArena.unchecked.entries.isEmpty, let strokeTool = unchecked.penStroke.tool else { return false }
        if let device, device != unchecked.penStroke.device { return false }
        if let tool, tool.kind != strokeTool.kind || tool.serial != strokeTool.serial { return false }
        let taken = unchecked.penStroke.taken
        cancelPenStroke(in: router)
        return taken
    }

    /// A recognizer of the pen arena began or was recognized (from ``commit``): the stroke is
    /// taken from the responders now, also when that happens at a timer (a long press).
    func penArenaRecognizerCommitted(in router: Router, _ recognizer: GestureRecognizer) {
        guard !unchecked.penStroke.taken, recognizer.cancelsTouchesInView, penArena.contains(recognizer),
              let tool = unchecked.penStroke.tool else { return }
        let focus = router.penFocus(unchecked.penStroke.device, tool)
        _ = notePenTaken(in: router, focus: focus, time: router.clock.now)
    }

    /// Notes the first recognizer to take the stroke; if the responders saw its down, the
    /// stroke's surface and the link that handled the down are told a cancelled up (the
    /// stroke is the recognizer's now).
    private func notePenTaken(in router: Router, focus: Surface?, time: Timestamp) -> Bool {
        guard !unchecked.penStroke.taken else { return true }
        guard penArena.firstTaker() != nil else { return false }
        unchecked.penStroke.taken = true
        if unchecked.penStroke.seenByResponders, let focus, let tool = unchecked.penStroke.tool,
           let index = router.penIndex(unchecked.penStroke.device, tool) {
            router.tellPenStrokeTaken(index, focus: focus, time: time)
        }
        return true
    }
}
