// Pen routing: the default rule for tablet tools.
//
// ```
//  inject(.tablet(tool event)) ─► filters ─► pen grab, if any ─► routePen(_:)
//    proximity in / hover: hit-test, penLeft/penEntered as the hovered surface changes,
//                          penMoved up the hovered surface's chain
//    down:                 the stroke binds to the hovered (hit-test) surface: penDown,
//                          penMoved, penUp up its chain, wherever the pen goes
//    up:                   then focus follows hit-testing again
//    proximity out:        penLeft
// ```
// One record per tool in proximity (a tablet may have a pen and a puck at once). A filter
// that takes a tool's proximity-in takes the tool until it leaves proximity; the up of a
// delivered down, and the proximity-out of a tool that entered, are shown to filters but
// cannot be taken (the stroke or hover would never end).

/// One tool in proximity.
struct PenState {
    var device: DeviceID
    var tool: PenTool
    var location: LayoutPoint
    var axes: PenAxes
    /// The surface hovered, or the one the stroke is bound to while in contact.
    var focus: Surface?
    var inContact = false
    /// The tip is down on the device, whoever took the down (a filter, a grab): what tells
    /// a stroke's motion from hovering.
    var tipDown = false
    /// A filter took the proximity-in: the rest of the tool's events follow it.
    var consumed = false
    /// The stroke's surface left the tree (or a grab began): the rest of the stroke, to its
    /// up, goes nowhere.
    var strokeLost = false
    /// The stroke's down is being shown to recognizers and not yet to the responders: a
    /// surface lost meanwhile (a recognizer's handler removed it) is owed no cancelled up.
    var downPending = false
    /// Changes whenever focus moves, so that a handler that moved it wins.
    var generation: UInt64 = 0
    /// The link that handled the stroke's down (the stroke's surface, an ancestor, an output,
    /// the delegate), until the stroke's up: owed a cancelled up when the stroke ends short,
    /// like the surface, also when it is not the surface (as a touch's links that saw it
    /// begin are told its cancel). `nil` when nobody handled the down.
    var handler: ChainLink?
    /// The focus's origin in layout space (the point minus the surface-local point), valid
    /// while the router's `treeEditCount` is `originEdit`: each event's surface point without
    /// a walk up the tree (carried like a touch's and the pointer's).
    var origin = LayoutPoint(x: 0, y: 0)
    var originEdit = UInt64.max

    func matches(_ device: DeviceID, _ tool: PenTool) -> Bool {
        self.device == device && self.tool.kind == tool.kind && self.tool.serial == tool.serial
    }
}

/// The router's pen state: one record per tool in proximity, and the pen grab.
struct PenRouting {
    var states: [PenState] = []
    var grab: (any PenGrab)?
    var generation: UInt64 = 0
    init() { states.reserveCapacity(4) }
}

extension Router {
    /// The active pen grab, if any.
    public var penGrab: (any PenGrab)? { unchecked.pens.grab }

    /// The tools in proximity now: tool, tablet, layout-space position, and the surface each
    /// hovers over or strokes on.
    public var pensInProximity: [(tool: PenTool, device: DeviceID, location: LayoutPoint, surface: Surface?, inContact: Bool)] {
        unchecked.pens.states.map { ($0.tool, $0.device, $0.location, $0.focus, $0.inContact) }
    }

    /// Makes `grab` take pen input. Every pen's target hears a cancelled up (if its tip is
    /// down) and a leave; later events of the pens reach the grab. A grab already active is
    /// ended first.
    public func startPenGrab(_ grab: any PenGrab) {
        if unchecked.pens.grab != nil { endPenGrab() }
        unchecked.pens.grab = grab
        // A stroke recognizers follow ends for them; if one took it, its surface knows already.
        let takenStroke = gestures.stopPenStroke(in: self, device: nil, tool: nil)
        var i = 0
        while i < unchecked.pens.states.count {
            var state = unchecked.pens.states[i]
            i += 1
            guard let focus = state.focus else { continue }
            if takenStroke && state.inContact { state.strokeLost = true }
            unchecked.pens.states[i - 1].focus = nil
            unchecked.pens.states[i - 1].handler = nil
            unchecked.pens.states[i - 1].generation &+= 1
            if state.inContact { unchecked.pens.states[i - 1].strokeLost = true }
            tellPenEnds(to: focus, state, time: clock.now)
        }
    }

