import CSeatKitSupport
import SeatKit

// seatkit_output_*: displays in the layout, each the root of a surface tree.

private func validMode(_ width: Int32, _ height: Int32, _ function: StaticString) -> Bool {
    if width >= 0 && height >= 0 { return true }
    misuse(function, "mode \(width)x\(height) has a negative size; refused")
    return false
}

/// The output scales accepted: 1/16 to 16. Outside them a layout is absurd (a scale of
/// 1e-300 makes the output's logical size infinite and puts the pointer at inf).
let outputScaleRange: ClosedRange<Double> = 0.0625...16

private func validScale(_ scale: Double, _ function: StaticString) -> Bool {
    if outputScaleRange.contains(scale) { return true }
    misuse(function, "scale \(scale) is outside \(outputScaleRange.lowerBound)...\(outputScaleRange.upperBound); refused")
    return false
}

@_cdecl("seatkit_output_create")
public func seatkit_output_create(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ x: Double, _ y: Double,
                                  _ width: Int32, _ height: Int32, _ transform: seatkit_output_transform,
                                  _ scale: Double) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard x.isFinite, y.isFinite else {
        misuse(#function, "position (\(x), \(y)) is not finite; refused")
        return nil
    }
    guard validMode(width, height, #function), validScale(scale, #function) else { return nil }
    guard let t = CValues.transform(transform) else {
        misuse(#function, "transform \(transform.rawValue) is not 0...7; refused")
        return nil
    }
    let outputName = string(name, or: "output")
    let responder = CResponder(owner: r)
    let output = Output(name: outputName, position: LayoutPoint(x: x, y: y),
                        modeSize: Size(width: Double(width), height: Double(height)),
                        transform: t, scale: scale)
    // The output and its root keep SeatKit's PassThroughResponder until a table is set
    // (CSurface.installResponder).
    let rootResponder = CResponder(owner: r)
    let root = CSurface(owner: r, surface: output.root, responder: rootResponder, isRoot: true)
    guard let rootHandle = Handles.insert(root, kind: .surface) else {
        misuse(#function, "too many live handles")
        return nil
    }
    rootResponder.setSurfaceHandle(rootHandle)
    let c = COutput(owner: r, output: output, root: root, responder: responder)
    guard let handle = Handles.insert(c, kind: .output) else {
        Handles.remove(rootHandle)
        misuse(#function, "too many live handles")
        return nil
    }
    responder.unchecked.outputHandle = handle
    r.unchecked.surfaces[ObjectIdentifier(output.root)] = root
    r.outputs.append(c)
    APICall.run { r.router.addOutput(output) }
    return handle
}

@_cdecl("seatkit_output_destroy")
public func seatkit_output_destroy(_ handle: OpaquePointer?) {
    guard let o = live(handle, .output, as: COutput.self, #function) else { return }
    APICall.run { o.destroy() }
}

@_cdecl("seatkit_output_get_destroy_signal")
public func seatkit_output_get_destroy_signal(_ handle: OpaquePointer?) -> UnsafeMutablePointer<wl_signal>? {
    live(handle, .output, as: COutput.self, #function)?.destroySignal
}

@_cdecl("seatkit_output_get_root")
public func seatkit_output_get_root(_ handle: OpaquePointer?) -> OpaquePointer? {
    live(handle, .output, as: COutput.self, #function)?.root.handle
}

@_cdecl("seatkit_output_set_position")
public func seatkit_output_set_position(_ handle: OpaquePointer?, _ x: Double, _ y: Double) {
    guard let o = live(handle, .output, as: COutput.self, #function) else { return }
    guard x.isFinite, y.isFinite else {
        misuse(#function, "position (\(x), \(y)) is not finite; refused")
        return
    }
    APICall.run { o.output.position = LayoutPoint(x: x, y: y) }
}

@_cdecl("seatkit_output_set_mode")
public func seatkit_output_set_mode(_ handle: OpaquePointer?, _ width: Int32, _ height: Int32) {
    guard let o = live(handle, .output, as: COutput.self, #function), validMode(width, height, #function) else { return }
    APICall.run { o.output.modeSize = Size(width: Double(width), height: Double(height)) }
}

@_cdecl("seatkit_output_set_transform")
public func seatkit_output_set_transform(_ handle: OpaquePointer?, _ transform: seatkit_output_transform) {
    guard let o = live(handle, .output, as: COutput.self, #function) else { return }
    guard let t = CValues.transform(transform) else {
        misuse(#function, "transform \(transform.rawValue) is not 0...7; refused")
        return
    }
    APICall.run { o.output.transform = t }
}

@_cdecl("seatkit_output_set_scale")
public func seatkit_output_set_scale(_ handle: OpaquePointer?, _ scale: Double) {
    guard let o = live(handle, .output, as: COutput.self, #function), validScale(scale, #function) else { return }
    APICall.run { o.output.scale = scale }
}

@_cdecl("seatkit_output_get_layout_box")
public func seatkit_output_get_layout_box(_ handle: OpaquePointer?, _ x: UnsafeMutablePointer<Double>?,
                                          _ y: UnsafeMutablePointer<Double>?, _ width: UnsafeMutablePointer<Double>?,
                                          _ height: UnsafeMutablePointer<Double>?) -> Bool {
    guard let o = live(handle, .output, as: COutput.self, #function) else { return false }
    let f = o.output.layoutFrame
    x?.pointee = f.origin.x
    y?.pointee = f.origin.y
    width?.pointee = f.size.width
    height?.pointee = f.size.height
    return true
}

@_cdecl("seatkit_output_layout_point_from_normalized")
public func seatkit_output_layout_point_from_normalized(_ handle: OpaquePointer?, _ u: Double, _ v: Double,
                                                        _ x: UnsafeMutablePointer<Double>?,
                                                        _ y: UnsafeMutablePointer<Double>?) -> Bool {
    guard let o = live(handle, .output, as: COutput.self, #function) else { return false }
    guard u.isFinite, v.isFinite else {
        misuse(#function, "(\(u), \(v)) is not finite")
        return false
    }
    let p = o.output.layoutPoint(fromNormalized: u, v)
    x?.pointee = p.x
    y?.pointee = p.y
    return true
}

@_cdecl("seatkit_output_set_responder")
public func seatkit_output_set_responder(_ handle: OpaquePointer?, _ impl: UnsafePointer<seatkit_responder_interface>?,
                                         _ data: UnsafeMutableRawPointer?) {
    guard let o = live(handle, .output, as: COutput.self, #function) else { return }
    _ = o.responder.setTable(impl, data: data, #function)
    o.installResponder()
}

@_cdecl("seatkit_router_get_output")
public func seatkit_router_get_output(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard let name else {
        misuse(#function, "NULL name")
        return nil
    }
    let wanted = String(cString: name)
    return r.outputs.first { $0.output.name == wanted }?.handle
}

// Devices to outputs: the router's mapping (Router+DeviceMapping.swift), the one place a
// device's absolute points are placed, for the C entry points as for the Swift ones.

@_cdecl("seatkit_router_map_device")
public func seatkit_router_map_device(_ router: OpaquePointer?, _ deviceName: UnsafePointer<CChar>?,
                                      _ outputName: UnsafePointer<CChar>?,
                                      _ calibration: UnsafePointer<Double>?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    var matrix: CalibrationMatrix?
    if let calibration {
        guard let m = CalibrationMatrix((0..<6).map { calibration[$0] }) else {
            misuse(#function, "calibration \((0..<6).map { calibration[$0] }) is not six finite numbers; refused")
            return false
        }
        matrix = m
    }
    let name = deviceName.map { String(cString: $0) }
    let mapping = outputName == nil && matrix == nil ? nil
        : DeviceMapping(output: outputName.map { String(cString: $0) }, calibration: matrix)
    APICall.run { r.router.setDeviceMapping(mapping, forDevicesNamed: name) }
    return true
}

@_cdecl("seatkit_router_map_device_area")
public func seatkit_router_map_device_area(_ router: OpaquePointer?, _ deviceName: UnsafePointer<CChar>?,
                                           _ outputName: UnsafePointer<CChar>?, _ region: UnsafePointer<Double>?,
                                           _ rotationDegrees: Int32, _ calibration: UnsafePointer<Double>?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    var matrix: CalibrationMatrix?
    if let calibration {
        guard let m = CalibrationMatrix((0..<6).map { calibration[$0] }) else {
            misuse(#function, "calibration \((0..<6).map { calibration[$0] }) is not six finite numbers; refused")
            return false
        }
        matrix = m
    }
    var area: LayoutRect?
    if let region {
        let v = (0..<4).map { region[$0] }
        guard v.allSatisfy(\.isFinite), v[2] > 0, v[3] > 0 else {
            misuse(#function, "region \(v) is not four finite numbers with a positive size; refused")
            return false
        }
        area = LayoutRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
    guard let rotation = DeviceRotation(degrees: Int(rotationDegrees)) else {
        misuse(#function, "rotation \(rotationDegrees)° is not 0, 90, 180 or 270; refused")
        return false
    }
    let name = deviceName.map { String(cString: $0) }
    let mapping = outputName == nil && matrix == nil && area == nil && rotation == .none ? nil
        : DeviceMapping(output: outputName.map { String(cString: $0) }, calibration: matrix, region: area, rotation: rotation)
    APICall.run { r.router.setDeviceMapping(mapping, forDevicesNamed: name) }
    return true
}

@_cdecl("seatkit_router_device_point_from_normalized")
public func seatkit_router_device_point_from_normalized(_ router: OpaquePointer?, _ device: UInt32, _ u: Double, _ v: Double,
                                                        _ x: UnsafeMutablePointer<Double>?,
                                                        _ y: UnsafeMutablePointer<Double>?) -> Bool {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return false }
    guard u.isFinite, v.isFinite else {
        misuse(#function, "(\(u), \(v)) is not finite")
        return false
    }
    let p = r.router.layoutPoint(fromNormalized: u, v, device: DeviceID(device))
    x?.pointee = p.x
    y?.pointee = p.y
    return true
}

@_cdecl("seatkit_router_get_device_output")
public func seatkit_router_get_device_output(_ router: OpaquePointer?, _ device: UInt32) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard let output = r.router.output(for: DeviceID(device)) else { return nil }
    return r.outputs.first { $0.output === output }?.handle
}
