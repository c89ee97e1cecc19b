import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit
import SeatKitXKB

/// Finds the live object behind a handle from C, or logs why not.
@inline(__always)
func live<T: HandleObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type,
                           _ function: StaticString) -> T? {
    if let object = Handles.object(handle, kind) { return unsafeDowncast(object, to: T.self) }
    refused(handle, kind, function)
    return nil
}

@inline(never)
func refused(_ handle: OpaquePointer?, _ kind: HandleKind, _ function: StaticString) {
    Log.error("\(Log.name(function)): refused \(Handles.describeRefused(handle, expected: kind))")
}

@inline(never)
func misuse(_ function: StaticString, _ message: String) {
    Log.error("\(Log.name(function)): \(message)")
}

/// A C string, or `fallback` for NULL. Invalid UTF-8 is repaired, never trapped on.
func string(_ pointer: UnsafePointer<CChar>?, or fallback: String = "") -> String {
    guard let pointer else { return fallback }
    return String(cString: pointer)
}

/// `seatkit_router`: a router and everything made on it.
final class CRouter: HandleObject {
    let router: Router
    /// The same router, for the per-event calls: `router` loaded for a call is retained and
    /// released around it (~40 instructions an event); this link is not (rule 2 of
    /// `Unretained`: `router` owns it, and this object outlives every call on it).
    let routerLink: Unretained<Router>
    let eventLoopClock: EventLoopClock?
    let virtualClock: VirtualClock?
    let destroySignal = CCalls.makeSignal()
    var isDestroyed = false