    /// Ends the pen grab, if any: its `cancel` runs; pens hovering follow hit-testing again
    /// from their next event; a stroke under way goes nowhere until its up.
    public func endPenGrab() {
        guard let grab = unchecked.pens.grab else { return }
        unchecked.pens.grab = nil
        grab.cancel(router: self)
    }

    /// The index of the record of `tool` on `device`.
    /// A plain loop: `firstIndex(where:)` with a capturing closure allocated a context per
    /// call (unspecialized in debug builds), on every pen event.
    @inline(__always)
    func penIndex(_ device: DeviceID, _ tool: PenTool) -> Int? {
        var i = 0
        let count = unchecked.pens.states.count
        while i < count {
            if unchecked.pens.states[i].matches(device, tool) { return i }
            i += 1
        }
        return nil
    }

    /// The surface the pen hovers over or strokes on.
    @inline(__always)
    func penFocus(_ device: DeviceID, _ tool: PenTool) -> Surface? {
        guard let i = penIndex(device, tool) else { return nil }
        return unchecked.pens.states[i].focus
    }

    /// A tool event from ``inject(_:)``: filters, then the grab or the default rule.
    func penEvent(_ event: InputEvent, _ t: TabletEvent) {
        if let p = t.position, !(p.x.isFinite && p.y.isFinite) { return ignore(event, "non-finite position") }
        // No closures (Optional.map, ??): each allocated a context per event in debug builds.
        let index = penIndex(event.device, t.tool)
        var state: PenState?
        if let index { state = unchecked.pens.states[index] }
        let location: LayoutPoint
        if let p = t.position {
            location = unchecked.layout.clamp(p)
        } else if let state {
            location = state.location
        } else {
            location = unchecked.pointer.location
        }
        let phase: PenEvent.Phase
        switch t.kind {
        case .toolProximity: phase = t.value == 1 ? .proximityIn : .proximityOut
        case .toolTip: phase = t.value == 1 ? .down : .up
        default: phase = state?.tipDown == true ? .moved : .hover
        }
        // A tool we never saw come in (events before the router started, or a proximity-in
        // taken by a filter in a router that forgot it) gets a record now.
        if index == nil {
            if phase == .proximityOut {
                observe(event, consumed: false)
                return
            }
            unchecked.pens.states.append(PenState(device: event.device, tool: t.tool, location: location, axes: t.axes))
        }
        guard let i = penIndex(event.device, t.tool) else { return }
        if phase == .down { unchecked.pens.states[i].tipDown = true } else if phase == .up || phase == .proximityOut { unchecked.pens.states[i].tipDown = false }
        if unchecked.pens.states[i].consumed {
            trace?.record(.followedConsumed(event))
            observe(event, consumed: true)
            if phase == .proximityOut { unchecked.pens.states.remove(at: i) }
            return
        }
        let s = unchecked.pens.states[i]
        let mustFollow = (phase == .up && s.inContact) || (phase == .proximityOut && (s.focus != nil || index != nil))
        if mustFollow {
            if unchecked.filterList.asks(FilterInterests.of(event)) { _ = askFilters(event, kind: FilterInterests.of(event)) }
            observe(event, consumed: false)
        } else if runFilters(event, kind: .other) {
            if phase == .proximityIn, let j = penIndex(event.device, t.tool) { unchecked.pens.states[j].consumed = true }
            return
        }
        // Every event carries every axis: the record keeps the last of each.
        if t.kind != .toolButton, let j = penIndex(event.device, t.tool) {
            unchecked.pens.states[j].axes = t.axes
            unchecked.pens.states[j].tool = t.tool
        }
        if t.kind == .toolButton {
            let button = PenButtonEvent(time: event.time, device: event.device, tool: t.tool, button: t.code,
                                        state: t.value == 1 ? .pressed : .released, location: location,
                                        surfaceLocation: penSurfaceLocation(i, location))
            if let grab = unchecked.pens.grab { grab.penButton(button, router: self) } else { routePenButton(button) }
            return
        }
        let pen = PenEvent(phase: phase, time: event.time, device: event.device, tool: t.tool, location: location,
                           surfaceLocation: penSurfaceLocation(i, location), axes: t.axes, changedAxes: t.changedAxes)
        if let grab = unchecked.pens.grab { grab.penEvent(pen, router: self) } else { routePen(pen) }
    }

