/// How the router lets gesture recognizers see input first and settles their conflicts.
///
/// ```
///  touch down ─► arena: recognizers of the hit surface, its ancestors, its output
///  each frame, per phase (began, moved, ended):
///     1. every recognizer of the pending touches' arenas, once, with all its touches of
///        that phase (deepest first) ─► state changes and conflicts settle here
///     2. per bound surface, each touch:
///        ├─ taken by a recognizer             ─► responders get nothing more
///        ├─ a possible recognizer delays it,
///        │  or its surface has phases held    ─► held, in order
///        └─ otherwise                         ─► responder chain, as without recognizers
///  after the frame (or a recognizer's timer, or a cancel): held phases whose recognizers
///  all gave up go to the responders in order; those of taken touches are dropped
///  pointer: press that starts the implicit grab … last release ─► pointer arena
///  touchpad: libinput begin … end ─► touchpad arena
/// ```
extension Router {
    /// The DPI assumed when a device does not report its physical size: 96.
    public static let defaultFallbackDotsPerInch = 96.0

    /// Layout units per millimetre at a layout-space point for `device`: the output's
    /// logical size over the device's ``DeviceInfo/physicalSize`` when the device reports it
    /// (a touchscreen covering that output), else ``fallbackDotsPerInch`` / 25.4.
    public func unitsPerMillimetre(device: DeviceID, at point: LayoutPoint) -> Double {
        if let info = devices[device], let physical = info.physicalSize, physical.width > 0, physical.height > 0 {
            let output = deviceOutputs[device] ?? layout.output(at: point)
            if let output {
                // The panel's size is in its native orientation; so is the mode.
                let native = output.transform.transformedSize(output.logicalSize)
                return (native.width / physical.width + native.height / physical.height) / 2
            }
        }
        return fallbackDotsPerInch / 25.4
    }
}

extension Router {
    // What recognizers, surfaces and outputs ask of gesture coordination goes through the
    // router, which owns the coordinator.

    /// A recognizer set its state (the transition is already checked legal).
    func gestureRecognizer(_ recognizer: GestureRecognizer, requests newState: GestureRecognizerState) {
        gestures.gestureRecognizer(in: self, recognizer, requests: newState)
    }

    /// A recognizer's timer fired: held touches it released go out now, unless a frame is
    /// being dispatched (which settles them at its end).
    func settleAfterGestureTimer() { gestures.settleAfterGestureTimer(in: self) }

    /// A recognizer was removed from its surface or output.
    func gestureRecognizerWasDetached(_ recognizer: GestureRecognizer) {
        gestures.gestureRecognizerWasDetached(in: self, recognizer)
    }
}

/// Lets gesture recognizers see input before the responders and settles their conflicts:
/// the arenas of touches, the pointer's implicit grab and touchpad gestures; the queue of
/// touch phases held back from the responders; require-to-fail and exclusion.
///
/// The router owns one and calls it at each step of its flow (see ``Router``); every call
/// passes the router, which the coordinator calls back for what the router owns: the
/// touches, chain walks, actions, the trace and the clock. It keeps no reference to the
/// router. One thread, like the router; its arrays are reused, so a warm one allocates
/// nothing per event.
final class GestureCoordinator {
    /// Arenas of finished touches, reused.
    @exclusivity(unchecked) var arenaPool: [GestureArena] = []
    /// Recognizers that have seen input since their last reset.
    @exclusivity(unchecked) var engagedRecognizers: [GestureRecognizer] = []
    /// Recognizers whose recognition waits for others they require to fail.
    @exclusivity(unchecked) var waitingRecognizers: [GestureRecognizer] = []
    /// Touch phases held back from the responders, in the order they happened.
    @exclusivity(unchecked) var heldTouches: [HeldTouch] = []
    @exclusivity(unchecked) var gestureScratch: [TouchPoint] = []
    @exclusivity(unchecked) var heldScratch: [TouchPoint] = []
    /// Held phases being released together (one frame, phase and surface).
    @exclusivity(unchecked) var releaseGroup: [HeldTouch] = []
    /// Marks recognizers shown a phase in the current pass (each sees it once).
    @exclusivity(unchecked) var gesturePassMark: UInt64 = 0
    @exclusivity(unchecked) var isSettlingGestures = false
    /// The recognizers following the current touchpad gesture.
    let touchpadArena = GestureArena()
    @exclusivity(unchecked) var touchpadGestureTaken = false
    @exclusivity(unchecked) var touchpadGestureSeenByResponders = false
    /// The recognizers following the pointer's implicit grab (first press to last release).
    let pointerArena = GestureArena()
    @exclusivity(unchecked) var pointerGestureTaken = false
    @exclusivity(unchecked) var pointerPressSeenByResponders = false
}

