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
        if let info = unchecked.state.devices[device], let physical = info.physicalSize, physical.width > 0, physical.height > 0 {
            let output = unchecked.state.deviceOutputs[device] ?? unchecked.state.layout.output(at: point)
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
    /// The hot state, exempt from run-time exclusivity checks (`Unchecked`: rules in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// Arenas of finished touches, reused.
        var arenaPool: [GestureArena] = []
        /// Recognizers that have seen input since their last reset.
        var engagedRecognizers: [GestureRecognizer] = []
        /// Recognizers whose recognition waits for others they require to fail.
        var waitingRecognizers: [GestureRecognizer] = []
        /// Touch phases held back from the responders, in the order they happened.
        var heldTouches: [HeldTouch] = []
        var gestureScratch: [TouchPoint] = []
        var heldScratch: [TouchPoint] = []
        /// Held phases being released together (one frame, phase and surface).
        var releaseGroup: [HeldTouch] = []
        /// Marks recognizers shown a phase in the current pass (each sees it once).
        var gesturePassMark: UInt64 = 0
        var isSettlingGestures = false
        var touchpadGestureTaken = false
        var touchpadGestureSeenByResponders = false
        var pointerGestureTaken = false
        var pointerPressSeenByResponders = false
    }

    let unchecked = Unchecked(HotState())

    /// The recognizers following the current touchpad gesture.
    let touchpadArena = GestureArena()
    /// The recognizers following the pointer's implicit grab (first press to last release).
    let pointerArena = GestureArena()
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
        guard recognizer.isEnabled, recognizer.receivesTouches, !recognizer.unchecked.state.storedState.isFinal,
              recognizer.unchecked.state.pendingState == nil else { return }
        if let delegate = recognizer.delegate, !delegate.gestureRecognizer(recognizer, shouldReceive: touch) { return }
        let joined = arena ?? (unchecked.state.arenaPool.popLast() ?? GestureArena())
        arena = joined
        joined.unchecked.state.entries.append(GestureArena.Entry(recognizer: recognizer, generation: recognizer.unchecked.state.generation))
        engage(in: router, recognizer)
    }

    private func engage(in router: Router, _ recognizer: GestureRecognizer) {
        guard !recognizer.unchecked.state.isEngaged else { return }
        recognizer.unchecked.state.isEngaged = true
        recognizer.engagedRouter = router
        unchecked.state.engagedRecognizers.append(recognizer)
    }

    func recycleArena(of sequence: TouchSequence) {
        guard let arena = sequence.unchecked.state.arena else { return }
        arena.clear()
        unchecked.state.arenaPool.append(arena)
        sequence.unchecked.state.arena = nil
    }

    // MARK: Touch delivery

    /// Shows one phase of a frame to every recognizer of the pending touches' arenas, each
    /// once, with all of its touches of that phase whatever surface they are bound to (a
    /// three-finger swipe spans surfaces). Runs before any responder sees the phase.
    func deliverToRecognizers(in router: Router, _ phase: TouchPhase, time: Timestamp) {
        router.unchecked.state.touchLoops += 1
        defer { router.unchecked.state.touchLoops -= 1 }
        unchecked.state.gesturePassMark &+= 1
        let pass = unchecked.state.gesturePassMark
        var sequenceIndex = 0
        while sequenceIndex < router.unchecked.state.activeTouches.count {
            let sequence = router.unchecked.state.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard router.isDue(sequence, phase) else { continue }
            guard let arena = sequence.unchecked.state.arena else { continue }
            var e = 0
            while e < arena.unchecked.state.entries.count {
                let entry = arena.unchecked.state.entries[e]
                e += 1
                guard entry.isCurrent && entry.recognizer.unchecked.state.passMark != pass else { continue }
                let recognizer = entry.recognizer
                recognizer.unchecked.state.passMark = pass
                unchecked.state.gestureScratch.removeAll(keepingCapacity: true)
                var otherIndex = 0
                while otherIndex < router.unchecked.state.activeTouches.count {
                    let other = router.unchecked.state.activeTouches[otherIndex]
                    otherIndex += 1
                    guard router.isDue(other, phase) else { continue }
                    if let a = other.unchecked.state.arena, a.contains(recognizer) {
                        unchecked.state.gestureScratch.append(other.point(surfaceOrigin: other.unchecked.state.surface?.layoutOrigin))
                    }
                }
                let event = TouchEvent(time: time, touches: unchecked.state.gestureScratch)
                if recognizer.unchecked.state.storedState.isFinal {
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
        router.unchecked.state.touchScratch.removeAll(keepingCapacity: true)
        var sequenceIndex = 0
        while sequenceIndex < router.unchecked.state.activeTouches.count {
            let sequence = router.unchecked.state.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard sequence.unchecked.state.mark == mark && sequence.unchecked.state.surface === surface && !sequence.unchecked.state.finished else { continue }
            if sequence.unchecked.state.taken {
                sequence.unchecked.state.withheld = true
                continue
            }
            if sequence.unchecked.state.heldCount > 0 || hasHeldTouch(boundTo: surface) || hasHeldTouch(withID: sequence.unchecked.state.id) {
                // Behind held phases of its own, of its surface's other touches, or of an
                // earlier touch with its ID (a reused slot whose end is held): keep the
                // order in which they happened.
                sequence.unchecked.state.withheld = true
                hold(in: router, sequence, phase, origin: origin, time: time, by: nil)
                continue
            }
            if let delaying = delayingRecognizer(sequence, phase) {
                sequence.unchecked.state.withheld = true
                hold(in: router, sequence, phase, origin: origin, time: time, by: delaying)
                continue
            }
            sequence.unchecked.state.withheld = false
            router.unchecked.state.touchScratch.append(sequence.point(surfaceOrigin: origin))
        }
    }

    private func hasHeldTouch(withID id: TouchID) -> Bool {
        var i = 0
        while i < unchecked.state.heldTouches.count {
            if unchecked.state.heldTouches[i].sequence.unchecked.state.id == id { return true }
            i += 1
        }
        return false
    }

    private func hasHeldTouch(boundTo surface: Surface?) -> Bool {
        var i = 0
        while i < unchecked.state.heldTouches.count {
            if unchecked.state.heldTouches[i].sequence.unchecked.state.surface === surface { return true }
            i += 1
        }
        return false
    }

    /// A recognizer of the touch's arena that is still possible and wants `phase` held.
    func delayingRecognizer(_ sequence: TouchSequence, _ phase: TouchPhase) -> GestureRecognizer? {
        guard let arena = sequence.unchecked.state.arena else { return nil }
        var i = 0
        while i < arena.unchecked.state.entries.count {
            let entry = arena.unchecked.state.entries[i]
            i += 1
            guard entry.isCurrent else { continue }
            let r = entry.recognizer
            guard r.unchecked.state.storedState == .possible else { continue }
            if r.delaysTouchesBegan || (phase == .ended && r.delaysTouchesEnded) { return r }
        }
        return nil
    }

    private func hold(in router: Router, _ sequence: TouchSequence, _ phase: TouchPhase, origin: LayoutPoint?, time: Timestamp, by recognizer: GestureRecognizer?) {
        let point = sequence.point(surfaceOrigin: origin)
        if phase == .ended { sequence.unchecked.state.endedPending = false }
        if let trace = router.trace {
            trace.record(.touchDelayed(sequence.unchecked.state.id, phase.kind, by: recognizer?.description ?? "earlier held phases on its surface"))
        }
        // Consecutive moves of a held touch collapse into the latest one.
        if phase == .moved, sequence.unchecked.state.heldCount > 0 {
            var last = unchecked.state.heldTouches.count - 1
            while last >= 0 && unchecked.state.heldTouches[last].sequence !== sequence { last -= 1 }
            if last >= 0 && unchecked.state.heldTouches[last].phase == .moved {
                unchecked.state.heldTouches[last].point = point
                unchecked.state.heldTouches[last].time = time
                return
            }
        }
        unchecked.state.heldTouches.append(HeldTouch(sequence: sequence, phase: phase, point: point, time: time, frame: router.unchecked.state.touchFrameCount))
        sequence.unchecked.state.heldCount += 1
    }

    /// Withdraws the touches of `recognizer`'s arenas from the responders: each responder
    /// that saw one is told `touchesCancelled`, once.
    private func takeTouches(in router: Router, for recognizer: GestureRecognizer) {
        guard recognizer.cancelsTouchesInView else { return }
        router.unchecked.state.touchLoops += 1
        defer { router.unchecked.state.touchLoops -= 1 }
        var sequenceIndex = 0
        while sequenceIndex < router.unchecked.state.activeTouches.count {
            let sequence = router.unchecked.state.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard !sequence.unchecked.state.finished && !sequence.unchecked.state.taken else { continue }
            guard let arena = sequence.unchecked.state.arena, arena.contains(recognizer) else { continue }
            sequence.unchecked.state.taken = true
            if let trace = router.trace { trace.record(.touchTaken(sequence.unchecked.state.id, by: recognizer.description)) }
            guard !sequence.unchecked.state.seen.isEmpty else { continue }
            unchecked.state.heldScratch.removeAll(keepingCapacity: true)
            unchecked.state.heldScratch.append(sequence.point(surfaceOrigin: sequence.unchecked.state.surface?.layoutOrigin))
            let event = TouchEvent(time: router.clock.now, touches: unchecked.state.heldScratch)
            // The links are taken out of the sequence before any is told: a cancel handler
            // that removes or cancels must not find them again (one cancel per link).
            var links = router.unchecked.state.linkBuffers.popLast() ?? []
            swap(&links, &sequence.unchecked.state.seen)
            var linkIndex = 0
            while linkIndex < links.count {
                let link = links[linkIndex]
                linkIndex += 1
                guard let responder = router.responder(for: link) else { continue }
                responder.touchesCancelled(event, context: ResponderContext(router: router, link: link, target: sequence.unchecked.state.surface))
                router.trace?.record(.told(TraceSubject(link), .touchesCancelled))
            }
            links.removeAll(keepingCapacity: true)
            router.unchecked.state.linkBuffers.append(links)
        }
    }

    /// Tells the recognizers of a cancelled touch's arena; those left without touches that
    /// did not settle are made to (in progress → cancelled, possible → failed).
    func cancelRecognizers(in router: Router, of sequence: TouchSequence, time: Timestamp) {
        guard let arena = sequence.unchecked.state.arena else { return }
        var entryIndex = 0
        while entryIndex < arena.unchecked.state.entries.count {
            let entry = arena.unchecked.state.entries[entryIndex]
            entryIndex += 1
            guard entry.isCurrent else { continue }
            let recognizer = entry.recognizer
            guard recognizer.unchecked.state.touches.scanIndex(where: { $0.id == sequence.unchecked.state.id }) != nil else { continue }
            unchecked.state.gestureScratch.removeAll(keepingCapacity: true)
            unchecked.state.gestureScratch.append(sequence.point(surfaceOrigin: sequence.unchecked.state.surface?.layoutOrigin))
            let event = TouchEvent(time: time, touches: unchecked.state.gestureScratch)
            if recognizer.unchecked.state.storedState.isFinal {
                recognizer.forgetTouches(event)
            } else {
                if let trace = router.trace { trace.record(.gestureSaw(recognizer.description, .touchesCancelled)) }
                recognizer.cancelTouches(event)
                if recognizer.unchecked.state.touches.isEmpty { forceSettle(in: router, recognizer) }
            }
            resetIfSettled(in: router, recognizer)
        }
    }

    /// Moves a recognizer that can no longer go on to its end: cancelled if in progress,
    /// failed if possible.
    private func forceSettle(in router: Router, _ recognizer: GestureRecognizer) {
        if recognizer.unchecked.state.storedState.isInProgress {
            commit(in: router, recognizer, .cancelled)
        } else if recognizer.unchecked.state.storedState == .possible {
            gestureRecognizer(in: router, recognizer, requests: .failed)
        }
    }

    // MARK: Held touches

    /// Delivers held phases whose recognizers have all given up, in the order they were
    /// held; drops those of taken or finished touches. Called at the end of a frame, after a
    /// recognizer's timer and after cancels.
    func settleGestures(in router: Router) {
        guard !unchecked.state.heldTouches.isEmpty, !unchecked.state.isSettlingGestures else { return }
        unchecked.state.isSettlingGestures = true
        router.unchecked.state.touchLoops += 1
        var releasedAny = false
        var write = 0
        var i = 0
        while i < unchecked.state.heldTouches.count {
            let entry = unchecked.state.heldTouches[i]
            i += 1
            let sequence = entry.sequence
            if sequence.unchecked.state.finished || sequence.unchecked.state.taken {
                sequence.unchecked.state.heldCount -= 1
                if let trace = router.trace { trace.record(.heldTouchDropped(sequence.unchecked.state.id, entry.phase.kind, reason: sequence.unchecked.state.taken ? "taken by a recognizer" : "touch cancelled")) }
                if entry.phase == .ended { sequence.unchecked.state.finished = true }
                continue
            }
            if sequence.unchecked.state.flushBlocked || delayingRecognizer(sequence, entry.phase) != nil
                || keptEntry(boundTo: sequence.unchecked.state.surface, withID: sequence.unchecked.state.id, before: write) {
                sequence.unchecked.state.flushBlocked = true
                unchecked.state.heldTouches[write] = entry
                write += 1
                continue
            }
            sequence.unchecked.state.heldCount -= 1
            // Phases of one frame, one phase and one surface go out as one event.
            if let first = unchecked.state.releaseGroup.first,
               first.frame != entry.frame || first.phase != entry.phase || first.sequence.unchecked.state.surface !== sequence.unchecked.state.surface {
                deliverReleaseGroup(in: router)
            }
            unchecked.state.releaseGroup.append(entry)
            releasedAny = true
        }
        deliverReleaseGroup(in: router)
        while unchecked.state.heldTouches.count > write { unchecked.state.heldTouches.removeLast() }
        var k = 0
        while k < unchecked.state.heldTouches.count {
            unchecked.state.heldTouches[k].sequence.unchecked.state.flushBlocked = false
            k += 1
        }
        unchecked.state.isSettlingGestures = false
        router.unchecked.state.touchLoops -= 1
        if !router.unchecked.state.isDispatchingTouches {
            router.compactTouches()
            // Held touches released outside a frame (a timer, a cancel) close their own.
            if releasedAny && !router.unchecked.state.isClosingTouchFrame && !router.unchecked.state.touchFrameObservers.isEmpty { router.touchFrameDidFinish() }
        }
    }

    /// True when one of the first `count` entries (those kept so far) is bound to `surface`
    /// or has touch ID `id`: a surface's held phases, and those of one ID, go out in order or
    /// not at all.
    private func keptEntry(boundTo surface: Surface?, withID id: TouchID, before count: Int) -> Bool {
        var i = 0
        while i < count {
            let kept = unchecked.state.heldTouches[i].sequence
            if kept.unchecked.state.surface === surface || kept.unchecked.state.id == id { return true }
            i += 1
        }
        return false
    }

    /// Delivers `releaseGroup` (held phases of one frame, phase and surface) as one event,
    /// then empties it.
    private func deliverReleaseGroup(in router: Router) {
        guard !unchecked.state.releaseGroup.isEmpty else { return }
        let lead = unchecked.state.releaseGroup[0]
        let surface = lead.sequence.unchecked.state.surface
        let phase = lead.phase
        unchecked.state.heldScratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < unchecked.state.releaseGroup.count {
            let entry = unchecked.state.releaseGroup[i]
            i += 1
            if let trace = router.trace { trace.record(.touchReleased(entry.sequence.unchecked.state.id, phase.kind)) }
            unchecked.state.heldScratch.append(entry.point)
        }
        let event = TouchEvent(time: unchecked.state.releaseGroup[unchecked.state.releaseGroup.count - 1].time, touches: unchecked.state.heldScratch)
        if phase == .ended {
            var j = 0
            while j < unchecked.state.releaseGroup.count {
                unchecked.state.releaseGroup[j].sequence.unchecked.state.isEnding = true
                j += 1
            }
        }
        let handled = router.walkChain(from: surface, target: surface, kind: phase.kind,
                                stopIf: { releaseGroupIsOver() }) { responder, context in
            var j = 0
            while j < unchecked.state.releaseGroup.count {
                unchecked.state.releaseGroup[j].sequence.noteSeen(context.link)
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
            while j < unchecked.state.releaseGroup.count {
                unchecked.state.releaseGroup[j].sequence.unchecked.state.finished = true
                j += 1
            }
        }
        unchecked.state.releaseGroup.removeAll(keepingCapacity: true)
    }

    /// Every touch of the group being released was cancelled or taken meanwhile.
    private func releaseGroupIsOver() -> Bool {
        var j = 0
        while j < unchecked.state.releaseGroup.count {
            let sequence = unchecked.state.releaseGroup[j].sequence
            if !sequence.unchecked.state.finished && !sequence.unchecked.state.taken { return false }
            j += 1
        }
        return true
    }

    /// Forgets the held phases of a sequence going back to the pool.
    func purgeHeld(of sequence: TouchSequence) {
        guard sequence.unchecked.state.heldCount > 0 else { return }
        unchecked.state.heldTouches.removeAll { $0.sequence === sequence }
        sequence.unchecked.state.heldCount = 0
    }

    func settleAfterGestureTimer(in router: Router) {
        if !router.unchecked.state.isDispatchingTouches { settleGestures(in: router) }
    }

    // MARK: State machine and coordination

    /// A recognizer set its state (the transition is already checked legal). Applies
    /// require-to-fail, the delegate's veto and exclusion between conflicting recognizers.
    func gestureRecognizer(in router: Router, _ recognizer: GestureRecognizer, requests newState: GestureRecognizerState) {
        switch newState {
        case .began, .recognized:
            if recognizer.unchecked.state.pendingState == newState { return }
            if let delegate = recognizer.delegate, !delegate.gestureRecognizerShouldBegin(recognizer) {
                refuse(in: router, recognizer, newState, reason: "its delegate said no")
                return
            }
            switch failureRequirementStatus(recognizer) {
            case .recognized(let other):
                refuse(in: router, recognizer, newState, reason: "\(other.name), which it requires to fail, was recognized")
                return
            case .possible(let other):
                if recognizer.unchecked.state.pendingState == nil {
                    unchecked.state.waitingRecognizers.append(recognizer)
                    if let trace = router.trace { trace.record(.gestureDeferred(recognizer.description, waitingFor: other.description)) }
                }
                recognizer.unchecked.state.pendingState = newState
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
        while requirementIndex < recognizer.unchecked.state.failureRequirements.count {
            let other = recognizer.unchecked.state.failureRequirements[requirementIndex]
            requirementIndex += 1
            guard other.unchecked.state.isEngaged else { continue }
            switch other.unchecked.state.storedState {
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
        guard recognizer.unchecked.state.pendingState != nil else { return }
        recognizer.unchecked.state.pendingState = nil
        if let index = unchecked.state.waitingRecognizers.scanIndex(where: { $0 === recognizer }) { unchecked.state.waitingRecognizers.remove(at: index) }
    }

    /// Sets the state, then: a recognition takes the touches and fails those waiting for
    /// this one to fail; a failure lets them try again. Targets and the action follow.
    private func commit(in router: Router, _ recognizer: GestureRecognizer, _ newState: GestureRecognizerState) {
        let old = recognizer.unchecked.state.storedState
        recognizer.unchecked.state.storedState = newState
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
        while t < recognizer.unchecked.state.targets.count {
            recognizer.unchecked.state.targets[t](recognizer)
            t += 1
        }
        if newState == .recognized || newState == .ended, let action = recognizer.action {
            if let surface = recognizer.surface, surface.unchecked.state.isAttached, surface.responder.canPerform(action) {
                router.sendAction(action, to: surface)
            } else {
                router.sendAction(action)
            }
        }
        resetIfSettled(in: router, recognizer)
    }

    private func resolveWaiters(in router: Router, on recognizer: GestureRecognizer, failed: Bool) {
        var i = 0
        while i < unchecked.state.waitingRecognizers.count {
            let waiter = unchecked.state.waitingRecognizers[i]
            guard waiter.unchecked.state.failureRequirements.scanIndex(where: { $0 === recognizer }) != nil, let pending = waiter.unchecked.state.pendingState else {
                i += 1
                continue
            }
            if failed {
                if case .possible = failureRequirementStatus(waiter) {
                    i += 1
                    continue
                }
                waiter.unchecked.state.pendingState = nil
                unchecked.state.waitingRecognizers.remove(at: i)
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
        while sequenceIndex < router.unchecked.state.activeTouches.count {
            let sequence = router.unchecked.state.activeTouches[sequenceIndex]
            sequenceIndex += 1
            guard !sequence.unchecked.state.finished else { continue }
            if let peer = sequence.unchecked.state.arena?.firstPeer(of: recognizer, where: body) { return peer }
        }
        if let peer = pointerArena.firstPeer(of: recognizer, where: body) { return peer }
        return touchpadArena.firstPeer(of: recognizer, where: body)
    }

    private func rivalInProgress(in router: Router, _ recognizer: GestureRecognizer) -> GestureRecognizer? {
        forEachPeer(in: router, of: recognizer) { other in
            other.unchecked.state.storedState.isInProgress && recognizer.conflicts(with: other)
        }
    }

    private func failConflictingPeers(in router: Router, of recognizer: GestureRecognizer) {
        _ = forEachPeer(in: router, of: recognizer) { other in
            if other.unchecked.state.storedState == .possible && recognizer.conflicts(with: other) {
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
        recognizer.unchecked.state.timers.scan { token in router.clock.cancel(token) }
        recognizer.unchecked.state.timers.removeAll(keepingCapacity: true)
        recognizer.unchecked.state.deadlines.removeAll(keepingCapacity: true)
        stopWaiting(recognizer)
        recognizer.unchecked.state.storedState = .possible
        recognizer.unchecked.state.generation &+= 1
        recognizer.unchecked.state.touches.removeAll(keepingCapacity: true)
        recognizer.unchecked.state.followsPointerOrTouchpad = false
        recognizer.engagedRouter = nil
        if recognizer.unchecked.state.isEngaged {
            recognizer.unchecked.state.isEngaged = false
            if let index = unchecked.state.engagedRecognizers.scanIndex(where: { $0 === recognizer }) { unchecked.state.engagedRecognizers.remove(at: index) }
        }
        if let trace = router.trace { trace.record(.gestureReset(recognizer.description)) }
        recognizer.reset()
        // Someone may have been waiting for this one, and an idle recognizer counts as failed.
        resolveIdleRequirement(in: router, recognizer)
    }

    private func resolveIdleRequirement(in router: Router, _ recognizer: GestureRecognizer) {
        var i = 0
        while i < unchecked.state.waitingRecognizers.count {
            let waiter = unchecked.state.waitingRecognizers[i]
            if waiter.unchecked.state.failureRequirements.scanIndex(where: { $0 === recognizer }) != nil, let pending = waiter.unchecked.state.pendingState,
               !waiterStillBlocked(waiter) {
                waiter.unchecked.state.pendingState = nil
                unchecked.state.waitingRecognizers.remove(at: i)
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
        var i = unchecked.state.engagedRecognizers.count
        while i > 0 {
            i -= 1
            guard i < unchecked.state.engagedRecognizers.count else { continue }
            let recognizer = unchecked.state.engagedRecognizers[i]
            guard recognizer.router !== router else { continue }
            abort(in: router, recognizer, reason: "its surface was removed")
        }
    }

    func gestureRecognizerWasDetached(in router: Router, _ recognizer: GestureRecognizer) {
        if recognizer.unchecked.state.isEngaged || recognizer.unchecked.state.storedState != .possible {
            abort(in: router, recognizer, reason: "removed from its surface")
        }
        if !router.unchecked.state.isDispatchingTouches { settleGestures(in: router) }
    }

    /// Stops a recognizer at once (detached or removed from its surface).
    func abort(in router: Router, _ recognizer: GestureRecognizer, reason: String) {
        if let trace = router.trace { trace.record(.gestureRefused(recognizer.description, recognizer.unchecked.state.storedState, reason: reason)) }
        recognizer.unchecked.state.touches.removeAll(keepingCapacity: true)
        recognizer.unchecked.state.followsPointerOrTouchpad = false
        if recognizer.unchecked.state.storedState.isInProgress {
            commit(in: router, recognizer, .cancelled)
        } else if recognizer.unchecked.state.storedState == .possible {
            stopWaiting(recognizer)
            commit(in: router, recognizer, .failed)
        }
        if recognizer.unchecked.state.storedState != .possible || recognizer.unchecked.state.isEngaged { resetRecognizer(in: router, recognizer) }
    }

    // MARK: Pointer presses

    /// Opens the pointer arena at the press that starts the implicit grab: the recognizers
    /// of the focus, its ancestors and its output that take pointer events.
    func beginPointerArena(in router: Router, focus: Surface?) {
        endPointerArena(in: router)
        unchecked.state.pointerGestureTaken = false
        unchecked.state.pointerPressSeenByResponders = false
        forEachRecognizer(of: focus, output: focus?.output ?? router.unchecked.state.layout.output(at: router.unchecked.state.pointerLocation)) { recognizer in
            if recognizer.receivesPointerEvents { follow(in: router, recognizer, in: pointerArena) }
        }
    }

    /// Shows a button to the pointer arena's recognizers. Returns true when the responders
    /// must not see it: a recognizer has taken the press, and the responders did not see the
    /// press (a release always follows a press they saw, so no client keeps a stuck button).
    func deliverPointerButtonToRecognizers(in router: Router, _ event: PointerButtonEvent) -> Bool {
        show(in: router, pointerArena, .pointerButton) { $0.pointerButton(event) }
        notePointerTaken(in: router)
        if event.state == .released { return unchecked.state.pointerGestureTaken && !unchecked.state.pointerPressSeenByResponders }
        return unchecked.state.pointerGestureTaken
    }

    /// Shows motion to the pointer arena's recognizers; true when a recognizer has taken the
    /// press, so the motion goes no further.
    func deliverPointerMotionToRecognizers(in router: Router, _ event: PointerMotionEvent) -> Bool {
        show(in: router, pointerArena, .pointerMoved) { $0.pointerMoved(event) }
        notePointerTaken(in: router)
        return unchecked.state.pointerGestureTaken
    }

    private func notePointerTaken(in router: Router) {
        guard !unchecked.state.pointerGestureTaken, let taker = pointerArena.firstTaker() else { return }
        unchecked.state.pointerGestureTaken = true
        if let trace = router.trace { trace.record(.pointerPressTaken(by: taker.description)) }
    }

    func endPointerArena(in router: Router) { end(in: router, pointerArena) }

    // MARK: Arenas that follow the pointer or the touchpad

    /// Adds an enabled, unsettled recognizer to the pointer or touchpad arena, which it then
    /// follows until that arena ends.
    private func follow(in router: Router, _ recognizer: GestureRecognizer, in arena: GestureArena) {
        guard recognizer.isEnabled, !recognizer.unchecked.state.storedState.isFinal, recognizer.unchecked.state.pendingState == nil else { return }
        arena.unchecked.state.entries.append(GestureArena.Entry(recognizer: recognizer, generation: recognizer.unchecked.state.generation))
        recognizer.unchecked.state.followsPointerOrTouchpad = true
        engage(in: router, recognizer)
    }

    /// Shows an event to each recognizer still in `arena` that has not settled, in order.
    private func show(in router: Router, _ arena: GestureArena, _ kind: RoutedEventKind, to body: (GestureRecognizer) -> Void) {
        var i = 0
        while i < arena.unchecked.state.entries.count {
            let entry = arena.unchecked.state.entries[i]
            i += 1
            guard entry.isCurrent, !entry.recognizer.unchecked.state.storedState.isFinal else { continue }
            if let trace = router.trace { trace.record(.gestureSaw(entry.recognizer.description, kind)) }
            body(entry.recognizer)
        }
    }

    /// Ends the pointer or touchpad arena: its recognizers stop following it, are made to
    /// settle, and reset once settled.
    private func end(in router: Router, _ arena: GestureArena) {
        guard !arena.unchecked.state.entries.isEmpty else { return }
        var i = 0
        while i < arena.unchecked.state.entries.count {
            let entry = arena.unchecked.state.entries[i]
            i += 1
            guard entry.isCurrent else { continue }
            entry.recognizer.unchecked.state.followsPointerOrTouchpad = false
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
            unchecked.state.touchpadGestureTaken = false
            unchecked.state.touchpadGestureSeenByResponders = false
            forEachRecognizer(of: focus, output: focus?.output ?? router.unchecked.state.layout.output(at: event.location)) { recognizer in
                if recognizer.receivesTouchpadGestures { follow(in: router, recognizer, in: touchpadArena) }
            }
        }
        guard !touchpadArena.unchecked.state.entries.isEmpty else { return false }
        show(in: router, touchpadArena, .touchpadGesture) { $0.touchpadGesture(event) }
        if !unchecked.state.touchpadGestureTaken, let taker = touchpadArena.firstTaker() {
            unchecked.state.touchpadGestureTaken = true
            if let trace = router.trace { trace.record(.touchpadGestureTaken(by: taker.description)) }
            if unchecked.state.touchpadGestureSeenByResponders {
                // Responders saw its start: end it for them, as libinput ends a cancelled one.
                var ending = event
                ending.gesture.phase = .end(cancelled: true)
                _ = router.walkChain(from: focus, target: focus, kind: .touchpadGesture) { responder, context in
                    responder.touchpadGesture(ending, context: context)
                }
            }
        }
        let taken = unchecked.state.touchpadGestureTaken
        if case .end = event.gesture.phase { end(in: router, touchpadArena) }
        return taken
    }

    func noteTouchpadGestureDelivered() { unchecked.state.touchpadGestureSeenByResponders = true }
}
