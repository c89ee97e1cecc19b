import CSeatKitSupport
import SeatKit

/// Translations between SeatKit's values and the C API's structs, both ways. Conversions
/// from C check ranges: a value C may send out of range becomes `nil` (refused, logged).
enum CValues {
    /// True when SeatKit's `TouchPoint` and `seatkit_touch_point` have the same size and
    /// field offsets: `CResponder.touchEvent` hands touches to C without a copy, relying on
    /// it (LayoutAssumptionTests requires it on every supported platform).
    static let touchPointLayoutMatches: Bool = {
        typealias T = TouchPoint
        typealias C = seatkit_touch_point
        let word = MemoryLayout<Double>.size
        return MemoryLayout<T>.size == MemoryLayout<C>.size && MemoryLayout<T>.stride == MemoryLayout<C>.stride
            && MemoryLayout<T>.offset(of: \T.id) == MemoryLayout<C>.offset(of: \C.id)
            && MemoryLayout<T>.offset(of: \T.device) == MemoryLayout<C>.offset(of: \C.device)
            && MemoryLayout<T>.offset(of: \T.location) == MemoryLayout<C>.offset(of: \C.x)
            && MemoryLayout<T>.offset(of: \T.location).map { $0 + word } == MemoryLayout<C>.offset(of: \C.y)
            && MemoryLayout<T>.offset(of: \T.surfaceLocation) == MemoryLayout<C>.offset(of: \C.sx)
            && MemoryLayout<T>.offset(of: \T.startLocation) == MemoryLayout<C>.offset(of: \C.start_x)
            && MemoryLayout<T>.offset(of: \T.startTime) == MemoryLayout<C>.offset(of: \C.start_time_usec)
            && MemoryLayout<LayoutPoint>.size == 2 * word && MemoryLayout<SurfacePoint>.size == 2 * word
            && MemoryLayout<Timestamp>.size == MemoryLayout<Int64>.size
    }()

    // MARK: To C

    /// `event.kind`, decided here: SeatKit's `DroppedEvent.kind` is not inlinable, and the call
    /// to it made the delegate's `dropped` keep three registers across it (~12 instructions a
    /// drop). `EventKindTableTests` checks it against `kind` for every case.
    @inline(__always)
    static func kind(_ event: DroppedEvent) -> RoutedEventKind {
        switch event {
        case .touchesBegan: .touchesBegan
        case .touchesMoved: .touchesMoved
        case .touchesEnded: .touchesEnded
        case .pointerMotion: .pointerMoved
        case .pointerButton: .pointerButton
        case .pointerAxis: .pointerAxis
        case .touchpadGesture: .touchpadGesture
        case .keyDown: .keyDown
        case .keyUp: .keyUp
        case .action: .action
        }
    }