extension GestureCoordinator {
    // MARK: Arenas

    /// The arena of a new touch, or `nil` when no recognizer takes part (then the touch is
    /// routed exactly as without recognizers).
    func makeArena(in router: Router, surface: Surface?, output: Output?, touch: TouchPoint) -> GestureArena? {
        var arena: GestureArena?
        forEachRecognizer(of: surface, output: output) { recognizer in join(in: router, recognizer, arena: &arena, touch: touch) }
        return arena
    }

    /// Calls `body` with the recognizers of `surface` and its ancestors, deepest first, then
    /// with those of `output`: the order in which they join an arena.
    private func forEachRecognizer(of surface: Surface?, output: Output?, _ body: (GestureRecognizer) -> Void) {
        var node = surface
        while let current = node {
            current.gestureRecognizers.scan(body)
            node = current.parent
        }
        output?.gestureRecognizers.scan(body)
    }

    private func join(in router: Router, _ recognizer: GestureRecognizer, arena: inout GestureArena?, touch: TouchPoint) {
        guard recognizer.isEnabled, recognizer.receivesTouches, !recognizer.storedState.isFinal,
              recognizer.pendingState == nil else { return }
        if let delegate = recognizer.delegate, !delegate.gestureRecognizer(recognizer, shouldReceive: touch) { return }
        let joined = arena ?? (arenaPool.popLast() ?? GestureArena())
        arena = joined
        joined.entries.append(GestureArena.Entry(recognizer: recognizer, generation: recognizer.generation))
        engage(in: router, recognizer)
    }

    private func engage(in router: Router, _ recognizer: GestureRecognizer) {
        guard !recognizer.isEngaged else { return }
        recognizer.isEngaged = true
        recognizer.engagedRouter = router
        engagedRecognizers.append(recognizer)
    }

    func recycleArena(of sequence: TouchSequence) {
        guard let arena = sequence.arena else { return }
        arena.clear()
        arenaPool.append(arena)
        sequence.arena = nil
    }

    // MARK: Touch delivery

    /// Shows one phase of a frame to every recognizer of the pending touches' arenas, each
    /// once, with all of its touches of that phase whatever surface they are bound to (a
    /// three-finger swipe spans surfaces). Runs before any responder sees the phase.
    func deliverToRecognizers(in router: Router, _ phase: TouchPhase, time: Timestamp) {
        router.touchLoops += 1
        defer { router.touchLoops -= 1 }
        gesturePassMark &+= 1
        let pass = gesturePassMark
        var sequenceIndex = 0
        while sequenceIndex < router.activeTouches.count {
            let sequence = router.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard router.isDue(sequence, phase) else { continue }
            guard let arena = sequence.arena else { continue }
            var e = 0
            while e < arena.entries.count {
                let entry = arena.entries[e]
                e += 1
                guard entry.isCurrent && entry.recognizer.passMark != pass else { continue }
                let recognizer = entry.recognizer
                recognizer.passMark = pass
                gestureScratch.removeAll(keepingCapacity: true)
                var otherIndex = 0
                while otherIndex < router.activeTouches.count {
                    let other = router.activeTouches[otherIndex]
                    otherIndex += 1
                    guard router.isDue(other, phase) else { continue }
                    if let a = other.arena, a.contains(recognizer) {
                        gestureScratch.append(other.point(surfaceOrigin: other.surface?.layoutOrigin))
                    }
                }
                let event = TouchEvent(time: time, touches: gestureScratch)
                if recognizer.storedState.isFinal {
                    // Settled already: only keep its bookkeeping of the touches.
                    if phase == .ended {
                        recognizer.forgetTouches(event)
                        resetIfSettled(in: router, recognizer)
                    }
                    continue
                }
                if let trace = router.trace { trace.record(.gestureSaw(recognizer.description, phase.kind)) }
                switch phase {
                case .began: recognizer.beginTouches(event)
                case .moved: recognizer.moveTouches(event)
                case .ended:
                    recognizer.endTouches(event)
                    resetIfSettled(in: router, recognizer)
                }
            }
        }
    }

