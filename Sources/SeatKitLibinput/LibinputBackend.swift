@_spi(SeatKitInternals) import SeatKit

/// Live input devices through libinput, feeding a router.
///
/// ```
///  kernel ─► libinput (udev seat or device paths) ─► DeviceEvent ─► DeviceEventTranslator ─► Router.inject
/// ```
///
/// Integration with the compositor's event loop: watch ``fileDescriptor`` for reading, and
/// call ``dispatch(into:)`` when it is readable, or hand the loop ``dispatcher(into:)``'s
/// closure, which is that call with one hop less. (A ready-made `wl_event_loop` source is left
/// to the Wayland module, which links libwayland-server; this module does not.)
///
/// Device nodes are opened through the caller's ``DeviceOpener`` (logind, libseat, or
/// ``DirectDeviceOpener``). New devices get ``configuration`` applied as libinput
/// adds them. One thread: the event loop's.
public final class LibinputBackend {
    let context: LibinputContextHandle
    public let translator: DeviceEventTranslator
    /// Settings applied to each device when libinput adds it; nil leaves libinput's defaults.
    public var configuration: ((DeviceDescription) -> DeviceConfiguration?)?
    /// Settings a device refused at its last configuration, by device number.
    public private(set) var refusedSettings: [UInt32: [String]] = [:]

    /// A context over udev for the devices of `seat` (usually "seat0").
    public init(seat: String, opener: any DeviceOpener, touchMapping: TouchOutputMapping = TouchOutputMapping()) throws(LibinputError) {
        context = try .udev(seat: seat, opener: opener)
        translator = DeviceEventTranslator(touchMapping: touchMapping)
    }

    /// A context over the device nodes at `paths` (and others added later with ``addDevice(path:)``).
    public init(paths: [String], opener: any DeviceOpener, touchMapping: TouchOutputMapping = TouchOutputMapping()) throws(LibinputError) {
        context = try .paths(opener: opener)
        translator = DeviceEventTranslator(touchMapping: touchMapping)
        for path in paths { try context.addPath(path) }
    }

    /// Adds a device node (path contexts only).
    public func addDevice(path: String) throws(LibinputError) { try context.addPath(path) }

    /// Removes a device (path contexts only); libinput then reports it removed, and the
    /// router cancels its touches.
    public func removeDevice(number: UInt32) { context.removeDevice(number: number) }

    /// For a replay worker that keeps one context for many replays (path contexts only):
    /// removes every device and drops what libinput reports about that; false when a device
    /// stayed (then the context should go).
    package func removeAllDevices() -> Bool {
        let empty = context.removeAllDevices()
        if empty { refusedSettings = [:] }
        return empty
    }

    /// For a replay worker that keeps one context for many replays, with no device present:
    /// devices added from now on are numbered from 1 and announced at the current
    /// (virtual) time, as in a context made now.
    package func startOver() { context.startOver() }

    /// The fd to watch for reading in the compositor's event loop.
    public var fileDescriptor: Int32 { context.fileDescriptor }

    /// Receives libinput's log messages (priority 10 debug, 20 info, 30 error) of at least
    /// `minimumPriority`, from the contexts made after this call. Process-wide.
    public static func setLogHandler(minimumPriority: Int32 = 30, _ handler: ((Int32, String) -> Void)?) {
        libinputLogHandler = handler
        libinputLogMinimumPriority = minimumPriority
    }

    /// Reads what libinput has and returns its events, untranslated; devices that appear are
    /// configured on the way.
    public func dispatchEvents() -> [DeviceEvent] {
        var events: [DeviceEvent] = []
        dispatchEvents { events.append($0) }
        return events
    }

    /// Reads what libinput has and hands each event, untranslated, to `body` as it is read,
    /// building no array: the per-event path of an event loop (nothing allocated on SeatKit's
    /// side per event). Devices that appear are configured before `body` sees them.
    public func dispatchEvents(_ body: (DeviceEvent) -> Void) {
        _ = context.dispatch()
        withoutActuallyEscaping(body) { body in
            var sink = EachEvent(backend: self, body: body)
            context.drain(into: &sink)
        }
    }