    /// The delegate (the router holds it weakly).
    var delegate: CDelegate?
    /// The accessibility filters set from C, made on the first such call (AccessibilityAPI.swift).
    var accessibility: CAccessibility?
    var outputs: [COutput] = []
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var surfaces: [ObjectIdentifier: CSurface] = [:] {
            didSet {
                surfaceCache.update(repeating: SurfaceCacheEntry(), count: CRouter.surfaceCacheSize)
                lastTargetBits = 1
                lastTargetHandle = nil
            }
        }
        /// The surface last found by `cachedHandle(ofSurfaceWithBits:)` (its identity's bits;
        /// 1, no object's address, for none) and its handle, never NULL while it is set.
        /// Cleared with the cache.
        var lastTargetBits: UInt = 1
        var lastTargetHandle: OpaquePointer?
        /// Reused buffers that events are translated into for C (grown, never shrunk).
        var touchBuffer = UnsafeMutablePointer<seatkit_touch_point>.allocate(capacity: 16)
        var touchBufferCapacity = 16
        /// Surfaces looked up by ``handle(of:)`` and their handles, a small direct-mapped cache
        /// in front of `surfaces` (whose lookup hashes): a walk up the chain asks for the same
        /// target at every link, and a pointer crossing surfaces asks for two targets in turn
        /// (the one it leaves, the one it enters). Cleared when the surfaces change.
        var surfaceCache: UnsafeMutablePointer<SurfaceCacheEntry> = {
            let cache = UnsafeMutablePointer<SurfaceCacheEntry>.allocate(capacity: CRouter.surfaceCacheSize)
            cache.initialize(repeating: SurfaceCacheEntry(), count: CRouter.surfaceCacheSize)
            return cache
        }()
        /// The buffers of strings handed to C (a key's text, an action's name: `CText`), one
        /// per nesting level (a callback may inject a key into this router from inside a key
        /// callback), grown, never shrunk. The router's own, not its thread's: its responders
        /// reach them through their owner without a per-thread lookup, and only the router's
        /// thread calls them.
        var textLevels: UnsafeMutablePointer<CText.Level>?
        var textLevelCount = 0
        var textDepth = 0
    }

    @exclusivity(unchecked) var unchecked = HotState()

    struct SurfaceCacheEntry {
        var surface: ObjectIdentifier?
        var handle: OpaquePointer?
    }
    /// Entries of `HotState.surfaceCache` are 2^`surfaceCacheBits`, indexed by the top
    /// `surfaceCacheBits` bits of the slot's hash: 5 (a pointer that alternates between the
    /// leaf and seven panels missed one lookup an event in eight entries). Computed, not
    /// `static let`: a constant folded at every use, without a `swift_once` check.
    static var surfaceCacheBits: Int { 5 }
    static var surfaceCacheSize: Int { 1 << surfaceCacheBits }

    var recognizers: [CRecognizer] = []
    var filters: [CFilter] = []
    var spies: [CSpy] = []
    var grabs: [CGrab] = []
    var kioskPolicies: [CKioskPolicy] = []
    var replays: [CReplay] = []
    /// Whether an event time ahead of the event-loop clock, or long behind it, was logged
    /// (once per router each).
    var loggedTimeAhead = false
    var loggedTimeBehind = false
    /// How far behind the event-loop clock an event time may be and still be taken: a later
    /// delivery than any real backend's (a stalled loop), short of a time from another clock
    /// or none at all (wtype's virtual keyboard sends 0).
    static let latestDelivery: Int64 = 10_000_000

    /// An injected event's time as the router takes it. On an event-loop clock (real time),
    /// a time ahead of now is clamped to now, logged the first time: the router's timers
    /// (long press, key repeat, double-tap windows) are deadlines on that clock, counted from
    /// the event's time, so a time in the future would postpone them by as much (a long
    /// press that never fires). A time more than `latestDelivery` behind is taken as now too
    /// (logged once): timers counted from it would all be long due (key repeat would
    /// catch up on hours of repeats at once). A virtual clock is the caller's to move
    /// (seatkit_router_advance_clock): its times are taken as they are.
    @inline(__always)
    func checkedTime(_ time: Int64) -> Int64 {
        // Whether there is one, not the clock itself: loading it retained and released it
        // around the read (every event of a real-clock router), and every one reads the same time.
        guard eventLoopClock != nil else { return time }
        let now = EventLoopClock.monotonicNow.microseconds
        if time > now {
            if !loggedTimeAhead { logTime(time, now, ahead: true) }
            return now
        }
        if time < now &- Self.latestDelivery {
            if !loggedTimeBehind { logTime(time, now, ahead: false) }
            return now
        }
        return time
    }

    @inline(never)
    private func logTime(_ time: Int64, _ now: Int64, ahead: Bool) {
        if ahead { loggedTimeAhead = true } else { loggedTimeBehind = true }
        let distance = ahead ? "\(time - now) µs ahead of" : "\(now - time) µs behind"
        Log.error("seatkit_router_notify: event time \(time) µs is \(distance) the router's clock "
            + "(CLOCK_MONOTONIC, \(now) µs): taken as now, so that timers stay right (logged once per router; "
            + "wlroots' millisecond times: seatkit_time_from_msec)")
    }
    var libinputs: [CLibinput] = []
    var keyboard: Keyboard?
    var traceLog: TraceLog?
    /// seatkit_router_get_touch_frame_signal's, made on first use (DeliveryAPI.swift).
    var touchFrameSignal: CTouchFrameSignal?
    /// seatkit_router_set_touch_frame_callback's, made on first use (DeliveryAPI.swift).
    var touchFrameCallback: CTouchFrameCallback?


    init(clock: any Clock, eventLoopClock: EventLoopClock?, virtualClock: VirtualClock?) {
        router = Router(clock: clock)
        routerLink = Unretained(router)
        self.eventLoopClock = eventLoopClock
        self.virtualClock = virtualClock
    }

    deinit {
        unchecked.touchBuffer.deallocate()
        unchecked.surfaceCache.deallocate()
        CText.free(self)
    }


    /// The C handle of a surface made on this router, or NULL.
    @inline(__always)
    func handle(of surface: Surface?) -> OpaquePointer? {
        handle(ofSurfaceWithIdentity: surface.map(ObjectIdentifier.init))
    }

    @inline(__always)
    func handle(ofSurfaceWithIdentity id: ObjectIdentifier?) -> OpaquePointer? {
        guard let id else { return nil }
        let entry = unchecked.surfaceCache + CRouter.surfaceCacheSlot(id)
        if entry.pointee.surface == id { return entry.pointee.handle }
        return lookUpHandle(id)
    }

    /// The handle of a surface (its identity's bits; 0 for none) found without a call: the
    /// last one found here, else the cache's entry, which then becomes the last. Nil when the
    /// cache does not have it (or has it as not this router's). A walk up the chain asks for the
    /// same target at every link: the last one found is one compare, the cache's slot a
    /// multiplication and two compares more.
    @inline(__always)
    func cachedHandle(ofSurfaceWithBits bits: UInt) -> OpaquePointer? {
        if bits == unchecked.lastTargetBits { return unchecked.lastTargetHandle.unsafelyUnwrapped }
        return cachedHandleInSlot(bits)
    }

    @inline(__always)
    private func cachedHandleInSlot(_ bits: UInt) -> OpaquePointer? {
        let entry = unchecked.surfaceCache + CRouter.surfaceCacheSlot(bits: bits)
        guard bits != 0, entry.pointee.surface.map({ UInt(bitPattern: $0) }) == bits,
              let handle = entry.pointee.handle else { return nil }
        unchecked.lastTargetBits = bits
        unchecked.lastTargetHandle = handle
        return handle
    }

    /// The cache slot of a surface: a multiplicative hash of its address (objects are
    /// 16-byte aligned and often allocated one after another), top bits.
    @inline(__always)
    static func surfaceCacheSlot(_ id: ObjectIdentifier) -> Int {
        surfaceCacheSlot(bits: UInt(bitPattern: id))
    }

    @inline(__always)
    static func surfaceCacheSlot(bits: UInt) -> Int {
        Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth - surfaceCacheBits))
    }

    @inline(never)
    private func lookUpHandle(_ id: ObjectIdentifier) -> OpaquePointer? {
        let handle = unchecked.surfaces[id]?.handle
        unchecked.surfaceCache[CRouter.surfaceCacheSlot(id)] = SurfaceCacheEntry(surface: id, handle: handle)
        return handle
    }

    func handle(of output: Output?) -> OpaquePointer? {
        guard let output else { return nil }
        return outputs.first { $0.output === output }?.handle
    }

    /// Copies touch points into `touchBuffer`.
    @inline(__always)
    func fillTouchBuffer(_ touches: [TouchPoint]) -> UnsafeMutablePointer<seatkit_touch_point> {
        if touches.count > unchecked.touchBufferCapacity { growTouchBuffer(touches.count) }
        var i = 0
        while i < touches.count {
            let t = touches[i]
            unchecked.touchBuffer[i] = seatkit_touch_point(
                id: t.id.rawValue, device: t.device.rawValue, x: t.location.x, y: t.location.y,
                sx: t.surfaceLocation.x, sy: t.surfaceLocation.y,
                start_x: t.startLocation.x, start_y: t.startLocation.y,
                start_time_usec: t.startTime.microseconds)
            i += 1
        }
        return unchecked.touchBuffer
    }

    @inline(never)
    private func growTouchBuffer(_ count: Int) {
        unchecked.touchBuffer.deallocate()
        unchecked.touchBufferCapacity = max(count, unchecked.touchBufferCapacity * 2)
        unchecked.touchBuffer = .allocate(capacity: unchecked.touchBufferCapacity)
    }

    /// Ends everything made on this router, then the router: destroy signals first, in the
    /// order recognizers, filters, spies, surfaces, outputs, router.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        for grab in grabs { grab.destroy() }
        for policy in kioskPolicies { policy.destroy() }
        for replay in replays { replay.destroy() }
        for libinput in libinputs { libinput.destroy() }
        for recognizer in recognizers { recognizer.destroy() }
        for filter in filters { filter.destroy() }
        for spy in spies { spy.destroy() }
        // Newest first (children before the parents they were added to, usually), in an
        // order that does not depend on the dictionary's: a C caller sees the same callbacks
        // in the same order every run.
        for surface in unchecked.surfaces.values.filter({ !$0.isRoot }).sorted(by: { $0.surface.id.rawValue > $1.surface.id.rawValue }) {
            surface.destroy()
        }
        for output in outputs { output.destroy() }
        CCalls.emitAndFreeSignal(destroySignal, data: handle)
        router.keyInterpreter = nil
        router.delegate = nil
        delegate = nil
        keyboard = nil
        router.trace = nil
        eventLoopClock?.invalidate()
        Handles.remove(handle)
    }
}