    /// Rebuilds `router.touchScratch` with the grouped touches that go on to the responders; the
    /// others are marked withheld: taken ones are dropped, delayed ones join the held queue.
    func withholdTouches(in router: Router, _ phase: TouchPhase, mark: UInt64, surface: Surface?, origin: LayoutPoint?, time: Timestamp) {
        router.touchScratch.removeAll(keepingCapacity: true)
        var sequenceIndex = 0
        while sequenceIndex < router.activeTouches.count {
            let sequence = router.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard sequence.mark == mark && sequence.surface === surface && !sequence.finished else { continue }
            if sequence.taken {
                sequence.withheld = true
                continue
            }
            if sequence.heldCount > 0 || hasHeldTouch(boundTo: surface) || hasHeldTouch(withID: sequence.id) {
                // Behind held phases of its own, of its surface's other touches, or of an
                // earlier touch with its ID (a reused slot whose end is held): keep the
                // order in which they happened.
                sequence.withheld = true
                hold(in: router, sequence, phase, origin: origin, time: time, by: nil)
                continue
            }
            if let delaying = delayingRecognizer(sequence, phase) {
                sequence.withheld = true
                hold(in: router, sequence, phase, origin: origin, time: time, by: delaying)
                continue
            }
            sequence.withheld = false
            router.touchScratch.append(sequence.point(surfaceOrigin: origin))
        }
    }

    private func hasHeldTouch(withID id: TouchID) -> Bool {
        var i = 0
        while i < heldTouches.count {
            if heldTouches[i].sequence.id == id { return true }
            i += 1
        }
        return false
    }

    private func hasHeldTouch(boundTo surface: Surface?) -> Bool {
        var i = 0
        while i < heldTouches.count {
            if heldTouches[i].sequence.surface === surface { return true }
            i += 1
        }
        return false
    }

    /// A recognizer of the touch's arena that is still possible and wants `phase` held.
    func delayingRecognizer(_ sequence: TouchSequence, _ phase: TouchPhase) -> GestureRecognizer? {
        guard let arena = sequence.arena else { return nil }
        var i = 0
        while i < arena.entries.count {
            let entry = arena.entries[i]
            i += 1
            guard entry.isCurrent else { continue }
            let r = entry.recognizer
            guard r.storedState == .possible else { continue }
            if r.delaysTouchesBegan || (phase == .ended && r.delaysTouchesEnded) { return r }
        }
        return nil
    }

    private func hold(in router: Router, _ sequence: TouchSequence, _ phase: TouchPhase, origin: LayoutPoint?, time: Timestamp, by recognizer: GestureRecognizer?) {
        let point = sequence.point(surfaceOrigin: origin)
        if phase == .ended { sequence.endedPending = false }
        if let trace = router.trace {
            trace.record(.touchDelayed(sequence.id, phase.kind, by: recognizer?.description ?? "earlier held phases on its surface"))
        }
        // Consecutive moves of a held touch collapse into the latest one.
        if phase == .moved, sequence.heldCount > 0 {
            var last = heldTouches.count - 1
            while last >= 0 && heldTouches[last].sequence !== sequence { last -= 1 }
            if last >= 0 && heldTouches[last].phase == .moved {
                heldTouches[last].point = point
                heldTouches[last].time = time
                return
            }
        }
        heldTouches.append(HeldTouch(sequence: sequence, phase: phase, point: point, time: time, frame: router.touchFrameCount))
        sequence.heldCount += 1
    }

    /// Withdraws the touches of `recognizer`'s arenas from the responders: each responder
    /// that saw one is told `touchesCancelled`, once.
    private func takeTouches(in router: Router, for recognizer: GestureRecognizer) {
        guard recognizer.cancelsTouchesInView else { return }
        router.touchLoops += 1
        defer { router.touchLoops -= 1 }
        var sequenceIndex = 0
        while sequenceIndex < router.activeTouches.count {
            let sequence = router.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard !sequence.finished && !sequence.taken else { continue }
            guard let arena = sequence.arena, arena.contains(recognizer) else { continue }
            sequence.taken = true
            if let trace = router.trace { trace.record(.touchTaken(sequence.id, by: recognizer.description)) }
            guard !sequence.seen.isEmpty else { continue }
            heldScratch.removeAll(keepingCapacity: true)
            heldScratch.append(sequence.point(surfaceOrigin: sequence.surface?.layoutOrigin))
            let event = TouchEvent(time: router.clock.now, touches: heldScratch)
            // The links are taken out of the sequence before any is told: a cancel handler
            // that removes or cancels must not find them again (one cancel per link).
            var links = router.linkBuffers.popLast() ?? []
            swap(&links, &sequence.seen)
            var linkIndex = 0
            while linkIndex < links.count {
                let link = links[linkIndex]
                linkIndex += 1
                guard let responder = router.responder(for: link) else { continue }
                responder.touchesCancelled(event, context: ResponderContext(router: router, link: link, target: sequence.surface))
                router.trace?.record(.told(TraceSubject(link), .touchesCancelled))
            }
            links.removeAll(keepingCapacity: true)
            router.linkBuffers.append(links)
        }
    }