    /// Reads what libinput has, translates it and routes it through `router`: each frequent
    /// event (touch, pointer, key, scroll, touchpad gesture) goes from libinput's getters
    /// into the router's `InputEvent` with no ``DeviceEvent`` in between, through the same
    /// translation as ``DeviceEventTranslator/translate(_:router:timeOffset:)``.
    public func dispatch(into router: Router) { route(into: router) }

    /// ``dispatch(into:)`` as a closure, for an event loop's readable-fd callback (such as
    /// `WaylandDisplay.watch(fileDescriptor:readable:)`): the dispatch is made inside the
    /// closure itself, where a closure of the caller's around `dispatch(into:)` is one call
    /// more per wake-up (its own function, then this one's; ~20 instructions a wake-up of a
    /// touchscreen, issue 25, fourteenth round). The closure keeps the backend and the router.
    public func dispatcher(into router: Router) -> () -> Void {
        { [self] in route(into: router) }
    }

    @inline(__always)
    private func route(into router: Router) {
        _ = context.dispatch()
        var sink = RouteEachEvent(backend: self, translator: translator, router: router)
        context.drain(into: &sink)
    }

    /// Applies ``configuration`` to a device libinput has just added (before anyone hears of it).
    fileprivate func configureIfAdded(_ event: DeviceEvent) {
        if case .deviceAdded(let description) = event.kind, let config = configuration?(description) {
            let refused = context.apply(config, toDevice: event.device)
            refusedSettings[event.device] = refused.isEmpty ? nil : refused
        }
    }

    /// Applies settings to a present device now; returns the settings it refused.
    @discardableResult
    public func apply(_ configuration: DeviceConfiguration, toDevice number: UInt32) -> [String] {
        context.apply(configuration, toDevice: number)
    }

    /// A device's settings as libinput has them.
    public func currentConfiguration(ofDevice number: UInt32) -> DeviceConfiguration? {
        context.currentConfiguration(ofDevice: number)
    }

    /// Numbers of the devices present.
    public var deviceNumbers: [UInt32] { context.devices.keys.sorted() }

    /// Releases all devices (VT switch away); ``resume()`` takes them back.
    public func suspend() { context.suspend() }
    @discardableResult public func resume() -> Bool { context.resume() }

    /// Waits up to `timeoutMilliseconds` for libinput's fd to become readable (for tools and
    /// tests without an event loop).
    public func waitForEvents(timeoutMilliseconds: Int32) -> Bool {
        waitReadable(fileDescriptor, timeoutMilliseconds: timeoutMilliseconds)
    }
}

/// ``LibinputBackend/dispatchEvents(_:)``'s sink: every event as a ``DeviceEvent``.
private struct EachEvent: DeviceEventSink {
    let backend: LibinputBackend
    let body: (DeviceEvent) -> Void
    mutating func take(_ event: DeviceEvent) {
        backend.configureIfAdded(event)
        body(event)
    }
}

/// ``LibinputBackend/dispatch(into:)``'s sink: each event translated and routed as it is read.
/// Its links are unretained (rule 4 of `Unretained`, borrowed for one call): it lives only
/// inside `dispatch(into:)`, whose caller keeps the backend and the router alive (owning
/// references cost three retains and releases per dispatch).
private struct RouteEachEvent: DeviceEventSink {
    let backend: Unretained<LibinputBackend>
    let translator: Unretained<DeviceEventTranslator>
    let router: Unretained<Router>

    init(backend: LibinputBackend, translator: DeviceEventTranslator, router: Router) {
        self.backend = Unretained(backend)
        self.translator = Unretained(translator)
        self.router = Unretained(router)
    }

    mutating func take(_ event: DeviceEvent) {
        backend.with { $0.configureIfAdded(event) }
        router.with { router in translator.with { router.inject($0.translate(event, router: router)) } }
    }

    @inline(__always)
    mutating func take(time: Int64, device: UInt32, _ event: DeviceEvent.Frequent) {
        router.with { router in
            translator.with { router.inject($0.translate(time: time, device: device, event, router: router)) }
        }
    }

