import CWaylandServer
@_spi(SeatKitInternals) import SeatKit

/// The responder of a surface backed by a client's wl_surface: it handles everything that
/// reaches it by sending it to that one client's wl_pointer, wl_keyboard and wl_touch
/// resources, in surface-local coordinates, with serials and frames. No other client sees it.
///
/// It never answers `.notHandled`: what reaches a client surface belongs to the client, so
/// parents and the compositor delegate see nothing of it (put filters or recognizers above
/// it to take input first). Focus changes always send leave to the old surface before enter
/// to the new one, because the router tells the old responder first.
///
/// A client that bound no wl_touch (foot) gets its first finger as its pointer: enter and
/// motion to the finger, a left click, leave after (`TouchPointerEmulation`, the core's).
///
/// When the wl_surface is destroyed, call ``surfaceDestroyed()`` before removing the
/// surface from the tree: its touch points end with wl_touch.up, and nothing else is sent
/// about a destroyed surface.
///
/// Touches on a surface that leaves the tree end with wl_touch.up, not wl_touch.cancel
/// (which would end the client's touches elsewhere too); see
/// ``touchesCancelled(_:context:)``.
///
/// It keeps no list of touch points: which touches it follows is the router's record of each
/// touch (the links that saw it begin), as a `wlr_touch_point` is wlroots' one record. A touch
/// it ends itself (wl_touch.cancel to the client, wl_touch.up for a destroyed surface) or
/// never sent down (no wl_seat or wl_touch bound yet) it stops following in that record, so
/// later phases of it never reach it.
public final class ClientSurfaceResponder: Responder {
    /// The seat whose client resources the events go to. Held without a weak or unowned
    /// reference (the seat's handle, which its deinit clears): a weak reference gave the seat
    /// a side table, and an `unowned` load cost a `swift_unownedRetainStrong` per event. As
    /// with `unowned`, reading it after the seat is gone is a fatal error.
    public var seat: Seat { seatHandle.seat! }
    private let seatHandle: SeatHandle
    /// The client that owns the surface.
    public let client: ClientID
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// Backs `surfaceResource`.
        var surfaceResource: OpaquePointer?
        /// Pointer position at the last enter or motion, surface-local.
        var pointerLocation = SurfacePoint.zero
        /// The position the client last read (enter or motion), in `wl_fixed_t`; nil when the
        /// next motion must be sent whatever it is (after a leave or touch emulation).
        var sentPointer: (x: wl_fixed_t, y: wl_fixed_t)?
        /// Touch turned into pointer input, for a client that bound no wl_touch.
        var emulation = TouchPointerEmulation()
        /// The pen as the pointer, for a client without a tablet seat (TabletV2.swift).
        var pen = PenClientState()
        var cachedDevices: SeatClient?
        /// `cachedDevices` unretained (the core's `Unretained`, rule 2, owned beside it: set
        /// together with it), for ``withDevices(else:_:)``.
        var devicesLink: Unretained<SeatClient>?
        /// ``devicesLink`` while the surface lives and no touch is emulated as the pointer,
        /// else nil: the usual touch send's one test of the three (issue 25, nineteenth round:
        /// ~4 instructions a touch motion, down or up). Set by ``refreshUsualTouchLink()``
        /// wherever one of the three changes.
        var usualTouchLink: Unretained<SeatClient>?
    }

    @exclusivity(unchecked) var unchecked = HotState()

    /// The wl_surface (`struct wl_resource *`), until it is destroyed.
    public var surfaceResource: OpaquePointer? { unchecked.surfaceResource }

    /// Whether the surface may take keyboard focus (a cursor or a drag icon may not).
    public var acceptsKeyboardFocus = true

    /// - Parameters:
    ///   - seat: the seat whose client resources the events go to.
    ///   - surfaceResource: the client's wl_surface, a `struct wl_resource *`.
    public init(seat: Seat, surfaceResource: OpaquePointer) {
        self.seatHandle = seat.handle
        self.constraintFlag = seat.constraintFlag
        self.touchFrames = seat.touchFrames
        self.serials = seat.serials
        self.wlDisplay = seat.wlDisplay
        self.unchecked.surfaceResource = surfaceResource
        self.client = ClientID(Libwayland.client(of: surfaceResource))
    }

    /// The wl_surface is gone: its touch points end with wl_touch.up (and a frame), which
    /// names no surface, so that the client can reuse their ids; nothing else is sent
    /// about it.
    public func surfaceDestroyed() {
        if let devices {
            let time = seat.router.clock.now
            // The touch a client without wl_touch has as its pointer ends with the emulation.
            let emulated = unchecked.emulation.primary
            var sent = false
            seat.router.stopFollowingTouches(where: { id, responder in responder === self && id != emulated }) { id in
                if sendUp(id.rawValue, time: time, devices: devices) { sent = true }
            }
            if sent { seat.closeTouchFrame(devices) }
        }
        unchecked.surfaceResource = nil
        refreshUsualTouchLink()
        if seat.pointerFocus === self { seat.pointerFocus = nil }
        if seat.keyboardFocus === self { seat.keyboardFocus = nil }
    }

    /// The client's seat resources: looked up in the seat once, then kept (a dictionary
    /// lookup and an `unowned` load of the seat per event were 4.7% of the kiosk's
    /// instructions per pointer motion). Looked up again while the client has bound no
    /// wl_seat yet, and after the seat forgot the record (the client disconnected).
    private var devices: SeatClient? {
        if let cached = unchecked.cachedDevices, !cached.unchecked.isForgotten { return cached }
        let found = seat.client(client)
        unchecked.cachedDevices = found
        unchecked.devicesLink = found.map { Unretained($0) }
        refreshUsualTouchLink()
        return found
    }

    /// ``HotState/usualTouchLink`` from the surface, the emulation and ``HotState/devicesLink``:
    /// called after each change of one of them.
    private func refreshUsualTouchLink() {
        unchecked.usualTouchLink = unchecked.surfaceResource != nil && unchecked.emulation.primary == nil
            ? unchecked.devicesLink : nil
    }

    /// Calls `body` with ``devices`` lent without a retain (`otherwise` when there is no
    /// record): the per-event senders' way, where the owned load cost a retain and a release
    /// per event (~22 instructions a touch frame, ~38 a key frame, issue 25, eleventh round).
    /// The cache keeps the record for the call: only ``devices`` replaces it, and a body does
    /// not read ``devices``.
    ///
    /// `body` is called from one place: called from two (the cached link's and the looked-up
    /// record's), the compiler made each body a function of its own, a second prologue and
    /// epilogue per event (issue 25, twelfth round).
    @inline(__always)
    private func withDevices<Result>(else otherwise: Result, _ body: (SeatClient) -> Result) -> Result {
        guard let link = devicesLink else { return otherwise }
        return link.with(body)
    }

    /// ``devices`` unretained: the cached link while its record is current, else the record
    /// looked up again (``devices`` sets the link with the cache).
    @inline(__always)
    private var devicesLink: Unretained<SeatClient>? {
        if let link = unchecked.devicesLink, !link.with({ $0.unchecked.isForgotten }) { return link }
        return lookUpDevicesLink()
    }

    @inline(never)
    private func lookUpDevicesLink() -> Unretained<SeatClient>? {
        _ = devices
        return unchecked.devicesLink
    }
    /// The seat's: whether a motion can enter or leave a pointer constraint at all.
    private let constraintFlag: ConstraintFlag
    /// The seat's: the clients owed a `wl_touch.frame`, reached without loading the seat.
    private let touchFrames: TouchFrameQueue
    /// The seat's serial log and its display's `struct wl_display *`: a touch down's or up's
    /// serial taken and recorded without lending the seat to a closure, which the compiler
    /// made a function of its own (~50 instructions a down or up, issue 25, eighteenth
    /// round). Used only while the seat is there: by the usual down and up, which a record's
    /// `usualTouch` allows, and the seat's frame queue clears it when the seat goes.
    private let serials: SerialLog
    private let wlDisplay: OpaquePointer

    /// The usual touch event's one test: the surface alive, the client's record current, no
    /// touch emulated as the pointer (the three: ``HotState/usualTouchLink``), the client with
    /// one wl_touch and first in the frame queue (so owed the frame with a store) and the seat
    /// there (a down's or up's serial taken from what the responder keeps of it) (the three:
    /// `SeatClient`'s `usualTouch`, which the queue clears when the seat goes), no tracing;
    /// then `body` runs with the client's one wl_touch, and true is returned. Else false, and
    /// the caller takes its general path.
    @inline(__always)
    private func withUsualTouchClient(_ body: (OpaquePointer) -> Void) -> Bool {
        guard let link = unchecked.usualTouchLink, !Libwayland.traceEvents else { return false }
        return link.with { devices in
            // Not forgotten: a record in the queue's first place never is (`Seat.clientRecord`).
            guard let touch = devices.unchecked.usualTouch else { return false }
            body(touch)
            return true
        }
    }

    // MARK: Touch

    /// The usual down (a client with a wl_touch) is sent with the client's record and the seat
    /// lent, not retained (`withDevices(else:_:)`, `SeatHandle.withSeat`): sending calls
    /// nothing of the compositor's. A client without wl_touch takes the emulated pointer's
    /// path, out of line (`beginEmulatedTouch(_:context:)`).
    ///
    /// The usual down, one touch to a client first in the frame queue with one wl_touch, is
    /// tested here and sent out of line (`beginOneTouch`), ending with its post: the serial
    /// asked for between the arguments' writing and the post, so that little is kept across
    /// the call (issue 25, eighteenth round).
    @inline(__always)
    public func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        if event.touches.count == 1, withUsualTouchClient({ beginOneTouch(event, resource: $0) }) {
            return .handled
        }
        return beginTouches(event, context: context)
    }

    /// wl_touch.down for the one touch of `event`, to `resource`, the client's one wl_touch;
    /// the client is owed a frame (first in the queue). The event is passed whole: its touch
    /// read by the witness and passed as a `TouchPoint` cost ~10 instructions a down more
    /// (issue 25, nineteenth round).
    @inline(never)
    private func beginOneTouch(_ event: TouchEvent, resource: OpaquePointer) {
        // Alive: ``HotState/usualTouchLink`` is set only while it is.
        let surface = unchecked.surfaceResource!
        touchFrames.firstIsOwed(touch: resource)
        let touch = event.touches[0]
        Libwayland.touchDownUntraced(resource, time: wireTime(event.time), surface: surface,
                                     id: touch.id.rawValue, x: touch.surfaceLocation.x, y: touch.surfaceLocation.y,
                                     into: touchFrames.wireArguments, serial: { Libwayland.nextSerial(wlDisplay) },
                                     recorded: { serials.record($0, .touchDown, for: client) })
    }

    /// ``touchesBegan(_:context:)``'s general path: several touches or wl_touch resources,
    /// another client first in the frame queue, the emulated pointer, tracing.
    @inline(never)
    private func beginTouches(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let surface = surfaceResource, let link = devicesLink else { return notSent(event, context: context) }
        if link.with({ $0.unchecked.touches.isEmpty }) { return beginEmulatedTouch(event, context: context) }
        link.with { devices in
            // The usual down, one touch to one wl_touch, without the loops (issue 25,
            // seventeenth round: their closures made the serial's a function of its own).
            if event.touches.count == 1, devices.unchecked.touches.count == 1 {
                let touch = event.touches[0]
                let serial = seatHandle.withSeat { $0.nextSerial(.touchDown, for: client) }
                Libwayland.touchDown(devices.unchecked.touches[0], serial: serial, time: wireTime(event.time), surface: surface,
                                     id: touch.id.rawValue, x: touch.surfaceLocation.x, y: touch.surfaceLocation.y)
            } else {
                beginEachTouch(event, surface: surface, devices: devices)
            }
            touchFrames.add(devices)
        }
        return .handled
    }

    /// wl_touch.down for each touch of `event` to each of the client's wl_touch resources.
    @inline(never)
    private func beginEachTouch(_ event: TouchEvent, surface: OpaquePointer, devices: SeatClient) {
        let ms = wireTime(event.time)
        event.touches.scanEach { touch in
            let serial = seatHandle.withSeat { $0.nextSerial(.touchDown, for: client) }
            devices.eachTouch { resource in
                Libwayland.touchDown(resource, serial: serial, time: ms, surface: surface,
                                     id: touch.id.rawValue, x: touch.surfaceLocation.x, y: touch.surfaceLocation.y)
            }
        }
    }

    /// A down for a client with no wl_touch (foot): its first finger becomes its pointer.
    @inline(never)
    private func beginEmulatedTouch(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        guard let devices, !devices.unchecked.pointers.isEmpty, let touch = event.touches.first else { return notSent(event, context: context) }
        let here = seat.pointerFocus === self
        unchecked.emulation.touchDown(touch.id, at: touch.surfaceLocation, pointerIsHere: here) {
            emulate($0, time: event.time, devices: devices)
        }
        refreshUsualTouchLink()
        return .handled
    }

    /// Touches that were not sent down (the client has no wl_seat, or neither wl_touch nor
    /// wl_pointer, yet): this responder stops following them, so that no later phase of theirs
    /// reaches a client that never saw them begin. They are still handled: they are the client's.
    private func notSent(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        context.router.stopFollowingTouches(where: { id, responder in
            responder === self && event.touches.contains { $0.id == id }
        })
        return .handled
    }

    /// The emulated pointer's motion is out of line (`moveEmulatedTouches(_:devices:)`), so
    /// that the usual send, wl_touch.motion to each wl_touch, is small enough for the
    /// compiler to make it part of this function instead of a closure function of its own
    /// (~20 instructions a motion, issue 25, fourteenth round).
    ///
    /// The usual motion, one touch to a client first in the frame queue with one wl_touch,
    /// is tested and sent here, ending with its post (issue 25, eighteenth round: the out of
    /// line send it called cost a call, a return and a second frame, ~10 instructions a motion).
    @inline(__always)
    public func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        if event.touches.count == 1, withUsualTouchClient({ moveOneTouch(event, resource: $0) }) {
            return .handled
        }
        return moveTouches(event)
    }

    /// wl_touch.motion for the one touch of `event`, to the client's one wl_touch; the client
    /// is owed a frame (first in the queue). Its arguments in the seat's queue's
    /// ``WireArguments`` (``Libwayland/touchMotionUntraced(_:time:id:x:y:into:)``): nothing
    /// is kept across the post.
    @inline(__always)
    private func moveOneTouch(_ event: TouchEvent, resource: OpaquePointer) {
        touchFrames.firstIsOwed(touch: resource)
        let touch = event.touches[0]
        Libwayland.touchMotionUntraced(resource, time: wireTime(event.time), id: touch.id.rawValue,
                                       x: touch.surfaceLocation.x, y: touch.surfaceLocation.y,
                                       into: touchFrames.wireArguments)
    }

    /// ``touchesMoved(_:context:)``'s general path.
    @inline(never)
    private func moveTouches(_ event: TouchEvent) -> ResponderResult {
        guard surfaceResource != nil, let link = devicesLink else { return .handled }
        if unchecked.emulation.isActive {
            link.with { devices in moveEmulatedTouches(event, devices: devices) }
            return .handled
        }
        link.with { devices in moveEachTouch(event, devices: devices) }
        return .handled
    }

    @inline(never)
    private func moveEmulatedTouches(_ event: TouchEvent, devices: SeatClient) {
        for touch in event.touches {
            unchecked.emulation.touchMoved(touch.id, to: touch.surfaceLocation) { emulate($0, time: event.time, devices: devices) }
        }
    }

    /// Every touch of `event` to each of the client's wl_touch resources.
    @inline(never)
    private func moveEachTouch(_ event: TouchEvent, devices: SeatClient) {
        // Only touches sent down reach here: the router's record says which this responder follows.
        guard !devices.unchecked.touches.isEmpty else { return }
        let ms = wireTime(event.time)
        event.touches.scanEach { touch in
            devices.eachTouch { resource in
                Libwayland.touchMotion(resource, time: ms, id: touch.id.rawValue,
                                       x: touch.surfaceLocation.x, y: touch.surfaceLocation.y)
            }
        }
        touchFrames.add(devices)
    }

    /// As ``touchesBegan(_:context:)``: the usual up with the record and the seat lent, the
    /// emulated pointer's out of line.
    ///
    /// The usual up, one touch to a client first in the frame queue with one wl_touch, as the
    /// usual down: tested here, sent out of line (`endOneTouch`).
    @inline(__always)
    public func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        if event.touches.count == 1, withUsualTouchClient({ endOneTouch(event, resource: $0) }) {
            return .handled
        }
        return endTouches(event)
    }

    /// wl_touch.up for the one touch of `event`, to `resource`, the client's one wl_touch;
    /// the client is owed a frame (first in the queue).
    @inline(never)
    private func endOneTouch(_ event: TouchEvent, resource: OpaquePointer) {
        touchFrames.firstIsOwed(touch: resource)
        Libwayland.touchUpUntraced(resource, time: wireTime(event.time), id: event.touches[0].id.rawValue,
                                   into: touchFrames.wireArguments, serial: { Libwayland.nextSerial(wlDisplay) },
                                   recorded: { serials.record($0, .touchUp, for: client) })
    }

    /// ``touchesEnded(_:context:)``'s general path.
    @inline(never)
    private func endTouches(_ event: TouchEvent) -> ResponderResult {
        guard let link = devicesLink else { return .handled }
        if unchecked.emulation.isActive {
            endEmulatedTouches(event)
            return .handled
        }
        guard surfaceResource != nil else { return .handled }
        link.with { devices in
            guard !devices.unchecked.touches.isEmpty else { return }
            // The usual up, one touch to one wl_touch, without the loops (as the down's).
            if event.touches.count == 1, devices.unchecked.touches.count == 1 {
                let serial = seatHandle.withSeat { $0.nextSerial(.touchUp, for: client) }
                Libwayland.touchUp(devices.unchecked.touches[0], serial: serial, time: wireTime(event.time),
                                   id: event.touches[0].id.rawValue)
            } else {
                endEachTouch(event, devices: devices)
            }
            touchFrames.add(devices)
        }
        return .handled
    }

    /// wl_touch.up for each touch of `event` to each of the client's wl_touch resources.
    @inline(never)
    private func endEachTouch(_ event: TouchEvent, devices: SeatClient) {
        let ms = wireTime(event.time)
        event.touches.scanEach { touch in
            let serial = seatHandle.withSeat { $0.nextSerial(.touchUp, for: client) }
            devices.eachTouch { resource in
                Libwayland.touchUp(resource, serial: serial, time: ms, id: touch.id.rawValue)
            }
        }
    }

    @inline(never)
    private func endEmulatedTouches(_ event: TouchEvent) {
        guard let devices else { return }
        for touch in event.touches {
            unchecked.emulation.touchUp(touch.id) { emulate($0, time: event.time, devices: devices) }
        }
        refreshUsualTouchLink()
    }

    /// Two different ends, told apart by whether this surface is still in the tree:
    ///
    /// - The surface left the tree (its window unmapped, its subsurface was destroyed, the
    ///   compositor removed it): the touches on it end with wl_touch.up and a frame, as Mir
    ///   does. The client's touches elsewhere go on: wl_touch.cancel would end all
    ///   of them, though nothing happened to them.
    /// - A real cancel (a gesture recognizer or a grab took the touches, the device cancelled
    ///   them): wl_touch.cancel, which ends every touch point of the client, so the client's
    ///   other touches (if the router still routes them) are swallowed until they end.
    public func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {
        if unchecked.emulation.isActive, let devices, event.touches.contains(where: { $0.id == unchecked.emulation.primary }) {
            unchecked.emulation.touchCancelled { emulate($0, time: event.time, devices: devices) }
            refreshUsualTouchLink()
            return
        }
        // Every touch here was sent down and is followed still (the router's record).
        guard let devices, !event.touches.isEmpty else { return }
        if case .surface(let node) = context.link, !node.isAttached {
            // wl_touch.up, closed by a frame: with the frame under way if the client is owed
            // one, else at once (a removal between frames).
            var sent = false
            event.touches.scanEach { touch in
                if sendUp(touch.id.rawValue, time: event.time, devices: devices) { sent = true }
            }
            if sent { seat.closeTouchFrame(devices) }
            return
        }
        cancelClientTouches(devices)
    }

    /// wl_touch.up for one touch point to the client's wl_touch resources; returns whether
    /// there was one to send it to.
    private func sendUp(_ id: Int32, time: Timestamp, devices: SeatClient) -> Bool {
        guard !devices.unchecked.touches.isEmpty else { return false }
        let serial = seat.nextSerial(.touchUp, for: client)
        for resource in devices.unchecked.touches {
            Libwayland.touchUp(resource, serial: serial, time: time.wireMilliseconds, id: id)
        }
        return true
    }

    /// wl_touch.cancel to the client, which ends all of its touch points: every surface of
    /// this client on this seat stops following its touches in the router (wlroots destroys
    /// the client's `wlr_touch_point`s), so the touches the router still routes are swallowed
    /// until they end, and no second cancel goes out for them.
    private func cancelClientTouches(_ devices: SeatClient) {
        for resource in devices.unchecked.touches { Libwayland.post(resource, WL_TOUCH_CANCEL) }
        let seat = seat, client = client
        seat.router.stopFollowingTouches(where: { _, responder in
            guard let other = responder as? ClientSurfaceResponder else { return false }
            return other.client == client && other.seat === seat
        })
    }

    /// One emulated pointer action on the client's wl_pointers, each closed by a frame. The
    /// seat's pointer focus (the real pointer's) is left alone; when the emulation leaves,
    /// a surface of this client that has the real pointer gets its enter back.
    private func emulate(_ action: TouchPointerEmulation.Action, time: Timestamp, devices: SeatClient) {
        guard let surface = surfaceResource else { return }
        // The client's pointer is now where the emulation put it.
        unchecked.sentPointer = nil
        let ms = time.wireMilliseconds
        for resource in devices.unchecked.pointers {
            switch action {
            case .enter(let point):
                if let focus = seat.pointerFocus, focus !== self, focus.client == client, let other = focus.surfaceResource {
                    Libwayland.post(resource, WL_POINTER_LEAVE, .uint(seat.nextSerial(.pointerLeave, for: client)), .object(other))
                }
                Libwayland.post(resource, WL_POINTER_ENTER, .uint(seat.nextSerial(.pointerEnter, for: client)), .object(surface),
                                .fixed(point.x), .fixed(point.y))
            case .motion(let point):
                Libwayland.pointerMotion(resource, time: ms, x: Libwayland.fixed(point.x), y: Libwayland.fixed(point.y))
            case .press, .release:
                let state = action == .press ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
                Libwayland.pointerButton(resource, serial: seat.nextSerial(.button, for: client), time: ms, button: 0x110,
                                         state: state.rawValue)
            case .leave:
                Libwayland.post(resource, WL_POINTER_LEAVE, .uint(seat.nextSerial(.pointerLeave, for: client)), .object(surface))
            }
            frame(resource)
        }
        if action == .leave, let focus = seat.pointerFocus, focus !== self, focus.client == client {
            focus.sendPointerEnter(to: devices.unchecked.pointers)
        }
    }

    // MARK: Pointer

    public func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {
        unchecked.pointerLocation = event.surfaceLocation
        seat.pointerEnterSerial = nil
        if surfaceResource != nil, let devices { sendPointerEnter(to: devices.unchecked.pointers) }
        // After the enter: a constraint on this surface activates now (locked after enter).
        seat.pointerFocus = self
        seat.pointerMovedForCursor()
    }

    func sendPointerEnter(to pointers: [OpaquePointer]) {
        guard let surface = surfaceResource, !pointers.isEmpty else { return }
        let serial = seat.nextSerial(.pointerEnter, for: client)
        // The first enter this focus sent opens the range of serials set_cursor may quote;
        // an enter to a wl_pointer created later keeps it.
        if seat.pointerEnterSerial == nil || seat.pointerFocus !== self { seat.pointerEnterSerial = serial }
        unchecked.sentPointer = (Libwayland.fixed(unchecked.pointerLocation.x), Libwayland.fixed(unchecked.pointerLocation.y))
        for resource in pointers {
            Libwayland.post(resource, WL_POINTER_ENTER, .uint(serial), .object(surface),
                            .fixed(unchecked.pointerLocation.x), .fixed(unchecked.pointerLocation.y))
            frame(resource)
        }
    }

    public func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
        sendPointerLeave()
    }

    private func sendPointerLeave() {
        // Only a surface that was sent an enter is sent a leave.
        guard seat.pointerFocus === self else { return }
        seat.pointerFocus = nil
        unchecked.sentPointer = nil
        guard let surface = surfaceResource, let devices, !devices.unchecked.pointers.isEmpty else { return }
        let serial = seat.nextSerial(.pointerLeave, for: client)
        for resource in devices.unchecked.pointers {
            Libwayland.post(resource, WL_POINTER_LEAVE, .uint(serial), .object(surface))
            frame(resource)
        }
    }

    public func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
        unchecked.pointerLocation = event.surfaceLocation
        guard surfaceResource != nil,
              withDevices(else: false, { devices in sendMotion(event, devices: devices); return true }) else { return .handled }
        // The pointer may have entered or left a constraint's region.
        if constraintFlag.unchecked.hasConstraints { seat.updateConstraints() }
        // Or crossed onto another output, which the cursor surface is told of.
        seat.pointerMovedForCursor()
        return .handled
    }

    /// A motion's events to the client's pointers, for ``pointerMoved(_:context:)``.
    @inline(__always)
    private func sendMotion(_ event: PointerMotionEvent, devices: SeatClient) {
        let relative = sendRelativeMotion(time: event.time, delta: event.delta, unaccelerated: event.unacceleratedDelta, to: devices)
        // Only a motion that moves the point the client reads (wl_fixed_t, 1/256) is sent, as
        // wlroots does: pushing against an output edge moves nothing. Relative motion (above)
        // still goes out, closed by its frame.
        let x = Libwayland.fixed(event.surfaceLocation.x), y = Libwayland.fixed(event.surfaceLocation.y)
        let moved = unchecked.sentPointer.map { $0.x != x || $0.y != y } ?? true
        if moved { unchecked.sentPointer = (x, y) }
        if moved || relative {
            let ms = wireTime(event.time)
            devices.eachPointer { resource in
                if moved { Libwayland.pointerMotion(resource, time: ms, x: x, y: y) }
                frame(resource)
            }
        }
    }

    public func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        // A cancelled release comes just before a leave, which tells the client the button
        // is up (as wl_pointer.leave does).
        if event.isCancelled { return .handled }
        guard surfaceResource != nil, let devices, !devices.unchecked.pointers.isEmpty else { return .handled }
        let serial = seat.nextSerial(.button, for: client)
        let state = event.state == .pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        let ms = wireTime(event.time)
        devices.eachPointer { resource in
            Libwayland.pointerButton(resource, serial: serial, time: ms, button: event.button,
                                     state: state.rawValue)
            frame(resource)
        }
        return .handled
    }

    /// Per bound version: axis_source, axis_stop and axis_discrete from 5, axis_value120
    /// (instead of axis_discrete) from 8; axis_relative_direction (9) is not in libwayland 1.21.
    public func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult {
        guard surfaceResource != nil else { return .handled }
        withDevices(else: ()) { devices in sendScroll(event, devices: devices) }
        return .handled
    }

    /// A scroll's events to the client's pointers, for ``pointerAxis(_:context:)``. A
    /// finger's or a continuous scroll (no discrete steps: neither axis_value120 nor
    /// axis_discrete) is sent here; a wheel's by ``sendWheelScroll(_:devices:)``, out of
    /// line: inlined together, the wheel's value120 and discrete conversions were hoisted
    /// before the loop and ran for every touchpad scroll too (issue 25, twelfth round).
    @inline(__always)
    private func sendScroll(_ event: PointerAxisEvent, devices: SeatClient) {
        let motion = event.motion
        if motion.source == .wheel || motion.source == .wheelTilt { return sendWheelScroll(event, devices: devices) }
        let time = wireTime(event.time)
        let source = motion.source == .finger ? WL_POINTER_AXIS_SOURCE_FINGER : WL_POINTER_AXIS_SOURCE_CONTINUOUS
        devices.eachPointer { resource in
            let version = Libwayland.version(of: resource)
            if version >= WL_POINTER_AXIS_SOURCE_SINCE_VERSION { Libwayland.pointerAxisSource(resource, source: source.rawValue) }
            sendSmoothAxis(resource, version: version, time: time, axis: WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue,
                           value: motion.vertical, stop: motion.verticalStop)
            sendSmoothAxis(resource, version: version, time: time, axis: WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue,
                           value: motion.horizontal, stop: motion.horizontalStop)
            // The version read above, not read again as `frame(_:)` would.
            if version >= WL_POINTER_FRAME_SINCE_VERSION { Libwayland.pointerFrame(resource) }
        }
    }

    /// A wheel's scroll (or a tilt's) to the client's pointers, for ``sendScroll(_:devices:)``.
    @inline(never)
    private func sendWheelScroll(_ event: PointerAxisEvent, devices: SeatClient) {
        let motion = event.motion
        let time = wireTime(event.time)
        devices.eachPointer { resource in
            let version = Libwayland.version(of: resource)
            if version >= WL_POINTER_AXIS_SOURCE_SINCE_VERSION {
                Libwayland.pointerAxisSource(resource, source: wireSource(motion.source, version: version).rawValue)
            }
            sendAxis(resource, version: version, time: time, isWheel: true, axis: WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue,
                     value: motion.vertical, v120: motion.verticalV120, discrete: motion.verticalDiscrete,
                     stop: motion.verticalStop)
            sendAxis(resource, version: version, time: time, isWheel: true, axis: WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue,
                     value: motion.horizontal, v120: motion.horizontalV120, discrete: motion.horizontalDiscrete,
                     stop: motion.horizontalStop)
            if version >= WL_POINTER_FRAME_SINCE_VERSION { Libwayland.pointerFrame(resource) }
        }
    }

    /// One axis of a scroll without discrete steps (not a wheel): ``sendAxis(_:version:time:isWheel:axis:value:v120:discrete:stop:)``
    /// with `isWheel` false.
    @inline(__always)
    private func sendSmoothAxis(_ resource: OpaquePointer, version: Int32, time: UInt32, axis: UInt32, value: Double, stop: Bool) {
        if stop, version >= WL_POINTER_AXIS_STOP_SINCE_VERSION {
            Libwayland.pointerAxisStop(resource, time: time, axis: axis)
        } else if value != 0 {
            Libwayland.pointerAxis(resource, time: time, axis: axis, value: value)
        }
    }

    /// One axis of a scroll, in the events the pointer's version knows.
    @inline(never)
    private func sendAxis(_ resource: OpaquePointer, version: Int32, time: UInt32, isWheel: Bool, axis: UInt32,
                          value: Double, v120: Double, discrete: Int32, stop: Bool) {
        guard value != 0 || v120 != 0 || stop else { return }
        if isWheel, version >= WL_POINTER_AXIS_VALUE120_SINCE_VERSION, v120 != 0 {
            Libwayland.pointerAxisValue120(resource, axis: axis, value120: Int32(v120))
        } else if isWheel, version >= WL_POINTER_AXIS_DISCRETE_SINCE_VERSION,
                  version < WL_POINTER_AXIS_VALUE120_SINCE_VERSION, discrete != 0 {
            Libwayland.pointerAxisDiscrete(resource, axis: axis, discrete: discrete)
        }
        if stop, version >= WL_POINTER_AXIS_STOP_SINCE_VERSION {
            Libwayland.pointerAxisStop(resource, time: time, axis: axis)
        } else if value != 0 {
            Libwayland.pointerAxis(resource, time: time, axis: axis, value: value)
        }
    }

    private func wireSource(_ source: AxisSource, version: Int32) -> wl_pointer_axis_source {
        switch source {
        case .wheel: return WL_POINTER_AXIS_SOURCE_WHEEL
        case .finger: return WL_POINTER_AXIS_SOURCE_FINGER
        case .continuous: return WL_POINTER_AXIS_SOURCE_CONTINUOUS
        case .wheelTilt:
            return version >= WL_POINTER_AXIS_SOURCE_WHEEL_TILT_SINCE_VERSION ? WL_POINTER_AXIS_SOURCE_WHEEL_TILT : WL_POINTER_AXIS_SOURCE_WHEEL
        }
    }

    public func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult {
        if let surface = surfaceResource, let devices { sendGesture(event, surface: surface, to: devices) }
        return .handled
    }

    func frame(_ pointer: OpaquePointer) {
        if Libwayland.version(of: pointer) >= WL_POINTER_FRAME_SINCE_VERSION { Libwayland.pointerFrame(pointer) }
    }

    // MARK: Keyboard

    public var canBecomeFirstResponder: Bool { acceptsKeyboardFocus && surfaceResource != nil }

    /// Whether the surface, once first responder, refuses to resign (a layer-shell surface
    /// with exclusive keyboard interactivity on the top or overlay layer): clicks on other
    /// windows and `becomeFirstResponder` elsewhere leave focus here. It still loses focus
    /// when it leaves the tree or is destroyed, and to a keyboard grab that clears focus.
    public var keepsKeyboardFocus = false

    /// False while ``keepsKeyboardFocus`` holds and the wl_surface lives.
    public var canResignFirstResponder: Bool { !keepsKeyboardFocus || surfaceResource == nil }

    public func didBecomeFirstResponder(context: ResponderContext) {
        seat.keyboardFocus = self
        guard let devices else { return }
        sendKeyboardEnter(to: devices.unchecked.keyboards)
    }

    /// Enter with the keys held now (evdev codes) but `excluded` (owed presses, sent after),
    /// then the modifier state.
    func sendKeyboardEnter(to keyboards: [OpaquePointer], excluding excluded: [UInt32] = []) {
        guard let surface = surfaceResource, let devices, !keyboards.isEmpty else { return }
        let serial = seat.nextSerial(.keyboardEnter, for: client)
        var keys = seat.router.heldKeysForFocus
        if !excluded.isEmpty { keys.removeAll { excluded.contains($0) } }
        for resource in keyboards {
            Libwayland.post(resource, WL_KEYBOARD_ENTER, .uint(serial), .object(surface), .array(keys))
        }
        sendModifiers(seat.unchecked.modifierMasks, to: devices, keyboards: keyboards, force: true, seat: seat)
    }

    public func didResignFirstResponder(context: ResponderContext) {
        sendKeyboardLeave()
    }

    private func sendKeyboardLeave() {
        guard seat.keyboardFocus === self else { return }
        seat.keyboardFocus = nil
        guard let surface = surfaceResource, let devices, !devices.unchecked.keyboards.isEmpty else { return }
        let serial = seat.nextSerial(.keyboardLeave, for: client)
        for resource in devices.unchecked.keyboards { Libwayland.post(resource, WL_KEYBOARD_LEAVE, .uint(serial), .object(surface)) }
        devices.unchecked.sentModifiers = nil
    }

    public func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        // Clients repeat keys themselves (wl_keyboard.repeat_info); repeats are not sent.
        if event.state == .repeated { return .handled }
        sendKey(event, state: WL_KEYBOARD_KEY_STATE_PRESSED)
        return .handled
    }

    /// A release goes out as `wl_keyboard.key` released. A cancelled one that keeps focus (a
    /// keyboard grab that leaves the client focused began) goes out too, with no modifiers
    /// (the key is still down; the seat's modifier state is unchanged); one that does not is
    /// followed by `wl_keyboard.leave`, which tells the client every key is up.
    public func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        if event.isCancelled {
            if event.keepsFocus { sendKey(event, state: WL_KEYBOARD_KEY_STATE_RELEASED, modifiers: false) }
            return .handled
        }
        sendKey(event, state: WL_KEYBOARD_KEY_STATE_RELEASED)
        return .handled
    }

    private func sendKey(_ event: KeyEvent, state: wl_keyboard_key_state, modifiers: Bool = true) {
        // The seat lent once for the key, its modifiers and their serials, without a retain
        // (`SeatHandle.withSeat`): each owned load is a retain and a release (four per key
        // before issue 25's tenth round, one until issue 25's eleventh).
        seatHandle.withSeat { seat in
            if modifiers { seat.unchecked.modifierMasks = event.modifierMasks }
            guard surfaceResource != nil else { return }
            withDevices(else: ()) { devices in sendKey(event, state: state, modifiers: modifiers, devices: devices, seat: seat) }
        }
    }

    @inline(__always)
    private func sendKey(_ event: KeyEvent, state: wl_keyboard_key_state, modifiers: Bool, devices: SeatClient, seat: Seat) {
        guard !devices.unchecked.keyboards.isEmpty else {
            // No wl_keyboard yet (the capability just came): kept until the client binds one.
            devices.owe(.key(event.keycode, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED, time: event.time.wireMilliseconds,
                             keymap: nil, modifiers: modifiers ? event.modifierMasks : nil), now: seat.router.clock.now)
            return
        }
        sendRealKey(event.keycode, time: event.time.wireMilliseconds, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED,
                    modifiers: modifiers ? event.modifierMasks : nil, devices: devices, seat: seat)
    }

    /// One key in the seat's keymap to the client's keyboards, then `modifiers` if they are
    /// news to it. Inlined into ``sendKey(_:state:modifiers:)``: with the serials' record
    /// inlined, the compiler made it a call of its own (issue 25, eleventh round).
    @inline(__always)
    private func sendRealKey(_ keycode: UInt32, time: UInt32, pressed: Bool, modifiers: ModifierMasks?, devices: SeatClient,
                             seat: Seat) {
        seat.restoreSeatKeymap(for: devices)
        let serial = seat.nextSerial(.key, for: client)
        let state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
        devices.eachKeyboard { resource in
            Libwayland.keyboardKey(resource, serial: serial, time: time, key: keycode, state: state.rawValue)
        }
        if let modifiers { sendModifiers(modifiers, to: devices, keyboards: nil, force: false, seat: seat) }
    }

    /// Keys sent while the client had no wl_keyboard, in order, now that it has one and was
    /// entered: real keys in the seat's keymap, virtual ones in their own.
    func deliverOwedKeys(_ owed: [OwedKeyboardEvent]) {
        guard surfaceResource != nil, let devices, !devices.unchecked.keyboards.isEmpty else { return }
        for event in owed {
            switch event {
            case .key(let keycode, let pressed, let time, nil, let modifiers):
                sendRealKey(keycode, time: time, pressed: pressed, modifiers: modifiers, devices: devices, seat: seat)
            case .key(let keycode, let pressed, _, let keymap?, _):
                sendVirtualKey(keycode, pressed: pressed, keymap: keymap)
            case .modifiers(let masks, let keymap):
                sendVirtualModifiers(masks, keymap: keymap)
            }
        }
    }

    /// The seat's modifier state changed outside a key (sticky keys): tell this client's
    /// keyboards, unless they were told these masks already.
    func sendSeatModifiers() {
        guard surfaceResource != nil, let devices, !devices.unchecked.keyboards.isEmpty else { return }
        let seat = seat
        sendModifiers(seat.unchecked.modifierMasks, to: devices, keyboards: nil, force: false, seat: seat)
    }

    /// `masks` to `keyboards`, or with nil to all the client's keyboards (read in place).
    private func sendModifiers(_ masks: ModifierMasks, to devices: SeatClient, keyboards: [OpaquePointer]?, force: Bool, seat: Seat) {
        guard force || devices.unchecked.sentModifiers != masks else { return }
        devices.unchecked.sentModifiers = masks
        let serial = seat.nextSerial(.modifiers, for: client)
        func send(_ resource: OpaquePointer) {
            Libwayland.keyboardModifiers(resource, serial: serial, depressed: masks.depressed, latched: masks.latched,
                                         locked: masks.locked, group: masks.group)
        }
        if let keyboards { keyboards.scanEach(send) } else { devices.eachKeyboard(send) }
    }
}

/// An event's time as the wire carries it (milliseconds, wrapping): the core's
/// `Timestamp.wireMilliseconds`, computed here, once per event, by the touch and pointer
/// senders. The core's getter is not inlined across modules: it was a call of its own per
/// message (11 instructions and the call, ~13 a touch frame, ~8 a touchpad frame; issue 25,
/// twelfth round). `WireTimeTests` keeps the two equal.
@inline(__always)
func wireTime(_ time: Timestamp) -> UInt32 { UInt32(truncatingIfNeeded: time.microseconds / 1000) }