    /// Tells the recognizers of a cancelled touch's arena; those left without touches that
    /// did not settle are made to (in progress → cancelled, possible → failed).
    func cancelRecognizers(in router: Router, of sequence: TouchSequence, time: Timestamp) {
        guard let arena = sequence.arena else { return }
        var entryIndex = 0
        while entryIndex < arena.entries.count {
            let entry = arena.entries[entryIndex]
            entryIndex += 1
            guard entry.isCurrent else { continue }
            let recognizer = entry.recognizer
            guard recognizer.touches.scanIndex(where: { $0.id == sequence.id }) != nil else { continue }
            gestureScratch.removeAll(keepingCapacity: true)
            gestureScratch.append(sequence.point(surfaceOrigin: sequence.surface?.layoutOrigin))
            let event = TouchEvent(time: time, touches: gestureScratch)
            if recognizer.storedState.isFinal {
                recognizer.forgetTouches(event)
            } else {
                if let trace = router.trace { trace.record(.gestureSaw(recognizer.description, .touchesCancelled)) }
                recognizer.cancelTouches(event)
                if recognizer.touches.isEmpty { forceSettle(in: router, recognizer) }
            }
            resetIfSettled(in: router, recognizer)
        }
    }

    /// Moves a recognizer that can no longer go on to its end: cancelled if in progress,
    /// failed if possible.
    private func forceSettle(in router: Router, _ recognizer: GestureRecognizer) {
        if recognizer.storedState.isInProgress {
            commit(in: router, recognizer, .cancelled)
        } else if recognizer.storedState == .possible {
            gestureRecognizer(in: router, recognizer, requests: .failed)
        }
    }

    // MARK: Held touches

    /// Delivers held phases whose recognizers have all given up, in the order they were
    /// held; drops those of taken or finished touches. Called at the end of a frame, after a
    /// recognizer's timer and after cancels.
    func settleGestures(in router: Router) {
        guard !heldTouches.isEmpty, !isSettlingGestures else { return }
        isSettlingGestures = true
        router.touchLoops += 1
        var releasedAny = false
        var write = 0
        var i = 0
        while i < heldTouches.count {
            let entry = heldTouches[i]
            i += 1
            let sequence = entry.sequence
            if sequence.finished || sequence.taken {
                sequence.heldCount -= 1
                if let trace = router.trace { trace.record(.heldTouchDropped(sequence.id, entry.phase.kind, reason: sequence.taken ? "taken by a recognizer" : "touch cancelled")) }
                if entry.phase == .ended { sequence.finished = true }
                continue
            }
            if sequence.flushBlocked || delayingRecognizer(sequence, entry.phase) != nil
                || keptEntry(boundTo: sequence.surface, withID: sequence.id, before: write) {
                sequence.flushBlocked = true
                heldTouches[write] = entry
                write += 1
                continue
            }
            sequence.heldCount -= 1
            // Phases of one frame, one phase and one surface go out as one event.
            if let first = releaseGroup.first,
               first.frame != entry.frame || first.phase != entry.phase || first.sequence.surface !== sequence.surface {
                deliverReleaseGroup(in: router)
            }
            releaseGroup.append(entry)
            releasedAny = true
        }
        deliverReleaseGroup(in: router)
        while heldTouches.count > write { heldTouches.removeLast() }
        var k = 0
        while k < heldTouches.count {
            heldTouches[k].sequence.flushBlocked = false
            k += 1
        }
        isSettlingGestures = false
        router.touchLoops -= 1
        if !router.isDispatchingTouches {
            router.compactTouches()
            // Held touches released outside a frame (a timer, a cancel) close their own.
            if releasedAny && !router.isClosingTouchFrame && !router.touchFrameObservers.isEmpty { router.touchFrameDidFinish() }
        }
    }