    /// Routes a pen event by the default rule, after filters and grabs (`location` in layout
    /// space; `surfaceLocation` is recomputed for the target). Proximity-in and hover
    /// hit-test and move focus with ``Responder/penLeft(_:context:)`` and
    /// ``Responder/penEntered(_:context:)``; a down binds the stroke to the hovered surface
    /// until its up, and the recognizers of that surface, its ancestors and its output that
    /// follow pens (``GestureInputKinds/pen``) see the stroke first, as one touch; hover and stroke motion go up the target's chain as
    /// ``Responder/penMoved(_:context:)``; proximity-out leaves. What a ``PenGrab`` calls to
    /// forward. Unhandled events are traced as dropped.
    public func routePen(_ event: PenEvent) {
        guard event.location.x.isFinite, event.location.y.isFinite else { return }
        let location = unchecked.layout.clamp(event.location)
        if penIndex(event.device, event.tool) == nil {
            guard event.phase != .proximityOut else { return }
            unchecked.pens.states.append(PenState(device: event.device, tool: event.tool, location: location, axes: event.axes))
        }
        guard let i = penIndex(event.device, event.tool) else { return }
        unchecked.pens.states[i].location = location
        unchecked.pens.states[i].axes = event.axes
        switch event.phase {
        case .proximityIn, .hover:
            if unchecked.pens.states[i].inContact {
                // A hover while the router thinks the tip is down (a grab swallowed the up).
                unchecked.pens.states[i].inContact = false
                unchecked.pens.states[i].strokeLost = false
                unchecked.pens.states[i].handler = nil
            }
            followPen(event, location: location)
            if event.phase == .hover { askPen(event, kind: .penMoved) { $0.penMoved($1, context: $2) } }
        case .down:
            followPen(event, location: location)
            guard let j = penIndex(event.device, event.tool) else { return }
            unchecked.pens.states[j].inContact = true
            unchecked.pens.states[j].strokeLost = false
            unchecked.pens.states[j].handler = nil
            unchecked.pens.states[j].downPending = true
            // Recognizers that take pens see the stroke first, as a touch (GestureInputKinds.swift).
            let takenAtDown = gestures.beginPenStroke(in: self, event, focus: unchecked.pens.states[j].focus)
            if let k = penIndex(event.device, event.tool) { unchecked.pens.states[k].downPending = false }
            if takenAtDown { return }
            askPenDown(event)
            gestures.unchecked.penStroke.seenByResponders = true
        case .moved:
            guard !unchecked.pens.states[i].strokeLost else { return }
            if !unchecked.pens.states[i].inContact {
                // A stroke whose down the router did not route (a filter or grab took it):
                // hovering, as far as responders know.
                var hover = event
                hover.phase = .hover
                followPen(hover, location: location)
                askPen(hover, kind: .penMoved) { $0.penMoved($1, context: $2) }
                return
            }
            if gestures.followsPenStroke(event), gestures.movePenStroke(in: self, event, focus: unchecked.pens.states[i].focus) { return }
            askPen(event, kind: .penMoved) { $0.penMoved($1, context: $2) }
        case .up:
            let lost = unchecked.pens.states[i].strokeLost
            let taken = gestures.followsPenStroke(event) && gestures.endPenStroke(in: self, event, focus: unchecked.pens.states[i].focus)
            guard let k = penIndex(event.device, event.tool) else { return }
            unchecked.pens.states[k].inContact = false
            unchecked.pens.states[k].strokeLost = false
            let handler = unchecked.pens.states[k].handler
            unchecked.pens.states[k].handler = nil
            if !lost && !taken { askPenUp(event, handler: handler) }
            // The stroke is over: focus follows the pen again.
            followPen(event, location: location)
        case .proximityOut:
            let taken = gestures.stopPenStroke(in: self, device: event.device, tool: event.tool)
            guard let k = penIndex(event.device, event.tool) else { return }
            let state = unchecked.pens.states[k]
            unchecked.pens.states.remove(at: k)
            if let focus = state.focus {
                var ending = state
                ending.location = location
                if taken { ending.strokeLost = true }
                tellPenEnds(to: focus, ending, time: event.time, leaveEvent: event)
            }
        }
    }

    /// Routes a pen button by the default rule, after filters and grabs: up the chain of the
    /// pen's target (the hovered surface, or the stroke's). What a ``PenGrab`` calls to forward.
    public func routePenButton(_ event: PenButtonEvent) {
        var e = event
        let (focus, _) = penTarget(event.device, event.tool, event.location, point: &e.surfaceLocation)
        if walkChain(from: focus, target: focus, kind: .penButton, { $0.penButton(e, context: $1) }) == false {
            trace?.record(.dropped(.penButton))
        }
    }

