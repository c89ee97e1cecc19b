/// Decides who gets each touch, click, scroll, key and gesture of one seat.
///
/// ```
///  inject(InputEvent)
///     │  key events: the KeyInterpreter fills in keysym, text, modifiers
///     ├─► filters, in order; the first to consume takes the event (and the rest of its
///     │   key, button or touch; a touch taken mid-way is cancelled for its responders)
///     ├─► spies observe each injected event, consumed or not
///     ├─► the grab of its device class, if one is active (PointerGrab, TouchGrab,
///     │   KeyboardGrab); each handler's default forwards to the default rule (route…):
///     ├─► target: touch down → hit-test on the device's output (bound for the touch's life)
///     │           pointer → hit-test, or the focus while a button is held
///     │           key → the first responder
///     ├─► gesture recognizers of the target, its ancestors and its output (touches,
///     │   pointer presses, touchpad gestures): may take, hold or cancel the event
///     └─► chain: target surface → parent → … → root surface → output → delegate
///               (the first responder to answer .handled ends it; else "dropped")
/// ```
///
/// State survives the compositor's edits: moving a surface (re-parent, restack, another
/// output) keeps its touches and focus; removing one (or its output) tells each responder
/// what it is owed (cancelled touches, leave, resignation, cancelled releases); enter and
/// leave, become and resign always pair; any handler may edit the tree, move focus or
/// inject, from inside any call.
///
/// One thread: the compositor's event loop. The router never reads the wall clock: time
/// comes from events and from ``clock``. Once warm, routing an event allocates nothing.
///
/// The router's hot stored properties skip the runtime exclusivity check, under the rules
/// stated once in UnsafeFoundations.swift (internal storage only, no access across a call
/// out, one thread): the check was most of the instructions of routing an event.
public final class Router {
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// Backs `layout`.
        var layout = Layout()
        var _trace: (any TraceSink)?
        /// Backs `filters`; asked through ``Router/askFilters(_:kind:)`` (UnsafeFoundations.swift).
        var filterList = FilterList()
        /// The pens in proximity and the pen grab (Router+Pen.swift).
        var pens = PenRouting()
        /// Every touch routed and the frame being delivered (TouchRouting.swift).
        var touches = TouchRouting()
        /// The pointer: position, focus, held buttons, the last hit (PointerRouting.swift).
        var pointer = PointerRouting()
        /// The keyboard: held keys, first responder, keyboard grab, the interpreter's call
        /// (KeyboardRouting.swift).
        var keyboard = KeyboardRouting()
        /// Backs `spies`; told without reference counting (UnsafeFoundations.swift).
        var spyList = SpyList()
        var _fallbackDotsPerInch: Double = Router.defaultFallbackDotsPerInch
        /// Set (only while tracing) when a walk's ask passed a link over without calling its
        /// responder: the walk records no "asked" for it.
        var askSkippedLink = false
        /// Raised by every change of a routed tree or of the layout (``treeDidChange()``).
        var treeEditCount: UInt64 = 0
        /// Backs `devices`.
        var devices: [DeviceID: DeviceInfo] = [:]
        /// The output each device with a mapping (a rule's or its ``DeviceInfo/mappedOutput``) in the layout is mapped to:
        /// its absolute events are hit-tested there. Empty on most seats, which skips the lookup.
        var deviceOutputs: [DeviceID: Output] = [:]
        /// `deviceOutputs`, unretained (rule 2 of ``Unretained``: `deviceOutputs` owns them, and
        /// both maps are rebuilt together whenever devices, outputs or rules change): what
        /// `layoutPoint(fromNormalized:_:device:)` reads, without a retain per touch event.
        var deviceOutputLinks: [DeviceID: Unretained<Output>] = [:]
        /// The calibration of each device a mapping rule gives one (Router+DeviceMapping.swift).
        var deviceCalibrations: [DeviceID: CalibrationMatrix] = [:]
        /// The layout-space region each device with one covers (DeviceMapping.region).
        var deviceRegions: [DeviceID: LayoutRect] = [:]
        /// ``setDeviceMapping(_:forDevicesNamed:)``'s rules, in the order set.
        var deviceRules: [DeviceMappingRule] = []
        /// Announced pointers no rule maps: their absolute points span the layout. Empty on most
        /// seats, so a touch event's placement does no lookup for it.
        var layoutWideDevices: [DeviceID] = []
        /// The last device's placement, resolved once (Router+DeviceMapping.swift): valid while
        /// `placementEdits` has not moved.
        var placement = DevicePlacement()
        /// Raised by every change that can move a device's points: devices, rules, outputs
        /// added, removed, moved, resized or turned (``updateDeviceOutputs()``,
        /// ``outputGeometryDidChange()``).
        var placementEdits: UInt64 = 1
        /// The last device's units per millimetre, stamped with `placementEdits`
        /// (Router+DeviceMapping.swift).
        var millimetres = DeviceMillimetres()
        /// Backs `capabilities`.
        var capabilities: DeviceCapabilities = []
        /// Backs `delegate`: read on every walk that may reach the end of a chain, so a
        /// checked stored property cost a `swift_beginAccess` (~76 instructions) per touch
        /// frame and per pointer event even when the walk ended before it.
        weak var delegate: (any CompositorDelegate)?
        /// Raised each time `delegate` is set: a walk that read the delegate tells it of the
        /// drop only if it is still the one set (``walkChain(from:target:kind:stopIf:reportingDrop:_:)``).
        var delegateGeneration: UInt64 = 0
        /// Whether `delegate` keeps the default ``Responder/nextResponder(after:)``
        /// (``NextResponderProbe``); unknown again each time it is set.
        var delegateChain = NextResponderKind.unknown
    }

    @exclusivity(unchecked) var unchecked = HotState()

    /// The outputs, in layout space.
    public var layout: Layout { unchecked.layout }

    /// The filters, in the order they are asked (``addFilter(_:)``, ``removeFilter(_:)``).
    public var filters: [any InputFilter] { unchecked.filterList.filters }

    /// The active grabs (see ``PointerGrab``, ``TouchGrab``, ``KeyboardGrab``); `nil`: the
    /// default rule.
    public var pointerGrab: (any PointerGrab)? { unchecked.pointer.grab }

    /// The active touch grab (``startTouchGrab(_:)``); `nil`: the default rule.
    public var touchGrab: (any TouchGrab)? { unchecked.touches.grab }

    /// The active keyboard grab (``startKeyboardGrab(_:focus:)``); `nil`: keys go to the first
    /// responder.
    public var keyboardGrab: (any KeyboardGrab)? { unchecked.keyboard.grab }

    /// The spies, in the order they are told (``addSpy(_:)``, ``removeSpy(_:)``).
    public var spies: [any InputSpy] { unchecked.spyList.spies }

    /// Where the pointer is, in layout space, kept on the layout's outputs (it starts at the
    /// origin, clamped onto the layout when outputs change). Moved by injected motion and by
    /// ``routePointerMotion(_:)``; already updated when a pointer grab sees the motion.
    public var pointerLocation: LayoutPoint { unchecked.pointer.location }

    /// The surface pointer events go to: the topmost surface under ``pointerLocation``,
    /// kept while a button is held (the implicit grab), or what a pointer grab set with
    /// ``setPointerFocus(_:time:)``. `nil` over no surface.
    public var pointerFocus: Surface? { unchecked.pointer.focus }

    /// The surface whose responder gets keys first (``becomeFirstResponder(_:)``); `nil`: keys
    /// go to the delegate.
    ///
    /// While a key is delivered, a first responder replaced by another waits in
    /// `formerFirstResponders` until the delivery ends: the delivery uses the surface without
    /// owning it.
    public var firstResponder: Surface? { unchecked.keyboard.firstResponder }

    /// Keys held now (evdev codes), in the order they were pressed, whoever took their
    /// presses (filters, grabs, key commands included); see ``heldKeysForFocus``.
    public var pressedKeys: [UInt32] { unchecked.keyboard.pressedKeys }

    /// The devices present, as announced by ``InputEvent/Kind/deviceAdded(_:)`` and not yet
    /// removed.
    public var devices: [DeviceID: DeviceInfo] { unchecked.devices }

    /// The union of the present devices' capabilities (what `wl_seat.capabilities` sends);
    /// changes are told to ``CompositorDelegate/router(_:capabilitiesChanged:)``.
    public var capabilities: DeviceCapabilities { unchecked.capabilities }

    /// The event loop's clock and timers.
    public let clock: any Clock
    /// The compositor: last responder of every chain. Held weakly; the compositor owns the
    /// router. (A weak reference gives the delegate a side table, so its retains on a walk
    /// that reaches it take the runtime's slow path, about 320 instructions per pointer motion
    /// in the benchmark; the alternative, the runtime's `swift_isDeallocating` declared with
    /// `@_silgen_name`, draws a compiler warning that it will become an error, and was not
    /// taken: see BENCHMARKS.md, issue 25 sixth round. The weak reference is kept in the
    /// router's unchecked state: read from a stored property of the router, each read also
    /// paid a run-time exclusivity check, about 75 instructions; issue 25 seventh round.)
    public var delegate: (any CompositorDelegate)? {
        get { unchecked.delegate }
        set {
            unchecked.delegate = newValue
            unchecked.delegateGeneration &+= 1
            unchecked.delegateChain = .unknown
        }
    }
    /// Fills in keysyms, text and modifiers for key events (SeatKitXKB provides one).
    /// The one it replaces is told with ``KeyInterpreter/detached(from:)``.
    public var keyInterpreter: (any KeyInterpreter)? {
        didSet {
            let old = unchecked.keyboard.interpreterCall
            unchecked.keyboard.interpreterCall = keyInterpreter.map { KeyInterpreterCall.make($0) }
            unchecked.keyboard.interpreterCallLink = unchecked.keyboard.interpreterCall.map(Unretained.init)
            // Replaced from inside its own `interpret`: it must outlive that call.
            if let old { unchecked.keyboard.formerInterpreterCalls.keep(old) }
            if let oldValue, oldValue !== keyInterpreter { oldValue.detached(from: self) }
        }
    }
    /// Receives every routing decision; `nil` (the default) costs nothing.
    public var trace: (any TraceSink)? {
        get { unchecked._trace }
        set {
            unchecked._trace = newValue
            unchecked.touches.noteSideRoute(TouchRouting.tracedSide, newValue != nil)
        }
    }


    /// Gesture coordination: arenas, held touches, require-to-fail, the pointer and touchpad
    /// arenas (Gestures/GestureCoordinator.swift). The router calls it at each step of the
    /// flow above; it calls back for what the router owns (touches, chain walks, the trace).
    let gestures = GestureCoordinator()
    /// Dots per inch assumed for a touch device that does not report its physical size, to
    /// turn recognizers' millimetres into layout units. Default:
    /// ``defaultFallbackDotsPerInch`` (96, the CSS and X11 reference).
    public var fallbackDotsPerInch: Double {
        get { unchecked._fallbackDotsPerInch }
        set { unchecked._fallbackDotsPerInch = newValue }
    }

    /// What the core's filters keep instead of a weak reference to the router (see
    /// ``RouterHandle``): a weak reference would give the router a side table, and every
    /// retain and release of it the runtime's slow path.
    let handle = RouterHandle()

    /// Longest chain walked before a redirect loop is assumed.
    let chainStepLimit = 1 << 16

    /// A router with no outputs, devices, filters or grabs, reading time and arming timers
    /// (recognizers' delays) through `clock`.
    public init(clock: any Clock) {
        self.clock = clock
        gestures.unchecked.arenaPool.reserveCapacity(16)
        gestures.unchecked.engagedRecognizers.reserveCapacity(16)
        gestures.unchecked.waitingRecognizers.reserveCapacity(8)
        gestures.unchecked.heldTouches.reserveCapacity(32)
        gestures.unchecked.gestureScratch.reserveCapacity(16)
        gestures.unchecked.heldScratch.reserveCapacity(16)
        gestures.unchecked.releaseGroup.reserveCapacity(16)
        // Grown on the first recognizer's first transition otherwise: that first growth also
        // instantiated the array's metadata, ~12,000 instructions inside the first touch.
        gestures.unchecked.transitionsUnderWay.reserveCapacity(4)
        // One touch record made now, for the first touch: made then, its first allocation
        // also instantiated its arrays' metadata, ~13,000 instructions inside the first touch.
        unchecked.touches.pool.append(TouchSequence())
        handle.attach(self)
    }

    deinit {
        handle.detach()
        keyInterpreter?.detached(from: self)
        unchecked.filterList.detach()
        // The unretained links to this router (rule 1 of ``Unretained``) go with it.
        unchecked.layout.outputs.scan { if $0.unchecked.routerLink?.refers(to: self) == true { $0.unchecked.routerLink = nil } }
        gestures.unchecked.engagedRecognizers.scan {
            if $0.unchecked.engagedRouterLink?.refers(to: self) == true { $0.unchecked.engagedRouterLink = nil }
        }
        // The pooled records let go of one at a time: a pool is a list linked through its
        // records (``TouchRecordPool``), and dropped whole, each record's release would release
        // the next inside it, one nested call per record (a router that once had many thousand
        // touches down, from a malformed recording or a misbehaving backend, would overflow
        // its thread's stack as it went).
        unchecked.touches.pool.removeAll()
    }

    // MARK: Entry point

    /// Routes one event through every door: filters and spies, then the active grab of its
    /// device class (or the default rule), then recognizers and the responder chain. What a
    /// backend calls. Tablet tools are routed as pens (Router+Pen.swift); switches, tablet pads
    /// and unknown events go from the filters to the delegate's
    /// ``CompositorDelegate/router(_:deviceEvent:)``; device announcements skip filters. Events
    /// must arrive in time order, as the device produced them; layout-space points. Malformed
    /// events (non-finite coordinates, unknown touches) are ignored and traced. Safe to call
    /// from inside any handler.
    ///
    /// Inlinable: the switch on the event's kind is compiled into the caller, each case a
    /// direct call that reads only what it needs of the event (`injectTouchMotion(at:device:id:to:)`
    /// and the others below). Out of line, the call read the whole 105-byte event into
    /// registers before the switch, and a touch frame's case test ORed its payload words; a
    /// caller that makes the event itself (a backend's case, a test) has no switch left at
    /// all (issue 25, eleventh round). `consuming`: a touch motion or frame is handed on as its
    /// parts, and the event is made again only for whoever looks at it (a trace, a spy, a
    /// filter, a grab); the caller then has nothing left to destroy (borrowed, the caller's
    /// event was destroyed through its value witness after every call, 44 instructions).
    @inlinable
    public func inject(_ event: consuming InputEvent) {
        switch event.kind {
        case .touchDown(let id, let point): injectTouchDown(event, id: id, at: point)
        case .touchMotion(let id, let point): injectTouchMotion(at: event.time, device: event.device, id: id, to: point)
        case .touchUp(let id): injectTouchUp(event, id: id)
        case .touchCancel(let id): injectTouchCancel(event, id: id)
        case .touchFrame: injectTouchFrame(at: event.time, device: event.device)
        case .pointerMotion(let delta, let raw): injectPointerMotion(event, delta: delta, unaccelerated: raw)
        case .pointerMotionAbsolute(let point): injectPointerMotion(event, to: point)
        case .pointerButton(let button, let state): injectPointerButton(event, button: button, state: state)
        case .key(let keycode, let state): injectKey(event, keycode: keycode, state: state)
        default: injectOther(event)
        }
    }

    // The cases of ``inject(_:)``: each records the event as received, then routes it. The
    // touch cases as ``injectTouch(_:afterFilter:)`` routes them, from the first filter.
    // The trace's entry is made out of line (``traceReceived(_:)``): inline, it read the
    // whole event up front on every call, traced or not.

    /// Records `event` as received. Out of line: see above.
    @inline(never)
    func traceReceived(_ event: InputEvent) {
        trace?.record(.received(event))
    }

    @usableFromInline
    func injectTouchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint) {
        if trace != nil { traceReceived(event) }
        touchDown(event, id: id, at: point, firstFilter: 0)
    }

    /// A touch motion, from its parts. Most often nothing but the record looks at it: no
    /// trace, no spy observing touch motions (a cursor spy that wants only downs does not
    /// count), no filter asked about touches and none that took one, no grab. Then the
    /// record is moved here, with no event made (``moveRoutedTouch(_:to:)``). A finger a
    /// filter took and follows (touch accommodations' counted touch) is routed so too, as
    /// ``touchMotion(_:id:to:firstFilter:)`` would route it
    /// (``followedFingerMoved(at:device:id:to:)``). Anything else, or no such touch, goes the
    /// whole way with its event (``injectTouchMotion(time:device:id:to:)``), which does the same then.
    ///
    /// The common case calls nothing: the taken finger's way is out of line
    /// (``injectTakenTouchMotion(at:device:id:to:)``), so that this one saves no registers and
    /// keeps no stack frame of its own (issue 25, fifteenth round: 65 instructions a motion,
    /// 15 of them the prologue and epilogue the rare paths needed).
    @usableFromInline
    func injectTouchMotion(at time: Timestamp, device: DeviceID, id: TouchID, to point: LayoutPoint) {
        routeInjectedTouchMotion(at: time, device: device, id: id, to: point)
    }

    /// A touch motion at a device's normalized point (0...1 of its area, in the panel's native
    /// orientation, as libinput reports it): placed in layout space by
    /// ``layoutPoint(fromNormalized:_:device:)`` and routed as ``inject(_:)`` routes a motion
    /// to that point (``injectTouchMotion(at:device:id:to:)``: trace, spies, filters and grabs
    /// see it as there). `package`: SeatKitLibinput's drain calls it for a touchscreen's
    /// motion, where the placement and the motion were two calls from the loop, each with its
    /// own prologue, epilogue and moves of the point (issue 25, seventeenth round).
    ///
    /// The point placed here only by a kept straight or swapped placement
    /// (`directlyPlacedPoint(fromNormalized:_:device:)`); any other placement goes out of line
    /// (``injectTouchMotionPlacing(at:device:id:x:y:)``), so that the common case makes no call
    /// but the last and keeps no registers of its own.
    package func injectTouchMotion(at time: Timestamp, device: DeviceID, id: TouchID, normalizedX x: Double, y: Double) {
        guard let point = directlyPlacedPoint(fromNormalized: x, y, device: device) else {
            return injectTouchMotionPlacing(at: time, device: device, id: id, x: x, y: y)
        }
        routeInjectedTouchMotion(at: time, device: device, id: id, to: point)
    }

    /// ``injectTouchMotion(at:device:id:normalizedX:y:)`` with the point placed by
    /// ``layoutPoint(fromNormalized:_:device:)`` (a placement resolved again, a calibrated
    /// device, a region, no outputs).
    @inline(never)
    func injectTouchMotionPlacing(at time: Timestamp, device: DeviceID, id: TouchID, x: Double, y: Double) {
        injectTouchMotion(at: time, device: device, id: id, to: layoutPoint(fromNormalized: x, y, device: device))
    }

    /// ``injectTouchMotion(at:device:id:to:)``'s body, for it and for
    /// ``injectTouchMotion(at:device:id:normalizedX:y:)``.
    ///
    /// No trace, taken touch or touch grab is one test (`TouchRouting.sideRoutes`); with any
    /// of them the motion takes ``routeSideRoutedTouchMotion(at:device:id:to:)``, out of line.
    @inline(__always)
    private func routeInjectedTouchMotion(at time: Timestamp, device: DeviceID, id: TouchID, to point: LayoutPoint) {
        // Both coordinates finite, tested in the floating-point unit: `x - x` is 0 for a finite
        // `x` and NaN for an infinite or NaN one (`isFinite` twice was ten integer
        // instructions on the bit patterns; issue 25, sixteenth round).
        if unchecked.touches.sideRoutes == 0, !unchecked.spyList.wants(.touchMotion), (point.x - point.x) + (point.y - point.y) == 0 {
            if !unchecked.filterList.asks(.touches), moveRoutedTouch(id, to: point) { return }
            return injectTouchMotion(time: time, device: device, id: id, to: point)
        }
        routeSideRoutedTouchMotion(at: time, device: device, id: id, to: point)
    }

    /// ``routeInjectedTouchMotion(at:device:id:to:)`` with a trace, a taken touch or a touch
    /// grab (`TouchRouting.sideRoutes`), or a spy that wants the motion, or a point not finite.
    @inline(never)
    func routeSideRoutedTouchMotion(at time: Timestamp, device: DeviceID, id: TouchID, to point: LayoutPoint) {
        if trace == nil, !unchecked.spyList.wants(.touchMotion), (point.x - point.x) + (point.y - point.y) == 0 {
            if !unchecked.touches.takenByFilters.isEmpty {
                return injectTakenTouchMotion(at: time, device: device, id: id, to: point)
            }
            if !unchecked.filterList.asks(.touches), unchecked.touches.grab == nil, moveRoutedTouch(id, to: point) { return }
        }
        injectTouchMotion(time: time, device: device, id: id, to: point)
    }

    /// ``injectTouchMotion(at:device:id:to:)`` while a filter has taken a touch (no trace or
    /// spy wants the motion, its point is finite): a followed finger's motion is routed as
    /// ``touchMotion(_:id:to:firstFilter:)`` would (``followedFingerMoved(at:device:id:to:)``);
    /// anything else goes the whole way with its event.
    @inline(never)
    func injectTakenTouchMotion(at time: Timestamp, device: DeviceID, id: TouchID, to point: LayoutPoint) {
        if !unchecked.touches.followedFingers.isEmpty, unchecked.touches.takenByFilters.scanContains(id),
           followedFingerMoved(at: time, device: device, id: id, to: point) {
            return
        }
        injectTouchMotion(time: time, device: device, id: id, to: point)
    }

    /// ``injectTouchMotion(at:device:id:to:)``'s way with its event, made here.
    @inline(never)
    func injectTouchMotion(time: Timestamp, device: DeviceID, id: TouchID, to point: LayoutPoint) {
        let event = InputEvent(time: time, device: device, .touchMotion(id, point))
        if trace != nil { traceReceived(event) }
        touchMotion(event, id: id, to: point, firstFilter: 0)
    }

    @usableFromInline
    func injectTouchUp(_ event: InputEvent, id: TouchID) {
        if trace != nil { traceReceived(event) }
        touchUp(event, id: id, firstFilter: 0)
    }

    @usableFromInline
    func injectTouchCancel(_ event: InputEvent, id: TouchID) {
        if trace != nil { traceReceived(event) }
        touchCancel(event, id: id, firstFilter: 0)
    }

    /// A touch frame, from its parts: with no trace, grab or spy observing touch frames to
    /// see it, delivered with no event made (``touchFrame(_:)`` does the same then).
    /// The event is made out of line (``injectTouchFrameEvent(time:device:)``): made here, it
    /// gave this function a stack frame that the common case paid for (issue 25, fifteenth round).
    /// `package`: SeatKitLibinput's drain calls it directly for a touchscreen's frame, where
    /// its own function around ``inject(_:)`` was one call more a frame (issue 25,
    /// seventeenth round). Goes through trace, spies and grabs as ``inject(_:)``'s frame does.
    @usableFromInline
    package func injectTouchFrame(at time: Timestamp, device: DeviceID) {
        // No trace and no grab (`TouchRouting.sideRoutes`; a taken touch does not matter here).
        if unchecked.touches.sideRoutes & (TouchRouting.tracedSide | TouchRouting.grabSide) == 0, !unchecked.spyList.wants(.touchFrame) {
            return dispatchTouches(time: time)
        }
        injectTouchFrameEvent(time: time, device: device)
    }

    /// ``injectTouchFrame(at:device:)``'s way with its event, made here.
    @inline(never)
    func injectTouchFrameEvent(time: Timestamp, device: DeviceID) {
        injectTouchFrame(InputEvent(time: time, device: device, .touchFrame))
    }

    @inline(never)
    func injectTouchFrame(_ event: InputEvent) {
        if trace != nil { traceReceived(event) }
        touchFrame(event)
    }

    @usableFromInline
    func injectPointerMotion(_ event: InputEvent, delta: Vector, unaccelerated raw: Vector) {
        if trace != nil { traceReceived(event) }
        // A non-finite delta (a broken device or backend) would poison the position.
        guard delta.dx.isFinite, delta.dy.isFinite else { return ignore(event, "non-finite motion") }
        if runPointerMotionFilters(event) { return }
        let unaccelerated = raw.dx.isFinite && raw.dy.isFinite ? raw : delta
        movePointer(to: unchecked.layout.clamp(unchecked.pointer.location.offset(by: delta)), event: event, delta: delta, unaccelerated: unaccelerated)
    }

    @usableFromInline
    func injectPointerMotion(_ event: InputEvent, to point: LayoutPoint) {
        if trace != nil { traceReceived(event) }
        guard point.x.isFinite, point.y.isFinite else { return ignore(event, "non-finite position") }
        if runPointerMotionFilters(event) { return }
        let target = unchecked.layout.clamp(point)
        movePointer(to: target, event: event, delta: target.vector(from: unchecked.pointer.location), unaccelerated: .zero)
    }

    @usableFromInline
    func injectPointerButton(_ event: InputEvent, button: UInt32, state: ButtonState) {
        if trace != nil { traceReceived(event) }
        pointerButton(event, button: button, state: state)
    }

    @usableFromInline
    func injectKey(_ event: InputEvent, keycode: UInt32, state: KeyState) {
        if trace != nil { traceReceived(event) }
        key(event, keycode: keycode, state: state)
    }

    /// The other kinds: scrolling, touchpad gestures, tablets, switches, unknown events and
    /// device announcements.
    @usableFromInline
    func injectOther(_ event: InputEvent) {
        if trace != nil { traceReceived(event) }
        switch event.kind {
        case .touchDown, .touchMotion, .touchUp, .touchCancel, .touchFrame, .pointerMotion, .pointerMotionAbsolute,
             .pointerButton, .key:
            // ``inject(_:)`` routes these itself.
            break
        case .pointerAxis(let motion):
            if runFilters(event, kind: .pointerAxis) { return }
            pointerAxis(event, motion: motion)
        case .touchpadGesture(let gesture):
            if runFilters(event, kind: .other) { return }
            touchpadGesture(event, gesture: gesture)
        case .tablet(let t) where t.isToolEvent: penEvent(event, t)
        case .switchToggled, .tablet, .unknown:
            if runFilters(event, kind: .other) { return }
            delegate?.router(self, deviceEvent: event)
        case .deviceAdded(let info):
            unchecked.devices[event.device] = info
            updateDeviceOutputs()
            updateCapabilities()
            observe(event, consumed: false)
            delegate?.router(self, deviceEvent: event)
        case .deviceRemoved:
            deviceRemoved(event)
        }
    }

    /// Drops a malformed event: traced, and spies hear it as consumed. Out of line (rare):
    /// inline, its trace entry made the entry points read the whole event up front.
    @inline(never)
    func ignore(_ event: InputEvent, _ reason: String) {
        trace?.record(.ignored(event, reason: reason))
        observe(event, consumed: true)
    }

    /// Runs the filters, then the spies. Returns true when a filter consumed the event.
    /// `kind`: the event's class (``FilterInterests/of(_:)``), which the caller knows from the
    /// case it matched (working it out here read the whole event: about 40 instructions per
    /// pointer motion with no filter at all).
    ///
    /// Inline, the test for no filter asked about the class (then only the spies); the
    /// asking out of line (``runAskedFilters(_:kind:)``).
    @inline(__always)
    func runFilters(_ event: InputEvent, kind: FilterInterests) -> Bool {
        if unchecked.filterList.asks(kind) { return runAskedFilters(event, kind: kind) }
        if !unchecked.spyList.isEmpty { observe(event, consumed: false) }
        return false
    }

    /// ``runFilters(_:kind:)`` when some filter is asked about the class: a lone filter is
    /// asked here, without a further call (``askLone(_:kind:)``).
    @inline(never)
    func runAskedFilters(_ event: InputEvent, kind: FilterInterests) -> Bool {
        let consumedBy = unchecked.filterList.asksOne(kind) ? askLone(event, kind: kind) : askFiltersInOrder(event, kind: kind)
        if let consumedBy { traceConsumed(event, by: consumedBy) }
        if !unchecked.spyList.isEmpty { observe(event, consumed: consumedBy != nil) }
        return consumedBy != nil
    }

    /// ``runFilters(_:kind:)`` for a pointer motion (relative or absolute): the same inline
    /// test for no filter asked about it, and an asking of its own out of line
    /// (``runAskedPointerMotionFilters(_:)``).
    @inline(__always)
    func runPointerMotionFilters(_ event: InputEvent) -> Bool {
        if unchecked.filterList.asks(.pointerMotion) { return runAskedPointerMotionFilters(event) }
        if !unchecked.spyList.isEmpty { observe(event, consumed: false) }
        return false
    }

    /// ``runAskedFilters(_:kind:)`` for a pointer motion: the class's lone filter from a plain
    /// field (``FilterList/lonePointerMotionFilter``) asked inline, dwell click's body with it
    /// (``askPointerMotionFilters(_:lone:)``): no index into the lists, no jump on which filter.
    @inline(never)
    func runAskedPointerMotionFilters(_ event: InputEvent) -> Bool {
        let consumedBy = askPointerMotionFilters(event, lone: unchecked.filterList.lonePointerMotionFilter)
        if let consumedBy { traceConsumed(event, by: consumedBy) }
        if !unchecked.spyList.isEmpty { observe(event, consumed: consumedBy != nil) }
        return consumedBy != nil
    }

    /// Out of line: inline, the event was copied for the trace's entry before every asking.
    @inline(never)
    func traceConsumed(_ event: InputEvent, by filter: Int) {
        trace?.record(.consumed(event, filter: filter))
    }

    /// Tells the spies that observe `event`'s kind about it, each through its holder's
    /// unretained link (no array copy, no retain per spy: ``SpyList``,
    /// ``tellSpies(_:consumed:)`` in UnsafeFoundations.swift).
    @inline(__always)
    func observe(_ event: InputEvent, consumed: Bool) {
        if unchecked.spyList.isEmpty { return }
        tellSpies(event, consumed: consumed)
    }

    /// ``observe(_:consumed:)`` of an event the caller knows to be of one of `kinds`: when no
    /// spy observes any of them, no call (a touch up with only a kiosk's cursor-visibility
    /// spy, which observes downs, called the telling to learn that: ~30 instructions an up).
    @inline(__always)
    func observe(_ event: InputEvent, consumed: Bool, oneOf kinds: InputEventKinds) {
        if !unchecked.spyList.wants(kinds) { return }
        tellSpies(event, consumed: consumed)
    }

    // MARK: Filters and spies

    /// Adds a filter after the existing ones; it is asked from the next event on (one added
    /// from inside a filter's call is asked once the event under way has been asked of the
    /// filters), about the kinds of its ``InputFilter/filteredKinds`` (read now). The router
    /// keeps it alive until ``removeFilter(_:)``.
    public func addFilter(_ filter: any InputFilter) { unchecked.filterList.append(filter) }
    /// Reads `filter`'s ``InputFilter/filteredKinds`` again: a filter whose kinds change
    /// (one that acts on nothing while idle) calls it after each change. It keeps its place
    /// among the filters. From the next event on; called from inside a filter's call, the
    /// event under way is still asked as the filters were when it came. Nothing for a filter
    /// that is not added.
    public func filteredKindsChanged(_ filter: any InputFilter) { unchecked.filterList.kindsChanged(filter) }
    /// Removes `filter` (every time it was added). Keys, buttons and touches it already took
    /// stay taken until they end. Removed from inside a filter's call, it is still asked about
    /// the event under way (the filters are asked as they were when that event came) and kept
    /// alive until that asking ends.
    public func removeFilter(_ filter: any InputFilter) {
        let removed = unchecked.filterList.remove(filter)
        _ = removed
    }
    /// Adds a spy after the existing ones, kept alive until ``removeSpy(_:)``: it is told the
    /// events of its ``InputSpy/observedKinds`` (read now), in the order the spies were
    /// added. One added from inside a spy's call is told from the next event after the one
    /// under way.
    public func addSpy(_ spy: any InputSpy) { unchecked.spyList.append(spy, kinds: spy.observedKinds) }
    /// Adds an observer of the ends of touch frames, held weakly: the router does not keep it
    /// alive (an observer that owns the router may register itself). A Wayland `Seat` needs
    /// no registering: the router tells its queue of owed `wl_touch.frame`s itself.
    public func addTouchFrameObserver(_ observer: any TouchFrameObserver) {
        unchecked.touches.frameObservers.removeAll { $0.observer == nil || $0.observer === observer }
        unchecked.touches.frameObservers.append(WeakTouchFrameObserver(observer: observer))
    }
    /// Adds an observer of the ends of touch frames, kept alive by the router: for one that
    /// holds nothing that keeps the router alive (the seat's queue of clients owed a
    /// `wl_touch.frame`). A strong reference costs a plain retain per frame where a weak one
    /// took the runtime's slow path, and gave its object a side table.
    package func addTouchFrameSink(_ sink: any TouchFrameObserver) {
        unchecked.touches.frameSinks.append(sink)
    }
    /// Stops telling `observer` (and forgets observers that are gone).
    public func removeTouchFrameObserver(_ observer: any TouchFrameObserver) {
        unchecked.touches.frameObservers.removeAll { $0.observer == nil || $0.observer === observer }
    }

    /// Tells the touch frame sinks, then the observers, that a delivery of touch events ended.
    /// Inlined into the frame's end: the sinks' loop (a Wayland seat's queue of owed
    /// `wl_touch.frame`s, told every frame) runs there, and the weak observers' out of line
    /// only when there are some (issue 25, fourteenth round: two calls less a frame).
    @inline(__always)
    func touchFrameDidFinish() {
        tellTouchFrameSinks()
        if !unchecked.touches.frameObservers.isEmpty { tellTouchFrameObservers() }
    }

    /// ``touchFrameDidFinish()``'s weak observers, in the order added (one gone is skipped).
    @inline(never)
    func tellTouchFrameObservers() {
        var i = 0
        while i < unchecked.touches.frameObservers.count {
            unchecked.touches.frameObservers[i].observer?.routerDidFinishTouchFrame(self)
            i += 1
        }
    }
    /// Removes `spy` (every time it was added). Removed from inside a spy's call, it is still
    /// told the events under way, and kept alive until they are told.
    public func removeSpy(_ spy: any InputSpy) {
        let removed = unchecked.spyList.remove(spy)
        _ = removed
    }

    // MARK: Outputs

    /// Places an output in the layout; its tree becomes routable. An output that was removed
    /// may be added again, with the tree it kept.
    public func addOutput(_ output: Output) {
        precondition(output.router == nil || output.router === self, "an output belongs to one router")
        guard !unchecked.layout.outputs.contains(where: { $0 === output }) else { return }
        output.router = self
        output.isInLayout = true
        unchecked.layout.outputs.append(output)
        output.root.attach(to: output)
        updateDeviceOutputs()
        outputGeometryDidChange()
    }

    /// Removes an output from the layout, and its whole tree with it, root included: each of
    /// its responders hears what ``Surface/removeFromParent()`` promises (cancelled touches,
    /// leave, resignation, cancelled releases), and no surface of it can take keyboard focus
    /// or input until the output is added again. The tree itself is kept: move windows to
    /// another output's root *before* removing this one to keep their touches and focus.
    public func removeOutput(_ output: Output) {
        guard let index = unchecked.layout.outputs.firstIndex(where: { $0 === output }) else { return }
        // A walk asking it unretained keeps it until it is done (UnsafeFoundations.swift).
        output.keepIfPinned()
        unchecked.layout.outputs.remove(at: index)
        output.isInLayout = false
        output.root.attach(to: output)
        output.router = nil
        updateDeviceOutputs()
        subtreeDidLeave(output.root, formerParent: output.root)
        outputGeometryDidChange()
    }

    func outputGeometryDidChange() {
        unchecked.placementEdits &+= 1
        unchecked.pointer.location = unchecked.layout.clamp(unchecked.pointer.location)
        treeDidChange()
    }

    /// The surface that input from `device` at a layout-space point goes to, ignoring grabs
    /// and bound touches: hit-tested on the output the device is mapped to, if it is in the
    /// layout (mirrored or overlapping outputs), else as ``surface(at:)``.
    public func surface(at point: LayoutPoint, device: DeviceID) -> Surface? {
        hit(at: point, device: device)?.surface
    }

    /// ``surface(at:device:)`` with the point in the surface's space, as the hit-test found it.
    func hit(at point: LayoutPoint, device: DeviceID) -> SurfaceHit? {
        guard !unchecked.deviceOutputs.isEmpty, let output = unchecked.deviceOutputs[device] else { return hit(at: point) }
        return output.root.hitTestLocating(SurfacePoint(x: point.x - output.position.x, y: point.y - output.position.y))
    }

    /// A routed tree or the layout changed: pointer focus is checked again before the next
    /// pointer event (an edit does not move focus by itself, as no pointer event happened).
    @inline(__always)
    func treeDidChange() { unchecked.treeEditCount &+= 1 }

    // MARK: Devices

    private func deviceRemoved(_ event: InputEvent) {
        cancelSequences(reason: "device removed") { $0.unchecked.device == event.device }
        if !unchecked.pens.states.isEmpty { pensLeft(device: event.device, time: event.time) }
        unchecked.devices[event.device] = nil
        updateDeviceOutputs()
        updateCapabilities()
        observe(event, consumed: false)
        delegate?.router(self, deviceEvent: event)
    }

    private func updateCapabilities() {
        let union = unchecked.devices.values.reduce(into: DeviceCapabilities()) { $0.formUnion($1.capabilities) }
        guard union != unchecked.capabilities else { return }
        unchecked.capabilities = union
        delegate?.router(self, capabilitiesChanged: union)
    }

    // MARK: The responder chain

    /// The responder behind a link, or `nil` for a missing delegate.
    func responder(for link: ChainLink) -> (any Responder)? {
        switch link {
        case .surface(let s): return s.responder
        case .output(let o): return o.responder
        case .delegate: return delegate
        }
    }

    /// The link after `link`: the responder's own choice, starting from the default. A
    /// surface detached mid-walk goes on to `formerOutput` (the output its walk started on),
    /// if that output is still in the layout, else to the delegate.
    func nextLink(after link: ChainLink, responder: (any Responder)?, formerOutput: Unretained<Output>?) -> ChainLink? {
        let defaultNext: ChainLink?
        switch link {
        case .surface(let s): defaultNext = defaultLink(after: s, formerOutput: formerOutput)
        case .output: defaultNext = .delegate
        case .delegate: defaultNext = nil
        }
        guard let responder else { return defaultNext }
        return responder.nextResponder(after: defaultNext)
    }

    /// The default link after surface `s`: its parent, else its output (`formerOutput` if it
    /// was detached mid-walk and that output is still in the layout), else the delegate.
    /// Takes the surface itself, not a ``ChainLink``: making one would retain it.
    @inline(__always)
    func defaultLink(after s: Surface, formerOutput: Unretained<Output>?) -> ChainLink {
        if s.unchecked.isAttached, let parent = s.parent { return .surface(parent) }
        if let o = s.output ?? outputInLayout(formerOutput) { return .output(o) }
        return .delegate
    }

    /// The output `link` refers to, if it is still in the layout (it may have gone while a
    /// walk was under way). Rare: out of line, so that `nextLink` stays small.
    @inline(never)
    func outputInLayout(_ link: Unretained<Output>?) -> Output? {
        guard let link else { return nil }
        var i = 0
        while i < unchecked.layout.outputs.count {
            if link.refers(to: unchecked.layout.outputs[i]) { return unchecked.layout.outputs[i] }
            i += 1
        }
        return nil
    }

    /// Walks the chain from `surface` (from the delegate when it is `nil` or detached),
    /// asking each responder with `ask` until one handles the event. Returns whether one did
    /// (when none did, the caller reports the drop). Removed surfaces met on the way are
    /// skipped.
    ///
    /// The first link is asked without being copied into a ``ChainLink``: the caller holds
    /// `surface`, so asking its responder costs no reference counting beyond the responder.
    ///
    /// `reportingDrop`: when the walk ends unhandled at the delegate, it is handed the
    /// delegate the walk just asked, to report the drop through it (one weak load of the
    /// delegate instead of two); if it did (returned true) the walk returns true, and the
    /// caller reports the other drops as before. By default it reports nothing. Only while
    /// the delegate is the one the walk read (``HotState/delegateGeneration``), so a handler
    /// that replaced it sends the drop to the new one, as before.
    ///
    /// Without `stopIf`, the walk never stops early (``walkChain(from:target:kind:reportingDrop:_:)``).
    @inline(__always)
    func walkChain(from surface: Surface?, target: Surface?, kind: RoutedEventKind,
                   stopIf shouldStop: () -> Bool,
                   reportingDrop: (any CompositorDelegate) -> Bool = { _ in false },
                   _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        if let surface { return walkChain(from: surface, target: target, kind: kind, stopIf: shouldStop, reportingDrop: reportingDrop, ask) }
        return walkChain(on: .delegate, target: target, kind: kind, formerOutput: nil, steps: 0, stopIf: shouldStop,
                         reportingDrop: reportingDrop, ask)
    }

    /// ``walkChain(from:target:kind:stopIf:reportingDrop:_:)`` for a walk that nothing stops
    /// early (every walk but a touch's and a key's): the rest of the walk is the out-of-line
    /// ``walkChainUnstoppable(after:holder:target:kind:formerOutput:reportingDrop:_:)``, compiled
    /// with the stop test folded away, not a call through a `{ false }` closure per link
    /// (about 10 instructions a link; issue 25, eleventh round).
    @inline(__always)
    func walkChain(from surface: Surface?, target: Surface?, kind: RoutedEventKind,
                   reportingDrop: (any CompositorDelegate) -> Bool = { _ in false },
                   _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        if let surface { return walkChain(from: surface, target: target, kind: kind, reportingDrop: reportingDrop, ask) }
        return walkChainFromDelegate(target: target, kind: kind, stopIf: { false }, reportingDrop: reportingDrop, ask)
    }

    /// ``walkChain(from:target:kind:stopIf:reportingDrop:inliningTheRest:_:)`` without a stop
    /// test: see ``walkChain(from:target:kind:reportingDrop:_:)``. `inliningTheRest`: as
    /// there, the rest of the walk compiled into the caller (a pointer motion's walk, issue 25,
    /// eleventh round).
    @inline(__always)
    func walkChain(from surface: Surface, target: Surface?, kind: RoutedEventKind,
                   reportingDrop: (any CompositorDelegate) -> Bool = { _ in false },
                   inliningTheRest: Bool = false,
                   _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        guard surface.unchecked.isAttached else {
            return walkChainFromDelegate(target: target, kind: kind, stopIf: { false }, reportingDrop: reportingDrop, ask)
        }
        let formerOutput = surface.unchecked.outputLink
        return surface.withResponderHolder { holder in
            let result = ask(holder.responder, ResponderContext(router: self, surface: surface, target: target))
            if let trace { traceAsked(trace, .surface(surface), kind, result) }
            if result == .handled { return true }
            if inliningTheRest {
                return walkChainInlined(after: surface, holder: holder, target: target, kind: kind,
                                        formerOutput: formerOutput, stopIf: { false }, reportingDrop: reportingDrop, ask)
            }
            return walkChainUnstoppable(after: surface, holder: holder, target: target, kind: kind,
                                        formerOutput: formerOutput, reportingDrop: reportingDrop, ask)
        }
    }

    /// ``walkChain(from:target:kind:reportingDrop:inliningTheRest:_:)`` with the rest of the
    /// walk compiled in and the delegate asked by `delegateStep` when the walk reaches it: a
    /// walk compiled for one kind of event (a pointer motion's). A copy of the shared walk's
    /// body, not the shared walk made generic: generic, with the walk's closures passed
    /// through one more layer, a moving touch's inlined walk called its ask through a closure
    /// (+137 instructions per touch frame; issue 25, eleventh round).
    @inline(__always)
    func walkChain<Step: WalkDelegateStep>(from surface: Surface, target: Surface?, kind: RoutedEventKind,
                                           reportingDrop: (any CompositorDelegate) -> Bool, delegateStep: Step,
                                           _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        guard surface.unchecked.isAttached else {
            return walkChainFromDelegate(target: target, kind: kind, stopIf: { false }, reportingDrop: reportingDrop, ask)
        }
        let formerOutput = surface.unchecked.outputLink
        return surface.withResponderHolder { holder in
            let result = ask(holder.responder, ResponderContext(router: self, surface: surface, target: target))
            if let trace { traceAsked(trace, .surface(surface), kind, result) }
            if result == .handled { return true }
            return walkChainInlined(after: surface, holder: holder, target: target, kind: kind,
                                    formerOutput: formerOutput, stopIf: { false }, reportingDrop: reportingDrop,
                                    delegateStep: delegateStep, ask)
        }
    }

    /// ``walkChain(after:holder:target:kind:formerOutput:stopIf:reportingDrop:_:)`` with no
    /// stop test: the same body, its `{ false }` folded away.
    @inline(never)
    func walkChainUnstoppable(after surface: Surface, holder: ResponderHolder, target: Surface?, kind: RoutedEventKind,
                              formerOutput: Unretained<Output>?,
                              reportingDrop: (any CompositorDelegate) -> Bool,
                              _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        walkChainInlined(after: surface, holder: holder, target: target, kind: kind, formerOutput: formerOutput,
                         stopIf: { false }, reportingDrop: reportingDrop, ask)
    }

    /// ``walkChain(from:target:kind:stopIf:reportingDrop:_:)`` from a surface the caller holds:
    /// a detached one starts the walk at the delegate.
    ///
    /// `inliningTheRest`: the rest of the walk (``walkChainInlined(after:holder:target:kind:formerOutput:stopIf:reportingDrop:_:)``)
    /// is compiled into the caller, its ask and stop called directly rather than through a
    /// closure per link: for the one caller where that pays (a moving touch's walk, per touch
    /// frame; issue 25, tenth round). The others share the out-of-line walk.
    @inline(__always)
    func walkChain(from surface: Surface, target: Surface?, kind: RoutedEventKind,
                   stopIf shouldStop: () -> Bool,
                   reportingDrop: (any CompositorDelegate) -> Bool = { _ in false },
                   inliningTheRest: Bool = false,
                   _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        guard surface.unchecked.isAttached else {
            return walkChainFromDelegate(target: target, kind: kind, stopIf: shouldStop, reportingDrop: reportingDrop, ask)
        }
        // Used only as an identity, and only when the surface is removed mid-walk: the walk
        // goes on to that output if it is still in the layout (it may have gone meanwhile).
        let formerOutput = surface.unchecked.outputLink
        if shouldStop() { return false }
        return surface.withResponderHolder { holder in
            let result = ask(holder.responder, ResponderContext(router: self, surface: surface, target: target))
            if let trace { traceAsked(trace, .surface(surface), kind, result) }
            if result == .handled { return true }
            if inliningTheRest {
                return walkChainInlined(after: surface, holder: holder, target: target, kind: kind,
                                        formerOutput: formerOutput, stopIf: shouldStop, reportingDrop: reportingDrop, ask)
            }
            return walkChain(after: surface, holder: holder, target: target, kind: kind,
                             formerOutput: formerOutput, stopIf: shouldStop, reportingDrop: reportingDrop, ask)
        }
    }

    /// A walk that starts at the delegate (its surface is detached). Out of line, so that
    /// `walkChain(from:target:kind:stopIf:_:)` stays small enough to be inlined where a
    /// key or a touch is delivered (inlined, the walk cost 66 instructions less per key).
    @inline(never)
    func walkChainFromDelegate(target: Surface?, kind: RoutedEventKind, stopIf shouldStop: () -> Bool,
                               reportingDrop: (any CompositorDelegate) -> Bool,
                               _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        walkChain(on: .delegate, target: target, kind: kind, formerOutput: nil, steps: 0, stopIf: shouldStop,
                  reportingDrop: reportingDrop, ask)
    }

    /// The surface a walk goes to after `surface` without calling its responder: the parent,
    /// when the responder keeps the default ``Responder/nextResponder(after:)`` (its holder
    /// knows, ``NextResponderProbe``) and `surface` is attached. Unretained: an attached
    /// surface's parent is in the tree, which owns it. `nil`: ask ``nextLinkAsking(after:holder:formerOutput:)``.
    @inline(__always)
    func parentFollowed(after surface: Surface, holder: ResponderHolder) -> Unretained<Surface>? {
        guard holder.unchecked.chain == .followsDefault, surface.unchecked.isAttached else { return nil }
        return surface.unchecked.parentLink
    }

    /// The link after `surface` as its responder (in `holder`) chooses it, starting from the
    /// default (``defaultLink(after:formerOutput:)``); the first call of a responder also
    /// learns whether it keeps the default (``NextResponderProbe``).
    @inline(never)
    func nextLinkAsking(after surface: Surface, holder: ResponderHolder, formerOutput: Unretained<Output>?) -> ChainLink? {
        let defaultNext = defaultLink(after: surface, formerOutput: formerOutput)
        switch holder.unchecked.chain {
        case .followsDefault: return defaultNext
        case .own: return holder.responder.nextResponder(after: defaultNext)
        case .unknown: break
        }
        let (next, kind) = NextResponderProbe.classify(holder.responder, after: defaultNext)
        holder.unchecked.chain = kind
        return next
    }

    /// The rest of a walk whose first surface did not handle the event. Out of line, so
    /// that the common case (the first responder handles it) builds no ``ChainLink``.
    ///
    /// Up the tree, while each responder keeps the default next link, the walk follows the
    /// parents unretained: each is pinned while its responder is asked (the tree may let it
    /// go meanwhile; it then keeps itself alive until unpinned, UnsafeFoundations.swift),
    /// with no ``ChainLink``, retain or `nextResponder` call per link. At the first responder
    /// with its own next link, at the root (the output is next) or after a surface was
    /// detached, the walk goes on with owned links (``walkChain(on:target:kind:formerOutput:steps:stopIf:reportingDrop:_:)``).
    @inline(never)
    func walkChain(after surface: Surface, holder: ResponderHolder, target: Surface?, kind: RoutedEventKind,
                   formerOutput: Unretained<Output>?, stopIf shouldStop: () -> Bool,
                   reportingDrop: (any CompositorDelegate) -> Bool,
                   _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        walkChainInlined(after: surface, holder: holder, target: target, kind: kind, formerOutput: formerOutput,
                         stopIf: shouldStop, reportingDrop: reportingDrop, ask)
    }

    /// The body of ``walkChain(after:holder:target:kind:formerOutput:stopIf:reportingDrop:_:)``,
    /// inlined into it and into the one caller that has a copy of its own
    /// (``walkChain(from:target:kind:stopIf:reportingDrop:inliningTheRest:_:)``).
    @inline(__always)
    func walkChainInlined(after surface: Surface, holder: ResponderHolder, target: Surface?, kind: RoutedEventKind,
                          formerOutput: Unretained<Output>?, stopIf shouldStop: () -> Bool,
                          reportingDrop: (any CompositorDelegate) -> Bool,
                          _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        var steps = 1
        guard var node = parentFollowed(after: surface, holder: holder) else {
            guard let next = nextLinkAsking(after: surface, holder: holder, formerOutput: formerOutput) else { return false }
            return walkChain(on: next, target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                             stopIf: shouldStop, reportingDrop: reportingDrop, ask)
        }
        while true {
            guard walkMayTakeStep(&steps, kind: kind, stopIf: shouldStop) else { return false }
            node.with { $0.pinForWalk() }
            // nil: go on to `parent`; else the walk's answer (the rest of it, from the first
            // link that is not a followed parent, walked from inside, this surface pinned).
            var parent: Unretained<Surface>?
            let outcome: Bool? = node.with { surface in
                surface.withResponderHolder { holder -> Bool? in
                    if surface.unchecked.isAttached {
                        let result = ask(holder.responder, ResponderContext(router: self, surface: surface, target: target))
                        if let trace { traceAsked(trace, .surface(surface), kind, result) }
                        if result == .handled { return true }
                    }
                    if let next = parentFollowed(after: surface, holder: holder) {
                        parent = next
                        return nil
                    }
                    guard let link = nextLinkAsking(after: surface, holder: holder, formerOutput: formerOutput) else { return false }
                    return walkChain(on: link, target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                                     stopIf: shouldStop, reportingDrop: reportingDrop, ask)
                }
            }
            // The surface is not touched after this: the unpin may release it.
            Surface.unpinAfterWalk(node)
            if let outcome { return outcome }
            guard let parent else { return false }
            node = parent
        }
    }

    /// ``walkChainInlined(after:holder:target:kind:formerOutput:stopIf:reportingDrop:_:)`` with
    /// the delegate asked by `delegateStep` and, if it says so, the output followed pinned (a
    /// copy for ``walkChain(from:target:kind:reportingDrop:delegateStep:_:)``).
    @inline(__always)
    func walkChainInlined<Step: WalkDelegateStep>(after surface: Surface, holder: ResponderHolder, target: Surface?,
                                                  kind: RoutedEventKind, formerOutput: Unretained<Output>?,
                                                  stopIf shouldStop: () -> Bool,
                                                  reportingDrop: (any CompositorDelegate) -> Bool, delegateStep: Step,
                                                  _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        var steps = 1
        guard var node = parentFollowed(after: surface, holder: holder) else {
            guard let next = nextLinkAsking(after: surface, holder: holder, formerOutput: formerOutput) else { return false }
            return delegateStep.walk(on: next, in: self, target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                                     stopIf: shouldStop, reportingDrop: reportingDrop, ask)
        }
        while true {
            guard walkMayTakeStep(&steps, kind: kind, stopIf: shouldStop) else { return false }
            node.with { $0.pinForWalk() }
            // nil: go on to `parent`; else the walk's answer (the rest of it, from the first
            // link that is not a followed parent, walked from inside, this surface pinned).
            var parent: Unretained<Surface>?
            let outcome: Bool? = node.with { surface in
                surface.withResponderHolder { holder -> Bool? in
                    if surface.unchecked.isAttached {
                        let result = ask(holder.responder, ResponderContext(router: self, surface: surface, target: target))
                        if let trace { traceAsked(trace, .surface(surface), kind, result) }
                        if result == .handled { return true }
                    }
                    if let next = parentFollowed(after: surface, holder: holder) {
                        parent = next
                        return nil
                    }
                    if Step.followsOutputUnretained, let output = outputFollowed(after: surface, holder: holder) {
                        return walkChain(onOutput: output, target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                                         stopIf: shouldStop, reportingDrop: reportingDrop, delegateStep: delegateStep, ask)
                    }
                    guard let link = nextLinkAsking(after: surface, holder: holder, formerOutput: formerOutput) else { return false }
                    return delegateStep.walk(on: link, in: self, target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                                             stopIf: shouldStop, reportingDrop: reportingDrop, ask)
                }
            }
            // The surface is not touched after this: the unpin may release it.
            Surface.unpinAfterWalk(node)
            if let outcome { return outcome }
            guard let parent else { return false }
            node = parent
        }
    }

    /// Whether a walk goes on to its next link, `steps` counting it: not once `shouldStop`
    /// says so, nor past ``chainStepLimit`` (a redirect loop: traced). The one place both
    /// walks (``walkChain(after:holder:target:kind:formerOutput:stopIf:reportingDrop:_:)``,
    /// ``walkChain(on:target:kind:formerOutput:steps:stopIf:reportingDrop:_:)``) count steps.
    @inline(__always)
    func walkMayTakeStep(_ steps: inout Int, kind: RoutedEventKind, stopIf shouldStop: () -> Bool) -> Bool {
        if shouldStop() { return false }
        steps += 1
        if steps > chainStepLimit {
            trace?.record(.chainCycle(kind))
            return false
        }
        return true
    }

    /// Walks the chain from `start`, a link reached after `steps` others.
    ///
    /// Each link is held by one owning reference, moved (`consume`) from one step to the next:
    /// a handler may drop the tree's reference to a surface the walk is on (removing it), so
    /// the walk owns the link it asks, but copying it again for the switch, the closure and
    /// the step cost seven retains and releases per link (issue 25, walkChain(after:)).
    func walkChain(on start: consuming ChainLink, target: Surface?, kind: RoutedEventKind, formerOutput: Unretained<Output>?,
                   steps stepsBefore: Int, stopIf shouldStop: () -> Bool,
                   reportingDrop: (any CompositorDelegate) -> Bool = { _ in false },
                   _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        var current = start
        var steps = stepsBefore
        while true {
            guard walkMayTakeStep(&steps, kind: kind, stopIf: shouldStop) else { return false }
            let next: ChainLink?
            switch consume current {
            case .surface(let surface):
                // As for the first link: the responder is asked without being retained.
                var handled = false
                next = surface.withResponder { responder -> ChainLink? in
                    if surface.unchecked.isAttached {
                        let result = ask(responder, ResponderContext(router: self, surface: surface, target: target))
                        if let trace { traceAsked(trace, .surface(surface), kind, result) }
                        if result == .handled {
                            handled = true
                            return nil
                        }
                    }
                    return responder.nextResponder(after: defaultLink(after: surface, formerOutput: formerOutput))
                }
                if handled { return true }
            case .output(let output):
                var handled = false
                next = askOutput(output, target: target, kind: kind, handled: &handled, ask)
                if handled { return true }
            case .delegate:
                // Read once (one weak load): what it is asked and, when the walk ends here,
                // told of the drop, borrowed by `askDelegate` for both.
                guard let delegate = self.delegate else { return false }
                switch askDelegate(delegate, target: target, kind: kind, reportingDrop: reportingDrop, ask) {
                case .some(.some(let following)): next = following
                case .some(.none): return false
                case .none: return true
                }
            }
            guard let following = next else { return false }
            current = consume following
        }
    }

    /// ``walkChain(on:target:kind:formerOutput:steps:stopIf:reportingDrop:_:)`` with the
    /// delegate asked by `delegateStep` (a copy for a walk compiled for one kind of event,
    /// reached through ``WalkDelegateStep/walk(on:in:target:kind:formerOutput:steps:stopIf:reportingDrop:_:)``).
    func walkChain<Step: WalkDelegateStep>(on start: consuming ChainLink, target: Surface?, kind: RoutedEventKind,
                                           formerOutput: Unretained<Output>?, steps stepsBefore: Int,
                                           stopIf shouldStop: () -> Bool,
                                           reportingDrop: (any CompositorDelegate) -> Bool, delegateStep: Step,
                                           _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        var current = start
        var steps = stepsBefore
        while true {
            guard walkMayTakeStep(&steps, kind: kind, stopIf: shouldStop) else { return false }
            let next: ChainLink?
            switch consume current {
            case .surface(let surface):
                // As for the first link: the responder is asked without being retained.
                var handled = false
                next = surface.withResponder { responder -> ChainLink? in
                    if surface.unchecked.isAttached {
                        let result = ask(responder, ResponderContext(router: self, surface: surface, target: target))
                        if let trace { traceAsked(trace, .surface(surface), kind, result) }
                        if result == .handled {
                            handled = true
                            return nil
                        }
                    }
                    return responder.nextResponder(after: defaultLink(after: surface, formerOutput: formerOutput))
                }
                if handled { return true }
            case .output(let output):
                var handled = false
                next = askOutput(output, target: target, kind: kind, handled: &handled, ask)
                if handled { return true }
            case .delegate:
                // Read once (one weak load): what it is asked and, when the walk ends here,
                // told of the drop, borrowed by `askDelegate` for both.
                guard let delegate = self.delegate else { return false }
                switch delegateStep.ask(delegate, in: self, target: target, kind: kind, reportingDrop: reportingDrop, ask) {
                case .some(.some(let following)): next = following
                case .some(.none): return false
                case .none: return true
                }
            }
            guard let following = next else { return false }
            current = consume following
        }
    }

    /// A walk's output step: its responder asked through its holder, not retained (a responder
    /// replaced meanwhile waits until the ask ends, as a surface's does), and what its next
    /// link is, read from the holder (``NextResponderProbe``). `handled`: set when the
    /// responder handled the event (the result is then `nil`).
    @inline(__always)
    func askOutput(_ output: Output, target: Surface?, kind: RoutedEventKind, handled: inout Bool,
                   _ ask: (any Responder, ResponderContext) -> ResponderResult) -> ChainLink? {
        output.withResponderHolder { holder -> ChainLink? in
            let result = ask(holder.responder, ResponderContext(router: self, output: output, target: target))
            if let trace { traceAsked(trace, .output(output), kind, result) }
            if result == .handled {
                handled = true
                return nil
            }
            if holder.unchecked.chain == .followsDefault { return .delegate }
            return outputsOwnNextLink(holder)
        }
    }

    /// What an output's responder that may not keep the default next link chooses after it
    /// (its first call learns whether it keeps it, ``NextResponderProbe``).
    @inline(__always)
    func outputsOwnNextLink(_ holder: ResponderHolder) -> ChainLink? {
        if holder.unchecked.chain == .own { return holder.responder.nextResponder(after: .delegate) }
        let (following, learnt) = NextResponderProbe.classify(holder.responder, after: .delegate)
        holder.unchecked.chain = learnt
        return following
    }

    /// The output a walk goes to after `surface` without calling its responder or owning the
    /// output: when `surface` is an attached root whose responder keeps the default next link,
    /// its output, which is in the layout. `nil`: ask ``nextLinkAsking(after:holder:formerOutput:)``.
    @inline(__always)
    func outputFollowed(after surface: Surface, holder: ResponderHolder) -> Unretained<Output>? {
        guard holder.unchecked.chain == .followsDefault, surface.unchecked.isAttached,
              surface.unchecked.parentLink == nil else { return nil }
        return surface.unchecked.outputLink
    }

    /// The rest of a walk from `link`, an output of the layout reached from its attached root:
    /// the output pinned, not retained, while its responder is asked (a handler may take it
    /// out of the layout; it then keeps itself alive until unpinned, UnsafeFoundations.swift),
    /// then on as ``walkChain(on:target:kind:formerOutput:steps:stopIf:reportingDrop:delegateStep:_:)``.
    @inline(__always)
    func walkChain<Step: WalkDelegateStep>(onOutput link: Unretained<Output>, target: Surface?, kind: RoutedEventKind,
                                           formerOutput: Unretained<Output>?, steps stepsBefore: Int,
                                           stopIf shouldStop: () -> Bool,
                                           reportingDrop: (any CompositorDelegate) -> Bool, delegateStep: Step,
                                           _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        var steps = stepsBefore
        guard walkMayTakeStep(&steps, kind: kind, stopIf: shouldStop) else { return false }
        link.with { $0.pinForWalk() }
        // nil: the responder keeps the default, the delegate is next (stepped to without a
        // link); else the walk's answer (a responder with its own next link: the rest of the
        // walk, from inside, the output pinned).
        let outcome: Bool? = link.with { output in
            output.withResponderHolder { holder -> Bool? in
                let result = ask(holder.responder, ResponderContext(router: self, output: output, target: target))
                if let trace { traceAsked(trace, .output(output), kind, result) }
                if result == .handled { return true }
                if holder.unchecked.chain == .followsDefault { return nil }
                guard let next = outputsOwnNextLink(holder) else { return false }
                return delegateStep.walk(on: next, in: self, target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                                         stopIf: shouldStop, reportingDrop: reportingDrop, ask)
            }
        }
        // The output is not touched after this: the unpin may release it.
        Output.unpinAfterWalk(link)
        if let outcome { return outcome }
        return walkChainAtDelegate(target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                                   stopIf: shouldStop, reportingDrop: reportingDrop, delegateStep: delegateStep, ask)
    }

    /// The rest of a walk from the delegate, reached after `steps` links, without a
    /// ``ChainLink`` for it: the step of ``walkChain(on:target:kind:formerOutput:steps:stopIf:reportingDrop:delegateStep:_:)``
    /// at `.delegate` (a link copied and consumed, about 30 instructions per pointer motion).
    @inline(__always)
    func walkChainAtDelegate<Step: WalkDelegateStep>(target: Surface?, kind: RoutedEventKind, formerOutput: Unretained<Output>?,
                                                     steps stepsBefore: Int, stopIf shouldStop: () -> Bool,
                                                     reportingDrop: (any CompositorDelegate) -> Bool, delegateStep: Step,
                                                     _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool {
        var steps = stepsBefore
        guard walkMayTakeStep(&steps, kind: kind, stopIf: shouldStop) else { return false }
        // Read once (one weak load), as in the link walk.
        guard let delegate = self.delegate else { return false }
        switch delegateStep.ask(delegate, in: self, target: target, kind: kind, reportingDrop: reportingDrop, ask) {
        case .some(.some(let following)):
            return delegateStep.walk(on: following, in: self, target: target, kind: kind, formerOutput: formerOutput, steps: steps,
                                     stopIf: shouldStop, reportingDrop: reportingDrop, ask)
        case .some(.none): return false
        case .none: return true
        }
    }

    /// The delegate's step of a walk: asks it, learns or follows its next link
    /// (``NextResponderProbe``) and, when the walk ends there unhandled, hands it to
    /// `reportingDrop` if it is still the delegate set. `nil`: handled (or the drop reported);
    /// `.some(nil)`: the walk ends unhandled; else the link to go on with.
    ///
    /// Out of line, with the delegate borrowed from the caller's one weak load: written inline,
    /// the walk kept a second reference to it across the ask (its conversion to
    /// `any Responder`), a retain and a release on the side table's slow path, about 170
    /// instructions per pointer motion that ends at the delegate (issue 25, tenth round).
    @inline(never)
    func askDelegate(_ delegate: any CompositorDelegate, target: Surface?, kind: RoutedEventKind,
                     reportingDrop: (any CompositorDelegate) -> Bool,
                     _ ask: (any Responder, ResponderContext) -> ResponderResult) -> ChainLink?? {
        let generation = unchecked.delegateGeneration
        let chain = unchecked.delegateChain
        let result = askOpened(delegate, target: target, ask)
        if let trace { traceAsked(trace, .delegate, kind, result) }
        if result == .handled { return .none }
        let next: ChainLink?
        switch chain {
        case .followsDefault: next = nil
        case .own: next = delegate.nextResponder(after: nil)
        case .unknown:
            let (following, learnt) = NextResponderProbe.classify(delegate, after: nil)
            if generation == unchecked.delegateGeneration { unchecked.delegateChain = learnt }
            next = following
        }
        if let next { return .some(next) }
        if generation == unchecked.delegateGeneration, reportingDrop(delegate) { return .none }
        return .some(nil)
    }

    /// ``askDelegate(_:target:kind:reportingDrop:_:)`` for a pointer motion
    /// (``PointerMotionDelegateStep``): the delegate asked and told of the drop directly, not
    /// through the walk's two closures (their calls and the drop's closure were about 75
    /// instructions per pointer motion that ends at the delegate; issue 25, eleventh round).
    /// The same answers: `nil` when the delegate handled it or was told of the drop (while
    /// it is still the delegate set), else what comes after it.
    @inline(never)
    func askDelegate(_ delegate: any CompositorDelegate, pointerMotion motion: PointerMotionEvent, target: Surface?) -> ChainLink?? {
        let generation = unchecked.delegateGeneration
        let chain = unchecked.delegateChain
        let result = askOpened(delegate, pointerMotion: motion, target: target)
        if let trace { traceAsked(trace, .delegate, .pointerMoved, result) }
        if result == .handled { return .none }
        if chain != .followsDefault {
            let next: ChainLink?
            if chain == .own {
                next = delegate.nextResponder(after: nil)
            } else {
                let (following, learnt) = NextResponderProbe.classify(delegate, after: nil)
                if generation == unchecked.delegateGeneration { unchecked.delegateChain = learnt }
                next = following
            }
            if let next { return .some(next) }
        }
        guard generation == unchecked.delegateGeneration else { return .some(nil) }
        trace?.record(.dropped(.pointerMoved))
        delegate.router(self, dropped: .pointerMotion(motion))
        return .none
    }

    /// ``askOpened(_:target:_:)`` for a pointer motion: the delegate's `pointerMoved` called
    /// directly.
    @inline(__always)
    func askOpened<D: CompositorDelegate>(_ delegate: D, pointerMotion motion: PointerMotionEvent, target: Surface?) -> ResponderResult {
        delegate.pointerMoved(motion, context: ResponderContext(router: self, link: .delegate, target: target))
    }

    /// Asks the delegate as a responder: opened, so that its conversion to `any Responder`
    /// borrows the reference the walk holds rather than copying it (a retain and a release,
    /// each on the side table's slow path).
    @inline(__always)
    func askOpened<D: CompositorDelegate>(_ delegate: D, target: Surface?,
                                          _ ask: (any Responder, ResponderContext) -> ResponderResult) -> ResponderResult {
        ask(delegate, ResponderContext(router: self, link: .delegate, target: target))
    }

    /// Records that `link` was asked, unless the ask passed it over without calling it (a link
    /// that never saw a touch begin, ``askSkippedLink``).
    @inline(never)
    func traceAsked(_ trace: any TraceSink, _ link: ChainLink, _ kind: RoutedEventKind, _ result: ResponderResult) {
        if unchecked.askSkippedLink {
            unchecked.askSkippedLink = false
            return
        }
        trace.record(.asked(TraceSubject(link), kind, result))
    }

    func reportDropped(_ kind: RoutedEventKind, _ event: DroppedEvent) {
        assert(kind == event.kind, "dropped \(kind) reported as \(event.kind)")
        trace?.record(.dropped(event.kind))
        delegate?.router(self, dropped: event)
    }

    /// ``reportDropped(_:_:)`` through `delegate`, which the caller read (the delegate set
    /// now): true, for a walk's `reportingDrop`.
    func reportDropped(_ kind: RoutedEventKind, _ event: DroppedEvent, to delegate: any CompositorDelegate) -> Bool {
        assert(kind == event.kind, "dropped \(kind) reported as \(event.kind)")
        trace?.record(.dropped(event.kind))
        delegate.router(self, dropped: event)
        return true
    }

    // MARK: Hit-testing

    /// The surface that input at a layout-space point goes to, ignoring grabs and bound
    /// touches: the topmost, deepest surface of the topmost output there.
    public func surface(at point: LayoutPoint) -> Surface? {
        hit(at: point)?.surface
    }

    /// ``surface(at:)`` with the point in the surface's space, as the hit-test found it.
    /// Neither the output nor its root retained (``withRootPinned(under:_:)``): held, the
    /// output was a retain and a release a call (a kiosk's tap-to-focus filter asks at each
    /// touch down; issue 25, seventeenth round).
    func hit(at point: LayoutPoint) -> SurfaceHit? {
        withRootPinned(under: point) { root, local in root.hitTestLocating(local) }
    }

    /// Calls `body` with the root of the topmost output under `point` (layout space) and the
    /// point in that output's space, for a hit-test's walk down, with no reference counting:
    /// the output is read unretained from the layout, which keeps it while nothing is called
    /// out, and its root (a constant of it) is pinned for the walk before anything is. A
    /// `refineHitTest` may take the output out of the layout; the pin keeps the root until
    /// `body` returns. Nil, and no call, when no output is there. The one walk of
    /// ``hit(at:)`` and ``pointerHit(at:device:edit:)``.
    @inline(__always)
    func withRootPinned<Result>(under point: LayoutPoint, _ body: (Surface, SurfacePoint) -> Result?) -> Result? {
        guard let index = unchecked.layout.outputIndex(at: point) else { return nil }
        return unchecked.layout.outputs.unretainedElement(at: index).with { output -> Result? in
            let rootLink = Unretained(output.root)
            let local = SurfacePoint(x: point.x - output.position.x, y: point.y - output.position.y)
            // `output` is not read from here on: a refine may let it go.
            return rootLink.with { root -> Result? in
                root.pinForWalk()
                let result = body(root, local)
                Surface.unpinAfterWalk(rootLink)
                return result
            }
        }
    }

    // MARK: Tree changes

    /// Called after `root` and its subtree left this router's layout (removed from its
    /// parent, moved out of the layout, or with its output): every responder in it hears
    /// what it is owed, then focus moves on. Each step re-reads the router's state, since
    /// every handler it calls may edit the tree or move focus again.
    func subtreeDidLeave(_ root: Surface, formerParent: Surface) {
        treeDidChange()
        cancelSequences(reason: "surface removed") { $0.isOrphaned }
        tellRemovedLinksOfLiveTouches()
        if let focus = unchecked.pointer.focus, !focus.unchecked.isAttached { pointerFocusWasRemoved(focus) }
        if !unchecked.pens.states.isEmpty { pensLostSurfaces() }
        if let focused = unchecked.keyboard.firstResponder, !focused.unchecked.isAttached {
            firstResponderWasRemoved(focused, formerParent: formerParent)
        }
        gestures.abortDetachedRecognizers(in: self)
        gestures.settleGestures(in: self)
        endPopupGrabsOfRemovedPopups()
    }

    // MARK: Routing state

    // What the flow above remembers between events, per device class: read it with the
    // file that uses it. Hot properties are stored unchecked (UnsafeFoundations.swift).

    // Touch state: `unchecked.touches`, a TouchRouting (TouchRouting.swift; routing in Router+Touch.swift).

    // Pointer state: `unchecked.pointer`, a PointerRouting (PointerRouting.swift; routing in Router+Pointer.swift).

    // Keyboard state: `unchecked.keyboard`, a KeyboardRouting (KeyboardRouting.swift; routing in Router+Keyboard.swift).
    /// The first responder's surface ID: what a key repeater compares. Read from other
    /// modules, a router property costs a dynamic exclusivity check; this does not.
    package var firstResponderID: SurfaceID? { unchecked.keyboard.firstResponderLink?.with { $0.id } }
    /// Raised each time a keyboard grab starts or ends: with ``firstResponderID``, who a
    /// held key's repeats would reach.
    package var keyboardGrabGeneration: UInt64 { unchecked.keyboard.grabGeneration }
    /// The popup grabs started with ``startPopupGrab(_:)`` and not yet dismissed, outermost
    /// first: one chain, each nested in the one before; the last holds the pointer and touch.
    var popupGrabs: [PopupGrab] = []

    // Devices.

}