    /// True when one of the first `count` entries (those kept so far) is bound to `surface`
    /// or has touch ID `id`: a surface's held phases, and those of one ID, go out in order or
    /// not at all.
    private func keptEntry(boundTo surface: Surface?, withID id: TouchID, before count: Int) -> Bool {
        var i = 0
        while i < count {
            let kept = heldTouches[i].sequence
            if kept.surface === surface || kept.id == id { return true }
            i += 1
        }
        return false
    }

    /// Delivers `releaseGroup` (held phases of one frame, phase and surface) as one event,
    /// then empties it.
    private func deliverReleaseGroup(in router: Router) {
        guard !releaseGroup.isEmpty else { return }
        let lead = releaseGroup[0]
        let surface = lead.sequence.surface
        let phase = lead.phase
        heldScratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < releaseGroup.count {
            let entry = releaseGroup[i]
            i += 1
            if let trace = router.trace { trace.record(.touchReleased(entry.sequence.id, phase.kind)) }
            heldScratch.append(entry.point)
        }
        let event = TouchEvent(time: releaseGroup[releaseGroup.count - 1].time, touches: heldScratch)
        if phase == .ended {
            var j = 0
            while j < releaseGroup.count {
                releaseGroup[j].sequence.isEnding = true
                j += 1
            }
        }
        let handled = router.walkChain(from: surface, target: surface, kind: phase.kind,
                                stopIf: { releaseGroupIsOver() }) { responder, context in
            var j = 0
            while j < releaseGroup.count {
                releaseGroup[j].sequence.noteSeen(context.link)
                j += 1
            }
            switch phase {
            case .began: return responder.touchesBegan(event, context: context)
            case .moved: return responder.touchesMoved(event, context: context)
            case .ended: return responder.touchesEnded(event, context: context)
            }
        }
        if !handled && !releaseGroupIsOver() {
            switch phase {
            case .began: router.reportDropped(.touchesBegan, .touchesBegan(event))
            case .moved: router.reportDropped(.touchesMoved, .touchesMoved(event))
            case .ended: router.reportDropped(.touchesEnded, .touchesEnded(event))
            }
        }
        if phase == .ended {
            var j = 0
            while j < releaseGroup.count {
                releaseGroup[j].sequence.finished = true
                j += 1
            }
        }
        releaseGroup.removeAll(keepingCapacity: true)
    }

    /// Every touch of the group being released was cancelled or taken meanwhile.
    private func releaseGroupIsOver() -> Bool {
        var j = 0
        while j < releaseGroup.count {
            let sequence = releaseGroup[j].sequence
            if !sequence.finished && !sequence.taken { return false }
            j += 1
        }
        return true
    }

    /// Forgets the held phases of a sequence going back to the pool.
    func purgeHeld(of sequence: TouchSequence) {
        guard sequence.heldCount > 0 else { return }
        heldTouches.removeAll { $0.sequence === sequence }
        sequence.heldCount = 0
    }

    func settleAfterGestureTimer(in router: Router) {
        if !router.isDispatchingTouches { settleGestures(in: router) }
    }

    // MARK: State machine and coordination

    /// A recognizer set its state (the transition is already checked legal). Applies
    /// require-to-fail, the delegate's veto and exclusion between conflicting recognizers.
    func gestureRecognizer(in router: Router, _ recognizer: GestureRecognizer, requests newState: GestureRecognizerState) {
        switch newState {
        case .began, .recognized:
            if recognizer.pendingState == newState { return }
            if let delegate = recognizer.delegate, !delegate.gestureRecognizerShouldBegin(recognizer) {
                refuse(in: router, recognizer, newState, reason: "its delegate said no")
                return
            }
            switch failureRequirementStatus(recognizer) {
            case .recognized(let other):
                refuse(in: router, recognizer, newState, reason: "\(other.name), which it requires to fail, was recognized")
                return
            case .possible(let other):
                if recognizer.pendingState == nil {
                    waitingRecognizers.append(recognizer)
                    if let trace = router.trace { trace.record(.gestureDeferred(recognizer.description, waitingFor: other.description)) }
                }
                recognizer.pendingState = newState
                return
            case .failedOrIdle:
                break
            }
            if let rival = rivalInProgress(in: router, recognizer) {
                refuse(in: router, recognizer, newState, reason: "\(rival.name) is in progress")
                return
            }
            stopWaiting(recognizer)
            commit(in: router, recognizer, newState)
            failConflictingPeers(in: router, of: recognizer)
        case .failed:
            stopWaiting(recognizer)
            commit(in: router, recognizer, .failed)
        default:
            commit(in: router, recognizer, newState)
        }
    }

