import CWaylandServer
import SeatKit

// zwlr_virtual_pointer_manager_v1 (2): a client (remote control, wlrctl, an on-screen
// touchpad) drives the seat's pointer.
//
// Each virtual pointer is an input device of the router's: it is announced with
// `deviceAdded` (pointer capability) when created and removed when destroyed, and its
// motions, buttons and scrolls are `InputEvent`s injected with the seat router's `inject`, the path
// a libinput backend takes. Filters, spies, grabs, recognizers, pointer constraints and the
// responder chain all apply, as for a real mouse; the pointer it moves is the seat's one
// pointer. Times are the router's clock, not the client's timestamps (the router never reads
// a clock a client chose).
//
// Nothing is injected before the client's frame request: the motions, buttons and scrolls
// of a frame are kept and injected at its end, in order, the axis requests between two
// other events (axis, axis_source, axis_discrete, axis_stop) gathered into one scroll
// (`AxisMotion`). A frame the client never ends is never injected (wlcs checks this);
// at most 64 events are kept (a client that never sends frame keeps only its latest). Absolute
// motion maps `x / x_extent` and `y / y_extent` onto the output given at creation
// (create_virtual_pointer_with_output), else onto the layout's bounding box. Bad values
// (an axis or axis source out of range, a zero extent) are protocol errors of the client's,
// never a crash.

extension SeatExtensions {
    /// zwlr_virtual_pointer_manager_v1 (2): a client moves the seat's pointer, clicks and
    /// scrolls, through the router like a real device. Not in ``all``: any client that binds
    /// it can click into any other, so a compositor offers it knowingly.
    public static let virtualPointer = SeatExtensions(rawValue: 1 << 16)
}

final class VirtualPointer: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let device: DeviceID
    /// The output absolute motion maps onto (by name); nil: the whole layout.
    let outputName: String?
    var resource: OpaquePointer?
    /// The scroll gathered from the latest axis requests.
    private var axis: AxisMotion?
    /// The frame's events so far, injected at the frame request.
    private var pending: [InputEvent.Kind] = []
    private var announced = false

    init(seat: Seat, device: DeviceID, outputName: String?) {
        self.seatHandle = seat.handle
        self.device = device
        self.outputName = outputName
    }

    /// Keeps `kind` for the frame's end.
    private func add(_ kind: InputEvent.Kind) {
        if pending.count >= 64 { pending.removeFirst() }
        pending.append(kind)
    }

    private func inject(_ kind: InputEvent.Kind) {
        guard let seat else { return }
        seat.router.inject(InputEvent(time: seat.router.clock.now, device: device, kind))
    }

    func announce() {
        announced = true
        inject(.deviceAdded(DeviceInfo(name: "virtual pointer", capabilities: [.pointer], mappedOutput: outputName)))
    }

    func motion(dx: Double, dy: Double) {
        flushAxis()
        let delta = Vector(dx: dx, dy: dy)
        add(.pointerMotion(delta: delta, unaccelerated: delta))
    }

    func motionAbsolute(x: UInt32, y: UInt32, xExtent: UInt32, yExtent: UInt32) {
        guard let seat else { return }
        // A zero extent divides by nothing: ignored, as wlroots does.
        guard xExtent > 0, yExtent > 0 else { return }
        flushAxis()
        let layout = seat.router.layout
        let area = outputName.flatMap { layout.output(named: $0)?.layoutFrame } ?? layout.bounds
        let fx = min(Double(x), Double(xExtent)) / Double(xExtent), fy = min(Double(y), Double(yExtent)) / Double(yExtent)
        add(.pointerMotionAbsolute(LayoutPoint(x: area.minX + fx * area.size.width, y: area.minY + fy * area.size.height)))
    }

    func button(_ button: UInt32, pressed: Bool) {
        flushAxis()
        add(.pointerButton(button: button, state: pressed ? .pressed : .released))
    }

    /// Validates a wl_pointer.axis value; posts invalid_axis otherwise.
    private func checkAxis(_ axis: UInt32) -> Bool {
        guard axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue else {
            if let resource { Libwayland.postError(resource, code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "unknown axis \(axis)") }
            return false
        }
        return true
    }

    private var pendingAxis: AxisMotion {
        get { axis ?? AxisMotion(source: .wheel) }
        set { axis = newValue }
    }

    func axis(_ which: UInt32, value: Double, discrete: Int32? = nil) {
        guard checkAxis(which) else { return }
        var a = pendingAxis
        if which == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue {
            a.vertical += value
            if let discrete { a.verticalV120 += Double(discrete) * 120 }
        } else {
            a.horizontal += value
            if let discrete { a.horizontalV120 += Double(discrete) * 120 }
        }
        pendingAxis = a
    }

    func axisSource(_ source: UInt32) {
        let sources: [AxisSource] = [.wheel, .finger, .continuous, .wheelTilt]
        guard Int(source) < sources.count else {
            if let resource {
                Libwayland.postError(resource, code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE.rawValue, "unknown axis source \(source)")
            }
            return
        }
        pendingAxis.source = sources[Int(source)]
    }

    func axisStop(_ which: UInt32) {
        guard checkAxis(which) else { return }
        if which == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { pendingAxis.verticalStop = true } else { pendingAxis.horizontalStop = true }
    }

    /// frame: the frame's events go through the router.
    func frame() {
        flushAxis()
        let events = pending
        pending.removeAll()
        for kind in events { inject(kind) }
    }

    private func flushAxis() {
        guard let a = axis else { return }
        axis = nil
        add(.pointerAxis(a))
    }

    package func resourceDestroyed() {
        resource = nil
        // A frame never ended is dropped.
        axis = nil
        pending.removeAll()
        // The device goes: buttons it still holds are the router's to release.
        if announced { inject(.deviceRemoved) }
        announced = false
    }
}

