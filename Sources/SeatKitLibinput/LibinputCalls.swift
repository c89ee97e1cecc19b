// Every call into libinput and libudev goes through this file: one place to trace or fake
// them. Nothing else in SeatKitLibinput imports CLibinput but UnsafeFoundations.swift, whose
// one function stands in for `libinput_event_get_touch_event` (and asks it in debug builds).
import CLibinput
import SeatKit
import SeatKitSystem
#if canImport(Glibc)
import Glibc
#endif

/// Opens and closes device nodes for libinput, so that a compositor can use logind or
/// libseat instead of opening `/dev/input/*` itself.
public protocol DeviceOpener: AnyObject {
    /// Opens `path` with `open(2)` flags; returns the file descriptor, or `-errno`.
    func openDevice(path: String, flags: Int32) -> Int32
    func closeDevice(_ fd: Int32)
}

/// Opens nodes directly with `open(2)`: for a compositor running with the rights to, and for
/// the replay (whose nodes are emulated).
public final class DirectDeviceOpener: DeviceOpener {
    public init() {}
    public func openDevice(path: String, flags: Int32) -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }
    public func closeDevice(_ fd: Int32) { Glibc.close(fd) }
}

/// Holds the opener for libinput's C callbacks.
private final class OpenerBox {
    let opener: any DeviceOpener
    init(_ opener: any DeviceOpener) { self.opener = opener }
}

private func openRestricted(path: UnsafePointer<CChar>?, flags: Int32, userData: UnsafeMutableRawPointer?) -> Int32 {
    guard let path, let userData else { return -EINVAL }
    let box = Unmanaged<OpenerBox>.fromOpaque(userData).takeUnretainedValue()
    return box.opener.openDevice(path: String(cString: path), flags: flags)
}

private func closeRestricted(fd: Int32, userData: UnsafeMutableRawPointer?) {
    guard let userData else { return }
    Unmanaged<OpenerBox>.fromOpaque(userData).takeUnretainedValue().opener.closeDevice(fd)
}

/// Messages libinput logs, by priority (10 debug, 20 info, 30 error).
nonisolated(unsafe) var libinputLogHandler: ((Int32, String) -> Void)?
/// The lowest priority a new context logs.
nonisolated(unsafe) var libinputLogMinimumPriority: Int32 = 30

private func logSink(_ li: OpaquePointer?, _ priority: Int32, _ message: UnsafePointer<CChar>?) {
    guard let message else { return }
    libinputLogHandler?(priority, String(cString: message))
}

/// A libinput context (`struct libinput *`) and what keeps it alive; unreferenced in deinit.
final class LibinputContextHandle {
    let pointer: OpaquePointer
    private let udev: OpaquePointer?
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let opener: Unmanaged<OpenerBox>
    /// Device number → device, for path-backend removal and configuration.
    private(set) var devices: [UInt32: OpaquePointer] = [:]
    private var nextDeviceNumber: UInt32 = 1
    private var lastTime: Int64 = 0

    private init(pointer: OpaquePointer, udev: OpaquePointer?, interface: UnsafeMutablePointer<libinput_interface>, opener: Unmanaged<OpenerBox>) {
        self.pointer = pointer
        self.udev = udev
        self.interface = interface
        self.opener = opener
        // Device announcements carry no time of their own: until an event brings one, use
        // the moment the context was made (CLOCK_MONOTONIC, libinput's clock).
        lastTime = MonotonicClock.microseconds()
        seatkit_libinput_set_log_sink(pointer, logSink)
        libinput_log_set_priority(pointer, libinput_log_priority(rawValue: UInt32(libinputLogMinimumPriority)))
    }