    /// Hit-tests under a hovering pen and moves its focus, with leave before enter. Does
    /// nothing while the tip is down (the stroke is bound).
    private func followPen(_ event: PenEvent, location: LayoutPoint) {
        guard let i = penIndex(event.device, event.tool), !unchecked.pens.states[i].inContact else { return }
        let generation = unchecked.pens.states[i].generation
        let edit = unchecked.treeEditCount
        let found = hit(at: location, device: event.device)
        let target = found?.surface
        if let trace { trace.record(.hitTest(location, result: TraceSubject(target))) }
        guard let j = penIndex(event.device, event.tool), unchecked.pens.states[j].generation == generation else { return }
        let old = unchecked.pens.states[j].focus
        guard old !== target else {
            // The same surface: what the hit-test found is the freshest origin.
            if let found, edit == unchecked.treeEditCount {
                unchecked.pens.states[j].origin = LayoutPoint(x: location.x - found.location.x, y: location.y - found.location.y)
                unchecked.pens.states[j].originEdit = edit
            }
            return
        }
        var leave = event
        if old != nil { leave.surfaceLocation = penSurfaceLocation(j, location) }
        unchecked.pens.states[j].generation &+= 1
        unchecked.pens.states[j].focus = nil
        if let old {
            old.withResponder { $0.penLeft(leave, context: ResponderContext(router: self, surface: old, target: old)) }
            trace?.record(.told(TraceSubject(old), .penLeft))
        }
        guard let found, let target, target.unchecked.isAttached,
              let k = penIndex(event.device, event.tool), unchecked.pens.states[k].generation == generation &+ 1 else { return }
        unchecked.pens.states[k].focus = target
        // The hit-test's point, carried while the tree is as it was before it (a
        // refineHitTest that edited the tree leaves it stale at once).
        unchecked.pens.states[k].origin = LayoutPoint(x: location.x - found.location.x, y: location.y - found.location.y)
        unchecked.pens.states[k].originEdit = edit
        var enter = event
        enter.surfaceLocation = penSurfaceLocation(k, location)
        target.withResponder { $0.penEntered(enter, context: ResponderContext(router: self, surface: target, target: target)) }
        trace?.record(.told(TraceSubject(target), .penEntered))
    }

    /// Asks the chain of the pen's target, with `surfaceLocation` in the target's space.
    @inline(__always)
    private func askPen(_ event: PenEvent, kind: RoutedEventKind,
                        _ ask: (any Responder, PenEvent, ResponderContext) -> ResponderResult) {
        var e = event
        let (focus, _) = penTarget(event.device, event.tool, event.location, point: &e.surfaceLocation)
        if walkChain(from: focus, target: focus, kind: kind, { ask($0, e, $1) }) == false {
            trace?.record(.dropped(kind))
        }
    }

    /// The stroke's down up the chain of its surface (as ``askPen``), noting the link that
    /// handles it as the stroke's handler. A handler whose stroke ended while it was asked
    /// (its handler removed the stroke's surface or itself, began a grab) hears a cancelled
    /// up at once, unless it is the stroke's surface, which was told then.
    private func askPenDown(_ event: PenEvent) {
        var e = event
        let (focus, index) = penTarget(event.device, event.tool, event.location, point: &e.surfaceLocation)
        let generation: UInt64 = index.map { unchecked.pens.states[$0].generation } ?? 0
        var handler: ChainLink?
        let handled = walkChain(from: focus, target: focus, kind: .penDown) { responder, context in
            let result = responder.penDown(e, context: context)
            if result == .handled { handler = context.link }
            return result
        }
        guard handled, let handler else {
            trace?.record(.dropped(.penDown))
            return
        }
        if let i = penIndex(event.device, event.tool), unchecked.pens.states[i].generation == generation,
           unchecked.pens.states[i].inContact, !unchecked.pens.states[i].strokeLost, !isGone(handler) {
            unchecked.pens.states[i].handler = handler
            return
        }
        // The stroke's surface was told when the stroke ended (tellPenEnds).
        if let focus, handler.isSame(as: .surface(focus)) { return }
        var state = PenState(device: event.device, tool: event.tool, location: event.location, axes: event.axes)
        if let i = penIndex(event.device, event.tool) { state = unchecked.pens.states[i] }
        tellPenHandlerCancelled(handler, state, target: focus, time: event.time)
    }