/// A touch frame observer the router does not keep alive.
struct WeakTouchFrameObserver {
    weak var observer: (any TouchFrameObserver)?
}

/// A surface remembered without being kept alive.
struct WeakSurface {
    weak var surface: Surface?
}

/// What a walk compiled for one kind of event (``Router/walkChain(from:target:kind:reportingDrop:delegateStep:_:)``)
/// does differently from the shared walk: how it asks its last link, the delegate (read once,
/// borrowed for the step), directly rather than through the walk's closures
/// (``PointerMotionDelegateStep``), returning what ``Router/askDelegate(_:target:kind:reportingDrop:_:)``
/// returns; how it walks on from a link; whether it follows the output pinned.
protocol WalkDelegateStep {
    /// Whether the walk goes from an attached root that keeps the default next link to its
    /// output pinned rather than owned (``Router/walkChain(onOutput:target:kind:formerOutput:steps:stopIf:reportingDrop:delegateStep:_:)``):
    /// a retain, a release and the call that finds the link saved, about 50 instructions per
    /// pointer motion; the shared walks keep their size.
    static var followsOutputUnretained: Bool { get }
    /// The rest of the walk from `link`, reached after `steps` links.
    func walk(on link: consuming ChainLink, in router: Router, target: Surface?, kind: RoutedEventKind,
              formerOutput: Unretained<Output>?, steps: Int, stopIf shouldStop: () -> Bool,
              reportingDrop: (any CompositorDelegate) -> Bool,
              _ ask: (any Responder, ResponderContext) -> ResponderResult) -> Bool
    func ask(_ delegate: any CompositorDelegate, in router: Router, target: Surface?, kind: RoutedEventKind,
             reportingDrop: (any CompositorDelegate) -> Bool,
             _ ask: (any Responder, ResponderContext) -> ResponderResult) -> ChainLink??
}