    private enum RequirementStatus {
        case failedOrIdle
        case possible(GestureRecognizer)
        case recognized(GestureRecognizer)
    }

    private func failureRequirementStatus(_ recognizer: GestureRecognizer) -> RequirementStatus {
        var requirementIndex = 0
        while requirementIndex < recognizer.failureRequirements.count {
            let other = recognizer.failureRequirements[requirementIndex]
            requirementIndex += 1
            guard other.isEngaged else { continue }
            switch other.storedState {
            case .failed: continue
            case .possible: return .possible(other)
            case .began, .changed, .ended, .cancelled, .recognized: return .recognized(other)
            }
        }
        return .failedOrIdle
    }

    /// Makes `recognizer` fail. The reason is built only when tracing is on.
    private func refuse(in router: Router, _ recognizer: GestureRecognizer, _ requested: GestureRecognizerState, reason: @autoclosure () -> String) {
        if let trace = router.trace { trace.record(.gestureRefused(recognizer.description, requested, reason: reason())) }
        stopWaiting(recognizer)
        commit(in: router, recognizer, .failed)
    }

    private func stopWaiting(_ recognizer: GestureRecognizer) {
        guard recognizer.pendingState != nil else { return }
        recognizer.pendingState = nil
        if let index = waitingRecognizers.scanIndex(where: { $0 === recognizer }) { waitingRecognizers.remove(at: index) }
    }

    /// Sets the state, then: a recognition takes the touches and fails those waiting for
    /// this one to fail; a failure lets them try again. Targets and the action follow.
    private func commit(in router: Router, _ recognizer: GestureRecognizer, _ newState: GestureRecognizerState) {
        let old = recognizer.storedState
        recognizer.storedState = newState
        if let trace = router.trace { trace.record(.gestureState(recognizer.description, from: old, to: newState)) }
        switch newState {
        case .began, .recognized:
            takeTouches(in: router, for: recognizer)
            resolveWaiters(in: router, on: recognizer, failed: false)
        case .failed:
            resolveWaiters(in: router, on: recognizer, failed: true)
        default:
            break
        }
        var t = 0
        while t < recognizer.targets.count {
            recognizer.targets[t](recognizer)
            t += 1
        }
        if newState == .recognized || newState == .ended, let action = recognizer.action {
            if let surface = recognizer.surface, surface.isAttached, surface.responder.canPerform(action) {
                router.sendAction(action, to: surface)
            } else {
                router.sendAction(action)
            }
        }
        resetIfSettled(in: router, recognizer)
    }

    private func resolveWaiters(in router: Router, on recognizer: GestureRecognizer, failed: Bool) {
        var i = 0
        while i < waitingRecognizers.count {
            let waiter = waitingRecognizers[i]
            guard waiter.failureRequirements.scanIndex(where: { $0 === recognizer }) != nil, let pending = waiter.pendingState else {
                i += 1
                continue
            }
            if failed {
                if case .possible = failureRequirementStatus(waiter) {
                    i += 1
                    continue
                }
                waiter.pendingState = nil
                waitingRecognizers.remove(at: i)
                gestureRecognizer(in: router, waiter, requests: pending)
            } else {
                refuse(in: router, waiter, pending, reason: "\(recognizer.name), which it requires to fail, was recognized")
            }
            // The list may have changed under us; start over (it is short).
            i = 0
        }
    }

    /// Calls `body` with every other current recognizer sharing an arena with `recognizer`.
    private func forEachPeer(in router: Router, of recognizer: GestureRecognizer, _ body: (GestureRecognizer) -> Bool) -> GestureRecognizer? {
        var sequenceIndex = 0
        while sequenceIndex < router.activeTouches.count {
            let sequence = router.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard !sequence.finished else { continue }
            if let peer = sequence.arena?.firstPeer(of: recognizer, where: body) { return peer }
        }
        if let peer = pointerArena.firstPeer(of: recognizer, where: body) { return peer }
        return touchpadArena.firstPeer(of: recognizer, where: body)
    }

    private func rivalInProgress(in router: Router, _ recognizer: GestureRecognizer) -> GestureRecognizer? {
        forEachPeer(in: router, of: recognizer) { other in
            other.storedState.isInProgress && recognizer.conflicts(with: other)
        }
    }

    private func failConflictingPeers(in router: Router, of recognizer: GestureRecognizer) {
        _ = forEachPeer(in: router, of: recognizer) { other in
            if other.storedState == .possible && recognizer.conflicts(with: other) {
                if let trace = router.trace { trace.record(.gestureRefused(other.description, .possible, reason: "\(recognizer.name) began")) }
                gestureRecognizer(in: router, other, requests: .failed)
            }
            return false
        }
    }