    /// A handler kind's name as a static C string, for the delegate's `dropped` callback:
    /// each case's `rawValue` (SeatKit's one list of names), written out once here as a
    /// literal in the library's read-only data (`EventKindTableTests` checks every case
    /// against its `rawValue`). A switch over a payload-free enum with a constant per case:
    /// the compiler makes it a table indexed by the case. The strings live as long as the
    /// library; nothing is built, cached or freed per router (the dictionary of names made
    /// with `malloc` and the last-asked cache it replaced cost about 35 instructions a drop).
    @inline(__always)
    static func name(_ kind: RoutedEventKind) -> UnsafePointer<CChar> {
        let name: StaticString = switch kind {
        case .touchesBegan: "touchesBegan"
        case .touchesMoved: "touchesMoved"
        case .touchesEnded: "touchesEnded"
        case .touchesCancelled: "touchesCancelled"
        case .pointerEntered: "pointerEntered"
        case .pointerLeft: "pointerLeft"
        case .pointerMoved: "pointerMoved"
        case .pointerButton: "pointerButton"
        case .pointerAxis: "pointerAxis"
        case .touchpadGesture: "touchpadGesture"
        case .penEntered: "penEntered"
        case .penLeft: "penLeft"
        case .penMoved: "penMoved"
        case .penDown: "penDown"
        case .penUp: "penUp"
        case .penButton: "penButton"
        case .keyDown: "keyDown"
        case .keyUp: "keyUp"
        case .keyCommand: "keyCommand"
        case .action: "action"
        case .firstResponder: "firstResponder"
        }
        return UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    static func axis(_ m: AxisMotion) -> seatkit_axis {
        let source: seatkit_axis_source
        switch m.source {
        case .wheel: source = SEATKIT_AXIS_SOURCE_WHEEL
        case .finger: source = SEATKIT_AXIS_SOURCE_FINGER
        case .continuous: source = SEATKIT_AXIS_SOURCE_CONTINUOUS
        case .wheelTilt: source = SEATKIT_AXIS_SOURCE_WHEEL_TILT
        }
        return seatkit_axis(source: source, horizontal: m.horizontal, vertical: m.vertical,
                            horizontal_v120: m.horizontalV120, vertical_v120: m.verticalV120,
                            horizontal_stop: m.horizontalStop, vertical_stop: m.verticalStop,
                            inverted: m.invertedDirection)
    }

    static func gesture(_ g: TouchpadGesture) -> seatkit_touchpad_gesture {
        let kind: seatkit_touchpad_gesture_kind
        switch g.kind {
        case .swipe: kind = SEATKIT_TOUCHPAD_SWIPE
        case .pinch: kind = SEATKIT_TOUCHPAD_PINCH
        case .hold: kind = SEATKIT_TOUCHPAD_HOLD
        }
        let phase: seatkit_gesture_phase
        switch g.phase {
        case .begin: phase = SEATKIT_GESTURE_BEGIN
        case .update: phase = SEATKIT_GESTURE_UPDATE
        case .end(let cancelled): phase = cancelled ? SEATKIT_GESTURE_CANCEL : SEATKIT_GESTURE_END
        }
        return seatkit_touchpad_gesture(kind: kind, phase: phase, fingers: UInt32(clamping: g.fingers),
                                        dx: g.delta.dx, dy: g.delta.dy,
                                        dx_unaccel: g.unacceleratedDelta.dx, dy_unaccel: g.unacceleratedDelta.dy,
                                        scale: g.scale, rotation: g.rotation)
    }

    static func keyState(_ s: KeyState) -> seatkit_key_state {
        switch s {
        case .released: SEATKIT_KEY_RELEASED
        case .pressed: SEATKIT_KEY_PRESSED
        case .repeated: SEATKIT_KEY_REPEATED
        }
    }

    @inline(__always)
    static func withKeyEvent<R>(_ event: KeyEvent, on router: CRouter, _ body: (UnsafePointer<seatkit_key_event>) -> R) -> R {
        var e = keyEvent(event, text: CText.push(event.text, on: router))
        defer { CText.pop(on: router) }
        return withUnsafePointer(to: &e, body)
    }

    /// The C key event; `text` must stay valid while it is used.
    @inline(__always)
    static func keyEvent(_ event: KeyEvent, text: UnsafePointer<CChar>) -> seatkit_key_event {
        seatkit_key_event(
            time_usec: event.time.microseconds, device: event.device.rawValue, keycode: event.keycode,
            state: keyState(event.state), keysym: event.keysym, base_keysym: event.baseKeysym, text: text,
            modifiers: event.modifiers.rawValue,
            mods_depressed: event.modifierMasks.depressed, mods_latched: event.modifierMasks.latched,
            mods_locked: event.modifierMasks.locked, group: event.modifierMasks.group)
    }

    static func withDeviceInfo<R>(_ info: DeviceInfo, _ body: (UnsafePointer<seatkit_device_info>) -> R) -> R {
        info.name.withCString { name in
            func call(_ mapped: UnsafePointer<CChar>?) -> R {
                var c = seatkit_device_info(name: name, capabilities: info.capabilities.rawValue,
                                            width_mm: info.physicalSize?.width ?? 0,
                                            height_mm: info.physicalSize?.height ?? 0,
                                            mapped_output: mapped)
                return withUnsafePointer(to: &c, body)
            }
            if let mapped = info.mappedOutput { return mapped.withCString { call($0) } }
            return call(nil)
        }
    }

    /// A pad's layout for C, valid during `body`: at least one group (a pad announced without
    /// groups has one of one mode with every button, ring and strip).
    static func withPadLayout<R>(_ layout: PadLayout, _ body: (UnsafePointer<seatkit_pad_layout>) -> R) -> R {
        var groups = layout.groups
        if groups.isEmpty {
            groups = [PadLayout.Group(modes: 1, buttons: Array(0..<max(0, layout.buttons)), rings: Array(0..<max(0, layout.rings)),
                                      strips: Array(0..<max(0, layout.strips)))]
        }
        let indices = groups.map { g in
            (g.buttons.map { UInt32(clamping: $0) }, g.rings.map { UInt32(clamping: $0) }, g.strips.map { UInt32(clamping: $0) })
        }
        // The index arrays live through the call; the group structs point into them.
        func build(_ i: Int, _ made: [seatkit_pad_group]) -> R {
            guard i < groups.count else {
                return made.withUnsafeBufferPointer { gp in
                    var c = seatkit_pad_layout(buttons: UInt32(clamping: layout.buttons), rings: UInt32(clamping: layout.rings),
                                               strips: UInt32(clamping: layout.strips), group_count: made.count,
                                               groups: gp.baseAddress)
                    return withUnsafePointer(to: &c, body)
                }
            }
            return indices[i].0.withUnsafeBufferPointer { b in
                indices[i].1.withUnsafeBufferPointer { r in
                    indices[i].2.withUnsafeBufferPointer { s in
                        build(i + 1, made + [seatkit_pad_group(modes: UInt32(clamping: max(1, groups[i].modes)),
                                                               button_count: b.count, buttons: b.baseAddress,
                                                               ring_count: r.count, rings: r.baseAddress,
                                                               strip_count: s.count, strips: s.baseAddress)])
                    }
                }
            }
        }
        return build(0, [])
    }

    /// A C pad layout: counts, and groups with the indices below those counts.
    static func padLayout(_ c: seatkit_pad_layout) -> PadLayout {
        func indices(_ p: UnsafePointer<UInt32>?, _ n: Int, below limit: UInt32) -> [Int] {
            guard let p, n > 0 else { return [] }
            return UnsafeBufferPointer(start: p, count: n).filter { $0 < limit }.map { Int($0) }
        }
        var layout = PadLayout(buttons: Int(c.buttons), rings: Int(c.rings), strips: Int(c.strips))
        if let groups = c.groups, c.group_count > 0 {
            layout.groups = UnsafeBufferPointer(start: groups, count: c.group_count).map { g in
                PadLayout.Group(modes: Int(max(1, g.modes)), buttons: indices(g.buttons, g.button_count, below: c.buttons),
                                rings: indices(g.rings, g.ring_count, below: c.rings), strips: indices(g.strips, g.strip_count, below: c.strips))
            }
        }
        return layout
    }

    /// A pad event (button, ring, strip or key) for C.
    static func padEvent(_ t: TabletEvent, time: Timestamp, device: DeviceID) -> seatkit_pad_event {
        let kind: seatkit_pad_event_kind
        switch t.kind {
        case .padButton: kind = SEATKIT_PAD_BUTTON
        case .padRing: kind = SEATKIT_PAD_RING
        case .padStrip: kind = SEATKIT_PAD_STRIP
        default: kind = SEATKIT_PAD_KEY
        }
        let mode = t.padMode
        return seatkit_pad_event(time_usec: time.microseconds, device: device.rawValue, kind: kind, index: t.code, value: t.value,
                                 from_finger: t.fromFinger, group: mode.group, mode: mode.mode)
    }

    /// An input event as filters and spies see it.
    static func withInputEvent<R>(_ event: InputEvent, _ body: (UnsafePointer<seatkit_input_event>) -> R) -> R {
        var e = seatkit_input_event()
        e.time_usec = event.time.microseconds
        e.device = event.device.rawValue
        // The type from the one table of event kinds (SeatKit's InputEventKind). The kind is
        // read out of the event once (a copy of an enum with a boxed case is a call).
        let kind = event.kind
        e.type = seatkit_input_event_type(rawValue: kind.tableKind.cTypeNumber)
        switch kind {
        case .touchDown(let id, let p):
            e.touch_id = id.rawValue
            e.x = p.x
            e.y = p.y
        case .touchMotion(let id, let p):
            e.touch_id = id.rawValue
            e.x = p.x
            e.y = p.y
        case .touchUp(let id):
            e.touch_id = id.rawValue
        case .touchCancel(let id):
            e.touch_id = id.rawValue
        case .touchFrame: break
        case .pointerMotion(let d, let raw):
            e.dx = d.dx
            e.dy = d.dy
            e.dx_unaccel = raw.dx
            e.dy_unaccel = raw.dy
        case .pointerMotionAbsolute(let p):
            e.x = p.x
            e.y = p.y
        case .pointerButton(let button, let state):
            e.code = button
            e.state = state == .pressed ? 1 : 0
        case .pointerAxis(let motion):
            var a = axis(motion)
            return withUnsafePointer(to: &a) { ap in
                e.axis = ap
                return withUnsafePointer(to: &e, body)
            }
        case .touchpadGesture(let g):
            var cg = gesture(g)
            return withUnsafePointer(to: &cg) { gp in
                e.gesture = gp
                return withUnsafePointer(to: &e, body)
            }
        case .key(let keycode, let state):
            e.code = keycode
            e.state = keyState(state).rawValue
        case .switchToggled(let which, let on):
            e.code = which == .lid ? SEATKIT_SWITCH_LID.rawValue : SEATKIT_SWITCH_TABLET_MODE.rawValue
            e.state = on ? 1 : 0
        case .tablet(let t):
            e.code = t.code
            if let p = t.position {
                e.x = p.x
                e.y = p.y
            }
        case .unknown(let code):
            e.code = code
        case .deviceAdded(let info):
            return withDeviceInfo(info) { ip in
                e.device_info = ip
                return withUnsafePointer(to: &e, body)
            }
        case .deviceRemoved: break
        }
        return withUnsafePointer(to: &e, body)
    }

    // MARK: From C

    static func axis(_ a: seatkit_axis) -> AxisMotion? {
        let source: AxisSource
        switch a.source {
        case SEATKIT_AXIS_SOURCE_WHEEL: source = .wheel
        case SEATKIT_AXIS_SOURCE_FINGER: source = .finger
        case SEATKIT_AXIS_SOURCE_CONTINUOUS: source = .continuous
        case SEATKIT_AXIS_SOURCE_WHEEL_TILT: source = .wheelTilt
        default: return nil
        }
        guard a.horizontal.isFinite, a.vertical.isFinite, a.horizontal_v120.isFinite, a.vertical_v120.isFinite else { return nil }
        return AxisMotion(source: source, horizontal: a.horizontal, vertical: a.vertical,
                          horizontalV120: a.horizontal_v120, verticalV120: a.vertical_v120,
                          horizontalStop: a.horizontal_stop, verticalStop: a.vertical_stop,
                          invertedDirection: a.inverted)
    }

    static func gesture(_ g: seatkit_touchpad_gesture) -> TouchpadGesture? {
        let kind: TouchpadGesture.Kind
        switch g.kind {
        case SEATKIT_TOUCHPAD_SWIPE: kind = .swipe
        case SEATKIT_TOUCHPAD_PINCH: kind = .pinch
        case SEATKIT_TOUCHPAD_HOLD: kind = .hold
        default: return nil
        }
        let phase: GesturePhase
        switch g.phase {
        case SEATKIT_GESTURE_BEGIN: phase = .begin
        case SEATKIT_GESTURE_UPDATE: phase = .update
        case SEATKIT_GESTURE_END: phase = .end(cancelled: false)
        case SEATKIT_GESTURE_CANCEL: phase = .end(cancelled: true)
        default: return nil
        }
        guard g.dx.isFinite, g.dy.isFinite, g.dx_unaccel.isFinite, g.dy_unaccel.isFinite,
              g.scale.isFinite, g.rotation.isFinite else { return nil }
        return TouchpadGesture(kind: kind, phase: phase, fingers: Int(g.fingers),
                               delta: Vector(dx: g.dx, dy: g.dy),
                               unacceleratedDelta: Vector(dx: g.dx_unaccel, dy: g.dy_unaccel),
                               scale: g.scale, rotation: g.rotation)
    }

    static func deviceInfo(_ c: seatkit_device_info) -> DeviceInfo {
        let size: Size? = (c.width_mm > 0 && c.height_mm > 0 && c.width_mm.isFinite && c.height_mm.isFinite)
            ? Size(width: c.width_mm, height: c.height_mm) : nil
        return DeviceInfo(name: string(c.name), capabilities: DeviceCapabilities(rawValue: c.capabilities & 0x7f),
                          physicalSize: size, mappedOutput: c.mapped_output.map { String(cString: $0) })
    }

    static func transform(_ t: seatkit_output_transform) -> OutputTransform? {
        OutputTransform(rawValue: Int32(bitPattern: t.rawValue))
    }
}

/// NUL-terminated copies of strings for C, in reused buffers: `String.withCString` allocates
/// for small strings (they are not stored NUL-terminated), and a closure per event costs
/// copies of the event. One buffer per nesting level, so that a callback that injects another
/// key does not overwrite the text its own event points at.
enum CText {
    /// One nesting level's buffer.
    struct Level {
        var buffer: UnsafeMutablePointer<CChar>
        var capacity: Int
    }