    /// The stroke's up up the chain of its surface (as ``askPen``). The link that handled the
    /// down hears it even if the walk ends before it (the chain changed under the stroke: a
    /// surface moved between them now handles it), so that it is told the end of the stroke
    /// it took (a cancelled one if it left the layout meanwhile).
    private func askPenUp(_ event: PenEvent, handler: ChainLink?) {
        guard let handler else {
            askPen(event, kind: .penUp) { $0.penUp($1, context: $2) }
            return
        }
        var e = event
        let (focus, _) = penTarget(event.device, event.tool, event.location, point: &e.surfaceLocation)
        var handlerAsked = false
        let handled = walkChain(from: focus, target: focus, kind: .penUp) { responder, context in
            if !handlerAsked && context.link.isSame(as: handler) { handlerAsked = true }
            return responder.penUp(e, context: context)
        }
        if !handled { trace?.record(.dropped(.penUp)) }
        guard !handlerAsked else { return }
        // Removed meanwhile (by a handler of the walk): owed a cancelled up (removing tells).
        if isGone(handler) {
            let state = PenState(device: event.device, tool: event.tool, location: event.location, axes: event.axes)
            return tellPenHandlerCancelled(handler, state, target: focus, time: event.time)
        }
        guard let responder = responder(for: handler) else { return }
        _ = responder.penUp(e, context: ResponderContext(router: self, link: handler, target: focus))
        trace?.record(.told(TraceSubject(handler), .penUp))
    }

    /// Whether `link` left the layout (a surface detached, an output removed).
    private func isGone(_ link: ChainLink) -> Bool {
        switch link {
        case .surface(let s): return !s.unchecked.isAttached
        case .output(let o): return !o.isInLayout
        case .delegate: return false
        }
    }

    /// Tells the link that handled a stroke's down (`state`'s, the stroke bound to `target`)
    /// a cancelled up, with `surfaceLocation` in `target`'s space. Removed links are told too
    /// (removing tells).
    private func tellPenHandlerCancelled(_ link: ChainLink, _ state: PenState, target: Surface?, time: Timestamp) {
        guard let responder = responder(for: link) else { return }
        let up = PenEvent(phase: .up, time: time, device: state.device, tool: state.tool, location: state.location,
                          surfaceLocation: target?.convert(state.location) ?? .zero, axes: state.axes, isCancelled: true)
        _ = responder.penUp(up, context: ResponderContext(router: self, link: link, target: target))
        trace?.record(.told(TraceSubject(link), .penUp))
    }

    /// A recognizer took the stroke of pen record `index`, whose down the responders saw: its
    /// surface `focus`, and the link that handled the down if another, hear a cancelled up.
    func tellPenStrokeTaken(_ index: Int, focus: Surface, time: Timestamp) {
        let state = unchecked.pens.states[index]
        unchecked.pens.states[index].handler = nil
        let up = PenEvent(phase: .up, time: time, device: state.device, tool: state.tool, location: state.location,
                          surfaceLocation: focus.convert(state.location) ?? .zero, axes: state.axes, isCancelled: true)
        _ = focus.withResponder { $0.penUp(up, context: ResponderContext(router: self, surface: focus, target: focus)) }
        trace?.record(.told(TraceSubject(focus), .penUp))
        if let handler = state.handler, !handler.isSame(as: .surface(focus)) {
            tellPenHandlerCancelled(handler, state, target: focus, time: time)
        }
    }

    /// The pen's target (the hovered surface, or the stroke's) and its record's index, with
    /// `point` set to `location` (layout space) in the target's space, zero without a target.
    /// What every pen walk starts from.
    @inline(__always)
    func penTarget(_ device: DeviceID, _ tool: PenTool, _ location: LayoutPoint,
                   point: inout SurfacePoint) -> (focus: Surface?, index: Int?) {
        guard let i = penIndex(device, tool) else {
            point = .zero
            return (nil, nil)
        }
        point = penSurfaceLocation(i, location)
        return (unchecked.pens.states[i].focus, i)
    }

    /// `location` (layout space) in the space of pen record `i`'s focus, zero without one (or
    /// when it is detached): carried from its hit-test or its last conversion while the tree
    /// and layout are unchanged, else converted by a walk up the tree and carried from then on.
    @inline(__always)
    func penSurfaceLocation(_ i: Int, _ location: LayoutPoint) -> SurfacePoint {
        guard let focus = unchecked.pens.states[i].focus else { return .zero }
        let edit = unchecked.treeEditCount
        if unchecked.pens.states[i].originEdit == edit {
            let o = unchecked.pens.states[i].origin
            return SurfacePoint(x: location.x - o.x, y: location.y - o.y)
        }
        guard let local = focus.convert(location) else { return .zero }
        unchecked.pens.states[i].origin = LayoutPoint(x: location.x - local.x, y: location.y - local.y)
        unchecked.pens.states[i].originEdit = edit
        return local
    }