/// `seatkit_output`.
final class COutput: HandleObject {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    let output: Output
    let root: CSurface
    let responder: CResponder
    let destroySignal = CCalls.makeSignal()
    var isDestroyed = false

    init(owner: CRouter, output: Output, root: CSurface, responder: CResponder) {
        ownerLink = Unretained(owner)
        self.output = output
        self.root = root
        self.responder = responder
    }

    /// Gives the output `responder` while it is active, `PassThroughResponder` otherwise
    /// (after every change of its table). Whether it has `responder` now is the output's own
    /// answer, not a flag kept beside it.
    func installResponder() {
        guard !isDestroyed else { return }
        let installed = output.responder === responder
        guard responder.isActive != installed else { return }
        output.responder = installed ? PassThroughResponder() : responder
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        APICall.run {
            // The core's removal tells every surface of the tree what it is owed: cancels (in
            // the space each surface had), leave, cancelled releases, resign.
            owner.router.removeOutput(output)
        }
        for recognizer in output.gestureRecognizers { output.removeGestureRecognizer(recognizer) }
        CCalls.emitAndFreeSignal(destroySignal, data: handle)
        responder.clear()
        owner.outputs.removeAll { $0 === self }
        root.destroyAsRoot()
        Handles.remove(handle)
    }
}