    private static func makeInterface() -> UnsafeMutablePointer<libinput_interface> {
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: libinput_interface(open_restricted: openRestricted, close_restricted: closeRestricted))
        return interface
    }

    /// A context over udev, assigned to `seat`.
    static func udev(seat: String, opener: any DeviceOpener) throws(LibinputError) -> LibinputContextHandle {
        guard let udev = udev_new() else { throw LibinputError("udev_new failed") }
        let interface = makeInterface()
        let box = Unmanaged.passRetained(OpenerBox(opener))
        guard let li = libinput_udev_create_context(interface, box.toOpaque(), udev) else {
            udev_unref(udev)
            interface.deallocate()
            box.release()
            throw LibinputError("libinput_udev_create_context failed")
        }
        let handle = LibinputContextHandle(pointer: li, udev: udev, interface: interface, opener: box)
        guard libinput_udev_assign_seat(li, seat) == 0 else { throw LibinputError("cannot assign seat \(seat)") }
        return handle
    }

    /// A context over explicitly added device nodes.
    static func paths(opener: any DeviceOpener) throws(LibinputError) -> LibinputContextHandle {
        let interface = makeInterface()
        let box = Unmanaged.passRetained(OpenerBox(opener))
        guard let li = libinput_path_create_context(interface, box.toOpaque()) else {
            interface.deallocate()
            box.release()
            throw LibinputError("libinput_path_create_context failed")
        }
        return LibinputContextHandle(pointer: li, udev: nil, interface: interface, opener: box)
    }

    deinit {
        for device in devices.values { libinput_device_unref(device) }
        libinput_unref(pointer)
        if let udev { udev_unref(udev) }
        interface.deallocate()
        opener.release()
    }

    var fileDescriptor: Int32 { libinput_get_fd(pointer) }

    func addPath(_ path: String) throws(LibinputError) {
        guard libinput_path_add_device(pointer, path) != nil else {
            throw LibinputError("libinput could not add \(path) (not an input device, or it could not be opened)")
        }
    }

    func removeDevice(number: UInt32) {
        guard let device = devices[number] else { return }
        libinput_path_remove_device(device)
    }

    /// Removes every device (path contexts only) and drops the events that reports; true
    /// when none is left. For a replay worker that keeps this context for the next replay.
    func removeAllDevices() -> Bool {
        guard udev == nil else { return devices.isEmpty }
        for device in Array(devices.values) { libinput_path_remove_device(device) }
        // Releases the removed devices' sources, then reads their removal.
        _ = dispatch()
        var discard = DiscardEvents()
        drain(into: &discard)
        return devices.isEmpty
    }

    /// With no device present: the next devices are numbered from 1 again and announced at
    /// the current time, as in a context made now.
    func startOver() {
        precondition(devices.isEmpty, "startOver() with devices present")
        nextDeviceNumber = 1
        lastTime = MonotonicClock.microseconds()
    }

    func suspend() { libinput_suspend(pointer) }
    func resume() -> Bool { libinput_resume(pointer) == 0 }

    /// Reads what the kernel has queued and runs libinput's state machines.
    func dispatch() -> Int32 { libinput_dispatch(pointer) }

    /// Hands every event libinput has queued to `sink`, in order, then destroys it.
    ///
    /// A touch device's events take a path of their own (``readTouch``): a motion is one test
    /// and a frame two, where the whole switch reached them through five range tests and a
    /// jump table (~19 instructions an event, two events a touchscreen frame). The path is
    /// chosen from the device's user data (``touchBit``), read for every event anyway, so no
    /// other device's events are tested for the touch kinds (a range test on the type in
    /// front of the whole switch changed how the compiler laid it out, keys +20 instructions,
    /// issue 25, thirteenth round); they pay one branch. A touch device's other events go
    /// through the whole switch out of line (``readOutOfLine``).
    ///
    /// Inlined into its callers: ``LibinputBackend``'s routing dispatch (its closure for an
    /// event loop, and `dispatch(into:)`, the C API's libinput wake-up) then is one function
    /// with this loop, where the call into it cost the caller's own prologue, the sink made
    /// on its stack and the epilogue (24 instructions a wake-up). Inlined, the loop's own
    /// prologue keeps the sink's words in more stack slots: 50 instructions a wake-up where
    /// the two functions took 53 (the kiosk's touchscreen, about one wake-up a frame; issue
    /// 25, seventeenth round).
    @inline(__always)
    func drain<Sink: DeviceEventSink>(into sink: inout Sink) {
        while let event = libinput_get_event(pointer) {
            let type = libinput_event_get_type(event)
            // Handed on as libinput gives it, not unwrapped: libinput's events always have a
            // device, and only libinput's own getters read it (a test and a branch an event
            // for a trap that cannot fire; issue 25, nineteenth round). The one Swift use,
            // a device's description when it is added, unwraps it there.
            let device = libinput_event_get_device(event)
            let userData = tag(of: device)
            if userData < 0 {  // touchBit
                readTouch(event, type: type, device: device, userData: userData, into: &sink)
            } else {
                read(event, type: type, device: device, userData: userData, into: &sink)
            }
            libinput_event_destroy(event)
        }
    }

    /// A device's user data: its number in the low 32 bits, and in ``naturalScrollBit``
    /// whether natural scrolling is on. The user data is read for every event anyway (the
    /// device's number), so a scroll learns the setting from it instead of asking libinput
    /// per event, a call wlroots does not make (issue 25, twelfth round).
    private static let naturalScrollBit = 1 << 32
    /// In a device's user data: whether its events take ``drain(into:)``'s touch switch. Set
    /// at the device's first touch down, motion or up that libinput's
    /// `libinput_event_get_touch_event` answers with the event itself (``takeTouchPath``): the
    /// touch switch then reads each touch event as the event (`touchEvent(of:)`,
    /// UnsafeFoundations.swift), so a libinput whose events were laid out otherwise keeps
    /// every event on the whole switch, which asks libinput. The sign bit: the
    /// test for it shares the user data's test for nil (one branch more for every other
    /// device's event, where a bit above 31 took a 64-bit constant, a test and a branch).
    private static let touchBit = Int.min

    /// The device's user data (``naturalScrollBit``), numbering the device on its first event.
    @inline(__always)
    private func tag(of device: OpaquePointer?) -> Int {
        if let existing = libinput_device_get_user_data(device) { return Int(bitPattern: existing) }
        let n = nextDeviceNumber
        nextDeviceNumber += 1
        let data = Int(n) | (libinput_device_config_scroll_get_natural_scroll_enabled(device) != 0 ? Self.naturalScrollBit : 0)
        libinput_device_set_user_data(device, UnsafeMutableRawPointer(bitPattern: data))
        return data
    }

    /// Sets ``touchBit`` in the device's user data: its touch event was seen to be the event
    /// itself, so its later events take the touch switch. Called once per touch device, at
    /// its first touch down, motion or up (every later one takes the touch switch).
    @inline(never)
    private func takeTouchPath(_ device: OpaquePointer?, userData: Int) {
        libinput_device_set_user_data(device, UnsafeMutableRawPointer(bitPattern: userData | Self.touchBit))
    }

    /// Notes natural scrolling's setting in the device's user data again: after every change
    /// of configuration (``apply(_:toDevice:)``, the only place this module sets it).
    private func noteNaturalScroll(_ device: OpaquePointer) {
        guard let existing = libinput_device_get_user_data(device) else { return }
        let on = libinput_device_config_scroll_get_natural_scroll_enabled(device) != 0
        let data = (Int(bitPattern: existing) & ~Self.naturalScrollBit) | (on ? Self.naturalScrollBit : 0)
        libinput_device_set_user_data(device, UnsafeMutableRawPointer(bitPattern: data))
    }

    /// Hands the event to `sink`: the frequent kinds without a ``DeviceEvent`` (a large
    /// value) built for them. Every event but POINTER_AXIS, the deprecated twin of the scroll
    /// events that libinput sends alongside them (reading both would scroll twice). The rare
    /// kinds, those handed on as a ``DeviceEvent`` (a device added or removed, a touch cancel,
    /// a switch, a tablet's tool and pad, any other), are read out of line
    /// (``readRare(_:type:device:number:into:)``).
    @inline(__always)
    private func read<Sink: DeviceEventSink>(_ event: OpaquePointer, type: libinput_event_type, device: OpaquePointer?,
                                             userData: Int, into sink: inout Sink) {
        let n = UInt32(truncatingIfNeeded: userData)
        func frequent(_ time: UInt64, _ kind: DeviceEvent.Frequent) {
            lastTime = Int64(bitPattern: time)
            sink.take(time: lastTime, device: n, kind)
        }
        switch type {
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(event)
            lastTime = Int64(bitPattern: libinput_event_keyboard_get_time_usec(k))
            sink.takeKey(time: lastTime, device: n, key: libinput_event_keyboard_get_key(k),
                         pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED)
        case LIBINPUT_EVENT_POINTER_MOTION:
            let p = libinput_event_get_pointer_event(event)
            frequent(libinput_event_pointer_get_time_usec(p),
                     .pointerMotion(dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p),
                                    unacceleratedDx: libinput_event_pointer_get_dx_unaccelerated(p),
                                    unacceleratedDy: libinput_event_pointer_get_dy_unaccelerated(p)))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let p = libinput_event_get_pointer_event(event)
            frequent(libinput_event_pointer_get_time_usec(p),
                     .pointerMotionAbsolute(x: libinput_event_pointer_get_absolute_x_transformed(p, 1),
                                            y: libinput_event_pointer_get_absolute_y_transformed(p, 1)))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let p = libinput_event_get_pointer_event(event)
            frequent(libinput_event_pointer_get_time_usec(p),
                     .pointerButton(button: libinput_event_pointer_get_button(p),
                                    pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED))
        case LIBINPUT_EVENT_POINTER_AXIS:
            break
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER, LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            let p = libinput_event_get_pointer_event(event)
            let source: AxisSource = type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL ? .wheel : type == LIBINPUT_EVENT_POINTER_SCROLL_FINGER ? .finger : .continuous
            let hasH = libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL) != 0
            let hasV = libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) != 0
            let wheel = source == .wheel
            frequent(libinput_event_pointer_get_time_usec(p), .pointerScroll(ScrollDetail(
                source: source,
                horizontal: hasH ? libinput_event_pointer_get_scroll_value(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL) : 0,
                vertical: hasV ? libinput_event_pointer_get_scroll_value(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) : 0,
                horizontalV120: hasH && wheel ? libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL) : 0,
                verticalV120: hasV && wheel ? libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) : 0,
                hasHorizontal: hasH, hasVertical: hasV,
                naturalScrolling: userData & Self.naturalScrollBit != 0)))
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            // One case for both, the kind passed as a flag: cases of their own changed how the
            // compiler laid out this switch, and a scroll event took five range tests to its
            // case instead of three (+11 instructions a touchpad scroll, issue 25, thirteenth round).
            let t = libinput_event_get_touch_event(event)
            if t == event { takeTouchPath(device, userData: userData) }
            readTouchDownOrMotion(t, isDown: type == LIBINPUT_EVENT_TOUCH_DOWN, device: n, into: &sink)
        case LIBINPUT_EVENT_TOUCH_UP:
            let t = libinput_event_get_touch_event(event)
            if t == event { takeTouchPath(device, userData: userData) }
            readTouchUp(t, device: n, into: &sink)
        case LIBINPUT_EVENT_TOUCH_FRAME:
            readTouchFrame(device: n, into: &sink)
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, LIBINPUT_EVENT_GESTURE_SWIPE_END,
             LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, LIBINPUT_EVENT_GESTURE_PINCH_UPDATE, LIBINPUT_EVENT_GESTURE_PINCH_END,
             LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_END:
            let g = libinput_event_get_gesture_event(event)
            let raw = type.rawValue - LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN.rawValue
            let kind: TouchpadGesture.Kind = raw < 3 ? .swipe : raw < 6 ? .pinch : .hold
            let isEnd = type == LIBINPUT_EVENT_GESTURE_SWIPE_END || type == LIBINPUT_EVENT_GESTURE_PINCH_END || type == LIBINPUT_EVENT_GESTURE_HOLD_END
            let isBegin = type == LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN || type == LIBINPUT_EVENT_GESTURE_PINCH_BEGIN || type == LIBINPUT_EVENT_GESTURE_HOLD_BEGIN
            let phase: GesturePhase = isEnd ? .end(cancelled: libinput_event_gesture_get_cancelled(g) != 0) : isBegin ? .begin : .update
            let hasMotion = kind != .hold
            let isPinch = kind == .pinch
            frequent(libinput_event_gesture_get_time_usec(g), .gesture(TouchpadGesture(
                kind: kind, phase: phase, fingers: Int(libinput_event_gesture_get_finger_count(g)),
                delta: hasMotion ? Vector(dx: libinput_event_gesture_get_dx(g), dy: libinput_event_gesture_get_dy(g)) : .zero,
                unacceleratedDelta: hasMotion ? Vector(dx: libinput_event_gesture_get_dx_unaccelerated(g),
                                                       dy: libinput_event_gesture_get_dy_unaccelerated(g)) : .zero,
                scale: isPinch ? libinput_event_gesture_get_scale(g) : 1,
                rotation: isPinch ? libinput_event_gesture_get_angle_delta(g) : 0)))
        default:
            readRare(event, type: type, device: device, number: n, into: &sink)
        }
    }

    /// The rare kinds of ``read(_:type:device:userData:into:)``, in a function of their own:
    /// each builds a ``DeviceEvent`` (a large value), and a device's addition and removal
    /// edit the table of devices. Inlined into the drain, they made its function keep the
    /// table's addresses on the stack at every wake-up (a 5 KB frame, 0.7 KB without them),
    /// and a key passed two more tests on its way to its case: the kiosk's drain took 44
    /// instructions a wake-up with its exit, now 34, a key 3 fewer and a pointer event 2
    /// (the touch events' paths unchanged; issue 25, nineteenth round).
    @inline(never)
    private func readRare<Sink: DeviceEventSink>(_ event: OpaquePointer, type: libinput_event_type, device: OpaquePointer?,
                                                 number n: UInt32, into sink: inout Sink) {
        func make(_ time: UInt64, _ kind: DeviceEvent.Kind) {
            lastTime = Int64(bitPattern: time)
            sink.take(DeviceEvent(time: lastTime, device: n, kind: kind))
        }
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            devices[n] = libinput_device_ref(device)
            sink.take(DeviceEvent(time: lastTime, device: n, kind: .deviceAdded(describe(device!))))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            if let d = devices.removeValue(forKey: n) { libinput_device_unref(d) }
            sink.take(DeviceEvent(time: lastTime, device: n, kind: .deviceRemoved))
        case LIBINPUT_EVENT_TOUCH_CANCEL:
            let t = libinput_event_get_touch_event(event)
            make(libinput_event_touch_get_time_usec(t), .touchCancel(seatSlot: libinput_event_touch_get_seat_slot(t)))
        case LIBINPUT_EVENT_SWITCH_TOGGLE:
            let s = libinput_event_get_switch_event(event)
            let which: SwitchKind = libinput_event_switch_get_switch(s) == LIBINPUT_SWITCH_LID ? .lid : .tabletMode
            make(libinput_event_switch_get_time_usec(s),
                 .switchToggle(which, on: libinput_event_switch_get_switch_state(s) == LIBINPUT_SWITCH_STATE_ON))
        case LIBINPUT_EVENT_TABLET_TOOL_AXIS, LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY, LIBINPUT_EVENT_TABLET_TOOL_TIP, LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            let t = libinput_event_get_tablet_tool_event(event)
            var detail = readTool(t)
            switch type {
            case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY:
                detail.kind = .toolProximity
                detail.value = libinput_event_tablet_tool_get_proximity_state(t) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN ? 1 : 0
            case LIBINPUT_EVENT_TABLET_TOOL_TIP:
                detail.kind = .toolTip
                detail.value = libinput_event_tablet_tool_get_tip_state(t) == LIBINPUT_TABLET_TOOL_TIP_DOWN ? 1 : 0
            case LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
                detail.kind = .toolButton
                detail.code = libinput_event_tablet_tool_get_button(t)
                detail.value = libinput_event_tablet_tool_get_button_state(t) == LIBINPUT_BUTTON_STATE_PRESSED ? 1 : 0
            default:
                detail.kind = .toolAxis
            }
            make(libinput_event_tablet_tool_get_time_usec(t), .tablet(detail))
        case LIBINPUT_EVENT_TABLET_PAD_BUTTON, LIBINPUT_EVENT_TABLET_PAD_RING, LIBINPUT_EVENT_TABLET_PAD_STRIP, LIBINPUT_EVENT_TABLET_PAD_KEY:
            let p = libinput_event_get_tablet_pad_event(event)
            var detail: TabletDetail
            switch type {
            case LIBINPUT_EVENT_TABLET_PAD_BUTTON:
                detail = TabletDetail(kind: .padButton, code: libinput_event_tablet_pad_get_button_number(p),
                                      value: libinput_event_tablet_pad_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED ? 1 : 0)
            case LIBINPUT_EVENT_TABLET_PAD_RING:
                detail = TabletDetail(kind: .padRing, code: libinput_event_tablet_pad_get_ring_number(p), value: libinput_event_tablet_pad_get_ring_position(p),
                                      fromFinger: libinput_event_tablet_pad_get_ring_source(p) == LIBINPUT_TABLET_PAD_RING_SOURCE_FINGER)
            case LIBINPUT_EVENT_TABLET_PAD_STRIP:
                detail = TabletDetail(kind: .padStrip, code: libinput_event_tablet_pad_get_strip_number(p), value: libinput_event_tablet_pad_get_strip_position(p),
                                      fromFinger: libinput_event_tablet_pad_get_strip_source(p) == LIBINPUT_TABLET_PAD_STRIP_SOURCE_FINGER)
            default:
                // Keys have no mode group.
                detail = TabletDetail(kind: .padKey, code: libinput_event_tablet_pad_get_key(p),
                                      value: libinput_event_tablet_pad_get_key_state(p) == LIBINPUT_KEY_STATE_PRESSED ? 1 : 0)
                make(libinput_event_tablet_pad_get_time_usec(p), .tablet(detail))
                return
            }
            if let group = libinput_event_tablet_pad_get_mode_group(p) {
                detail.padMode = PadMode(group: libinput_tablet_pad_mode_group_get_index(group), mode: libinput_event_tablet_pad_get_mode(p))
            }
            make(libinput_event_tablet_pad_get_time_usec(p), .tablet(detail))
        default:
            sink.take(DeviceEvent(time: lastTime, device: n, kind: .other(type: type.rawValue)))
        }
    }

    /// A touch device's event (``touchBit``): its touch down, motion, up and frame handed on
    /// here, the same as ``read(_:type:device:userData:into:)`` does; any other kind through
    /// that whole switch out of line.
    @inline(__always)
    private func readTouch<Sink: DeviceEventSink>(_ event: OpaquePointer, type: libinput_event_type, device: OpaquePointer?,
                                                  userData: Int, into sink: inout Sink) {
        let n = UInt32(truncatingIfNeeded: userData)
        // A motion tested first and a frame second (`_fastPath` makes the compiler test them
        // before the rest, not through a jump table): a touchscreen's usual events, six
        // motions and eight frames to a down and an up.
        // The touch event is the event itself (`touchEvent(of:)`, UnsafeFoundations.swift):
        // libinput's own `libinput_event_get_touch_event` tests the type again (~76
        // instructions a touch event).
        if _fastPath(type == LIBINPUT_EVENT_TOUCH_MOTION) {
            let t = touchEvent(of: event)
            let slot = libinput_event_touch_get_seat_slot(t)
            let x = libinput_event_touch_get_x_transformed(t, 1)
            let y = libinput_event_touch_get_y_transformed(t, 1)
            lastTime = Int64(bitPattern: libinput_event_touch_get_time_usec(t))
            sink.takeTouchMotion(time: lastTime, device: n, seatSlot: slot, x: x, y: y)
        } else if _fastPath(type == LIBINPUT_EVENT_TOUCH_FRAME) {
            readTouchFrame(device: n, into: &sink)
        } else if type == LIBINPUT_EVENT_TOUCH_DOWN {
            readTouchDownOrMotion(touchEvent(of: event), isDown: true, device: n, into: &sink)
        } else if type == LIBINPUT_EVENT_TOUCH_UP {
            readTouchUp(touchEvent(of: event), device: n, into: &sink)
        } else {
            readOutOfLine(event, type: type, device: device, userData: userData, into: &sink)
        }
    }

    /// ``read(_:type:device:userData:into:)`` in a function of its own: a touch device's
    /// events other than down, motion, up and frame (its addition and removal, a cancel).
    @inline(never)
    private func readOutOfLine<Sink: DeviceEventSink>(_ event: OpaquePointer, type: libinput_event_type, device: OpaquePointer?,
                                                      userData: Int, into sink: inout Sink) {
        read(event, type: type, device: device, userData: userData, into: &sink)
    }

    /// A touch down or motion: the getters wlroots' `handle_touch_down` and
    /// `handle_touch_motion` call, in one case (the kind passed as a flag). `t` is the event
    /// as its touch event (``read(_:type:device:userData:into:)`` asks libinput for it, a
    /// touch device's path takes the event itself, `touchEvent(of:)`).
    @inline(__always)
    private func readTouchDownOrMotion<Sink: DeviceEventSink>(_ t: OpaquePointer?, isDown: Bool, device n: UInt32,
                                                              into sink: inout Sink) {
        let slot = libinput_event_touch_get_seat_slot(t)
        let x = libinput_event_touch_get_x_transformed(t, 1)
        let y = libinput_event_touch_get_y_transformed(t, 1)
        lastTime = Int64(bitPattern: libinput_event_touch_get_time_usec(t))
        sink.takeTouch(isDown: isDown, time: lastTime, device: n, seatSlot: slot, x: x, y: y)
    }

    @inline(__always)
    private func readTouchUp<Sink: DeviceEventSink>(_ t: OpaquePointer?, device n: UInt32, into sink: inout Sink) {
        lastTime = Int64(bitPattern: libinput_event_touch_get_time_usec(t))
        sink.takeTouchUp(time: lastTime, device: n, seatSlot: libinput_event_touch_get_seat_slot(t))
    }

    /// Not asked of libinput: a frame closes the touch events libinput has just queued for the
    /// same device report, and carries their time (evdev-fallback's flush gives both the
    /// report's time). Asking cost two calls per frame that cage does not make.
    @inline(__always)
    private func readTouchFrame<Sink: DeviceEventSink>(device n: UInt32, into sink: inout Sink) {
        sink.takeTouchFrame(time: lastTime, device: n)
    }

    /// The tool, its position and every axis of a tablet-tool event (kind and value are set
    /// by the caller). Axes the tool does not have are left 0.
    private func readTool(_ t: OpaquePointer?) -> TabletDetail {
        let tool = libinput_event_tablet_tool_get_tool(t)
        let kinds: [libinput_tablet_tool_type: PenToolKind] = [
            LIBINPUT_TABLET_TOOL_TYPE_PEN: .pen, LIBINPUT_TABLET_TOOL_TYPE_ERASER: .eraser, LIBINPUT_TABLET_TOOL_TYPE_BRUSH: .brush,
            LIBINPUT_TABLET_TOOL_TYPE_PENCIL: .pencil, LIBINPUT_TABLET_TOOL_TYPE_AIRBRUSH: .airbrush,
            LIBINPUT_TABLET_TOOL_TYPE_MOUSE: .mouse, LIBINPUT_TABLET_TOOL_TYPE_LENS: .lens, LIBINPUT_TABLET_TOOL_TYPE_TOTEM: .totem,
        ]
        var caps: PenAxisSet = [.position]
        if libinput_tablet_tool_has_pressure(tool) != 0 { caps.insert(.pressure) }
        if libinput_tablet_tool_has_distance(tool) != 0 { caps.insert(.distance) }
        if libinput_tablet_tool_has_tilt(tool) != 0 { caps.insert(.tilt) }
        if libinput_tablet_tool_has_rotation(tool) != 0 { caps.insert(.rotation) }
        if libinput_tablet_tool_has_slider(tool) != 0 { caps.insert(.slider) }
        if libinput_tablet_tool_has_wheel(tool) != 0 { caps.insert(.wheel) }
        let penTool = PenTool(kind: kinds[libinput_tablet_tool_get_type(tool)] ?? .pen, serial: libinput_tablet_tool_get_serial(tool),
                              hardwareID: libinput_tablet_tool_get_tool_id(tool), capabilities: caps)
        var axes = PenAxes()
        var changed: PenAxisSet = []
        if libinput_event_tablet_tool_x_has_changed(t) != 0 || libinput_event_tablet_tool_y_has_changed(t) != 0 { changed.insert(.position) }
        if caps.contains(.pressure) {
            axes.pressure = libinput_event_tablet_tool_get_pressure(t)
            if libinput_event_tablet_tool_pressure_has_changed(t) != 0 { changed.insert(.pressure) }
        }
        if caps.contains(.distance) {
            axes.distance = libinput_event_tablet_tool_get_distance(t)
            if libinput_event_tablet_tool_distance_has_changed(t) != 0 { changed.insert(.distance) }
        }
        if caps.contains(.tilt) {
            axes.tiltX = libinput_event_tablet_tool_get_tilt_x(t)
            axes.tiltY = libinput_event_tablet_tool_get_tilt_y(t)
            if libinput_event_tablet_tool_tilt_x_has_changed(t) != 0 || libinput_event_tablet_tool_tilt_y_has_changed(t) != 0 { changed.insert(.tilt) }
        }
        if caps.contains(.rotation) {
            axes.rotation = libinput_event_tablet_tool_get_rotation(t)
            if libinput_event_tablet_tool_rotation_has_changed(t) != 0 { changed.insert(.rotation) }
        }
        if caps.contains(.slider) {
            axes.slider = libinput_event_tablet_tool_get_slider_position(t)
            if libinput_event_tablet_tool_slider_has_changed(t) != 0 { changed.insert(.slider) }
        }
        if caps.contains(.wheel), libinput_event_tablet_tool_wheel_has_changed(t) != 0 {
            axes.wheelDelta = libinput_event_tablet_tool_get_wheel_delta(t)
            axes.wheelDiscrete = Int32(libinput_event_tablet_tool_get_wheel_delta_discrete(t))
            changed.insert(.wheel)
        }
        return TabletDetail(kind: .toolAxis, x: libinput_event_tablet_tool_get_x_transformed(t, 1),
                            y: libinput_event_tablet_tool_get_y_transformed(t, 1), tool: penTool, axes: axes, changedAxes: changed)
    }

    /// A pad's buttons, rings, strips and mode groups.
    private func padLayout(_ device: OpaquePointer) -> PadLayout {
        let buttons = Int(max(0, libinput_device_tablet_pad_get_num_buttons(device)))
        let rings = Int(max(0, libinput_device_tablet_pad_get_num_rings(device)))
        let strips = Int(max(0, libinput_device_tablet_pad_get_num_strips(device)))
        var groups: [PadLayout.Group] = []
        for g in 0..<max(0, libinput_device_tablet_pad_get_num_mode_groups(device)) {
            guard let group = libinput_device_tablet_pad_get_mode_group(device, UInt32(g)) else { continue }
            groups.append(PadLayout.Group(
                modes: Int(libinput_tablet_pad_mode_group_get_num_modes(group)),
                buttons: (0..<buttons).filter { libinput_tablet_pad_mode_group_has_button(group, UInt32($0)) != 0 },
                rings: (0..<rings).filter { libinput_tablet_pad_mode_group_has_ring(group, UInt32($0)) != 0 },
                strips: (0..<strips).filter { libinput_tablet_pad_mode_group_has_strip(group, UInt32($0)) != 0 }))
        }
        return PadLayout(buttons: buttons, rings: rings, strips: strips, groups: groups)
    }

    private func describe(_ device: OpaquePointer) -> DeviceDescription {
        var caps: DeviceCapabilities = []
        let table: [(libinput_device_capability, DeviceCapabilities)] = [
            (LIBINPUT_DEVICE_CAP_KEYBOARD, .keyboard), (LIBINPUT_DEVICE_CAP_POINTER, .pointer),
            (LIBINPUT_DEVICE_CAP_TOUCH, .touch), (LIBINPUT_DEVICE_CAP_GESTURE, .gesture),
            (LIBINPUT_DEVICE_CAP_TABLET_TOOL, .tabletTool), (LIBINPUT_DEVICE_CAP_TABLET_PAD, .tabletPad),
            (LIBINPUT_DEVICE_CAP_SWITCH, .switch),
        ]
        for (c, cap) in table where libinput_device_has_capability(device, c) != 0 { caps.insert(cap) }
        var w = 0.0, h = 0.0
        let size: Size? = libinput_device_get_size(device, &w, &h) == 0 ? Size(width: w, height: h) : nil
        return DeviceDescription(name: String(cString: libinput_device_get_name(device)),
                                 systemName: String(cString: libinput_device_get_sysname(device)),
                                 capabilities: caps, size: size,
                                 outputName: libinput_device_get_output_name(device).map { String(cString: $0) },
                                 pad: caps.contains(.tabletPad) ? padLayout(device) : nil)
    }

    /// Applies `configuration` to device `number`; returns the settings the device refused
    /// or does not have.
    func apply(_ configuration: DeviceConfiguration, toDevice number: UInt32) -> [String] {
        guard let d = devices[number] else { return ["device \(number) is gone"] }
        defer { noteNaturalScroll(d) }
        var refused: [String] = []
        func check(_ name: String, _ status: libinput_config_status) {
            if status != LIBINPUT_CONFIG_STATUS_SUCCESS { refused.append(name) }
        }
        if let v = configuration.tapToClick {
            if libinput_device_config_tap_get_finger_count(d) > 0 {
                check("tap", libinput_device_config_tap_set_enabled(d, v ? LIBINPUT_CONFIG_TAP_ENABLED : LIBINPUT_CONFIG_TAP_DISABLED))
            } else { refused.append("tap") }
        }
        if let v = configuration.naturalScrolling {
            if libinput_device_config_scroll_has_natural_scroll(d) != 0 {
                check("natural", libinput_device_config_scroll_set_natural_scroll_enabled(d, v ? 1 : 0))
            } else { refused.append("natural") }
        }
        if let v = configuration.leftHanded {
            if libinput_device_config_left_handed_is_available(d) != 0 {
                check("left-handed", libinput_device_config_left_handed_set(d, v ? 1 : 0))
            } else { refused.append("left-handed") }
        }
        if libinput_device_config_accel_is_available(d) != 0 {
            if let p = configuration.accelerationProfile {
                check("accel-profile", libinput_device_config_accel_set_profile(d, p == .flat ? LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT : LIBINPUT_CONFIG_ACCEL_PROFILE_ADAPTIVE))
            }
            if let s = configuration.accelerationSpeed { check("accel-speed", libinput_device_config_accel_set_speed(d, s)) }
        } else {
            if configuration.accelerationProfile != nil { refused.append("accel-profile") }
            if configuration.accelerationSpeed != nil { refused.append("accel-speed") }
        }
        if let m = configuration.scrollMethod {
            let method: libinput_config_scroll_method
            switch m {
            case .none: method = LIBINPUT_CONFIG_SCROLL_NO_SCROLL
            case .twoFinger: method = LIBINPUT_CONFIG_SCROLL_2FG
            case .edge: method = LIBINPUT_CONFIG_SCROLL_EDGE
            case .onButtonDown: method = LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN
            }
            check("scroll", libinput_device_config_scroll_set_method(d, method))
        }
        if let v = configuration.disableWhileTyping {
            if libinput_device_config_dwt_is_available(d) != 0 {
                check("dwt", libinput_device_config_dwt_set_enabled(d, v ? LIBINPUT_CONFIG_DWT_ENABLED : LIBINPUT_CONFIG_DWT_DISABLED))
            } else { refused.append("dwt") }
        }
        if let c = configuration.calibration {
            if libinput_device_config_calibration_has_matrix(d) != 0, c.count == 6 {
                check("calibration", c.withUnsafeBufferPointer { libinput_device_config_calibration_set_matrix(d, $0.baseAddress) })
            } else { refused.append("calibration") }
        }
        if let s = configuration.sendEvents {
            let mode: UInt32
            switch s {
            case .enabled: mode = LIBINPUT_CONFIG_SEND_EVENTS_ENABLED.rawValue
            case .disabled: mode = LIBINPUT_CONFIG_SEND_EVENTS_DISABLED.rawValue
            case .disabledOnExternalMouse: mode = LIBINPUT_CONFIG_SEND_EVENTS_DISABLED_ON_EXTERNAL_MOUSE.rawValue
            }
            check("send-events", libinput_device_config_send_events_set_mode(d, mode))
        }
        return refused
    }

    /// The current settings of device `number`, as libinput reports them.
    func currentConfiguration(ofDevice number: UInt32) -> DeviceConfiguration? {
        guard let d = devices[number] else { return nil }
        var c = DeviceConfiguration()
        if libinput_device_config_tap_get_finger_count(d) > 0 { c.tapToClick = libinput_device_config_tap_get_enabled(d) == LIBINPUT_CONFIG_TAP_ENABLED }
        if libinput_device_config_scroll_has_natural_scroll(d) != 0 { c.naturalScrolling = libinput_device_config_scroll_get_natural_scroll_enabled(d) != 0 }
        if libinput_device_config_left_handed_is_available(d) != 0 { c.leftHanded = libinput_device_config_left_handed_get(d) != 0 }
        if libinput_device_config_accel_is_available(d) != 0 {
            c.accelerationSpeed = libinput_device_config_accel_get_speed(d)
            c.accelerationProfile = libinput_device_config_accel_get_profile(d) == LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT ? .flat : .adaptive
        }
        if libinput_device_config_dwt_is_available(d) != 0 { c.disableWhileTyping = libinput_device_config_dwt_get_enabled(d) == LIBINPUT_CONFIG_DWT_ENABLED }
        if libinput_device_config_calibration_has_matrix(d) != 0 {
            var m = [Float](repeating: 0, count: 6)
            _ = m.withUnsafeMutableBufferPointer { libinput_device_config_calibration_get_matrix(d, $0.baseAddress) }
            c.calibration = m
        }
        switch libinput_device_config_scroll_get_method(d) {
        case LIBINPUT_CONFIG_SCROLL_2FG: c.scrollMethod = .twoFinger
        case LIBINPUT_CONFIG_SCROLL_EDGE: c.scrollMethod = .edge
        case LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN: c.scrollMethod = .onButtonDown
        default: c.scrollMethod = DeviceConfiguration.ScrollMethod.none
        }
        let mode = libinput_device_config_send_events_get_mode(d)
        c.sendEvents = mode == LIBINPUT_CONFIG_SEND_EVENTS_ENABLED.rawValue ? .enabled
            : mode == LIBINPUT_CONFIG_SEND_EVENTS_DISABLED.rawValue ? .disabled : .disabledOnExternalMouse
        return c
    }
}

/// Drops what it is handed (a replay worker's context emptied between replays).
private struct DiscardEvents: DeviceEventSink {
    mutating func take(_ event: DeviceEvent) {}
    mutating func take(time: Int64, device: UInt32, _ event: DeviceEvent.Frequent) {}
}

/// Waits until `fd` is readable or `timeoutMilliseconds` passes (-1: forever); true when readable.
func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, timeoutMilliseconds) > 0
}

/// An environment failure in libinput or udev.
public struct LibinputError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