    func resetIfSettled(in router: Router, _ recognizer: GestureRecognizer) {
        if recognizer.isSettled { resetRecognizer(in: router, recognizer) }
    }

    private func resetRecognizer(in router: Router, _ recognizer: GestureRecognizer) {
        recognizer.timers.scan { token in router.clock.cancel(token) }
        recognizer.timers.removeAll(keepingCapacity: true)
        recognizer.deadlines.removeAll(keepingCapacity: true)
        stopWaiting(recognizer)
        recognizer.storedState = .possible
        recognizer.generation &+= 1
        recognizer.touches.removeAll(keepingCapacity: true)
        recognizer.followsPointerOrTouchpad = false
        recognizer.engagedRouter = nil
        if recognizer.isEngaged {
            recognizer.isEngaged = false
            if let index = engagedRecognizers.scanIndex(where: { $0 === recognizer }) { engagedRecognizers.remove(at: index) }
        }
        if let trace = router.trace { trace.record(.gestureReset(recognizer.description)) }
        recognizer.reset()
        // Someone may have been waiting for this one, and an idle recognizer counts as failed.
        resolveIdleRequirement(in: router, recognizer)
    }

    private func resolveIdleRequirement(in router: Router, _ recognizer: GestureRecognizer) {
        var i = 0
        while i < waitingRecognizers.count {
            let waiter = waitingRecognizers[i]
            if waiter.failureRequirements.scanIndex(where: { $0 === recognizer }) != nil, let pending = waiter.pendingState,
               !waiterStillBlocked(waiter) {
                waiter.pendingState = nil
                waitingRecognizers.remove(at: i)
                gestureRecognizer(in: router, waiter, requests: pending)
                i = 0
            } else {
                i += 1
            }
        }
    }

    private func waiterStillBlocked(_ waiter: GestureRecognizer) -> Bool {
        if case .possible = failureRequirementStatus(waiter) { return true }
        return false
    }

    /// Ends recognizers whose surface or output left this router: cancelled if in progress,
    /// failed if possible, then reset.
    func abortDetachedRecognizers(in router: Router) {
        var i = engagedRecognizers.count
        while i > 0 {
            i -= 1
            guard i < engagedRecognizers.count else { continue }
            let recognizer = engagedRecognizers[i]
            guard recognizer.router !== router else { continue }
            abort(in: router, recognizer, reason: "its surface was removed")
        }
    }

    func gestureRecognizerWasDetached(in router: Router, _ recognizer: GestureRecognizer) {
        if recognizer.isEngaged || recognizer.storedState != .possible {
            abort(in: router, recognizer, reason: "removed from its surface")
        }
        if !router.isDispatchingTouches { settleGestures(in: router) }
    }

    /// Stops a recognizer at once (detached or removed from its surface).
    func abort(in router: Router, _ recognizer: GestureRecognizer, reason: String) {
        if let trace = router.trace { trace.record(.gestureRefused(recognizer.description, recognizer.storedState, reason: reason)) }
        recognizer.touches.removeAll(keepingCapacity: true)
        recognizer.followsPointerOrTouchpad = false
        if recognizer.storedState.isInProgress {
            commit(in: router, recognizer, .cancelled)
        } else if recognizer.storedState == .possible {
            stopWaiting(recognizer)
            commit(in: router, recognizer, .failed)
        }
        if recognizer.storedState != .possible || recognizer.isEngaged { resetRecognizer(in: router, recognizer) }
    }

    // MARK: Pointer presses

    /// Opens the pointer arena at the press that starts the implicit grab: the recognizers
    /// of the focus, its ancestors and its output that take pointer events.
    func beginPointerArena(in router: Router, focus: Surface?) {
        endPointerArena(in: router)
        pointerGestureTaken = false
        pointerPressSeenByResponders = false
        forEachRecognizer(of: focus, output: focus?.output ?? router.layout.output(at: router.pointerLocation)) { recognizer in
            if recognizer.receivesPointerEvents { follow(in: router, recognizer, in: pointerArena) }
        }
    }