    /// A key routed from its parts (`Router.injectKey(at:device:keycode:state:)`, as
    /// ``DeviceEventTranslator`` translates a key): the router makes the event. Made here and
    /// handed to the inlined `Router.inject`, the event was copied and destroyed through its
    /// outlined value witnesses, ~140 instructions a key (issue 25, twelfth round).
    @inline(__always)
    mutating func takeKey(time: Int64, device: UInt32, key: UInt32, pressed: Bool) {
        router.with { $0.injectKey(at: Timestamp(microseconds: time), device: DeviceID(device), keycode: key, state: pressed ? .pressed : .released) }
    }

    /// A touch down, motion, up or frame, routed through the router's `inject` with its kind
    /// known, in a function of its own: the router's inlinable `inject` is then folded to the
    /// kind's entry (`injectTouchMotion(at:device:id:to:)` and the others), where inside the
    /// large `drain(into:)` the compiler called it out of line, the whole event stored for it
    /// and switched on again (about 45 instructions a touch event and as many a touch frame
    /// in the kiosk, issue 25, thirteenth round). A touch device's motion is the exception:
    /// it folds in `drain`'s own touch path (``takeTouchMotion(time:device:seatSlot:x:y:)``).
    /// The same translation as ``DeviceEventTranslator/translate(time:device:_:router:timeOffset:)``.
    @inline(never)
    mutating func takeTouch(isDown: Bool, time: Int64, device: UInt32, seatSlot: Int32, x: Double, y: Double) {
        router.with { router in
            translator.with { translator in
                if isDown {
                    router.inject(translator.translate(time: time, device: device, .touchDown(seatSlot: seatSlot, x: x, y: y), router: router))
                } else {
                    router.inject(translator.translate(time: time, device: device, .touchMotion(seatSlot: seatSlot, x: x, y: y), router: router))
                }
            }
        }
    }

    /// A motion alone: no test of the kind, and none of a down's event made on the stack.
    /// Inlined into `drain(into:)`'s touch path, where the router's `inject` does fold to
    /// `layoutPoint(fromNormalized:_:device:)` and `injectTouchMotion(at:device:id:to:)` called
    /// from the loop itself (seen in the release kiosk's disassembly): the function of its own
    /// was ~20 instructions a motion of prologue, moves and epilogue (issue 25, sixteenth
    /// round). The frame's did not fold there (`drain` built the whole event and called
    /// `Router.inject` out of line): ``takeTouchFrame(time:device:)`` calls the router's frame
    /// entry itself.
    ///
    /// The motion goes to the router's entry for a normalized point
    /// (`Router.injectTouchMotion(at:device:id:normalizedX:y:)`), which places it as
    /// ``DeviceEventTranslator/place(_:_:device:router:)`` does and routes it as `inject`
    /// does: one call from the loop where the placement and the motion were two (issue 25,
    /// seventeenth round).
    @inline(__always)
    mutating func takeTouchMotion(time: Int64, device: UInt32, seatSlot: Int32, x: Double, y: Double) {
        router.with {
            $0.injectTouchMotion(at: Timestamp(microseconds: time), device: DeviceID(device), id: TouchID(seatSlot), normalizedX: x, y: y)
        }
    }

    @inline(never)
    mutating func takeTouchUp(time: Int64, device: UInt32, seatSlot: Int32) {
        router.with { router in
            translator.with { router.inject($0.translate(time: time, device: device, .touchUp(seatSlot: seatSlot), router: router)) }
        }
    }

    /// A frame: the router's frame entry called directly from `drain(into:)`'s touch path,
    /// the translation of ``DeviceEventTranslator/translate(time:device:_:router:timeOffset:)``
    /// made in place (a frame carries its time and device only). Through `Router.inject`, the
    /// frame did not fold inside `drain` and took a function of its own here, one call and
    /// ~10 instructions a frame more (issue 25, seventeenth round).
    @inline(__always)
    mutating func takeTouchFrame(time: Int64, device: UInt32) {
        router.with { $0.injectTouchFrame(at: Timestamp(microseconds: time), device: DeviceID(device)) }
    }
}