    // The buffers are the router's (`CRouter.HotState.textLevels`): each router is called on
    // its own thread only, and its responders reach it without a per-thread lookup. Every
    // call that reaches a responder runs inside an API call (`APICall`), so a router
    // destroyed from a callback keeps its buffers until that call returns.
    /// Copies `text` into the router's next buffer; valid until the matching ``pop(on:)``.
    @inline(__always)
    static func push(_ text: String, on router: CRouter) -> UnsafePointer<CChar> {
        let depth = router.unchecked.textDepth
        if depth == router.unchecked.textLevelCount { addLevel(router) }
        let count = text.utf8.count
        var level = router.unchecked.textLevels.unsafelyUnwrapped[depth]
        if count >= level.capacity { level = grow(router, depth, count + 1) }
        let buffer = level.buffer
        if count > 0 {
            // The string's own bytes, without an iterator (which would retain the string).
            let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: count)
            }
            if copied == nil { copySlowly(text, into: buffer) }
        }
        buffer[count] = 0
        router.unchecked.textDepth = depth + 1
        return UnsafePointer(buffer)
    }

    @inline(__always)
    static func pop(on router: CRouter) { router.unchecked.textDepth -= 1 }

    @inline(__always)
    static func with<R>(_ text: String, on router: CRouter, _ body: (UnsafePointer<CChar>) -> R) -> R {
        let pointer = push(text, on: router)
        defer { pop(on: router) }
        return body(pointer)
    }

    @inline(never)
    private static func copySlowly(_ text: String, into buffer: UnsafeMutablePointer<CChar>) {
        var i = 0
        for byte in text.utf8 {
            buffer[i] = CChar(bitPattern: byte)
            i += 1
        }
    }

    @inline(never)
    private static func addLevel(_ router: CRouter) {
        let count = router.unchecked.textLevelCount
        let levels = UnsafeMutablePointer<Level>.allocate(capacity: count + 1)
        if let old = router.unchecked.textLevels {
            levels.moveInitialize(from: old, count: count)
            old.deallocate()
        }
        (levels + count).initialize(to: Level(buffer: .allocate(capacity: 64), capacity: 64))
        router.unchecked.textLevels = levels
        router.unchecked.textLevelCount = count + 1
    }

    @inline(never)
    private static func grow(_ router: CRouter, _ depth: Int, _ count: Int) -> Level {
        let levels = router.unchecked.textLevels.unsafelyUnwrapped
        levels[depth].buffer.deallocate()
        levels[depth].capacity = max(count, levels[depth].capacity * 2)
        levels[depth].buffer = .allocate(capacity: levels[depth].capacity)
        return levels[depth]
    }

    /// Frees the router's buffers (its deinit).
    static func free(_ router: CRouter) {
        guard let levels = router.unchecked.textLevels else { return }
        for i in 0..<router.unchecked.textLevelCount { levels[i].buffer.deallocate() }
        levels.deinitialize(count: router.unchecked.textLevelCount)
        levels.deallocate()
        router.unchecked.textLevels = nil
        router.unchecked.textLevelCount = 0
    }
}