    /// Shows a button to the pointer arena's recognizers. Returns true when the responders
    /// must not see it: a recognizer has taken the press, and the responders did not see the
    /// press (a release always follows a press they saw, so no client keeps a stuck button).
    func deliverPointerButtonToRecognizers(in router: Router, _ event: PointerButtonEvent) -> Bool {
        show(in: router, pointerArena, .pointerButton) { $0.pointerButton(event) }
        notePointerTaken(in: router)
        if event.state == .released { return pointerGestureTaken && !pointerPressSeenByResponders }
        return pointerGestureTaken
    }

    /// Shows motion to the pointer arena's recognizers; true when a recognizer has taken the
    /// press, so the motion goes no further.
    func deliverPointerMotionToRecognizers(in router: Router, _ event: PointerMotionEvent) -> Bool {
        show(in: router, pointerArena, .pointerMoved) { $0.pointerMoved(event) }
        notePointerTaken(in: router)
        return pointerGestureTaken
    }

    private func notePointerTaken(in router: Router) {
        guard !pointerGestureTaken, let taker = pointerArena.firstTaker() else { return }
        pointerGestureTaken = true
        if let trace = router.trace { trace.record(.pointerPressTaken(by: taker.description)) }
    }

    func endPointerArena(in router: Router) { end(in: router, pointerArena) }

    // MARK: Arenas that follow the pointer or the touchpad

    /// Adds an enabled, unsettled recognizer to the pointer or touchpad arena, which it then
    /// follows until that arena ends.
    private func follow(in router: Router, _ recognizer: GestureRecognizer, in arena: GestureArena) {
        guard recognizer.isEnabled, !recognizer.storedState.isFinal, recognizer.pendingState == nil else { return }
        arena.entries.append(GestureArena.Entry(recognizer: recognizer, generation: recognizer.generation))
        recognizer.followsPointerOrTouchpad = true
        engage(in: router, recognizer)
    }

    /// Shows an event to each recognizer still in `arena` that has not settled, in order.
    private func show(in router: Router, _ arena: GestureArena, _ kind: RoutedEventKind, to body: (GestureRecognizer) -> Void) {
        var i = 0
        while i < arena.entries.count {
            let entry = arena.entries[i]
            i += 1
            guard entry.isCurrent, !entry.recognizer.storedState.isFinal else { continue }
            if let trace = router.trace { trace.record(.gestureSaw(entry.recognizer.description, kind)) }
            body(entry.recognizer)
        }
    }

    /// Ends the pointer or touchpad arena: its recognizers stop following it, are made to
    /// settle, and reset once settled.
    private func end(in router: Router, _ arena: GestureArena) {
        guard !arena.entries.isEmpty else { return }
        var i = 0
        while i < arena.entries.count {
            let entry = arena.entries[i]
            i += 1
            guard entry.isCurrent else { continue }
            entry.recognizer.followsPointerOrTouchpad = false
            forceSettle(in: router, entry.recognizer)
            resetIfSettled(in: router, entry.recognizer)
        }
        arena.clear()
    }

    // MARK: Touchpad gestures

    /// Shows a touchpad gesture event to the recognizers of the pointer focus's subtree and
    /// output. Returns true when one of them has taken the gesture from the responders.
    func deliverTouchpadGestureToRecognizers(in router: Router, _ event: TouchpadGestureEvent, focus: Surface?) -> Bool {
        if case .begin = event.gesture.phase {
            end(in: router, touchpadArena)
            touchpadGestureTaken = false
            touchpadGestureSeenByResponders = false
            forEachRecognizer(of: focus, output: focus?.output ?? router.layout.output(at: event.location)) { recognizer in
                if recognizer.receivesTouchpadGestures { follow(in: router, recognizer, in: touchpadArena) }
            }
        }
        guard !touchpadArena.entries.isEmpty else { return false }
        show(in: router, touchpadArena, .touchpadGesture) { $0.touchpadGesture(event) }
        if !touchpadGestureTaken, let taker = touchpadArena.firstTaker() {
            touchpadGestureTaken = true
            if let trace = router.trace { trace.record(.touchpadGestureTaken(by: taker.description)) }
            if touchpadGestureSeenByResponders {
                // Responders saw its start: end it for them, as libinput ends a cancelled one.
                var ending = event
                ending.gesture.phase = .end(cancelled: true)
                _ = router.walkChain(from: focus, target: focus, kind: .touchpadGesture) { responder, context in
                    responder.touchpadGesture(ending, context: context)
                }
            }
        }
        let taken = touchpadGestureTaken
        if case .end = event.gesture.phase { end(in: router, touchpadArena) }
        return taken
    }

    func noteTouchpadGestureDelivered() { touchpadGestureSeenByResponders = true }
}