    /// Tells `surface` (the pen's target) that the pen is gone from it: a cancelled up if the
    /// tip was down (and to the link that handled the down, if another), then a leave. The
    /// caller has cleared the record's focus and handler.
    private func tellPenEnds(to surface: Surface, _ state: PenState, time: Timestamp, leaveEvent: PenEvent? = nil) {
        let local = surface.convert(state.location) ?? .zero
        if state.inContact && !state.strokeLost && !state.downPending {
            let up = PenEvent(phase: .up, time: time, device: state.device, tool: state.tool, location: state.location,
                              surfaceLocation: local, axes: state.axes, isCancelled: true)
            _ = surface.withResponder { $0.penUp(up, context: ResponderContext(router: self, surface: surface, target: surface)) }
            trace?.record(.told(TraceSubject(surface), .penUp))
            if let handler = state.handler, !handler.isSame(as: .surface(surface)) {
                tellPenHandlerCancelled(handler, state, target: surface, time: time)
            }
        }
        var leave = leaveEvent ?? PenEvent(phase: .proximityOut, time: time, device: state.device, tool: state.tool,
                                           location: state.location, axes: state.axes)
        leave.surfaceLocation = local
        surface.withResponder { $0.penLeft(leave, context: ResponderContext(router: self, surface: surface, target: surface)) }
        trace?.record(.told(TraceSubject(surface), .penLeft))
    }

    /// Surfaces left the tree: a pen whose target went hears nothing more there; its
    /// responder is told a cancelled up (mid-stroke) and a leave. The rest of a stroke goes
    /// nowhere; a hovering pen finds its new surface at its next event.
    func pensLostSurfaces() {
        var i = 0
        while i < unchecked.pens.states.count {
            var state = unchecked.pens.states[i]
            i += 1
            guard let focus = state.focus, !focus.unchecked.isAttached else {
                // The stroke goes on, but the link that handled its down left (a responder
                // reached by nextResponder(after:), an output): it hears the stroke cancelled.
                if let handler = state.handler, isGone(handler) {
                    unchecked.pens.states[i - 1].handler = nil
                    tellPenHandlerCancelled(handler, state, target: state.focus, time: clock.now)
                }
                continue
            }
            // The record lets go of the surface first: stopping the stroke runs recognizers'
            // handlers, and one that removes another surface comes back here (the soak, seed
            // 1490: the surface was told the cancelled up and the leave twice).
            unchecked.pens.states[i - 1].focus = nil
            unchecked.pens.states[i - 1].handler = nil
            unchecked.pens.states[i - 1].generation &+= 1
            if state.inContact { unchecked.pens.states[i - 1].strokeLost = true }
            if state.inContact && gestures.stopPenStroke(in: self, device: state.device, tool: state.tool) { state.strokeLost = true }
            tellPenEnds(to: focus, state, time: clock.now)
        }
    }

    /// `root` moved to another parent in this router's layout (still attached): a stroke bound
    /// in its subtree goes on, and the link that handled its down, if no longer on the
    /// stroke's surface's chain (a former ancestor), hears it cancelled and no more of it.
    func pensSubtreeDidMove(_ root: Surface) {
        var i = 0
        while i < unchecked.pens.states.count {
            let state = unchecked.pens.states[i]
            i += 1
            guard let handler = state.handler, let focus = state.focus, focus === root || focus.isDescendant(of: root),
                  !isOnChain(handler, of: focus) else { continue }
            unchecked.pens.states[i - 1].handler = nil
            tellPenHandlerCancelled(handler, state, target: focus, time: clock.now)
        }
    }

    /// A tablet went away: its tools leave proximity (a cancelled up first, mid-stroke).
    func pensLeft(device: DeviceID, time: Timestamp) {
        let takenStroke = gestures.stopPenStroke(in: self, device: device, tool: nil)
        while let i = unchecked.pens.states.firstIndex(where: { $0.device == device }) {
            var state = unchecked.pens.states.remove(at: i)
            if takenStroke { state.strokeLost = true }
            if let focus = state.focus { tellPenEnds(to: focus, state, time: time) }
        }
    }
}