extension Seat {
    /// A device number for a virtual pointer, out of the range backends number theirs in.
    func nextVirtualPointerDevice() -> DeviceID {
        virtualPointerCount &+= 1
        return DeviceID(0xF000_0000 | (virtualPointerCount & 0x0FFF_FFFF))
    }
}

private func createVirtualPointer(_ client: OpaquePointer?, _ manager: OpaquePointer?, id: UInt32, output: OpaquePointer?) {
    guard let client, let manager, let binding = Libwayland.object(manager, as: ExtensionBinding.self),
          let seat = binding.seat else { return }
    // The output the client named, found by its wl_output among the outputs the surface
    // roles provider advertises.
    var outputName: String?
    if let output, let roles = seat.surfaceRoles {
        outputName = seat.router.layout.outputs.first { roles.outputResources(for: $0, client: client).contains(output) }?.name
    }
    let pointer = VirtualPointer(seat: seat, device: seat.nextVirtualPointerDevice(), outputName: outputName)
    pointer.resource = Libwayland.createResource(client, zwlr_virtual_pointer_v1_wire()!, version: Libwayland.version(of: manager),
                                                 id: id, implementation: virtualPointerRequests, object: pointer)
    if pointer.resource != nil { pointer.announce() }
}

nonisolated(unsafe) let virtualPointerManagerRequests = Libwayland.table(zwlr_virtual_pointer_manager_v1_requests(
    create_virtual_pointer: { client, resource, _, id in createVirtualPointer(client, resource, id: id, output: nil) },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    create_virtual_pointer_with_output: { client, resource, _, output, id in createVirtualPointer(client, resource, id: id, output: output) }
))

private func pointer(_ resource: OpaquePointer?) -> VirtualPointer? { Libwayland.object(resource, as: VirtualPointer.self) }

private nonisolated(unsafe) let virtualPointerRequests = Libwayland.table(zwlr_virtual_pointer_v1_requests(
    motion: { _, resource, _, dx, dy in pointer(resource)?.motion(dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy)) },
    motion_absolute: { _, resource, _, x, y, xExtent, yExtent in
        pointer(resource)?.motionAbsolute(x: x, y: y, xExtent: xExtent, yExtent: yExtent)
    },
    button: { _, resource, _, button, state in
        pointer(resource)?.button(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
    },
    axis: { _, resource, _, axis, value in pointer(resource)?.axis(axis, value: wl_fixed_to_double(value)) },
    frame: { _, resource in pointer(resource)?.frame() },
    axis_source: { _, resource, source in pointer(resource)?.axisSource(source) },
    axis_stop: { _, resource, _, axis in pointer(resource)?.axisStop(axis) },
    axis_discrete: { _, resource, _, axis, value, discrete in
        pointer(resource)?.axis(axis, value: wl_fixed_to_double(value), discrete: discrete)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