/// `seatkit_surface`.
final class CSurface: HandleObject {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    let surface: Surface
    let responder: CResponder
    let isRoot: Bool
    let destroySignal = CCalls.makeSignal()
    var isDestroyed = false

    init(owner: CRouter, surface: Surface, responder: CResponder, isRoot: Bool) {
        ownerLink = Unretained(owner)
        self.surface = surface
        self.responder = responder
        self.isRoot = isRoot
        // The one place a surface's responder learns which surface it speaks for (its handle
        // comes once the handle table has one: seatkit_surface_create, seatkit_output_create).
        responder.unchecked.surfaceIdentity = ObjectIdentifier(surface)
    }

    /// Gives the surface `responder` while it is active, `PassThroughResponder` otherwise
    /// (after every change of its table or key commands). Whether it has `responder` now is
    /// the surface's own answer, not a flag kept beside it. An active responder already
    /// installed is set again: the surface then learns afresh whether it refines hit-tests
    /// (a table without `refine_hit_test` answers as the default, which the core stops
    /// asking: `CResponder.refineHitTest(at:in:)`).
    func installResponder() {
        guard !isDestroyed else { return }
        let installed = surface.responder === responder
        if responder.isActive {
            surface.responder = responder
        } else if installed {
            surface.responder = PassThroughResponder()
        }
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        // The responder hears what it is owed (cancels, leave, resign) while its handle and
        // data are still valid.
        // A popup grab on this surface (or inside it) is dismissed: its popup is gone.
        let root = surface
        for grab in owner.grabs.filter({ $0.popup.map { $0.popup === root || $0.popup.isDescendant(of: root) } ?? false }) {
            grab.destroy()
        }
        APICall.run {
            // The core's removal tells the subtree what it is owed: cancels (in the space each
            // surface had), leave, cancelled releases, resign.
            surface.removeFromParent()
        }
        for child in surface.children { child.removeFromParent() }
        for recognizer in surface.gestureRecognizers { surface.removeGestureRecognizer(recognizer) }
        finish()
    }

    /// The root surface of a destroyed output.
    func destroyAsRoot() {
        guard !isDestroyed else { return }
        isDestroyed = true
        finish()
    }

    private func finish() {
        CCalls.emitAndFreeSignal(destroySignal, data: handle)
        responder.clear()
        surface.responder = PassThroughResponder()
        owner.unchecked.surfaces[ObjectIdentifier(surface)] = nil
        Handles.remove(handle)
    }
}

/// `seatkit_keymap`.
final class CKeymap: HandleObject {
    let keymap: Keymap
    /// The keymap's text, NUL-terminated, for seatkit_keymap_get_string.
    lazy var text: UnsafeMutablePointer<CChar>? = CCalls.mallocString(keymap.text)

    init(keymap: Keymap) { self.keymap = keymap }

    deinit { CCalls.free(text) }
}
